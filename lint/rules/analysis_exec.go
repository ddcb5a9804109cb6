package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// This file holds the few helpers the GQ007–GQ011 rules need beyond the
// shared statement analysis of analysis.go.

// execName names the Go method that ran a statement, for messages.
func execName(method string) string {
	if method == "" {
		return "Exec"
	}
	return method
}

// referencedColumns returns the columns of w that conds refer to, outside
// subqueries, each once and in order of appearance.
func referencedColumns(w *write, conds []sqlparse.ExprNode) []colRef {
	v := &columnCollector{w: w, seen: map[string]bool{}}
	for _, e := range conds {
		e.Accept(v)
	}
	return v.cols
}

// columnCollector gathers column references, skipping subqueries: their
// columns belong to other tables.
type columnCollector struct {
	w    *write
	seen map[string]bool
	cols []colRef
}

// Enter implements sqlparse.Visitor.
func (v *columnCollector) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	switch x := n.(type) {
	case *sqlparse.SubqueryExpr:
		return n, true
	case *sqlparse.ColumnNameExpr:
		if x.Name != nil {
			c := v.w.ref(x.Name)
			key := c.t.tableName() + "." + strings.ToLower(c.name)
			if !v.seen[key] {
				v.seen[key] = true
				v.cols = append(v.cols, c)
			}
		}
	}
	return n, false
}

// Leave implements sqlparse.Visitor.
func (v *columnCollector) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }
