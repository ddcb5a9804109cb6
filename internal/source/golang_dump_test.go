package source

import (
	"encoding/json"
	"os"
	"testing"
)

func TestDumpGo(t *testing.T) {
	p := os.Getenv("DUMP")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Skip()
	}
	f := ExtractGo(p, src)
	b, _ := json.MarshalIndent(f, "", " ")
	t.Log(string(b))
}
