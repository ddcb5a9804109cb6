package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// TestParseBatch checks that a fragment of valid statements is parsed in one
// call with every node at its piece, and that one bad statement falls back to
// statement-by-statement parsing with the error on that statement alone.
func TestParseBatch(t *testing.T) {
	p := sqlparse.NewParser()
	good := "-- lead\nSELECT 1;\n/* c */ UPDATE t SET a = a - 1 WHERE id = 2 AND a >= 1; # x\nDELETE FROM t WHERE id = 3"
	pieces := sqlparse.SplitScript(good)
	if nodes := parseBatch(p, good, pieces); len(nodes) != 3 {
		t.Fatalf("batch parse of valid statements gave %d nodes, want 3", len(nodes))
	}
	bad := "SELECT 1;\nUPDATE t SET a = WHERE id = 1;\nSELECT 3;"
	if nodes := parseBatch(p, bad, sqlparse.SplitScript(bad)); nodes != nil {
		t.Fatal("batch parse accepted a text with a bad statement")
	}
	f := sqlfile.ExtractSQL("q.sql", []byte(bad))
	stmts := parseFile(p, f, nil)
	if len(stmts) != 3 || stmts[0].Node == nil || stmts[1].ParseErr == nil || stmts[2].Node == nil {
		t.Fatalf("fallback: %+v", stmts)
	}
	if line, col := stmts[1].ErrPos(); line != 2 || col != 18 {
		t.Errorf("error at %d:%d, want 2:18", line, col)
	}
}

// TestParseMapperStatement checks that a mapper statement whose SQL does not
// parse stays one statement whatever semicolons it holds, that one whose
// statements all parse is cut into them, and that an included <sql> standing
// elsewhere in the file never puts a statement outside its element.
func TestParseMapperStatement(t *testing.T) {
	doc := `<mapper namespace="m">
  <update id="broken">
    UPDATE t SET a = #{a}; WHERE id = #{id}
  </update>
  <update id="batch">UPDATE t SET a = 1 WHERE id = 1; UPDATE t SET a = 2 WHERE id = 2</update>
  <update id="tail">
    UPDATE t SET a = 1
    <include refid="byId"/>
  </update>
  <select id="head">
    <include refid="cols"/> WHERE id = 1
  </select>
  <sql id="byId">
    WHERE id = #{id}
  </sql>
  <sql id="cols">SELECT a
    FROM t</sql>
</mapper>`
	f := mybatisxml.ExtractXML("M.xml", []byte(doc))
	type stmt struct {
		ID                    string
		Line, Column, EndLine int
		Parsed                bool
	}
	var got []stmt
	for _, st := range parseFile(sqlparse.NewParser(), f, nil) {
		got = append(got, stmt{st.Fragment.ID, st.Line, st.Column, st.EndLine, st.Node != nil})
	}
	want := []stmt{
		{"broken", 3, 5, 3, false},
		{"batch", 5, 22, 5, true},
		{"batch", 5, 55, 5, true},
		{"tail", 7, 5, 9, true},
		{"head", 10, 3, 11, true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}
}

// TestParseScriptInParts checks that a script of many statements, parsed
// and handed over a part at a time, gives the statements the parse of the
// whole gives — text, place, tree or error — each handed over once, in
// order, in parts of at most scriptPart; a statement that does not parse
// spoils only its own part's one parser call.
func TestParseScriptInParts(t *testing.T) {
	var sb strings.Builder
	n := 3*scriptPart + 5
	for i := range n {
		fmt.Fprintf(&sb, "-- statement %d\n", i)
		switch {
		case i == scriptPart+7:
			sb.WriteString("UPDATE t SET a = WHERE id = 1;\n")
		case i%3 == 0:
			fmt.Fprintf(&sb, "UPDATE t SET a = a - %d\n  WHERE id = ? AND a >= %d;\n", i, i)
		default:
			fmt.Fprintf(&sb, "SELECT a FROM t WHERE id = %d FOR UPDATE; # %d\n", i, i)
		}
	}
	f := sqlfile.ExtractSQL("script.sql", []byte(sb.String()))
	p := sqlparse.NewParser()
	whole := parseFile(p, f, nil)
	var handed []*lint.Statement
	parts := 0
	parted := parseFile(p, f, func(part []*lint.Statement) {
		if len(part) > scriptPart {
			t.Errorf("a part of %d statements", len(part))
		}
		parts++
		handed = append(handed, part...)
	})
	if len(whole) != n || len(parted) != n || len(handed) != n {
		t.Fatalf("%d statements whole, %d in parts, %d handed over; want %d", len(whole), len(parted), len(handed), n)
	}
	if parts != 4 {
		t.Errorf("%d parts, want 4", parts)
	}
	restore := func(st *lint.Statement) string {
		if st.Node == nil {
			return ""
		}
		return sqlparse.RestoreText(st.Node)
	}
	for i := range whole {
		w, g := whole[i], parted[i]
		if handed[i] != g {
			t.Errorf("statement %d handed over out of order", i)
		}
		if w.SQL != g.SQL || w.Line != g.Line || w.Column != g.Column || w.EndLine != g.EndLine {
			t.Errorf("statement %d: %q at %d:%d-%d in parts, %q at %d:%d-%d whole", i, g.SQL, g.Line, g.Column, g.EndLine, w.SQL, w.Line, w.Column, w.EndLine)
		}
		if restore(w) != restore(g) || (w.ParseErr == nil) != (g.ParseErr == nil) {
			t.Errorf("statement %d: tree %q / error %v in parts, %q / %v whole", i, restore(g), g.ParseErr, restore(w), w.ParseErr)
		}
	}
	if parted[scriptPart+7].ParseErr == nil || parted[scriptPart+6].Node == nil || parted[scriptPart+8].Node == nil {
		t.Error("the bad statement's neighbours in its part did not parse alone")
	}
}
