package migrationrules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// Incompatible reports migrations that the release still running while
// they apply cannot live with: renames, narrowing type changes, and new
// columns its INSERTs do not fill.
var Incompatible = &lint.Rule{
	Code:    "GM006",
	Name:    "backward-incompatible",
	Summary: "RENAME TABLE/COLUMN, a type change old code cannot write, ADD COLUMN NOT NULL without DEFAULT (error when code uses the old shape)",
	Doc: "Migrations run while the previous release still serves, and it keeps serving until the " +
		"deploy finishes — or for good, when the deploy is rolled back. A RENAME (table, or " +
		"column by RENAME COLUMN or CHANGE) makes every statement of that release that names " +
		"the old name fail; a narrowing type change (a shorter VARCHAR, a smaller integer, " +
		"signed to unsigned, fewer decimals, ENUM values removed, a charset that cannot hold " +
		"what it writes) makes its writes fail in strict mode or be truncated without it; a " +
		"NOT NULL column without a DEFAULT makes every INSERT that does not name it fail " +
		"(1364), and any new column breaks an INSERT that lists no columns (1136). guard reads " +
		"the code: an error names the statements that use the old shape, a warning says " +
		"nothing guard reads does (other services may).",
	Fix: "expand, migrate, contract: add the new table, column or type beside the old one, release " +
		"code that writes both and reads the new, backfill, release code that uses only the new, " +
		"and drop the old in a later migration; a new NOT NULL column gets a DEFAULT",
	Kind:     lint.KindMigration,
	Severity: policy.SevError,
	Run:      runIncompatible,
}

func runIncompatible(p *lint.Pass) error {
	replay(p, func(s step) func(*schema.Schema) {
		switch n := s.st.Node.(type) {
		case *sqlparse.RenameTableStmt:
			for _, tt := range n.TableToTables {
				renameTable(p, s, tt.OldTable, tt.NewTable)
			}
		case *sqlparse.AlterTableStmt:
			alterIncompatible(p, s, n)
		}
		return nil
	})
	return nil
}

// renameTable judges a rename of table from to to.
func renameTable(p *lint.Pass, s step, from, to *sqlparse.TableName) {
	t := lint.TableKey(from)
	if s.empty[t] {
		return
	}
	u := p.Usage.Table(t)
	msg := fmt.Sprintf("RENAME TABLE %s TO %s: every statement of the running release that names %s fails", from.Name.O, lint.TableAsWritten(to), from.Name.O)
	if u.N > 0 {
		msg += "; the code still uses " + from.Name.O + ": " + describeUses(u)
	} else {
		msg += "; nothing guard reads uses it"
	}
	report(p, s.st, usedSeverity(p, u.N > 0), from.Name.O, "",
		fmt.Sprintf("create %s beside %s (or a view named %s over it) and move the code first; rename only once no release uses %s", lint.TableAsWritten(to), from.Name.O, from.Name.O, from.Name.O), msg)
}

func alterIncompatible(p *lint.Pass, s step, n *sqlparse.AlterTableStmt) {
	t := lint.TableKey(n.Table)
	tb := s.before.Table(t)
	if s.empty[t] {
		return // no rows and no release use a table the file just created
	}
	name := n.Table.Name.O
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableRenameTable:
			renameTable(p, s, n.Table, sp.NewTable)
		case sqlparse.AlterTableRenameColumn:
			if sp.OldColumnName != nil && sp.NewColumnName != nil {
				renameColumn(p, s, name, t, sp.OldColumnName.Name, sp.NewColumnName.Name)
			}
		case sqlparse.AlterTableChangeColumn, sqlparse.AlterTableModifyColumn:
			if len(sp.NewColumns) == 0 {
				continue
			}
			def := sp.NewColumns[0]
			old := def.Name.Name
			if sp.Tp == sqlparse.AlterTableChangeColumn && sp.OldColumnName != nil {
				old = sp.OldColumnName.Name
				if old.L != def.Name.Name.L {
					renameColumn(p, s, name, t, old, def.Name.Name)
				}
			}
			narrowed(p, s, tb, name, t, old, def)
		case sqlparse.AlterTableAddColumns:
			if tb == nil {
				continue
			}
			for _, def := range sp.NewColumns {
				addedColumn(p, s, name, t, def)
			}
		case sqlparse.AlterTableOption:
			for _, o := range sp.Options {
				if o.Tp == sqlparse.TableOptionCharset && o.UintValue == sqlparse.TableOptionCharsetWithConvertTo && narrowCharset(o.StrValue) {
					u := p.Usage.Table(t)
					msg := fmt.Sprintf("CONVERT TO CHARACTER SET %s: %s can then hold only characters %s has, and an old release's writes of others (emoji, 4-byte UTF-8) fail or become '?'", o.StrValue, name, o.StrValue)
					if u.N > 0 {
						msg += "; the code writes the table: " + describeUses(u)
					}
					report(p, s.st, usedSeverity(p, u.N > 0), name, "", "keep utf8mb4; convert a column at a time with expand and contract if it must change", msg)
				}
			}
		}
	}
}

// renameColumn judges a rename of column from of table t to to.
func renameColumn(p *lint.Pass, s step, table, t string, from, to sqlparse.CIStr) {
	u := p.Usage.Column(t, from.L)
	msg := fmt.Sprintf("renames %s.%s to %s: every statement of the running release that names %s fails", table, from.O, to.O, from.O)
	if u.N > 0 {
		msg += "; the code still uses " + from.O + ": " + describeUses(u)
	} else {
		msg += "; nothing guard reads uses it"
	}
	report(p, s.st, usedSeverity(p, u.N > 0), table, from.O,
		fmt.Sprintf("add %s beside %s, write both and backfill, move the reads, and drop %s in a later migration", to.O, from.O, from.O), msg)
}

// narrowed judges a MODIFY or CHANGE of column old of table t (tb before
// the statement) to definition def.
func narrowed(p *lint.Pass, s step, tb *schema.Table, table, t string, old sqlparse.CIStr, def *sqlparse.ColumnDef) {
	if tb == nil || def.Tp == nil {
		return
	}
	col := tb.Column(old.L)
	if col == nil {
		return
	}
	from, _, ok := s.replay.Declared(tb, col)
	if !ok {
		return
	}
	why := sqlparse.Narrowing(from, sqlparse.TypeOfColumn(def))
	if why == "" {
		return
	}
	u := p.Usage.Written(t, old.L)
	msg := fmt.Sprintf("narrows %s.%s, %s when the running release writes it (strict sql_mode)", table, col.Name, why)
	if u.N > 0 {
		msg += "; the code writes it (check that its values fit): " + describeUses(u)
	} else {
		msg += "; nothing guard reads writes it"
	}
	// Whether the values the code writes fit cannot be told from the code:
	// a warning, where a rename the code still names is an error.
	report(p, s.st, usedSeverity(p, false), table, col.Name,
		fmt.Sprintf("add a column of the new type beside %s, write both, backfill, move the reads, and drop %s later; or keep the wider type", col.Name, col.Name), msg)
}

// addedColumn judges a column added to table t, which exists: an INSERT
// without a column list no longer matches it, and one that does not name
// a NOT NULL column without a DEFAULT fails.
func addedColumn(p *lint.Pass, s step, table, t string, def *sqlparse.ColumnDef) {
	c := def.Name.Name
	if pos := p.Usage.Positional(t); pos.N > 0 {
		report(p, s.st, usedSeverity(p, true), table, c.O,
			fmt.Sprintf("name the columns in every INSERT into %s", table),
			fmt.Sprintf("ADD COLUMN %s.%s: the code's INSERTs without a column list then have too few values (1136): %s", table, c.O, describeUses(pos)))
	}
	if !requiredWithoutDefault(def) {
		return
	}
	u := p.Usage.InsertsWithout(t, c.L)
	msg := fmt.Sprintf("ADD COLUMN %s.%s NOT NULL without a DEFAULT: an INSERT of the running release, which does not name %s, fails (1364 in strict mode)", table, c.O, c.O)
	if u.N > 0 {
		msg += "; the code's INSERTs that leave it out: " + describeUses(u)
	} else {
		msg += "; no INSERT guard reads leaves it out"
	}
	report(p, s.st, usedSeverity(p, u.N > 0), table, c.O,
		fmt.Sprintf("give %s a DEFAULT (ADD COLUMN %s … NOT NULL DEFAULT …), or add it NULL, fill it, and make it NOT NULL once every release writes it", c.O, c.O), msg)
}

// requiredWithoutDefault reports whether an INSERT must name the column
// def declares: NOT NULL, no DEFAULT, not AUTO_INCREMENT nor generated. A
// TIMESTAMP is left out: the server may give it an implicit default.
func requiredWithoutDefault(def *sqlparse.ColumnDef) bool {
	notNull := false
	for _, o := range def.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionNotNull, sqlparse.ColumnOptionPrimaryKey:
			notNull = true
		case sqlparse.ColumnOptionNull, sqlparse.ColumnOptionDefaultValue, sqlparse.ColumnOptionAutoIncrement, sqlparse.ColumnOptionGenerated:
			return false
		}
	}
	if def.Tp != nil && strings.EqualFold(sqlparse.TypeOfColumn(def).Name, "timestamp") {
		return false
	}
	return notNull
}

// narrowCharset reports whether a table converted to charset cs loses
// characters utf8mb4 holds.
func narrowCharset(cs string) bool {
	switch strings.ToLower(cs) {
	case "utf8mb4", "utf16", "utf16le", "utf32", "binary":
		return false
	}
	return true
}
