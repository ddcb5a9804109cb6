package drill

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/codegen"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// TestDrillDAOUpToDate fails when the checked-in drilldao differs from what
// the templates generate now for the canonical drill table: lock-cas must
// run the very code guard gen writes. Regenerate with go generate
// ./internal/drill/drilldao.
func TestDrillDAOUpToDate(t *testing.T) {
	s, replay, err := schema.LoadDump(filepath.Join("testdata", "drill_table.up.sql"))
	if err != nil || len(replay) > 0 {
		t.Fatalf("load the drill table: %v %v", err, replay)
	}
	table := s.Table("guard_drill")
	if table == nil {
		t.Fatal("testdata/drill_table.up.sql does not create guard_drill")
	}
	data, err := codegen.NewData(table, codegen.Options{Package: "drilldao", Policy: policy.Default()})
	if err != nil {
		t.Fatal(err)
	}
	files, err := codegen.Render(data)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("drilldao")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("drilldao", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte(codegen.Header)) {
			continue // generate.go
		}
		have[e.Name()] = true
		want, ok := files[e.Name()]
		if !ok {
			t.Errorf("drilldao/%s is no longer generated: run go generate ./internal/drill/drilldao", e.Name())
			continue
		}
		if d := cmp.Diff(string(want), string(b)); d != "" {
			t.Errorf("drilldao/%s differs from the templates (-generated +checked in): run go generate ./internal/drill/drilldao\n%s", e.Name(), d)
		}
	}
	for name := range files {
		if !have[name] {
			t.Errorf("drilldao/%s is missing: run go generate ./internal/drill/drilldao", name)
		}
	}
}
