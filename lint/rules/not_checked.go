package rules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// NotChecked reports every statement the other rules could not look at, so
// that a gap in guard's view is never mistaken for a clean bill.
var NotChecked = &lint.Rule{
	Code:    "GQ009",
	Name:    "not-checked",
	Summary: "statement unparsable or dynamic (built at run time); says why, never silent",
	Doc: "guard proves a write safe by reading its SQL: the WHERE guard, the version CAS, the " +
		"columns it sets. SQL assembled at run time (fmt.Sprintf, string concatenation, MyBatis ${}) " +
		"or SQL in a dialect the parser does not know cannot be read, so none of the concurrency " +
		"rules ran on it; an unchecked oversell looks exactly like a clean one. This rule lists those " +
		"statements so that each one is either made checkable or reviewed and suppressed with a reason. " +
		"A statement naming a database, table, column, index or constraint over 64 characters, which the parser " +
		"takes and MySQL and MariaDB refuse (Error 1059), is reported too, as an error: it never runs as written.",
	Fix: "write the statement as one constant string with ? placeholders (build only the argument " +
		"list at run time), e.g. `db.ExecContext(ctx, \"UPDATE t_inventory SET inventory = inventory - ? " +
		"WHERE id = ? AND inventory >= ?\", n, id, n)`; if the SQL is valid syntax guard does not know, " +
		"review it by hand and put a `guard:ignore GQ009 <reason>` comment on the line before it",
	Kind:     lint.KindQuery,
	Severity: policy.SevWarning,
	Run:      runNotChecked,
}

func runNotChecked(pass *lint.Pass) error {
	// Migration statements count too: one the parser rejects is missing from
	// the replayed schema, and nothing else says so.
	stmts := pass.Statements
	var data map[string]int // the data statements a migration counts but does not keep
	for _, m := range pass.Migrations {
		stmts = append(stmts[:len(stmts):len(stmts)], m.Statements...)
		if m.Data > 0 {
			if data == nil {
				data = map[string]int{}
			}
			data[m.File] += m.Data
		}
	}
	runs := runnableStatements(pass.Statements)
	foreign := foreignScripts(stmts, data)
	for _, st := range stmts {
		if fs, ok := foreign[st.File]; ok && st.ParseErr != nil {
			if fs.first == st {
				line, col := st.ErrPos()
				engine := "looks written for another database engine"
				if fs.pg == fs.failed {
					engine = "is written for PostgreSQL (" + fs.mark + ")"
				}
				pass.ReportStatementFix(st, "", "", foreignFix(st),
					"not checked: %d of the %d statements of this file do not parse as MySQL (the first at %d:%d: %s); "+
						"the file %s, so no rule checked them",
					fs.failed, fs.total, line, col, st.ParseErr.Msg, engine)
			}
			continue
		}
		switch {
		case st.ParseErr != nil && st.Fragment != nil && st.Fragment.EmptiedClause != "" && runs[statementOf(st.Fragment)]:
			// A variant with an empty <set> or <trim> is SQL MyBatis sends
			// and the server refuses; the statement's other variants, which
			// parse, are what it runs.
		case st.ParseErr != nil && st.Fragment != nil && st.Fragment.Variant == stmt.VariantAbsent && runs[statementOf(st.Fragment)]:
			// The same with every optional condition absent: `WHERE id IN
			// <if test="list != null"><foreach …>` is SQL the server
			// refuses when the caller passes no list; the variants that
			// parse are what the statement is for.
		case st.ParseErr != nil && st.Fragment != nil && st.Fragment.EngineBranches && runs[statementOf(st.Fragment)]:
			// A branch for another database (`<if test="dbType == 1">`
			// around Oracle's to_char) beside the MySQL one, which parses.
		case st.Fragment != nil && st.Fragment.Unchecked == stmt.EmptyWhenAbsent && runs[statementOf(st.Fragment)]:
			// Nothing at all when no condition holds, SQL when one does:
			// the variants that render are what MyBatis runs (a statement
			// written once per database, each in its <if>).
		case st.Fragment != nil && st.Fragment.Unchecked != "":
			pass.ReportStatementFix(st, "", "", dynamicFix(st), "not checked: %s", st.Fragment.Unchecked)
		case st.ParseErr != nil && dollarAt(st):
			// The parser stopped at a MyBatis ${…} in a place that takes
			// SQL syntax (`${params.dataScope}` after the WHERE): GQ010
			// reports it and says the statement cannot be checked.
		case st.ParseErr != nil && storedProgram(st) != "":
			// MySQL syntax the parser does not read: say what it is rather
			// than call it wrong.
			line, col := st.ErrPos()
			pass.ReportStatementFix(st, "", "", programFix(st), "not checked: %s is a stored program; guard does not read "+
				"the statements of its body (the parser stopped at %d:%d: %s), so no rule checked them",
				storedProgram(st), line, col, st.ParseErr.Msg)
		case st.ParseErr != nil && templateMark(st) != "":
			// `"UPDATE %s SET %s WHERE %s"` kept for String.format or
			// fmt.Sprintf elsewhere: a template, not SQL with a typo.
			at, _ := findFormatVerb(st.SQL)
			line, col := st.PosOf(at)
			pass.ReportStatementFix(st, "", "", templateFix(st), "not checked: a template (%s at %d:%d) filled "+
				"at run time; the SQL it builds is not in the code, so no rule checked it", templateMark(st), line, col)
		case st.ParseErr != nil:
			// The finding stands at the statement (DESIGN §5: line is the
			// statement's first line); the message says where the parser stopped.
			line, col := st.ErrPos()
			why := "the statement may use syntax guard does not know"
			if mark := sqlparse.PostgresMark(st.SQL); mark != "" {
				why = "it is PostgreSQL (" + mark + "), and guard reads MySQL and MariaDB only"
			}
			pass.ReportStatementFix(st, "", "", unparsedFix(st), "not checked: SQL does not parse at %d:%d: %s; %s, so no rule checked it",
				line, col, st.ParseErr.Msg, why)
		}
		if st.Node != nil && len(st.SQL) > sqlparse.MaxIdentifier {
			reportLongNames(pass, st)
		}
	}
	return nil
}

// reportLongNames reports a statement that names a database, table,
// column, index or constraint longer than the servers accept. The parser
// reads it, so the other rules judged it, but the server refuses it (Error
// 1059): what they say describes a statement that never runs, and a
// migration that declares such a name fails on the server. That is an
// error, not the warning of a statement guard could not read, unless the
// policy sets GQ009 otherwise.
func reportLongNames(pass *lint.Pass, st *lint.Statement) {
	if !sqlparse.MayNameLong(st.SQL) {
		return
	}
	names := sqlparse.LongNames(st.Node)
	if len(names) == 0 {
		return
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("the %s name %s is %d characters long", n.Kind, n.Name, n.Length)
	}
	msg := fmt.Sprintf("not checked: the server refuses this statement: %s, over the limit of %d characters that MySQL "+
		"and MariaDB set on database, table, column, index and constraint names (Error 1059, identifier name is too long)",
		strings.Join(parts, ", and "), sqlparse.MaxIdentifier)
	if fr := st.Fragment; fr != nil && fr.Builder != "" && fr.Unchecked == "" {
		msg += " (SQL rendered by guard from the " + fr.Builder + ")"
	}
	pass.Report(lint.Finding{
		File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
		Severity: pass.Policy.Severity(pass.Rule.Code, policy.SevError),
		Fix: fmt.Sprintf("shorten the name to at most %d characters (the servers count characters, not bytes); for a name "+
			"built from the table's and its columns' names, such as an index's or a constraint's, abbreviate the parts",
			sqlparse.MaxIdentifier),
		Message: msg,
		SQL:     lint.Compact(st.SQL),
	})
}

// foreignScript is a .sql file or a mapper XML most of whose statements,
// or most of whose CREATE TABLE statements, the parser rejects: a script for another engine (a PostgreSQL, Oracle or
// Dameng copy of the schema beside the MySQL one, the mapper of a TDengine
// data source) whose path did not say so. One finding says so for the
// file, instead of one per statement.
type foreignScript struct {
	first         *lint.Statement // the first statement that does not parse
	failed, total int
	// tables and failedTables count the CREATE TABLE statements.
	tables, failedTables int
	// pg counts the failing statements that carry a mark of PostgreSQL,
	// mark the first such mark.
	pg   int
	mark string
}

// foreignMin is the number of failing statements from which a .sql file
// that mostly fails is taken for another engine's script: below it, each
// failure is reported where it stands.
const foreignMin = 5

// foreignScripts finds the .sql and mapper XML files of stmts that mostly
// fail to parse. Go and Java files are left out: their statements are
// strings among code, each reported where it stands. parsed adds, by file,
// the statements that parsed and are not among stmts (a migration's data
// statements).
func foreignScripts(stmts []*lint.Statement, parsed map[string]int) map[string]*foreignScript {
	var out map[string]*foreignScript
	counts := map[string]*foreignScript{}
	for _, st := range stmts {
		if st.Fragment == nil || (st.Fragment.Lang != stmt.LangSQL && st.Fragment.Lang != stmt.LangXML) ||
			st.Fragment.Unchecked != "" || (st.ParseErr != nil && (st.Fragment.EmptiedClause != "" || dollarAt(st))) {
			continue // a failure of its own dynamic making says nothing of the dialect
		}
		fs := counts[st.File]
		if fs == nil {
			fs = &foreignScript{}
			counts[st.File] = fs
		}
		fs.total++
		table := sqlparse.CreatesTable(st.SQL)
		if table {
			fs.tables++
		}
		if st.ParseErr != nil {
			fs.failed++
			if table {
				fs.failedTables++
			}
			if mark := sqlparse.PostgresMark(st.SQL); mark != "" {
				fs.pg++
				if fs.mark == "" {
					fs.mark = mark
				}
			}
			if fs.first == nil {
				fs.first = st
			}
		}
	}
	for file, n := range parsed {
		if fs := counts[file]; fs != nil {
			fs.total += n
		}
	}
	for file, fs := range counts {
		// Mostly failing, or failing in most of its table definitions: a
		// schema of another engine keeps its indexes and ALTERs in syntax
		// MySQL shares, so its statements as a whole may mostly parse.
		// A file whose every failure is PostgreSQL (sqlc's queries, a
		// mapper for a PostgreSQL data source) is one too, however few.
		if fs.failed >= foreignMin && (2*fs.failed > fs.total || 2*fs.failedTables > fs.tables) || fs.failed >= 2 && fs.pg == fs.failed {
			if out == nil {
				out = map[string]*foreignScript{}
			}
			out[file] = fs
		}
	}
	return out
}

// foreignFix is the advice for a script written for another engine.
func foreignFix(st *lint.Statement) string {
	return "if the file is for another database engine, leave it out of the lint with a `[lint] exclude` glob in " +
		"policies.toml (or keep it in a folder named after its engine, e.g. sql/postgresql/, which guard leaves out); " +
		"if it is meant for MySQL, correct the syntax at the position given, then run guard again"
}

// dollarAt reports whether st's parse error stands at one of its MyBatis
// ${…} substitutions, which guard reads as a placeholder.
func dollarAt(st *lint.Statement) bool {
	if st.Fragment == nil {
		return false
	}
	line, col := st.ErrPos()
	for _, d := range st.Fragment.Dollar {
		if d.Line == line && d.Col == col {
			return true
		}
	}
	return false
}

// lang is the language of the file st stands in; SQL when unknown.
func lang(st *lint.Statement) stmt.Lang {
	if st.Fragment == nil || st.Fragment.Lang == "" {
		return stmt.LangSQL
	}
	return st.Fragment.Lang
}

// dynamicFix is the advice for SQL assembled at run time, in the language
// it was assembled in. Its table is unknown: the statement could not be read.
func dynamicFix(st *lint.Statement) string {
	if fix := generatedFix(st); fix != "" {
		return fix
	}
	if st.Fragment != nil && st.Fragment.Builder == stmt.BuilderJPQL {
		return "guard renders JPQL to MySQL through the @Entity classes of the files it reads; write the " +
			"@Modifying statement with alias.field paths of such entities, or as SQL with nativeQuery = true, so " +
			"that guard can read it; " + reviewAdvice(st)
	}
	switch lang(st) {
	case stmt.LangGo:
		return "write the statement as one constant string with ? placeholders and build only the argument list " +
			"at run time (`db.ExecContext(ctx, query, args...)` with `const query = \"UPDATE … WHERE id = ? AND …\"`), " +
			"so that guard can read it; " + reviewAdvice(st)
	case stmt.LangJava:
		return "write the statement as one constant string with ? placeholders (a PreparedStatement, or #{…} in a " +
			"MyBatis annotation) and bind the values, so that guard can read it; " + reviewAdvice(st)
	case stmt.LangXML:
		return "bind values with #{…} and pick identifiers among constant fragments with <choose>/<when>, so that " +
			"guard can read every variant; " + reviewAdvice(st)
	}
	return reviewAdvice(st)
}

// unparsedFix is the advice for a statement the parser rejected.
// templateMark returns the first printf verb (`%s`, `%d`, `%1$s`) or
// `${name}` placeholder outside quotes of a Go or Java string, "" when there
// is none or st comes from another language. (A MyBatis `${…}` is GQ010's
// and never reaches here.)
func templateMark(st *lint.Statement) string {
	if l := lang(st); l != stmt.LangGo && l != stmt.LangJava {
		return ""
	}
	if start, end := findFormatVerb(st.SQL); start >= 0 {
		return st.SQL[start:end]
	}
	return ""
}

// findFormatVerb finds the first printf verb or ${name} of sql outside
// quotes: its start and end, -1 and -1 when there is none. In SQL, % outside
// quotes is the modulo operator, which a written statement seldom puts right
// before a name starting with one of the verbs' letters.
func findFormatVerb(sql string) (start, end int) {
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '$' && i+1 < len(sql) && sql[i+1] == '{':
			if k := strings.IndexByte(sql[i:], '}'); k > 2 {
				return i, i + k + 1 // ${TABLE_PREFIX}, replaced before the statement runs
			}
		case c == '%':
			j := i + 1
			for j < len(sql) && (sql[j] >= '0' && sql[j] <= '9' || sql[j] == '$' || sql[j] == '-') {
				j++
			}
			if j < len(sql) && strings.IndexByte("sdvqSx", sql[j]) >= 0 {
				return i, j + 1
			}
		}
	}
	return -1, -1
}

// templateFix is the advice for a format template.
func templateFix(st *lint.Statement) string {
	return "build the statement with placeholders (`?`) for values and constants for names, so that the SQL is " +
		"in the code; else review the SQL the template builds by hand and put `" + ignoreComment(st) +
		"` on the line before it"
}

// storedProgram names the trigger, procedure, function or event st creates
// (`CREATE PROCEDURE addDep`), "" when st creates none.
func storedProgram(st *lint.Statement) string {
	prog, ok := sqlparse.ReadProgram(st.SQL)
	if !ok || prog.Verb != "CREATE" || prog.Kind == "VIEW" || prog.Name == "" {
		return ""
	}
	name := prog.Name
	if prog.Schema != "" {
		name = prog.Schema + "." + name
	}
	return "CREATE " + prog.Kind + " " + name
}

// programFix is the advice for a stored program's body.
func programFix(st *lint.Statement) string {
	if fix := generatedFix(st); fix != "" {
		return fix
	}
	return "review the writes of its body by hand: each one that spends or moves a value needs its guard in its " +
		"own WHERE (`AND qty >= ?`, `AND version = ?`) and a check of ROW_COUNT() after it; then put `" +
		ignoreComment(st) + "` on the line before the program"
}

func unparsedFix(st *lint.Statement) string {
	if fix := generatedFix(st); fix != "" {
		return fix
	}
	return "correct the syntax; " + reviewAdvice(st)
}

// generatedFix is the advice for a statement of a generated file, "" for
// any other: the file must not be edited, neither to rewrite the statement
// nor to add a guard:ignore (the next generation drops both), so the advice
// points at the generator's template and at the policy.
func generatedFix(st *lint.Statement) string {
	if st.Fragment == nil || st.Fragment.Generated == "" {
		return ""
	}
	return "this file is generated (`" + st.Fragment.Generated + "`): the statement comes from the generator's " +
		"template, so change the template and regenerate rather than edit the file (a rewrite or a guard:ignore " +
		"there is lost at the next generation); if what the template builds is right, review it once and lower " +
		"the code in policies.toml (`[rules]` `GQ009 = \"info\"`, for every file) or leave the generated files " +
		"out with a `[lint] exclude` glob (every rule then skips them)"
}

// reviewAdvice says how to suppress the finding after a review, in the
// comment syntax of the file.
func reviewAdvice(st *lint.Statement) string {
	return "if it is right as it is (valid syntax guard does not know, or SQL that must be built), review it by hand " +
		"and put `" + ignoreComment(st) + "` on the line before it"
}

// ignoreComment is the suppression of a GQ009 in the language of st's file.
func ignoreComment(st *lint.Statement) string {
	switch lang(st) {
	case stmt.LangGo, stmt.LangJava:
		return "// guard:ignore GQ009 <reason>"
	case stmt.LangXML:
		return "<!-- guard:ignore GQ009 <reason> -->"
	}
	return "-- guard:ignore GQ009 <reason>"
}

// runnableStatements returns the dynamic statements of which some variant parses.
func runnableStatements(stmts []*lint.Statement) map[mapperStatement]bool {
	out := map[mapperStatement]bool{}
	for _, st := range stmts {
		if st.Node != nil && st.Fragment != nil && st.Fragment.Variant != "" {
			out[statementOf(st.Fragment)] = true
		}
	}
	return out
}
