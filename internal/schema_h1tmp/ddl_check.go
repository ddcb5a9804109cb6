package schema

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// CheckFromText builds a Check from the text of its expression, as
// information_schema.CHECK_CONSTRAINTS gives it, so that a live schema holds
// the same Check as a replayed one.
func CheckFromText(name, exprSQL string, enforced bool) (*Check, error) {
	p := sqlparse.NewParser()
	e, err := parseExpr(p, exprSQL)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", name, err)
	}
	return newCheck(p, name, e, enforced), nil
}

// errNotExpr is returned when a text meant to be one expression is something else.
var errNotExpr = errors.New("not a single expression")

// parseExpr parses one expression by parsing "SELECT <expr>".
func parseExpr(p *sqlparse.Parser, exprSQL string) (sqlparse.ExprNode, error) {
	if strings.TrimSpace(exprSQL) == "" {
		return nil, fmt.Errorf("parse expression: %w", errNotExpr)
	}
	n, err := p.Parse("SELECT " + exprSQL)
	if err != nil {
		return nil, fmt.Errorf("parse expression %q: %w", exprSQL, err)
	}
	sel, ok := n.(*sqlparse.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.From != nil || sel.Where != nil ||
		sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil {
		return nil, fmt.Errorf("parse expression %q: %w", exprSQL, errNotExpr)
	}
	f := sel.Fields.Fields[0]
	if f.Expr == nil || f.AsName.O != "" {
		return nil, fmt.Errorf("parse expression %q: %w", exprSQL, errNotExpr)
	}
	return f.Expr, nil
}

func (r *replayer) parseExpr(exprSQL string) (sqlparse.ExprNode, error) {
	return parseExpr(r.exprParser(), exprSQL)
}

func (r *replayer) exprParser() *sqlparse.Parser {
	if r.parser == nil {
		r.parser = sqlparse.NewParser()
	}
	return r.parser
}

// newCheck builds a Check from its parsed expression. The expression is
// printed and parsed again before it is made canonical, so that the caller's
// syntax tree is left as it was.
func newCheck(p *sqlparse.Parser, name string, e sqlparse.ExprNode, enforced bool) *Check {
	if again, err := parseExpr(p, sqlparse.Restore(e)); err == nil {
		e = canonicalExpr(again)
	}
	var nonNeg []string
	seen := map[string]bool{}
	for _, c := range NonNegativeColumns(e) {
		// Lower case, like the names in Expr.
		c = strings.ToLower(c)
		if !seen[c] {
			seen[c] = true
			nonNeg = append(nonNeg, c)
		}
	}
	return &Check{Name: name, Expr: sqlparse.Restore(e), Enforced: enforced, NonNegative: nonNeg}
}

// NonNegativeColumns returns the columns that expr proves non-negative: the
// columns of its AND-ed conjuncts of the forms col >= n and n <= col (n >= 0),
// col > n and n < col (n >= 0, or n = -1 for integer columns), and
// col BETWEEN n AND x (n >= 0). Names are given as written, in order, once.
func NonNegativeColumns(expr sqlparse.ExprNode) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if k := strings.ToLower(name); !seen[k] {
			seen[k] = true
			out = append(out, name)
		}
	}
	var walk func(e sqlparse.ExprNode)
	walk = func(e sqlparse.ExprNode) {
		switch x := unparen(e).(type) {
		case *sqlparse.BinaryOperationExpr:
			switch x.Op {
			case sqlparse.OpLogicAnd:
				walk(x.L)
				walk(x.R)
			case sqlparse.OpGE, sqlparse.OpGT:
				if col, ok := columnOf(x.L); ok && boundProvesNonNegative(x.R, x.Op == sqlparse.OpGT) {
					add(col)
				}
			case sqlparse.OpLE, sqlparse.OpLT:
				if col, ok := columnOf(x.R); ok && boundProvesNonNegative(x.L, x.Op == sqlparse.OpLT) {
					add(col)
				}
			}
		case *sqlparse.BetweenExpr:
			if col, ok := columnOf(x.Expr); ok && !x.Not && boundProvesNonNegative(x.Left, false) {
				add(col)
			}
		}
	}
	if expr != nil {
		walk(expr)
	}
	return out
}

// boundProvesNonNegative reports whether a lower bound e (inclusive unless
// strict) keeps a column at or above zero.
func boundProvesNonNegative(e sqlparse.ExprNode, strict bool) bool {
	n, ok := numberOf(e)
	if !ok {
		return false
	}
	if n.Sign() >= 0 {
		return true
	}
	return strict && n.Cmp(big.NewRat(-1, 1)) == 0
}

// numberOf returns the value of a numeric literal.
func numberOf(e sqlparse.ExprNode) (*big.Rat, bool) {
	lit, ok := sqlparse.LiteralOf(e)
	if !ok {
		return nil, false
	}
	switch lit.Kind {
	case sqlparse.LiteralInt, sqlparse.LiteralDecimal, sqlparse.LiteralFloat:
		return new(big.Rat).SetString(lit.Text)
	}
	return nil, false
}

func columnOf(e sqlparse.ExprNode) (string, bool) {
	if c, ok := unparen(e).(*sqlparse.ColumnNameExpr); ok && c.Name != nil {
		return c.Name.Name.O, true
	}
	return "", false
}

func unparen(e sqlparse.ExprNode) sqlparse.ExprNode {
	for {
		p, ok := e.(*sqlparse.ParenthesesExpr)
		if !ok || p.Expr == nil {
			return e
		}
		e = p.Expr
	}
}

// referencedColumns returns the lower-case names of the columns e uses.
func referencedColumns(e sqlparse.ExprNode) []string {
	v := &columnCollector{seen: map[string]bool{}}
	if e != nil {
		e.Accept(v)
	}
	return v.cols
}

type columnCollector struct {
	cols []string
	seen map[string]bool
}

func (v *columnCollector) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if c, ok := n.(*sqlparse.ColumnNameExpr); ok && c.Name != nil && !v.seen[c.Name.Name.L] {
		v.seen[c.Name.Name.L] = true
		v.cols = append(v.cols, c.Name.Name.L)
	}
	return n, false
}

func (v *columnCollector) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// columnRenamer renames a column everywhere in an expression.
type columnRenamer struct{ from, to string }

func (v columnRenamer) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if c, ok := n.(*sqlparse.ColumnNameExpr); ok && c.Name != nil && strings.EqualFold(c.Name.Name.O, v.from) {
		c.Name.Name = sqlparse.CIStr{O: v.to, L: strings.ToLower(v.to)}
	}
	return n, false
}

func (v columnRenamer) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// pendingCheck is a CHECK declared by a statement, before it is named.
type pendingCheck struct {
	name     string
	expr     sqlparse.ExprNode
	enforced bool
	// column is set for MariaDB column-level checks: the check is named after
	// it and belongs to its definition.
	column string
}

// addChecks validates, names and adds checks to t. Unnamed table checks get
// MariaDB's names CONSTRAINT_1, CONSTRAINT_2 … skipping taken ones.
func (r *replayer) addChecks(t *Table, checks []pendingCheck) {
	if len(checks) == 0 {
		return
	}
	m := r.tableMeta(t)
	used := map[string]bool{}
	for _, c := range t.Checks {
		if _, isCol := m.colCheck[c]; !isCol {
			used[strings.ToLower(c.Name)] = true
		}
	}
	valid := make([]bool, len(checks))
	for i, pc := range checks {
		valid[i] = true
		for _, col := range referencedColumns(pc.expr) {
			if t.Column(col) == nil {
				r.errorf("add check on %s: unknown column %s", t.Name, col)
				valid[i] = false
				break
			}
		}
		if !valid[i] || pc.column != "" || pc.name == "" {
			continue
		}
		if used[strings.ToLower(pc.name)] {
			r.errorf("add check on %s: duplicate check constraint name %s", t.Name, pc.name)
			valid[i] = false
			continue
		}
		used[strings.ToLower(pc.name)] = true
	}
	nr := 1
	for i, pc := range checks {
		if !valid[i] {
			continue
		}
		name := pc.name
		if name == "" {
			for {
				name = fmt.Sprintf("CONSTRAINT_%d", nr)
				nr++
				if !used[strings.ToLower(name)] {
					break
				}
			}
			used[strings.ToLower(name)] = true
		}
		ch := newCheck(r.exprParser(), name, pc.expr, pc.enforced)
		t.Checks = append(t.Checks, ch)
		if pc.column != "" {
			m.colCheck[ch] = strings.ToLower(pc.column)
		}
	}
}

// findCheck returns the check named name, or nil.
func findCheck(t *Table, name string) *Check {
	for _, c := range t.Checks {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

func (r *replayer) removeCheck(t *Table, ch *Check) {
	for i, c := range t.Checks {
		if c == ch {
			t.Checks = append(t.Checks[:i:i], t.Checks[i+1:]...)
			break
		}
	}
	delete(r.tableMeta(t).colCheck, ch)
}

// renameInChecks renames column from to to inside every check of t, as the
// server does on CHANGE and RENAME COLUMN.
func (r *replayer) renameInChecks(t *Table, from, to string) {
	m := r.tableMeta(t)
	for i, c := range t.Checks {
		e, err := r.parseExpr(c.Expr)
		if err != nil {
			continue
		}
		cols := referencedColumns(e)
		if !containsFold(cols, from) {
			if m.colCheck[c] == strings.ToLower(from) {
				m.colCheck[c] = strings.ToLower(to)
			}
			continue
		}
		e.Accept(columnRenamer{from: from, to: to})
		nc := newCheck(r.exprParser(), c.Name, e, c.Enforced)
		if col, ok := m.colCheck[c]; ok {
			delete(m.colCheck, c)
			if col == strings.ToLower(from) {
				col = strings.ToLower(to)
			}
			m.colCheck[nc] = col
		}
		t.Checks[i] = nc
	}
}

// sortChecks lists column checks first, in column order, then table checks
// in the order they were added, as information_schema does on MariaDB.
func (r *replayer) sortChecks(t *Table) {
	m := r.tableMeta(t)
	var out []*Check
	for _, col := range t.Columns {
		for _, c := range t.Checks {
			if owner, ok := m.colCheck[c]; ok && owner == strings.ToLower(col.Name) {
				out = append(out, c)
			}
		}
	}
	for _, c := range t.Checks {
		if owner, ok := m.colCheck[c]; ok && t.Column(owner) != nil {
			continue
		}
		out = append(out, c)
	}
	t.Checks = out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
