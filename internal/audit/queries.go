package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// Digest is one row of performance_schema.events_statements_summary_by_digest:
// a statement the server ran, normalised, with how often and when.
type Digest struct {
	Digest string
	// Text is DIGEST_TEXT: names quoted, literals as ?, cut with "..." at
	// performance_schema_max_digest_length.
	Text                string
	Executions          int64
	FirstSeen, LastSeen time.Time
}

// digestQuery reads the digests of one database, the most run first.
// FIRST_SEEN and LAST_SEEN are TIMESTAMPs shown in the session's time zone;
// UNIX_TIMESTAMP reads them in UTC whatever the zone.
const digestQuery = "SELECT DIGEST, DIGEST_TEXT, COUNT_STAR, UNIX_TIMESTAMP(FIRST_SEEN), UNIX_TIMESTAMP(LAST_SEEN) " +
	"FROM performance_schema.events_statements_summary_by_digest " +
	"WHERE SCHEMA_NAME = ? AND DIGEST_TEXT IS NOT NULL ORDER BY COUNT_STAR DESC, DIGEST"

// digestConsumers must be enabled for the server to record digests.
var digestConsumers = []string{"global_instrumentation", "statements_digest"}

// ErrNoDigests says the server records no statement digests; its text
// names the setting to change.
var ErrNoDigests = errors.New("the server records no statement digests")

// readDigests checks that the server records digests and reads those of
// database db, with the length at which it cuts digest texts.
func readDigests(ctx context.Context, q lint.Querier, db string) ([]Digest, int, error) {
	var on sql.NullString
	var maxLen sql.NullInt64
	if err := queryRow(ctx, q, "SELECT @@GLOBAL.performance_schema, @@GLOBAL.performance_schema_max_digest_length", &on, &maxLen); err != nil {
		return nil, 0, fmt.Errorf("read performance_schema: %w", err)
	}
	if v := strings.ToUpper(on.String); v != "1" && v != "ON" {
		return nil, 0, fmt.Errorf("%w: performance_schema is OFF, so --queries cannot read the statements it ran "+
			"(set performance_schema=ON under [mysqld] in my.cnf and restart the server, then let the application run)", ErrNoDigests)
	}
	rows, err := q.QueryContext(ctx, "SELECT NAME, ENABLED FROM performance_schema.setup_consumers WHERE NAME IN ('"+
		strings.Join(digestConsumers, "', '")+"')")
	if err != nil {
		return nil, 0, digestAccessErr("performance_schema.setup_consumers", err)
	}
	var off []string
	for rows.Next() {
		var name, enabled string
		if err := rows.Scan(&name, &enabled); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("read performance_schema.setup_consumers: %w", err)
		}
		if !strings.EqualFold(enabled, "YES") {
			off = append(off, name)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, 0, digestAccessErr("performance_schema.setup_consumers", err)
	}
	if len(off) > 0 {
		return nil, 0, fmt.Errorf("%w: performance_schema is ON but its consumer %s is disabled "+
			"(UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME IN ('%s'), and "+
			"performance-schema-consumer-%s=ON under [mysqld] in my.cnf to keep it on after a restart)",
			ErrNoDigests, strings.Join(off, ", "), strings.Join(digestConsumers, "', '"), strings.ReplaceAll(off[len(off)-1], "_", "-"))
	}
	rows, err = q.QueryContext(ctx, digestQuery, db)
	if err != nil {
		return nil, 0, digestAccessErr("performance_schema.events_statements_summary_by_digest", err)
	}
	defer rows.Close()
	var out []Digest
	for rows.Next() {
		var d Digest
		var first, last sql.NullFloat64
		if err := rows.Scan(&d.Digest, &d.Text, &d.Executions, &first, &last); err != nil {
			return nil, 0, fmt.Errorf("read statement digests: %w", err)
		}
		d.FirstSeen, d.LastSeen = unixTime(first), unixTime(last)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, digestAccessErr("performance_schema.events_statements_summary_by_digest", err)
	}
	return out, int(maxLen.Int64), nil
}

// preparedExecutions counts the prepared statements the server executed
// (COM_STMT_EXECUTE), in every database: MariaDB counts them but records
// no digest of them.
func preparedExecutions(ctx context.Context, q lint.Querier) (int64, error) {
	var n sql.NullInt64
	const query = "SELECT SUM(COUNT_STAR) FROM performance_schema.events_statements_summary_global_by_event_name " +
		"WHERE EVENT_NAME = 'statement/com/Execute'"
	if err := queryRow(ctx, q, query, &n); err != nil {
		return 0, digestAccessErr("performance_schema.events_statements_summary_global_by_event_name", err)
	}
	return n.Int64, nil
}

// digestAccessErr words an error reading a performance_schema table; a
// denied SELECT says which grant is missing.
func digestAccessErr(table string, err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) && (me.Number == 1142 || me.Number == 1044) {
		return fmt.Errorf("%w: the account has no SELECT on %s, so --queries cannot read the statements the server ran "+
			"(GRANT SELECT ON performance_schema.* TO the audit account): %v", ErrNoDigests, table, err)
	}
	return fmt.Errorf("read %s: %w", table, err)
}

// queryRow reads the one row of query into dest.
func queryRow(ctx context.Context, q lint.Querier, query string, dest ...any) error {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return errors.New("no row")
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}

func unixTime(v sql.NullFloat64) time.Time {
	if !v.Valid || v.Float64 <= 0 {
		return time.Time{}
	}
	sec, frac := math.Modf(v.Float64)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// writeVerbs are the statements a truncated or unparsable digest is GQ009
// for: the query rules judge writes, and guard's own statements and a
// monitor's are reads.
var writeVerbs = map[string]bool{"UPDATE": true, "INSERT": true, "REPLACE": true, "DELETE": true}

// digestStatements turns digests into statements for the query rules, each
// with File set to its index so that findings map back. Parsed statements
// that read only system schemas (guard's own introspection, monitors) are
// left out, and so is the bookkeeping of guard and the tools it runs
// (toolStatement, toolProgram); so are reads that are truncated or do not
// parse, which skipped counts.
func digestStatements(ds []Digest, maxLen int, sch *schema.Schema) (stmts []*lint.Statement, skipped int) {
	p := sqlparse.NewParser()
	for i, d := range ds {
		dt := sqlparse.ReadDigest(d.Text)
		fr := &stmt.Fragment{File: digestFile(i), Lang: stmt.LangSQL, SQL: dt.SQL, Line: 1, Col: 1, EndLine: 1,
			Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}}, ID: d.Digest}
		st := &lint.Statement{Fragment: fr, SQL: dt.SQL, File: fr.File, Line: 1, Column: 1, EndLine: 1}
		switch node, err := p.Parse(dt.SQL); {
		case (dt.Truncated || err != nil) && (toolProgram(dt.SQL) || toolWrite(dt.SQL, sch)):
			continue
		case dt.Truncated || err != nil:
			if !writeVerbs[dt.Verb] {
				skipped++
				continue
			}
			if dt.Truncated {
				fr.SQL, st.SQL = "", ""
				fr.Unchecked = fmt.Sprintf("the server cut the digest text of this statement at "+
					"performance_schema_max_digest_length (%d bytes), so the rest of it is unknown", maxLen)
			} else {
				pe := &sqlparse.Error{Line: 1, Column: 1, Msg: err.Error()}
				errors.As(err, &pe)
				st.ParseErr = pe
			}
		case readsSystemOnly(node), toolStatement(node, sch):
			continue
		default:
			spellAsSchema(node, sch)
			st.Node = node
		}
		stmts = append(stmts, st)
	}
	return stmts, skipped
}

// digestFile is the stand-in file name of the i-th digest.
func digestFile(i int) string { return fmt.Sprintf("digest#%d", i) }

// systemSchemas hold the server's own tables.
var systemSchemas = map[string]bool{"information_schema": true, "performance_schema": true, "mysql": true, "sys": true}

// readsSystemOnly reports whether n names no table, or only tables of the
// system schemas: SELECT @@sql_mode, guard's information_schema reads.
func readsSystemOnly(n sqlparse.Node) bool {
	v := &tableVisitor{}
	n.Accept(v)
	return !v.user
}

// tableVisitor finds the tables a statement names; with sch, those of
// the live schema.
type tableVisitor struct {
	user   bool // a table outside the system schemas is named
	sch    *schema.Schema
	tables []*schema.Table
}

func (v *tableVisitor) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if tn, ok := n.(*sqlparse.TableName); ok && !systemSchemas[strings.ToLower(tn.Schema.O)] {
		v.user = true
		if v.sch != nil {
			if t := v.sch.Table(tn.Name.O); t != nil {
				v.tables = append(v.tables, t)
			}
		}
	}
	return n, false
}

func (v *tableVisitor) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// toolStatement reports whether n, a statement the server ran, is the
// bookkeeping of guard or of a tool it runs rather than the application's:
// an EXPLAIN or a SHOW, which change nothing (pt-online-schema-change
// explains its chunk queries and reads SHOW CREATE TABLE, SHOW VARIABLES…);
// an INSERT or REPLACE into a bookkeeping table (pt-osc's copy of the rows,
// INSERT LOW_PRIORITY IGNORE INTO _t_new … SELECT … FROM t), a CREATE or
// ALTER TABLE of one (CREATE TABLE guard_drill_… LIKE t); and any
// other statement that names bookkeeping tables only (golang-migrate's
// version writes, guard migrate's history, guard drill's decrements on its
// scratch view).
func toolStatement(n sqlparse.Node, sch *schema.Schema) bool {
	switch n := n.(type) {
	case *sqlparse.ExplainStmt, *sqlparse.ExplainForStmt, *sqlparse.ShowStmt:
		return true
	case *sqlparse.CreateTableStmt:
		return toolTable(n.Table.Name.O, sch) // the drill's CREATE TABLE guard_drill_… LIKE t
	case *sqlparse.AlterTableStmt:
		return toolTable(n.Table.Name.O, sch)
	case *sqlparse.InsertStmt:
		if n.Table != nil {
			if into, ok := n.Table.TableRefs.Left.(*sqlparse.TableSource); ok {
				if tn, ok := into.Source.(*sqlparse.TableName); ok {
					return toolTable(tn.Name.O, sch)
				}
			}
		}
	}
	v := &toolVisitor{sch: sch}
	n.Accept(v)
	return v.tool && !v.user
}

// toolVisitor sorts the tables a statement names outside the system
// schemas into bookkeeping tables (tool) and the application's (user).
type toolVisitor struct {
	sch        *schema.Schema
	tool, user bool
}

func (v *toolVisitor) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if tn, ok := n.(*sqlparse.TableName); ok && !systemSchemas[strings.ToLower(tn.Schema.O)] {
		if toolTable(tn.Name.O, v.sch) {
			v.tool = true
		} else {
			v.user = true
		}
	}
	return n, false
}

func (v *toolVisitor) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// toolWrite reports whether sql, a digest text that does not parse, writes
// a bookkeeping table, as its head says: pt-osc's CREATE TABLE and ALTER
// TABLE of _t_new, whose lengths the digest prints as (?), and its copy of
// a wide table, which names every column twice and is cut at
// performance_schema_max_digest_length.
func toolWrite(sql string, sch *schema.Schema) bool {
	_, table, ok := sqlparse.WrittenTable(sql)
	return ok && toolTable(table, sch)
}

// ptOSCTriggerPrefix starts the name of the triggers pt-online-schema-change
// creates on the table it alters (pt_osc_<db>_<table>_ins, _upd, _del) to
// copy the writes that run during the copy into its new table.
const ptOSCTriggerPrefix = "pt_osc_"

// toolProgram reports whether sql creates or drops one of pt-osc's
// triggers. The parser does not read triggers; their header is enough.
func toolProgram(sql string) bool {
	prog, ok := sqlparse.ReadProgram(sql)
	return ok && prog.Kind == "TRIGGER" && strings.HasPrefix(strings.ToLower(prog.Name), ptOSCTriggerPrefix)
}

// toolTable reports whether a table named name holds bookkeeping rather
// than the application's data: a table schema.IsBookkeeping names (the
// version tables, guard migrate's history, guard drill's scratch table),
// guard drill's view over its scratch table (its name and _v), and the
// tables pt-online-schema-change copies a table of sch into and keeps the
// original under until it drops it: _<table>_new and _<table>_old, with
// more leading underscores when such a name is taken.
func toolTable(name string, sch *schema.Schema) bool {
	if schema.IsBookkeeping(name) {
		return true
	}
	lower := strings.ToLower(name)
	if stem, ok := strings.CutSuffix(lower, "_v"); ok && strings.HasPrefix(stem, schema.DrillScratchPrefix) && schema.IsBookkeeping(stem) {
		return true
	}
	for _, suffix := range []string{"_new", "_old"} {
		if stem, ok := strings.CutSuffix(name, suffix); ok && strings.HasPrefix(stem, "_") {
			if orig := strings.TrimLeft(stem, "_"); orig != "" && sch != nil && sch.Table(orig) != nil {
				return true
			}
		}
	}
	return false
}

// spellAsSchema gives the names of n the spelling of the live schema:
// MariaDB's digest text prints a column whose name is a keyword (status,
// id) unquoted and in upper case, and findings must name the column the
// table has.
func spellAsSchema(n sqlparse.Node, sch *schema.Schema) {
	tv := &tableVisitor{sch: sch}
	n.Accept(tv)
	n.Accept(&columnSpeller{sch: sch, tables: tv.tables})
}

type columnSpeller struct {
	sch    *schema.Schema
	tables []*schema.Table
}

func (v *columnSpeller) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	cn, ok := n.(*sqlparse.ColumnName)
	if !ok {
		return n, false
	}
	candidates := v.tables
	if t := v.sch.Table(cn.Table.O); t != nil {
		candidates = []*schema.Table{t}
	}
	for _, t := range candidates {
		if c := t.Column(cn.Name.O); c != nil {
			cn.Name = sqlparse.CIStr{O: c.Name, L: strings.ToLower(c.Name)}
			break
		}
	}
	return n, true
}

func (v *columnSpeller) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// ranStatements are the statements a server ran in one database, read
// from its digests and parsed for the query rules.
type ranStatements struct {
	digests []Digest
	stmts   []*lint.Statement
	notes   []string
}

// readRan reads the digests of database db and turns them into statements
// whose names take the spelling of the live schema sch.
func readRan(ctx context.Context, q lint.Querier, db string, mariadb bool, sch *schema.Schema) (*ranStatements, error) {
	ds, maxLen, err := readDigests(ctx, q, db)
	if err != nil {
		return nil, err
	}
	ran := newRan(ds, maxLen, sch)
	if len(ds) == 0 {
		ran.notes = append(ran.notes, "--queries: performance_schema holds no statement run in "+db+
			" (it keeps digests since the server started, or since the table was last truncated)")
	}
	if mariadb {
		n, err := preparedExecutions(ctx, q)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			ran.notes = append(ran.notes, fmt.Sprintf("--queries: the server executed %d prepared statements since it started "+
				"(binary protocol: Go's database/sql without interpolateParams=true, Connector/J with useServerPrepStmts=true, "+
				"PDO without emulated prepares); MariaDB records no digest for them, so --queries does not see them: run "+
				"guard lint on the code that sends them", n))
		}
	}
	return ran, nil
}

// newRan parses digests read from a server that cuts their texts at
// maxLen bytes.
func newRan(ds []Digest, maxLen int, sch *schema.Schema) *ranStatements {
	ran := &ranStatements{digests: ds}
	stmts, skipped := digestStatements(ds, maxLen, sch)
	ran.stmts = stmts
	if skipped > 0 {
		ran.notes = append(ran.notes, fmt.Sprintf("--queries: %d of the %d statements recorded are not writes (reads, DDL) "+
			"and do not parse or have their digest text cut: the query rules judge writes, so they were skipped", skipped, len(ds)))
	}
	return ran
}

// observe returns what the statements show about the columns of sch, for
// the inferred vocabulary, as the code's statements show it to guard lint.
func (ran *ranStatements) observe(l *lint.Learner, sch *schema.Schema) []lint.Observation {
	if l == nil {
		return nil
	}
	var out []lint.Observation
	for _, st := range ran.stmts {
		if st.Node != nil {
			l.Observe(st, sch, func(o lint.Observation) { out = append(out, o) })
		}
	}
	return out
}

// judge runs the query rules on the statements and reports each finding
// with its digest.
func (ran *ranStatements) judge(rules []*lint.Rule, pol *policy.Policy, sch *schema.Schema, live *lint.Live, report func(lint.Finding)) error {
	byFile := map[string]Digest{}
	for i, d := range ran.digests {
		byFile[digestFile(i)] = d
	}
	digestReport := func(f lint.Finding) {
		d, ok := byFile[f.File]
		if !ok {
			return
		}
		f.File, f.Line, f.Column, f.EndLine = "", 0, 0, 0
		f.SQL = strings.Join(strings.Fields(d.Text), " ")
		f.Digest, f.Executions = d.Digest, d.Executions
		f.FirstSeen, f.LastSeen = rfc3339(d.FirstSeen), rfc3339(d.LastSeen)
		if f.Code == "GQ009" {
			f.Fix = digestFix
		}
		report(f)
	}
	for _, r := range rules {
		if r.Kind != lint.KindQuery {
			continue
		}
		if err := r.Run(lint.NewPass(r, pol, sch, ran.stmts, nil, live, digestReport)); err != nil {
			return fmt.Errorf("rule %s on statement digests: %w", r.Code, err)
		}
	}
	return nil
}

// digestFix is the advice for a digest guard could not read.
const digestFix = "find the statement in the application's code and check it there (guard lint reads it in full, " +
	"and takes a guard:ignore comment after a review); for a cut digest, raise performance_schema_max_digest_length " +
	"and max_digest_length under [mysqld] in my.cnf and restart the server"

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
