package vitess

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the VSchema reader arbitrary bytes: it returns a VSchema
// or an error naming the file, never panics, and what it returns yields a
// sharding.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"customer.json", "srv.json", "handwritten.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"sharded": true, "tables": {"t": {}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := Parse("f.json", data)
		if err != nil {
			if len(err.Error()) < len("f.json") || err.Error()[:len("f.json")] != "f.json" {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		sh := vs.Sharding()
		for _, st := range sh.Tables {
			if len(st.Primary.Columns) == 0 {
				t.Fatalf("%s: a primary vindex without columns", st.Name)
			}
		}
	})
}
