package sqlparse

import "testing"

func TestNormalize(t *testing.T) {
	same := [][2]string{
		{"UPDATE t SET a = a - ? WHERE id = ?", "update t\n  set a=a-1 -- take one\n where id = 7"},
		{"SELECT * FROM t WHERE id IN (?, ?)", "select * from t where id in (1,2,3)"},
		{"UPDATE t SET a = :qty WHERE id = :id", "UPDATE t SET a = ? WHERE id = ?"},
	}
	for _, c := range same {
		if a, b := Normalize(c[0]), Normalize(c[1]); a != b {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q: want equal", c[0], a, c[1], b)
		}
	}
	differ := [][2]string{
		{"UPDATE t SET a = a - ? WHERE id = ?", "UPDATE t SET a = a - ? WHERE id = ? AND a >= ?"},
		{"UPDATE t SET a = ? WHERE id = ?", "UPDATE u SET a = ? WHERE id = ?"},
	}
	for _, c := range differ {
		if Normalize(c[0]) == Normalize(c[1]) {
			t.Errorf("Normalize(%q) = Normalize(%q) = %q: want different", c[0], c[1], Normalize(c[0]))
		}
	}
}
