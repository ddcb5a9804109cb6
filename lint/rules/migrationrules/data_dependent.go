package migrationrules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// DataDependent reports the migration changes that succeed or fail, keep or
// lose data, depending on the rows the table holds when they run.
var DataDependent = &lint.Rule{
	Code:    "GM007",
	Name:    "data-dependent",
	Summary: "a change that fails or truncates depending on the rows: narrowing a type, NOT NULL on a nullable column, ADD UNIQUE, ADD CHECK",
	Doc: "Some changes are only as safe as the data they meet. Narrowing a column (a shorter " +
		"VARCHAR, a smaller or unsigned integer, fewer DECIMAL digits, an ENUM or SET value " +
		"removed) fails on the first row that does not fit, or outside strict sql_mode cuts, " +
		"clamps or blanks it; making a nullable column NOT NULL fails on a NULL; a UNIQUE " +
		"index or primary key fails on a duplicate (1062); an enforced CHECK fails on a row " +
		"that breaks it (3819 on MySQL, 4025 on MariaDB). The migration passes on an empty " +
		"development database and fails, half-way through a table copy, on production. " +
		"guard migrate's preflight counts the offending rows before it applies anything and " +
		"refuses if there are any; this rule says offline which changes it will count. A " +
		"table created earlier in the same file holds no rows yet and is not reported. A " +
		"narrowing or a NOT NULL is judged against the column as the earlier migrations of " +
		"the folder define it; on a table they never define (a baseline taken from a dump) " +
		"only ADD UNIQUE, ADD PRIMARY KEY and ADD CHECK are reported, since the column's " +
		"previous type and nullability are unknown.",
	Fix: "find the offending rows with the query the finding names and fix them in a data " +
		"migration of its own first, or keep the wider definition; guard migrate refuses " +
		"while any remain",
	Kind:     lint.KindMigration,
	Severity: policy.SevWarning,
	Run:      runDataDependent,
}

func runDataDependent(p *lint.Pass) error {
	replay(p, func(s step) func(*schema.Schema) {
		for _, n := range dataNeeds(s) {
			p.ReportStatementFix(s.st, n.table, n.column, n.fix, "%s", n.message())
		}
		return nil
	})
	return nil
}

// dataNeed is one change of a statement whose outcome depends on the rows
// the table holds: what breaks it, and what guard migrate's preflight
// counts before it applies the change.
type dataNeed struct {
	stmt   string // the statement and its table: "ALTER TABLE t_user", "CREATE UNIQUE INDEX ux ON t_user"
	table  string
	column string // the column changed, "" for a key or a CHECK
	change string // "MODIFY COLUMN name varchar(32)"
	breaks []string
	// counts is what guard migrate's preflight counts: "the rows where
	// CHAR_LENGTH(`name`) > 32"; uncounted, how to count what it does not.
	counts, uncounted string
	fix               string
}

func (n dataNeed) message() string {
	msg := n.stmt + " " + n.change + ": " + strings.Join(n.breaks, "; ")
	switch {
	case n.counts != "" && n.uncounted != "":
		msg += "; guard migrate counts " + n.counts + " and refuses if any, but not the rest: " + n.uncounted
	case n.counts != "":
		msg += "; guard migrate counts " + n.counts + " and refuses if any"
	default:
		msg += "; guard migrate's preflight does not count them: " + n.uncounted
	}
	return msg
}

// dataNeeds lists the data-dependent changes of the statement of s, judged
// against the columns as they were before it; none on a table the file
// created without rows.
func dataNeeds(s step) []dataNeed {
	switch n := s.st.Node.(type) {
	case *sqlparse.AlterTableStmt:
		if s.empty[lint.TableKey(n.Table)] {
			return nil
		}
		return alterNeeds(n, s)
	case *sqlparse.CreateIndexStmt:
		if n.KeyType != sqlparse.IndexKeyTypeUnique || s.empty[lint.TableKey(n.Table)] {
			return nil
		}
		written := lint.TableAsWritten(n.Table)
		need, ok := uniqueNeed(written, "UNIQUE INDEX", n.IndexName, n.IndexPartSpecifications, false, nil)
		if !ok {
			return nil
		}
		need.stmt, need.change = "CREATE UNIQUE INDEX", strings.TrimSpace(n.IndexName+" ON "+written)
		return []dataNeed{need}
	}
	return nil
}

// alterNeeds lists the data-dependent changes of an ALTER TABLE.
func alterNeeds(n *sqlparse.AlterTableStmt, s step) []dataNeed {
	table := lint.TableKey(n.Table)
	written := lint.TableAsWritten(n.Table)
	// Columns the statement itself adds hold no data a key or a CHECK on
	// them could judge but their default; the preflight cannot count them.
	added := map[string]bool{}
	for _, sp := range n.Specs {
		if sp.Tp == sqlparse.AlterTableAddColumns {
			for _, def := range sp.NewColumns {
				added[def.Name.Name.L] = true
			}
		}
	}
	var out []dataNeed
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAddConstraint:
			c := sp.Constraint
			if c == nil {
				continue
			}
			switch c.Tp {
			case sqlparse.ConstraintUniq, sqlparse.ConstraintUniqKey, sqlparse.ConstraintUniqIndex:
				if need, ok := uniqueNeed(written, "UNIQUE", c.Name, c.Keys, false, added); ok {
					out = append(out, need)
				}
			case sqlparse.ConstraintPrimaryKey:
				if need, ok := uniqueNeed(written, "PRIMARY KEY", "", c.Keys, true, added); ok {
					out = append(out, need)
				}
			case sqlparse.ConstraintCheck:
				if c.Enforced && c.Expr != nil && !refersToAny(c.Expr, added) {
					out = append(out, checkNeed(written, "ADD", c.Name, c.Expr))
				}
			}
		case sqlparse.AlterTableAlterCheck:
			if c := sp.Constraint; c != nil && c.Enforced {
				out = append(out, checkNeed(written, "ALTER", c.Name, nil))
			}
		case sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
			if len(sp.NewColumns) == 0 {
				continue
			}
			def := sp.NewColumns[0]
			verb, old := "MODIFY", def.Name.Name
			if sp.Tp == sqlparse.AlterTableChangeColumn {
				verb = "CHANGE"
				if sp.OldColumnName != nil {
					old = sp.OldColumnName.Name
				}
			}
			col, typ, text, known := s.column(table, old.L)
			var before replayedColumn
			primary := false
			if known {
				before = replayedColumn{text: text, typ: typ, nullable: col.Nullable}
				primary = slices.ContainsFunc(s.before.Table(table).PrimaryKey, func(k string) bool { return strings.EqualFold(k, col.Name) })
			}
			out = append(out, columnNeeds(written, verb, old.O, def, before, known, primary)...)
		}
	}
	return out
}

// columnNeeds lists what a MODIFY or CHANGE of column old (as written) to
// def asks of the rows: a narrower type or NOT NULL, when before, the column
// as the migrations left it, is known; a UNIQUE or an enforced CHECK it
// declares in any case.
func columnNeeds(table, verb, old string, def *sqlparse.ColumnDef, before replayedColumn, known, primary bool) []dataNeed {
	name := def.Name.Name.O
	change := verb + " COLUMN " + name + " " + typeText(def)
	if verb == "CHANGE" {
		change = verb + " COLUMN " + old + " " + name + " " + typeText(def)
	}
	var out []dataNeed
	if known {
		after := replayColumn(def)
		after.nullable = after.nullable && !primary // a key column stays NOT NULL
		var breaks, counted, uncounted []string
		for _, b := range narrowing(old, before, after.typ) {
			breaks = append(breaks, b.rows)
			if b.uncounted {
				uncounted = append(uncounted, b.where)
			} else {
				counted = append(counted, b.where)
			}
		}
		if before.nullable && !after.nullable {
			breaks = append(breaks, "rows where "+old+" is NULL (it was nullable) fail it, or get the type's implicit default outside strict sql_mode")
			counted = append(counted, quoteName(old)+" IS NULL")
		}
		if len(breaks) > 0 {
			need := dataNeed{
				stmt: "ALTER TABLE " + table, table: table, column: name, change: change,
				breaks: breaks,
				fix:    fmt.Sprintf("find them with SELECT COUNT(*) FROM %s WHERE %s, and fix them in a data migration of its own first, or keep the previous definition", quoteName(table), strings.Join(append(counted, uncounted...), " OR ")),
			}
			if len(counted) > 0 {
				need.counts = "the rows where " + strings.Join(counted, " OR ")
			}
			if len(uncounted) > 0 {
				need.uncounted = "SELECT COUNT(*) FROM " + quoteName(table) + " WHERE " + strings.Join(uncounted, " OR ") + " finds them"
			}
			out = append(out, need)
		}
	}
	for _, o := range def.Options {
		switch {
		case o.Tp == sqlparse.ColumnOptionUniqKey:
			keys := []*sqlparse.IndexPartSpecification{{Column: &sqlparse.ColumnName{Name: sqlparse.CIStr{O: old, L: strings.ToLower(old)}}, Length: -1}}
			if need, ok := uniqueNeed(table, "UNIQUE", "", keys, false, nil); ok {
				need.column, need.change = name, change
				out = append(out, need)
			}
		case o.Tp == sqlparse.ColumnOptionCheck && o.Enforced && o.Expr != nil:
			need := checkNeed(table, "ADD", o.ConstraintName, o.Expr)
			need.column, need.change = name, change+" CHECK ("+sqlparse.RestoreText(o.Expr)+")"
			out = append(out, need)
		}
	}
	return out
}

// uniqueNeed is what a new UNIQUE index or primary key (kind) asks of the
// rows: no two share a value of its keys, and for a primary key no NULL in
// them. A key on a column the statement adds (added) is left out: its rows
// all hold the column's default, and the preflight cannot count a column
// that does not exist yet.
func uniqueNeed(table, kind, name string, keys []*sqlparse.IndexPartSpecification, primary bool, added map[string]bool) (dataNeed, bool) {
	var parts, sqlKeys []string
	column := ""
	for _, k := range keys {
		switch {
		case k.Column != nil:
			if added[k.Column.Name.L] {
				return dataNeed{}, false
			}
			part, key := k.Column.Name.O, quoteName(k.Column.Name.O)
			if k.Length > 0 {
				part += "(" + strconv.Itoa(k.Length) + ")"
				key = "LEFT(" + key + ", " + strconv.Itoa(k.Length) + ")"
			}
			parts, sqlKeys = append(parts, part), append(sqlKeys, key)
			if len(keys) == 1 {
				column = k.Column.Name.O
			}
		case k.Expr != nil:
			if refersToAny(k.Expr, added) {
				return dataNeed{}, false
			}
			text := "(" + sqlparse.RestoreText(k.Expr) + ")"
			parts, sqlKeys = append(parts, text), append(sqlKeys, text)
		}
	}
	if len(parts) == 0 {
		return dataNeed{}, false
	}
	of := strings.Join(parts, ", ")
	group := strings.Join(sqlKeys, ", ")
	change := "ADD " + kind
	if name != "" {
		change += " " + name
	}
	change += " (" + of + ")"
	need := dataNeed{
		stmt: "ALTER TABLE " + table, table: table, column: column, change: change,
		breaks: []string{"rows sharing a value of (" + of + ") fail it with 1062 (duplicate entry)"},
		counts: "the rows sharing a value of (" + group + "), NULLs apart,",
		fix: fmt.Sprintf("find the duplicates with SELECT %s, COUNT(*) FROM %s GROUP BY %s HAVING COUNT(*) > 1, and merge or renumber them in a data migration of its own first",
			group, quoteName(table), group),
	}
	if primary {
		need.breaks = append(need.breaks, "rows with a NULL in ("+of+") fail it too (a primary key is NOT NULL)")
		need.counts = "the rows sharing a value of (" + group + ") or holding a NULL in it"
	}
	return need, true
}

// checkNeed is what enforcing a CHECK asks of the rows: verb is ADD for a
// new one (expr its condition), ALTER for ALTER CHECK … ENFORCED (expr nil:
// the condition is declared elsewhere).
func checkNeed(table, verb, name string, expr sqlparse.ExprNode) dataNeed {
	need := dataNeed{stmt: "ALTER TABLE " + table, table: table}
	label := "CHECK"
	if name != "" {
		label += " " + name
	}
	if expr == nil {
		need.change = "ALTER " + label + " ENFORCED"
		need.breaks = []string{"rows that break the CHECK fail it (3819 on MySQL)"}
		need.uncounted = "count the rows where its condition is false first"
		need.fix = "find the rows where the CHECK's condition is false (SELECT COUNT(*) FROM " + quoteName(table) +
			" WHERE NOT (condition)) and fix them in a data migration of its own first"
		return need
	}
	cond := sqlparse.RestoreText(expr)
	need.change = verb + " " + label + " (" + cond + ")"
	need.breaks = []string{"rows where the condition is false fail it (3819 on MySQL, 4025 on MariaDB)"}
	need.counts = "the rows where NOT (" + cond + ")"
	need.fix = fmt.Sprintf("find them with SELECT COUNT(*) FROM %s WHERE NOT (%s), and fix them in a data migration of its own first",
		quoteName(table), cond)
	return need
}

// refersToAny reports whether expression e names a column of cols.
func refersToAny(e sqlparse.ExprNode, cols map[string]bool) bool {
	if len(cols) == 0 {
		return false
	}
	v := &columnRefFinder{cols: cols}
	e.Accept(v)
	return v.found
}

// columnRefFinder looks for a reference to one of cols.
type columnRefFinder struct {
	cols  map[string]bool
	found bool
}

func (v *columnRefFinder) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if c, ok := n.(*sqlparse.ColumnNameExpr); ok && c.Name != nil && v.cols[c.Name.Name.L] {
		v.found = true
	}
	return n, v.found
}

func (v *columnRefFinder) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// quoteName quotes an identifier for SQL the user can run as it is.
func quoteName(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
