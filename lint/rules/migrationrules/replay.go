package migrationrules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// step is one migration statement with the schema its folder's statements
// before it built.
type step struct {
	m  *lint.Migration
	i  int // the statement's index in m.Statements
	st *lint.Statement
	// before is the schema as it stood before the statement. The replay
	// changes it in place once judge returns: a rule that compares keeps
	// a Clone of the tables it needs.
	before *schema.Schema
	// empty names (lower case) the tables an earlier statement of the
	// same file created without rows: no row is in them yet, and no
	// running release uses them.
	empty map[string]bool
	// replay is the folder's replay, for what the schema model leaves out.
	replay *schema.Replay
}

// replay walks the migrations of each folder in version order, calling
// judge on every parsed statement before it is replayed and then, when
// judge returns one, after with the schema the statement made.
func replay(p *lint.Pass, judge func(s step) (after func(*schema.Schema))) {
	replays := map[string]*schema.Replay{}
	for _, m := range p.Migrations {
		r := replays[m.Dir()]
		if r == nil {
			r = schema.NewReplay()
			replays[m.Dir()] = r
		}
		empty := map[string]bool{}
		for i, st := range m.Statements {
			if st.Node == nil {
				continue
			}
			after := judge(step{m: m, i: i, st: st, before: r.Schema(), empty: empty, replay: r})
			trackEmpty(st.Node, r.Schema(), empty)
			r.Apply(schema.DDL{Node: st.Node, SQL: st.SQL, File: st.File, Line: st.Line, Col: st.Column})
			if after != nil {
				after(r.Schema())
			}
		}
	}
}

// column returns what the replay knows of column col of table (both lower
// case) before the statement: the model's column, its parsed type and its
// type as written; false when the migrations so far do not declare it.
func (s step) column(table, col string) (*schema.Column, sqlparse.ColumnType, string, bool) {
	t := s.before.Table(table)
	if t == nil {
		return nil, sqlparse.ColumnType{}, "", false
	}
	c := t.Column(col)
	if c == nil {
		return nil, sqlparse.ColumnType{}, "", false
	}
	ct, text, ok := s.replay.Declared(t, c)
	return c, ct, text, ok
}

// trackEmpty records in empty the tables statement n creates without rows,
// and follows their renames and drops; before is the schema n meets.
func trackEmpty(n sqlparse.StmtNode, before *schema.Schema, empty map[string]bool) {
	switch n := n.(type) {
	case *sqlparse.CreateTableStmt:
		name := lint.TableKey(n.Table)
		switch {
		case n.IfNotExists && before.Table(name) != nil:
			// Nothing is created: the table is the one that was there.
		case n.Select != nil:
			delete(empty, name) // CREATE TABLE … SELECT fills it
		default:
			empty[name] = true
		}
	case *sqlparse.DropTableStmt:
		for _, t := range n.Tables {
			delete(empty, lint.TableKey(t))
		}
	case *sqlparse.RenameTableStmt:
		for _, tt := range n.TableToTables {
			from, to := lint.TableKey(tt.OldTable), lint.TableKey(tt.NewTable)
			if empty[from] {
				delete(empty, from)
				empty[to] = true
			}
		}
	case *sqlparse.AlterTableStmt:
		name := lint.TableKey(n.Table)
		for _, sp := range n.Specs {
			if sp.Tp == sqlparse.AlterTableRenameTable && sp.NewTable != nil && empty[name] {
				delete(empty, name)
				name = lint.TableKey(sp.NewTable)
				empty[name] = true
			}
		}
	}
}

// recreatedLater reports whether a statement of the same file after s
// creates table t again.
func (s step) recreatedLater(t string) bool {
	for _, st := range s.m.Statements[s.i+1:] {
		if c, ok := st.Node.(*sqlparse.CreateTableStmt); ok && lint.TableKey(c.Table) == t {
			return true
		}
	}
	return false
}

// usedSeverity is the severity of a finding of GM004 and GM006: an error
// when the code still uses what the statement changes, a warning when
// nothing guard reads does, unless the policy sets the code's severity.
func usedSeverity(p *lint.Pass, used bool) policy.Severity {
	if s := p.Policy.Severity(p.Rule.Code, ""); s != "" {
		return s
	}
	if used {
		return policy.SevError
	}
	return policy.SevWarning
}

// report records a finding of p's rule on statement st with severity sev.
func report(p *lint.Pass, st *lint.Statement, sev policy.Severity, table, column, fix, msg string) {
	p.Report(lint.Finding{
		File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
		Severity: sev, Table: table, ColumnName: column, Fix: fix,
		Message: msg, SQL: lint.Compact(st.SQL),
	})
}

// describeUses names the first places of u: "SELECT at a.go:12, UPDATE
// at b.xml:40 and 3 more".
func describeUses(u lint.Uses) string {
	parts := make([]string, 0, len(u.First))
	for _, x := range u.First {
		parts = append(parts, fmt.Sprintf("%s at %s:%d", x.Verb, x.File, x.Line))
	}
	s := strings.Join(parts, ", ")
	if more := u.N - len(u.First); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}
