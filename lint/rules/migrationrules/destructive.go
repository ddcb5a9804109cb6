package migrationrules

import (
	"fmt"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// Destructive reports migrations that destroy tables, columns or rows,
// and says whether the code still uses what they destroy.
var Destructive = &lint.Rule{
	Code:    "GM004",
	Name:    "destructive-change",
	Summary: "DROP TABLE, DROP COLUMN, TRUNCATE, DROP DATABASE, DROP PRIMARY KEY (error when code still uses it)",
	Doc: "A migration that drops a table or a column destroys its data, and no down file brings " +
		"it back. When the code of the running release still reads or writes what is dropped, " +
		"every one of those statements fails from the moment the migration commits until the " +
		"new release is everywhere: a deploy runs migrations before (or while) the old code " +
		"serves. guard replays the migrations and reads the code (SQL in .sql, Go, Java and " +
		"MyBatis XML): the finding is an error naming the first places that still use the " +
		"table or column, and a warning when nothing guard reads does. A table dropped and " +
		"created again in the same file, or dropped before it ever existed (DROP TABLE IF " +
		"EXISTS ahead of the first CREATE), destroys nothing guard can see and is not reported.",
	Fix: "contract last: first release code that no longer uses the table or column, then drop it " +
		"in a later migration; copy the data out first if it may be needed",
	Kind:     lint.KindMigration,
	Severity: policy.SevError,
	Run:      runDestructive,
}

func runDestructive(p *lint.Pass) error {
	replay(p, func(s step) func(*schema.Schema) {
		switch n := s.st.Node.(type) {
		case *sqlparse.DropTableStmt:
			if n.IsView || n.TemporaryKeyword != sqlparse.TemporaryNone {
				return nil
			}
			for _, t := range n.Tables {
				dropTable(p, s, t, n.IfExists)
			}
		case *sqlparse.TruncateTableStmt:
			t := lint.TableKey(n.Table)
			if s.empty[t] {
				return nil
			}
			u := p.Usage.Table(t)
			msg := fmt.Sprintf("TRUNCATE TABLE %s deletes every row", lint.TableAsWritten(n.Table))
			if u.N > 0 {
				msg += " of a table the code uses: " + describeUses(u)
			}
			report(p, s.st, usedSeverity(p, u.N > 0), lint.TableAsWritten(n.Table), "", "", msg)
		case *sqlparse.DropDatabaseStmt:
			sev := policy.SevError
			if p.Policy.Severity(p.Rule.Code, "") != "" {
				sev = p.Policy.Severity(p.Rule.Code, "")
			}
			report(p, s.st, sev, "", "", "", fmt.Sprintf("DROP DATABASE %s drops every table in it and all their rows", n.Name.O))
		case *sqlparse.AlterTableStmt:
			alterDestroys(p, s, n)
		}
		return nil
	})
	return nil
}

// dropTable judges the drop of table tn.
func dropTable(p *lint.Pass, s step, tn *sqlparse.TableName, ifExists bool) {
	t := lint.TableKey(tn)
	existed := s.before.Table(t) != nil
	again := s.recreatedLater(t)
	switch {
	case s.empty[t]:
		return // made and dropped in one file: it never held rows
	case !existed && (ifExists || again):
		return // the idiom of a first migration: nothing to drop yet
	case again:
		report(p, s.st, usedSeverity(p, false), tn.Name.O, "", "",
			fmt.Sprintf("DROP TABLE %s destroys its rows: the same file creates it again, empty", tn.Name.O))
		return
	case p.Schema.Table(t) != nil:
		report(p, s.st, usedSeverity(p, false), tn.Name.O, "", "",
			fmt.Sprintf("DROP TABLE %s destroys its rows: a later migration creates it again, empty", tn.Name.O))
		return
	}
	u := p.Usage.Table(t)
	msg := fmt.Sprintf("DROP TABLE %s destroys the table and its rows", tn.Name.O)
	if u.N > 0 {
		msg += "; the code still uses it: " + describeUses(u)
	} else {
		msg += "; nothing guard reads uses it"
	}
	report(p, s.st, usedSeverity(p, u.N > 0), tn.Name.O, "", "", msg)
}

// alterDestroys judges the DROP COLUMN and DROP PRIMARY KEY of an ALTER.
func alterDestroys(p *lint.Pass, s step, n *sqlparse.AlterTableStmt) {
	t := lint.TableKey(n.Table)
	before := s.before.Table(t)
	addsPrimary := false
	for _, sp := range n.Specs {
		if sp.Tp == sqlparse.AlterTableAddConstraint && sp.Constraint != nil && sp.Constraint.Tp == sqlparse.ConstraintPrimaryKey {
			addsPrimary = true
		}
	}
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableDropColumn:
			if sp.OldColumnName == nil {
				continue
			}
			c := sp.OldColumnName.Name
			if before != nil && before.Column(c.L) == nil && sp.IfExists {
				continue // nothing to drop
			}
			final := p.Schema.Table(t)
			if final != nil && final.Column(c.L) != nil {
				report(p, s.st, usedSeverity(p, false), n.Table.Name.O, c.O, "",
					fmt.Sprintf("DROP COLUMN %s.%s destroys its values: a later migration adds it again, empty", n.Table.Name.O, c.O))
				continue
			}
			u := p.Usage.Column(t, c.L)
			if s.empty[t] && u.N == 0 {
				continue
			}
			msg := fmt.Sprintf("DROP COLUMN %s.%s destroys its values", n.Table.Name.O, c.O)
			if u.N > 0 {
				msg += "; the code still uses it: " + describeUses(u)
			} else {
				msg += "; nothing guard reads uses it"
			}
			report(p, s.st, usedSeverity(p, u.N > 0), n.Table.Name.O, c.O, "", msg)
		case sqlparse.AlterTableDropPrimaryKey:
			if addsPrimary || s.empty[t] {
				continue // a new key in the same statement: GM003's rebuild
			}
			u := p.Usage.Table(t)
			msg := fmt.Sprintf("DROP PRIMARY KEY on %s: rows are no longer unique by their key, and writes by key may touch several", n.Table.Name.O)
			if u.N > 0 {
				msg += "; the code uses the table: " + describeUses(u)
			}
			report(p, s.st, usedSeverity(p, u.N > 0), n.Table.Name.O, "", "ALTER TABLE … DROP PRIMARY KEY, ADD PRIMARY KEY (…) in one statement, if the key is to change", msg)
		}
	}
}
