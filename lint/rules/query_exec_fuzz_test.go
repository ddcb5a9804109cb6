package rules

import (
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// execRules are the query rules that read what the extractors tell about a
// fragment: Go Exec facts, MyBatis ${…}, unparsable or dynamic SQL.
var execRules = []*lint.Rule{SelectForUpdate, UpsertAsLock, NotChecked, MybatisDollar, RowsAffectedIgnored}

// FuzzExecRules runs GQ007–GQ011 on arbitrary SQL cut into statements the way
// driver.Run cuts them, with arbitrary Exec facts and ${…} positions: they must
// never panic, and every statement that did not parse must be reported.
func FuzzExecRules(f *testing.F) {
	for _, seed := range []struct {
		text  string
		flags uint8
		line  int
	}{
		{"SELECT inventory FROM t_inventory WHERE id = ? FOR UPDATE", 0, 1},
		{"SELECT * FROM t_inventory i JOIN t_order o ON o.id = i.id FOR UPDATE OF i, o NOWAIT", 1, 1},
		{"(SELECT 1 FROM t LOCK IN SHARE MODE) UNION (SELECT 2 FOR SHARE SKIP LOCKED)", 2, 0},
		{"INSERT IGNORE INTO t_inventory VALUES (1, 2, 3) ON DUPLICATE KEY UPDATE inventory = inventory - 1", 3, 1},
		{"REPLACE INTO t_inventory SET inventory = 1; INSERT INTO x.t (a) SELECT a FROM u FOR UPDATE", 0, 2},
		{"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", 4, 1},
		{"UPDATE t_order SET status = 'paid' WHERE id = ? AND status IN ('new'); DELETE FROM t_order WHERE version = ?", 5, 3},
		{"UPDATE t SET a = 1 WHERE id = ? FRO x;\nSELECT ?\n;", 6, 2},
		{"DELETE a FROM t_order a JOIN t_payment b ON b.state = a.state WHERE a.status = (SELECT 1)", 7, -1},
		{"", 8, 0},
	} {
		f.Add(seed.text, seed.flags, seed.line)
	}
	sch := testSchema()
	pol := policy.Default()
	f.Fuzz(func(t *testing.T, text string, flags uint8, line int) {
		fr := &stmt.Fragment{File: "fuzz.go", Lang: stmt.LangGo, SQL: text, Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}}, Line: 1, Col: 1}
		if flags&1 != 0 {
			fr.Exec = &stmt.Exec{Method: "ExecContext", ResultChecked: flags&2 != 0, ResultDiscarded: flags&4 != 0}
		}
		if flags&8 != 0 {
			// Extractors place a ${…} on a line of the file: 1 or more.
			line = 1 + (line&0xffff)%64
			fr.Dollar = []stmt.Dollar{{Expr: "x", Line: line, Col: 1}, {Expr: "y", Line: line + 1, Col: 2}}
		}
		p := sqlparse.NewParser()
		var stmts []*lint.Statement
		unparsed := 0
		for _, piece := range sqlparse.Split(text) {
			st := &lint.Statement{Fragment: fr, SQL: piece.Text, Offset: piece.Offset, File: fr.File}
			st.Line, st.Column = fr.Pos(piece.Offset)
			st.EndLine, _ = fr.Pos(piece.Offset + len(piece.Text))
			node, err := p.Parse(piece.Text)
			if err != nil {
				st.ParseErr = err.(*sqlparse.Error)
				unparsed++
			} else {
				st.Node = node
			}
			stmts = append(stmts, st)
		}
		if flags&16 != 0 {
			stmts = append(stmts, &lint.Statement{
				Fragment: &stmt.Fragment{File: "fuzz.go", Lang: stmt.LangGo, Unchecked: "SQL built at run time with fmt.Sprintf", Line: 1, Col: 1, Dollar: fr.Dollar},
				File:     "fuzz.go", Line: 1, Column: 1, EndLine: 1,
			})
			unparsed++
		}
		for _, r := range execRules {
			count := 0
			pass := lint.NewPass(r, pol, sch, stmts, nil, nil, func(fd lint.Finding) {
				count++
				if fd.Code != r.Code || fd.Message == "" || fd.Line < 1 || fd.Column < 1 || fd.EndLine < fd.Line {
					t.Errorf("%s: bad finding %+v", r.Code, fd)
				}
			})
			if err := r.Run(pass); err != nil {
				t.Errorf("%s: %v", r.Code, err)
			}
			if r == NotChecked && count != unparsed {
				t.Errorf("GQ009 reported %d statements, %d were not checked", count, unparsed)
			}
		}
	})
}
