// Package schemarules holds the schema rules (GS001–GS010): what a table,
// offline from its DDL or live from information_schema, lacks to guard its
// counters, states and business keys. lint/rules lists them with every
// other rule.
package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// columnNames returns the names of cols.
func columnNames(cols []*schema.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// list prints names as "(a, b)", the way SQL writes a column list.
func list(names []string) string {
	return "(" + strings.Join(names, ", ") + ")"
}

// tables returns the tables of the pass's schema ordered by name; none when
// there is no schema.
func tables(p *lint.Pass) []*schema.Table {
	if p.Schema == nil {
		return nil
	}
	return p.Schema.Sorted()
}

// wholeTables returns the tables of the schema whose columns and indexes
// are all seen, for the rules that report what a table lacks: a live
// account with privileges on some columns of a table sees neither its other
// columns nor its indexes.
func wholeTables(p *lint.Pass) []*schema.Table {
	var out []*schema.Table
	for _, t := range tables(p) {
		if !t.ColumnsPartial {
			out = append(out, t)
		}
	}
	return out
}

// hasGlob reports whether a policy pattern is a glob rather than one name.
func hasGlob(pattern string) bool {
	return strings.ContainsAny(pattern, "*?[")
}

// tableFinding builds a finding on table t placed the way Pass.ReportTable
// places one, for the rules that must set more than the message (a severity).
func tableFinding(t *schema.Table, column, msg string) lint.Finding {
	f := lint.Finding{Table: t.Name, ColumnName: column, Message: msg}
	if t.Created.File != "" {
		f.File, f.Line, f.Column, f.EndLine = t.Created.File, t.Created.Line, max(t.Created.Col, 1), t.Created.Line
	}
	return f
}
