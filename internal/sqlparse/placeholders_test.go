package sqlparse

import "testing"

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
