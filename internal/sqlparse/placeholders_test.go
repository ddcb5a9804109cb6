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
	if _, err := p.Parse(NormalizePlaceholders("UPDATE t SET q = q - :n WHERE id = :id AND q >= :n")); err != nil {
		t.Errorf("normalized named statement does not parse: %v", err)
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
