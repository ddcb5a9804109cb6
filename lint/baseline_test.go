package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/lint"
)

func TestFingerprint(t *testing.T) {
	stmt := lint.Finding{Code: "GQ002", File: "a.go", Line: 3, Table: "t_inventory", ColumnName: "inventory",
		SQL: "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?"}
	moved := stmt
	moved.Line, moved.File = 90, "b.go"
	moved.SQL = "update t_inventory\n   set inventory = inventory - 1 /* one */ where id = 7"
	if lint.Fingerprint(stmt) != lint.Fingerprint(moved) {
		t.Error("the same statement elsewhere, laid out and bound differently, has another fingerprint")
	}
	guarded := stmt
	guarded.SQL += " AND inventory >= ?"
	otherColumn := stmt
	otherColumn.ColumnName = "reserved"
	schemaFinding := lint.Finding{Code: "GS003", Table: "t_inventory", ColumnName: "inventory", Line: 2, Message: "counter t_inventory.inventory has no CHECK"}
	schemaMoved := schemaFinding
	schemaMoved.Line, schemaMoved.Message = 40, "other words"
	live := lint.Finding{Code: "GS001", Target: "db1:3306/shop", Message: "sql_mode of db1:3306/shop lacks STRICT_TRANS_TABLES (seen 3 times)"}
	otherShard := live
	otherShard.Target, otherShard.Message = "db7:3307/shop", "sql_mode of db7:3307/shop lacks STRICT_TRANS_TABLES (seen 12 times)"
	if lint.Fingerprint(schemaFinding) != lint.Fingerprint(schemaMoved) {
		t.Error("a schema finding's fingerprint depends on its line or message")
	}
	if lint.Fingerprint(live) != lint.Fingerprint(otherShard) {
		t.Error("a live finding's fingerprint depends on its target")
	}
	for name, f := range map[string]lint.Finding{"changed statement": guarded, "other column": otherColumn, "schema": schemaFinding} {
		if lint.Fingerprint(f) == lint.Fingerprint(stmt) {
			t.Errorf("%s: same fingerprint as the original finding", name)
		}
	}
}

func TestBaselineFilter(t *testing.T) {
	dup := lint.Finding{Code: "GQ001", File: "q.sql", SQL: "DELETE FROM t", Message: "no WHERE"}
	other := lint.Finding{Code: "GQ003", File: "q.sql", Table: "t", ColumnName: "n", SQL: "UPDATE t SET n = ?", Message: "absolute"}
	b := lint.NewBaseline([]lint.Finding{dup, dup, other})
	if len(b.Entries) != 2 || b.Entries[0].Count != 2 {
		t.Fatalf("entries %+v; want the duplicate once with count 2", b.Entries)
	}
	// A third copy is new; the other finding is gone.
	kept, o := b.Filter([]lint.Finding{dup, dup, dup})
	if len(kept) != 1 || o.Hidden != 2 {
		t.Errorf("kept %d, hidden %d; want 1 and 2", len(kept), o.Hidden)
	}
	if len(o.Stale) != 1 || o.Stale[0].Code != "GQ003" || o.Stale[0].Count != 1 {
		t.Errorf("stale %+v; want the GQ003 entry", o.Stale)
	}
	// One copy left: the entry is stale by one.
	_, o = b.Filter([]lint.Finding{dup, other})
	if len(o.Stale) != 1 || o.Stale[0].Code != "GQ001" || o.Stale[0].Count != 1 {
		t.Errorf("stale %+v; want GQ001 missing once", o.Stale)
	}
}

// TestBaselinePerTarget: one baseline serves every shard of an audit; each
// target's findings are matched on their own.
func TestBaselinePerTarget(t *testing.T) {
	on := func(target string) lint.Finding {
		return lint.Finding{Code: "GS003", Target: target, Table: "t_stock", ColumnName: "qty", Message: "no CHECK on " + target}
	}
	b := lint.NewBaseline([]lint.Finding{on("a:3306/s"), on("b:3306/s")})
	if len(b.Entries) != 1 || b.Entries[0].Count != 1 || b.Entries[0].File != "" {
		t.Fatalf("entries %+v; want one target-free entry", b.Entries)
	}
	kept, o := b.Filter([]lint.Finding{on("a:3306/s"), on("b:3306/s"), on("c:3306/s"), on("c:3306/s")})
	if len(kept) != 1 || o.Hidden != 3 || len(o.Stale) != 0 {
		t.Errorf("kept %+v, outcome %+v; want c's second finding kept, three hidden", kept, o)
	}
}

// TestBaselineFilesRelativeToIt: the file names its findings relative to
// its own folder, and reads back in the form findings take.
func TestBaselineFilesRelativeToIt(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("ci", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	fs := []lint.Finding{{Code: "GQ001", File: "src/q.sql", Line: 4, SQL: "DELETE FROM t", Message: "no WHERE"}}
	path := filepath.Join("ci", "baseline.json")
	if err := lint.WriteBaseline(path, fs); err != nil {
		t.Fatal(err)
	}
	b, err := lint.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.Entries[0].File != "src/q.sql" {
		t.Errorf("read back file %q, want src/q.sql", b.Entries[0].File)
	}
	raw, _ := os.ReadFile(path)
	if want := `"file": "../src/q.sql"`; !strings.Contains(string(raw), want) {
		t.Errorf("baseline file lacks %s:\n%s", want, raw)
	}
	t.Chdir(filepath.Join(dir, "ci", "x"))
	b, err = lint.ReadBaseline("../baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff("../../src/q.sql", b.Entries[0].File); d != "" {
		t.Errorf("read from another folder (-want +got):\n%s", d)
	}
}
