package lint

import (
	"strings"
	"testing"
)

// TestCompactKeepsFieldsJoin pins Compact to its definition, the words of
// the text joined by single spaces, on the texts its shortcut must refuse.
func TestCompactKeepsFieldsJoin(t *testing.T) {
	for _, in := range []string{
		"", " ", "a", "a b", " a b", "a b ", "a  b", "a\tb", "a\nb", "a\u00a0b",
		"a\u0085b", "a\u2003b", "SELECT 1", "UPDATE t SET a = 1\n  WHERE id = ?",
		"x\xffy", "\xff ", "é b", "a \r\n",
	} {
		want := strings.Join(strings.Fields(in), " ")
		if got := Compact(in); got != want {
			t.Errorf("Compact(%q) = %q, want %q", in, got, want)
		}
	}
}
