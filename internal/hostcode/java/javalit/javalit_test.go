package javalit

import (
	"testing"

	"github.com/guard-sql/guard/internal/hostcode"
)

// text is s at line 1, one column per byte from col.
func text(s string, col int) hostcode.Text {
	var out hostcode.Text
	for i := 0; i < len(s); i++ {
		out = append(out, hostcode.Char{B: s[i], Line: 1, Col: col + i})
	}
	return out
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\tb\n`, "a\tb\n"},
		{`\u0041\uu0042`, "AB"},
		{`\101\7`, "A\a"},
		{`\q`, `\q`},          // unknown: kept as written
		{`\u00`, `\u00`},      // too short: kept
		{`caf\u00e9`, "café"}, // two bytes at the backslash
		{`it\'s \"x\"`, `it's "x"`},
	} {
		if got := Unescape(text(tc.in, 1)).String(); got != tc.want {
			t.Errorf("Unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// An escape's byte stands at its backslash.
	got := Unescape(text(`x\ty`, 10))
	if len(got) != 3 || got[1].Col != 11 || got[2].Col != 13 {
		t.Errorf("positions %+v", got)
	}
}

func TestStripIndent(t *testing.T) {
	got := StripIndent([]byte("    SELECT *\n      FROM t  \n\n    "), 5)
	if s := got.String(); s != "SELECT *\n  FROM t\n\n" {
		t.Fatalf("StripIndent = %q", s)
	}
	if got[0].Line != 5 || got[0].Col != 5 || got[9].Line != 6 || got[9].Col != 5 {
		t.Errorf("positions: first %+v, second line %+v", got[0], got[9])
	}
}
