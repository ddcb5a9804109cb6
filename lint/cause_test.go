package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJoinCauses checks that the findings of statements one cause shares
// become one finding at the cause, and that everything else is left as it
// was.
func TestJoinCauses(t *testing.T) {
	helper := Cause{File: "H.java", Line: 5, Col: 9, Call: "e.setOrderByClause(s)"}
	own := Cause{File: "O.java", Line: 7, Col: 9, Call: "o.setOrderByClause(s)"}
	forward := Cause{File: "X.java", Line: 2, Col: 9, Call: "this.setOrderByClause(c)"}
	other := Cause{File: "S.java", Line: 8, Col: 9, Call: "x.setOrderByClause(q)"}
	piece := func(file string, line int, causes ...Cause) Finding {
		return Finding{Code: "GQ010", Rule: "mybatis-dollar", Severity: "error", File: file, Line: line, Message: file, Causes: causes}
	}
	rules := map[string]*Rule{"GQ010": {Code: "GQ010", Join: func(c Cause, ps []Finding) Finding {
		msg := c.Call
		for _, p := range ps {
			msg += " " + p.File
		}
		return Finding{File: c.File, Line: c.Line, Column: c.Col, Message: msg}
	}}}
	type brief struct {
		File    string
		Line    int
		Message string
	}
	tests := []struct {
		name string
		in   []Finding
		left string // the file of a finding left out (suppressed)
		want []brief
	}{
		{"one cause, three statements", []Finding{piece("A.xml", 3, helper), piece("B.xml", 4, helper), piece("C.xml", 5, helper)}, "",
			[]brief{{"H.java", 5, "e.setOrderByClause(s) A.xml B.xml C.xml"}}},
		{"a cause of one statement stays at it", []Finding{piece("A.xml", 3, own)}, "",
			[]brief{{"A.xml", 3, "A.xml"}}},
		{"a statement with a cause of its own keeps its finding", []Finding{piece("A.xml", 3, helper, own), piece("B.xml", 4, helper)}, "",
			[]brief{{"A.xml", 3, "A.xml"}, {"H.java", 5, "e.setOrderByClause(s) A.xml B.xml"}}},
		{"a suppressed statement is left out of the list", []Finding{piece("A.xml", 3, helper), piece("B.xml", 4, helper)}, "A.xml",
			[]brief{{"H.java", 5, "e.setOrderByClause(s) B.xml"}}},
		{"each statement joins one cause: the forwarding setter last, then the widest", []Finding{
			piece("A.xml", 3, forward, helper, other), piece("B.xml", 4, forward, helper, other), piece("C.xml", 5, forward, helper)}, "",
			[]brief{{"H.java", 5, "e.setOrderByClause(s) A.xml B.xml C.xml"}}},
		{"findings without a cause pass", []Finding{{Code: "GQ002", File: "A.xml", Line: 1, Message: "m"}}, "",
			[]brief{{"A.xml", 1, "m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := JoinCauses(tt.in, rules, func(f Finding) bool { return f.File == tt.left })
			var got []brief
			for _, f := range out {
				got = append(got, brief{f.File, f.Line, f.Message})
				if f.File == "H.java" && (f.Code != "GQ010" || f.Severity != "error" || f.Causes != nil) {
					t.Errorf("joined finding %+v: want the pieces' code and severity, no causes", f)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("JoinCauses (-want +got):\n%s", d)
			}
		})
	}
}
