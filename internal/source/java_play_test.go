package source

import (
	"fmt"
	"os"
	"testing"
)

func TestJavaPlay(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("JAVA_FILE"))
	if err != nil {
		t.Skip()
	}
	f := ExtractJava("A.java", src)
	for _, fr := range f.Fragments {
		fmt.Printf("%d-%d:%d id=%s unchecked=%q variant=%q dollar=%v\n    %q\n", fr.Line, fr.EndLine, fr.Col, fr.ID, fr.Unchecked, fr.Variant, fr.Dollar, fr.SQL)
	}
	fmt.Println(f.Suppressions)
}
