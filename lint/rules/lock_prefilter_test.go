package rules

import (
	"testing"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// lockSeeds are statements with and without a locking clause, spelled in
// the ways the parser accepts.
var lockSeeds = []string{
	"SELECT stock FROM t_product WHERE id = 1 FOR UPDATE",
	"select stock from t_product where id = 1 for share",
	"SELECT stock FROM t_product WHERE id = 1 LOCK IN SHARE MODE",
	"SELECT stock FROM t_product WHERE id = 1 /*!FOR*/ UPDATE",
	"SELECT stock FROM t_product WHERE id = 1 FOR\tUPDATE NOWAIT",
	"UPDATE t SET a = 1 WHERE id IN (SELECT id FROM u WHERE b = 2 FOR UPDATE)",
	"INSERT INTO t (a) SELECT a FROM u WHERE b = 1 FOR UPDATE",
	"SELECT platform, format, forty, blocks FROM t_lock WHERE `for` = 1",
	"UPDATE t_product SET stock = stock - 1 WHERE id = 1 AND stock >= 1",
	"SELECT 'for update' FROM t",
}

// TestMayLockNeverMissesAClause: whatever the text, a tree with a locking
// SELECT comes from a text mayLock says yes to; a text of common words that
// merely contain "for" or "lock" is a no.
func TestMayLockNeverMissesAClause(t *testing.T) {
	p := sqlparse.NewParser()
	for _, text := range lockSeeds {
		n, err := p.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		var walk lockingSelectFinder
		walk.found = nil
		n.Accept(&walk)
		if walk.found != nil && !mayLock(n.Text()) {
			t.Errorf("mayLock(%q) = false, but the statement locks", text)
		}
		if got := firstLockingSelect(n); (got != nil) != (walk.found != nil) {
			t.Errorf("%s: first found %v, the walk %v", text, got != nil, walk.found != nil)
		}
	}
	for text, want := range map[string]bool{
		"SELECT platform, format, forty FROM t_blocks": false,
		"SELECT a FROM t FOR UPDATE":                   true,
		"lock":                                         true,
		"SELECT a FROM t_for":                          false,
		"SELECT a FROM t WHERE x = 1 FOR":              true,
	} {
		if got := mayLock(text); got != want {
			t.Errorf("mayLock(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzMayLock checks the prefilter against the walk on arbitrary SQL.
func FuzzMayLock(f *testing.F) {
	for _, s := range lockSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := sqlparse.NewParser()
		for _, piece := range sqlparse.Split(text) {
			n, err := p.Parse(piece.Text)
			if err != nil {
				continue
			}
			var walk lockingSelectFinder
			n.Accept(&walk)
			if walk.found != nil && firstLockingSelect(n) == nil {
				t.Fatalf("the prefilter hides the locking clause of %q", piece.Text)
			}
		}
	})
}
