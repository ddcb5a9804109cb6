package sqlparse

import (
	"strings"
	"testing"
)

func TestNormalizePlaceholders(t *testing.T) {
	tests := []struct{ in, want string }{
		{"UPDATE t SET q = q - :n WHERE id = :id AND q >= :n", "UPDATE t SET q = q - ?  WHERE id = ?   AND q >= ? "},
		{"SELECT * FROM t WHERE a = ?1 AND b = ?12", "SELECT * FROM t WHERE a = ?  AND b = ?  "},
		{"SELECT ':x', `:y`, \":z\" -- :c\n, @v := 1, a::int", "SELECT ':x', `:y`, \":z\" -- :c\n, @v := 1, a::int"},
		{"INSERT INTO t (a) VALUES (:user.name)", "INSERT INTO t (a) VALUES (?         )"},
		{"SELECT 10:30", "SELECT 10:30"},
		// A list parameter after IN becomes (?) in the room around it.
		{"DELETE FROM t WHERE id IN ?", "DELETE FROM t WHERE id IN ?"}, // no room: see ExpandInLists
		{"DELETE FROM t WHERE id IN ? AND a = 1", "DELETE FROM t WHERE id IN(?)AND a = 1"},
		{"DELETE FROM t WHERE a = ? AND id NOT in  ?", "DELETE FROM t WHERE a = ? AND id NOT in(?)"},
		{"DELETE FROM t WHERE a = ? AND id NOT IN ?", "DELETE FROM t WHERE a = ? AND id NOT IN ?"},
		{"UPDATE t SET s = 2 WHERE id IN :ids AND s = 1", "UPDATE t SET s = 2 WHERE id IN(?)   AND s = 1"},
		{"SELECT * FROM t WHERE id IN ?1", "SELECT * FROM t WHERE id IN(?)"},
		{"SELECT * FROM t WHERE id IN (?)", "SELECT * FROM t WHERE id IN (?)"},
		{"SELECT * FROM t WHERE pin = ? AND t.in = ?", "SELECT * FROM t WHERE pin = ? AND t.in = ?"},
		{"SELECT * FROM t WHERE `in` ?", "SELECT * FROM t WHERE `in` ?"},
		{"SELECT 1 IN?", "SELECT 1 IN?"},
		// A line break stays where it is: no room then (see ExpandInLists).
		{"DELETE FROM t WHERE id IN\n   ? AND a = 1", "DELETE FROM t WHERE id IN\n   ? AND a = 1"},
		{"DELETE FROM t WHERE id IN ?\nAND a = 1", "DELETE FROM t WHERE id IN ?\nAND a = 1"},
	}
	p := NewParser()
	for _, tt := range tests {
		got := NormalizePlaceholders(tt.in)
		if got != tt.want {
			t.Errorf("NormalizePlaceholders(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
		if len(got) != len(tt.in) {
			t.Errorf("length changed: %d -> %d", len(tt.in), len(got))
		}
	}
	for _, sql := range []string{
		"UPDATE t SET q = q - :n WHERE id = :id AND q >= :n",
		"DELETE FROM t WHERE id IN ? AND a = 1",
		"UPDATE t SET s = 2 WHERE id IN :ids AND s = 1",
		"SELECT * FROM t WHERE id IN ?1 ORDER BY id",
	} {
		if _, err := p.Parse(NormalizePlaceholders(sql)); err != nil {
			t.Errorf("normalized %q does not parse: %v", sql, err)
		}
	}
}

func TestParamOrdinals(t *testing.T) {
	st, err := NewParser().Parse("UPDATE t SET a = ?, v = ? WHERE id = ? AND v = ? AND b IN (SELECT c FROM u WHERE d = ?)")
	if err != nil {
		t.Fatal(err)
	}
	ord := ParamOrdinals(st)
	u := st.(*UpdateStmt)
	got := []int{ord[u.List[0].Expr.(ParamMarkerExpr)], ord[u.List[1].Expr.(ParamMarkerExpr)]}
	if len(ord) != 5 || got[0] != 0 || got[1] != 1 {
		t.Errorf("ordinals of the SET list = %v of %d, want [0 1] of 5", got, len(ord))
	}
	seen := map[int]bool{}
	for _, n := range ord {
		seen[n] = true
	}
	for i := range 5 {
		if !seen[i] {
			t.Errorf("no placeholder numbered %d", i)
		}
	}
}

func TestPlaceholderNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"UPDATE t SET q = :q, v = v + 1 WHERE id = :id AND v = ?", []string{"q", "id", ""}},
		{"SELECT ':x', `:y` -- :c\n FROM t WHERE a = ?1 AND b = :user.name AND c::int = 1", []string{"", "user.name"}},
	}
	for _, tt := range tests {
		got := PlaceholderNames(tt.in)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") || len(got) != len(tt.want) {
			t.Errorf("PlaceholderNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestExpandInLists: a bare ? after IN becomes (?), wherever it stands, and
// the statement parses with the column in its IN list.
func TestExpandInLists(t *testing.T) {
	p := NewParser()
	for in, want := range map[string]string{
		"DELETE FROM t WHERE id IN ?":                     "DELETE FROM t WHERE id IN (?)",
		"DELETE FROM t WHERE a = ? AND (b NOT IN ?)":      "DELETE FROM t WHERE a = ? AND (b NOT IN (?))",
		"SELECT * FROM t WHERE id IN ? OR k in ? LIMIT 1": "SELECT * FROM t WHERE id IN (?) OR k in (?) LIMIT 1",
	} {
		got, ok := ExpandInLists(in)
		if !ok || got != want {
			t.Errorf("ExpandInLists(%q) = %q, %v; want %q", in, got, ok, want)
			continue
		}
		n, err := p.Parse(got)
		if err != nil {
			t.Errorf("%q does not parse: %v", got, err)
			continue
		}
		if r := Restore(n); !strings.Contains(r, " IN (") {
			t.Errorf("%q restores as %q, without its IN list", got, r)
		}
	}
	for _, in := range []string{"SELECT * FROM t WHERE id IN (?)", "SELECT * FROM t WHERE pin = ?", "SELECT '? IN ?'"} {
		if got, ok := ExpandInLists(in); ok || got != in {
			t.Errorf("ExpandInLists(%q) = %q, %v; want it unchanged", in, got, ok)
		}
	}
}
