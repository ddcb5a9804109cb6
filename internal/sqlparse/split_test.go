package sqlparse

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Piece
	}{
		{"two", "SELECT 1;\nSELECT 2;", []Piece{{"SELECT 1", 0}, {"SELECT 2", 10}}},
		{"no trailing delimiter", "  UPDATE t SET a=1  \n", []Piece{{"UPDATE t SET a=1", 2}}},
		{"semicolon in strings", `SELECT ';', ";", ` + "`a;b`" + `; SELECT 2`, []Piece{{`SELECT ';', ";", ` + "`a;b`", 0}, {"SELECT 2", 24}}},
		{"escaped quotes", `SELECT 'it''s;', 'a\';b'; SELECT 3`, []Piece{{`SELECT 'it''s;', 'a\';b'`, 0}, {"SELECT 3", 26}}},
		{"comments dropped before", "-- lead; comment\n# hash;\n/* block; */ SELECT 1; -- tail", []Piece{{"SELECT 1", 38}}},
		{"comment inside kept", "SELECT 1 -- x;y\n, 2;", []Piece{{"SELECT 1 -- x;y\n, 2", 0}}},
		{"double dash without space is minus", "SELECT 1--1;", []Piece{{"SELECT 1--1", 0}}},
		{"executable comment is SQL", "/*!40101 SET NAMES utf8 */;\nSELECT 1;", []Piece{{"/*!40101 SET NAMES utf8 */", 0}, {"SELECT 1", 28}}},
		{"only comments", "-- nothing\n/* here */\n", nil},
		{"empty statements", ";;; SELECT 1;;", []Piece{{"SELECT 1", 4}}},
		{"delimiter", "DELIMITER $$\nCREATE TRIGGER tr BEFORE UPDATE ON t FOR EACH ROW BEGIN SET NEW.a = 1; END$$\nDELIMITER ;\nSELECT 1;",
			[]Piece{{"CREATE TRIGGER tr BEFORE UPDATE ON t FOR EACH ROW BEGIN SET NEW.a = 1; END", 13}, {"SELECT 1", 102}}},
		{"client commands", "source /sql/a.sql;\n  SOURCE b.sql\n\\. c.sql\n\\c user_db\nSELECT 1;\nSELECT 'source x';",
			[]Piece{{"SELECT 1", 54}, {"SELECT 'source x'", 64}}},
		{"a statement naming source", "UPDATE t SET source = 1;", []Piece{{"UPDATE t SET source = 1", 0}}},
		{"unterminated string", "SELECT 'abc; SELECT 2", []Piece{{"SELECT 'abc; SELECT 2", 0}}},
		{"unterminated comment", "SELECT 1; /* open", []Piece{{"SELECT 1", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.in)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", tt.in, d)
			}
			for _, p := range got {
				if !strings.HasPrefix(tt.in[p.Offset:], p.Text) {
					t.Errorf("piece %q does not stand at offset %d", p.Text, p.Offset)
				}
			}
		})
	}
}

func TestParseError(t *testing.T) {
	p := NewParser()
	tests := []struct {
		sql        string
		line, col  int
		msgContain string
	}{
		{"UPDATE t SET a = WHERE id = 1", 1, 18, "near"},
		{"SELECT 1\nFROM t\nWHERE a = = 2", 3, 11, "near"},
		{"SELEC 1", 1, 1, "near"},
	}
	for _, tt := range tests {
		_, err := p.Parse(tt.sql)
		pe, ok := err.(*Error)
		if !ok {
			t.Fatalf("Parse(%q) error = %v, want *Error", tt.sql, err)
		}
		if pe.Line != tt.line || pe.Column != tt.col || !strings.Contains(pe.Msg, tt.msgContain) {
			t.Errorf("Parse(%q) = %d:%d %q, want %d:%d containing %q", tt.sql, pe.Line, pe.Column, pe.Msg, tt.line, tt.col, tt.msgContain)
		}
	}
	if _, err := p.Parse("SELECT 1; SELECT 2"); err == nil {
		t.Error("two statements parsed as one")
	}
	if n, err := p.Parse("UPDATE `shop`.`t` SET q = q - ? WHERE id = ? AND q >= ?"); err != nil || n == nil {
		t.Errorf("valid statement: %v", err)
	}
}

func TestComments(t *testing.T) {
	in := "-- guard:ignore GQ007 why\nSELECT '-- not', `#no` # yes\n/* block */ /*!40101 x */"
	got := slices.Collect(Comments(in))
	want := []Comment{{" guard:ignore GQ007 why", 0}, {" yes", 49}, {" block ", 55}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Comments (-want +got):\n%s", d)
	}
}

func TestLineCol(t *testing.T) {
	text := "ab\ncd\n\nef"
	for _, tt := range []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {7, 4, 1}, {9, 4, 3}} {
		l, c := LineCol(text, tt.off)
		if l != tt.line || c != tt.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
}

// TestLineCounter gives LineCol's answer for offsets in any order, past the
// end included.
func TestLineCounter(t *testing.T) {
	text := "ab\ncd\n\nef\n"
	c := NewLineCounter(text)
	for _, off := range []int{0, 1, 2, 3, 3, 5, 6, 7, 9, 4, 8, 11, 12, 20, 0} {
		l, col := c.At(off)
		wl, wc := LineCol(text, off)
		if l != wl || col != wc {
			t.Errorf("At(%d) = %d:%d, want %d:%d", off, l, col, wl, wc)
		}
	}
}

// FuzzSplit checks that Split never panics, returns pieces that stand at their
// offsets in order, and that parsing each piece never panics.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"SELECT 1; SELECT 2", "UPDATE t SET a='x;y' -- c\n WHERE id=1;", "DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; END//\nDELIMITER ;",
		"/*!40101 SET @x=1 */;", "'unterminated", "/* open", "`a``b`;\"c\\\"d\"", "SELECT 1 # x\n;",
	} {
		f.Add(s)
	}
	p := NewParser()
	f.Fuzz(func(t *testing.T, in string) {
		last := -1
		for _, piece := range Split(in) {
			if piece.Offset <= last || !strings.HasPrefix(in[piece.Offset:], piece.Text) || piece.Text == "" {
				t.Fatalf("bad piece %+v of %q", piece, in)
			}
			last = piece.Offset
			if len(piece.Text) < 4096 {
				_, _ = p.Parse(piece.Text)
			}
		}
		for range Comments(in) {
		}
	})
}
