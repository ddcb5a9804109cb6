package source

import (
	"encoding/json"
	"os"
	"testing"
)

func TestJavaPlay(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("JAVA_FILE"))
	if err != nil {
		t.Skip()
	}
	f := ExtractJava("A.java", src)
	b, _ := json.MarshalIndent(f, "", "  ")
	t.Log(string(b))
}
