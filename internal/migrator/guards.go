package migrator

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// Kinds of guard a migration adds.
const (
	KindCheck   = "check"
	KindUnique  = "unique"
	KindPrimary = "primary-key"
	KindNotNull = "not-null"
	KindColumn  = "column"
	KindTrigger = "trigger"
)

// Guard is a constraint, column or trigger that a migration statement adds:
// what preflight checks the existing rows against and verification looks
// for afterwards.
type Guard struct {
	Kind  string `json:"kind"`
	Table string `json:"table"`
	// Name is the constraint, index, column or trigger name as written;
	// empty for an unnamed CHECK or UNIQUE.
	Name string `json:"name,omitempty"`
	// Columns are the columns the guard is on (CHECK: the columns its
	// expression reads), lower case.
	Columns []string `json:"columns,omitempty"`
	// Expr is the CHECK expression, the key parts of a UNIQUE index, or the
	// timing and event of a trigger.
	Expr string `json:"expr,omitempty"`
	// NotNull is set for an added column declared NOT NULL.
	NotNull bool   `json:"not_null,omitempty"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`

	check  sqlparse.ExprNode
	keys   []keyPart
	timing string
	event  string
	// liveColumn is the column a NOT NULL or fits guard reads in the live
	// table: the old name when CHANGE renames it.
	liveColumn string
	// newType is the type a fits guard checks the values against.
	newType sqlparse.ColumnType
}

// probeColumns are the live columns preflight reads.
func (g *Guard) probeColumns() []string {
	if g.Kind == KindNotNull || g.Kind == KindFits {
		return []string{lower(g.liveColumn)}
	}
	return g.Columns
}

// keyPart is one part of an index key: a column, with a prefix length, or
// an expression (MySQL 8 functional key part).
type keyPart struct {
	column string
	length int
	expr   sqlparse.ExprNode
}

// String names the guard for reports: "t_order: UNIQUE uk_order_no (order_no)".
func (g *Guard) String() string {
	name := ""
	if g.Name != "" {
		name = " " + g.Name
	}
	switch g.Kind {
	case KindCheck:
		return fmt.Sprintf("%s: CHECK%s (%s)", g.Table, name, g.Expr)
	case KindUnique:
		return fmt.Sprintf("%s: UNIQUE%s (%s)", g.Table, name, g.Expr)
	case KindPrimary:
		return fmt.Sprintf("%s: PRIMARY KEY (%s)", g.Table, g.Expr)
	case KindNotNull:
		return fmt.Sprintf("%s: %s NOT NULL", g.Table, g.Name)
	case KindFits:
		return fmt.Sprintf("%s: %s fits %s", g.Table, g.Name, g.Expr)
	case KindColumn:
		if g.NotNull {
			return fmt.Sprintf("%s: column %s NOT NULL", g.Table, g.Name)
		}
		return fmt.Sprintf("%s: column %s", g.Table, g.Name)
	case KindTrigger:
		return fmt.Sprintf("%s: trigger%s %s", g.Table, name, g.Expr)
	}
	return g.Table + ": " + g.Kind + name
}

// probed reports whether preflight checks existing rows for this kind.
func (g *Guard) probed() bool {
	switch g.Kind {
	case KindCheck, KindUnique, KindPrimary, KindNotNull, KindFits:
		return true
	}
	return false
}

// declaresNotNull reports whether a column definition says NOT NULL (or
// PRIMARY KEY, which implies it) and not NULL after it.
func declaresNotNull(col *sqlparse.ColumnDef) bool {
	notNull := false
	for _, o := range col.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionNotNull, sqlparse.ColumnOptionPrimaryKey:
			notNull = true
		case sqlparse.ColumnOptionNull:
			notNull = false
		}
	}
	return notNull
}

// refersTo matches the guards on column col; with kinds, only those kinds.
func refersTo(col string, kinds ...string) func(*Guard) bool {
	col = lower(col)
	return func(g *Guard) bool {
		if len(kinds) > 0 {
			found := false
			for _, k := range kinds {
				found = found || g.Kind == k
			}
			if !found {
				return false
			}
		}
		for _, c := range g.Columns {
			if c == col {
				return true
			}
		}
		return false
	}
}

// namedIndex matches the UNIQUE index a DROP INDEX name removes. An unnamed
// one is named after its first column by the server.
func namedIndex(name string) func(*Guard) bool {
	return func(g *Guard) bool {
		if g.Kind != KindUnique {
			return false
		}
		if g.Name != "" {
			return strings.EqualFold(g.Name, name)
		}
		return len(g.keys) > 0 && g.keys[0].column != "" && strings.EqualFold(g.keys[0].column, name)
	}
}

func checkGuard(table, name string, e sqlparse.ExprNode) *Guard {
	var c columnCollector
	if e != nil {
		e.Accept(&c)
	}
	return &Guard{Kind: KindCheck, Table: table, Name: name, Columns: c.columns, Expr: sqlparse.RestoreText(e), check: e}
}

func uniqueGuard(table, name string, parts []*sqlparse.IndexPartSpecification) *Guard {
	g := &Guard{Kind: KindUnique, Table: table, Name: name}
	var exprs []string
	for _, p := range parts {
		kp := keyPart{length: p.Length, expr: p.Expr}
		if p.Column != nil {
			kp.column = p.Column.Name.O
			g.Columns = append(g.Columns, lower(kp.column))
		} else if p.Expr != nil {
			var c columnCollector
			p.Expr.Accept(&c)
			g.Columns = append(g.Columns, c.columns...)
		}
		g.keys = append(g.keys, kp)
		exprs = append(exprs, kp.sql())
	}
	g.Expr = strings.Join(exprs, ", ")
	return g
}

// sql returns the key part as an expression with the value the index
// stores: a column prefix is LEFT(col, n), in characters for text and bytes
// for binary strings, as the index counts it.
func (k keyPart) sql() string {
	switch {
	case k.expr != nil:
		return "(" + sqlparse.RestoreText(k.expr) + ")"
	case k.length > 0:
		return fmt.Sprintf("LEFT(%s, %d)", quote(k.column), k.length)
	}
	return quote(k.column)
}

// columnCollector gathers the column names an expression reads, lower case, once each.
type columnCollector struct{ columns []string }

// Enter records a column name; the walk goes on into every node.
func (c *columnCollector) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if col, ok := n.(*sqlparse.ColumnNameExpr); ok && col.Name != nil {
		name := lower(col.Name.Name.O)
		for _, have := range c.columns {
			if have == name {
				return n, false
			}
		}
		c.columns = append(c.columns, name)
	}
	return n, false
}

// Leave keeps the node as it is.
func (c *columnCollector) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// tableCollector gathers the tables of a FROM or target clause.
type tableCollector struct{ tables []*sqlparse.TableName }

// Enter records a table name; the walk goes on into every node.
func (c *tableCollector) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if tn, ok := n.(*sqlparse.TableName); ok {
		c.tables = append(c.tables, tn)
	}
	return n, false
}

// Leave keeps the node as it is.
func (c *tableCollector) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

func lower(s string) string { return strings.ToLower(s) }

// quote backtick-quotes an identifier, doubling backticks inside it.
func quote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }
