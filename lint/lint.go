// Package lint is guard's rule API: a Rule inspects a Pass (the schema model,
// the statements found in code, the migration files, the policy) and reports
// Findings. The rules themselves live in lint/rules.
package lint

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// Kind says what a rule inspects.
type Kind int

// The kinds of rules.
const (
	KindSchema    Kind = iota // tables of the schema model
	KindQuery                 // statements found in code and .sql files
	KindMigration             // migration files
	KindRedis                 // a live Redis server (guard audit --redis)
)

func (k Kind) String() string {
	switch k {
	case KindSchema:
		return "schema"
	case KindQuery:
		return "query"
	case KindMigration:
		return "migration"
	case KindRedis:
		return "redis"
	}
	return "unknown"
}

// Rule is one check. Run reports what it finds through the Pass and returns an
// error only when it could not do its work.
type Rule struct {
	Code string // stable code, e.g. "GQ002"
	Name string // stable kebab-case name, e.g. "unguarded-decrement"
	// Summary is the one-line "fires when" of the catalogue.
	Summary string
	// Doc is the rationale: why the pattern breaks under concurrency.
	Doc string
	// Fix is the default advice printed under each finding.
	Fix      string
	Kind     Kind
	Severity policy.Severity // default severity
	// Live rules need a server (sql_mode, version, data): guard audit runs them, guard lint does not.
	Live bool
	// PerStatement says that Run judges each statement of Pass.Statements
	// alone, by itself and its fragment, and reports nothing else: guard
	// lint then runs it on a file's statements a part at a time, each part
	// as soon as it is parsed.
	PerStatement bool
	// PerServer says that its findings are the server's, not one
	// database's (durability, replication): they name the server
	// host:port, and a fleet audit reports each once however many of its
	// databases were audited.
	PerServer bool
	// Races says that its findings are races a lock held around the
	// statement does not prevent: a finding then names the lock the host
	// code takes there (stmt.Context), since the lock is what its author
	// believed made it safe.
	Races bool
	Run   func(*Pass) error
	// Join makes the one finding, at cause, of the findings pieces that
	// several statements gave naming it (Finding.Causes); nil for none.
	Join func(cause Cause, pieces []Finding) Finding
}

// Statement is one SQL statement found in a file, parsed when possible.
type Statement struct {
	// Fragment is the SQL unit the statement was cut from.
	Fragment *stmt.Fragment
	// SQL is the statement text.
	SQL string
	// Offset is the byte offset of SQL in Fragment.SQL.
	Offset int
	File   string
	// Line and Column are the position of the statement's first character in
	// File; EndLine is the line of its last character.
	Line, Column, EndLine int
	// Node is the parsed statement; nil when it did not parse (ParseErr) or
	// could not be checked (Fragment.Unchecked), and, once the per-statement
	// rules have judged it, for a plain INSERT or REPLACE of written-out rows
	// of a .sql query source (the driver drops those trees part by part so
	// that a dump of rows is not held whole; the file-wide rules need none).
	Node     sqlparse.StmtNode
	ParseErr *sqlparse.Error

	// memo and more hold analyses several rules share (see Memo): the first
	// in place, which is all most statements ever have, the rest in order.
	// A statement has a handful of keys at most, so a slice scanned in
	// order is cheaper than a map allocated per statement.
	memo memoEntry
	more []memoEntry
}

type memoEntry struct{ key, value any }

// Memo returns the value stored under key, computing and storing it on first
// use: rules share per-statement analyses this way instead of each walking
// the tree again. Rules run one after another, so no locking is needed; key
// should be an unexported type of the caller's package.
func (st *Statement) Memo(key any, compute func() any) any {
	if st.memo.key != nil && st.memo.key == key {
		return st.memo.value
	}
	for _, e := range st.more {
		if e.key == key {
			return e.value
		}
	}
	v := compute()
	if st.memo.key == nil {
		st.memo = memoEntry{key, v}
	} else {
		st.more = append(st.more, memoEntry{key, v})
	}
	return v
}

// PosOf returns the file position of byte offset off within st.SQL.
func (st *Statement) PosOf(off int) (line, col int) {
	if st.Fragment == nil {
		return st.Line, st.Column
	}
	return st.Fragment.Pos(st.Offset + off)
}

// ErrPos returns the file position of st's parse error.
func (st *Statement) ErrPos() (line, col int) {
	if st.ParseErr == nil {
		return st.Line, st.Column
	}
	off := 0
	for l := 1; l < st.ParseErr.Line; l++ {
		i := strings.IndexByte(st.SQL[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	off += st.ParseErr.Column - 1
	if off > len(st.SQL) {
		off = len(st.SQL)
	}
	return st.PosOf(off)
}

// Migration is one golang-migrate up file.
type Migration struct {
	File    string
	Version uint64
	// Statements are the file's statements in order, but for the data
	// statements (INSERT, UPDATE, DELETE, SELECT …) that parse: the schema
	// replay and the migration rules read DDL only, and a file loading data
	// keeps nothing per row (see parseMigration). Data counts those.
	Statements []*Statement
	Data       int
	// Before is what the file's folder held at the git revision guard lint
	// --new-from-rev compares with; nil without one. The migrations of a
	// folder share it.
	Before *MigrationsAt
}

// Dir names the folder of the migration file: migrations in different
// folders build different schemas.
func (m *Migration) Dir() string { return path.Dir(m.File) }

// MigrationsAt are the up migrations one folder held at a git revision.
type MigrationsAt struct {
	// Rev is the revision as the user named it.
	Rev string
	// Files are the folder's up files there, by version; File is the path
	// as findings print it.
	Files []MigrationFileAt
}

// MigrationFileAt is one up migration a folder held at a revision.
type MigrationFileAt struct {
	File    string
	Version uint64
}

// Has reports whether the folder held a file of version v.
func (a *MigrationsAt) Has(v uint64) bool {
	for _, f := range a.Files {
		if f.Version == v {
			return true
		}
	}
	return false
}

// Newest returns the file of the highest version; ok is false when the
// folder held none.
func (a *MigrationsAt) Newest() (f MigrationFileAt, ok bool) {
	if len(a.Files) == 0 {
		return MigrationFileAt{}, false
	}
	return a.Files[len(a.Files)-1], true
}

// TableKey returns the lower-case name of a table reference without its
// schema qualifier, as the schema model keys tables; "" for nil.
func TableKey(t *sqlparse.TableName) string {
	if t == nil {
		return ""
	}
	return t.Name.L
}

// TableAsWritten returns the name of a table reference as the statement
// writes it, for messages; "" for nil.
func TableAsWritten(t *sqlparse.TableName) string {
	if t == nil {
		return ""
	}
	return t.Name.O
}

// CounterColumns returns the columns of t the policy treats as counters, in
// declaration order.
func CounterColumns(pol *policy.Policy, t *schema.Table) []*schema.Column {
	var out []*schema.Column
	for _, c := range t.Columns {
		if pol.IsCounter(t.Name, c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// CountingColumns returns the counters of t the code changes after the
// row exists (policy.CounterInUse): the ones a CHECK or NOT NULL guards.
func CountingColumns(pol *policy.Policy, t *schema.Table) []*schema.Column {
	var out []*schema.Column
	for _, c := range CounterColumns(pol, t) {
		if pol.CounterInUse(t.Name, c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// StateColumns returns the columns of t the policy treats as state
// machines, in declaration order.
func StateColumns(pol *policy.Policy, t *schema.Table) []*schema.Column {
	var out []*schema.Column
	for _, c := range t.Columns {
		if pol.IsState(t.Name, c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// Live describes the server of a live audit; nil offline.
type Live struct {
	Target       string // host:port/db, never credentials
	Version      string // server version string
	GlobalMode   string // global sql_mode
	SessionMode  string // session sql_mode
	EnforceCheck bool   // the server enforces CHECK constraints
	// CheckChecksOff lists the scopes ("global", "session") in which
	// MariaDB's check_constraint_checks is OFF: no CHECK is evaluated there.
	CheckChecksOff []string

	// Data reads the target's rows for the rules that look at existing data
	// (GS010); nil when the audit skips them (guard audit --no-data).
	Data Querier
	// Context bounds the queries of live rules; nil means context.Background.
	Context context.Context
	// ScanTimeout bounds each data scan on the server; zero means no bound.
	ScanTimeout time.Duration
	// MaxStatementTime says how the server bounds a statement: true for
	// MariaDB's max_statement_time, false for MySQL's MAX_EXECUTION_TIME hint.
	MaxStatementTime bool
	// Durability is how the server keeps commits and fails over (GS011,
	// GS012); nil when the audit did not read it, and on TiDB.
	Durability *Durability
	// TiDB is set when the server is TiDB; nil on MySQL and MariaDB.
	TiDB *TiDB
}

// Querier runs read-only queries; *sql.DB, *sql.Conn and *sql.Tx implement it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Pass is what a rule sees.
type Pass struct {
	Rule       *Rule
	Policy     *policy.Policy
	Schema     *schema.Schema
	Statements []*Statement
	Migrations []*Migration
	Live       *Live
	// ClauseSetters returns, as causes, the calls that may set the Example
	// property of a caller-supplied clause of MyBatis statement fr
	// (stmt.Dollar.CallerSupplied) to a string no check vouches for; nil
	// answers none. DollarChecked reports whether every value reaching
	// substitution d of fr is checked before use; nil answers no.
	ClauseSetters func(fr *stmt.Fragment, property string) []Cause
	DollarChecked func(fr *stmt.Fragment, d stmt.Dollar) bool
	// MapperCalls are the MyBatis Generator write calls of the Java file
	// File, with the calls of service methods that wrap one resolved to
	// it (WrapperIndex), set on a pass of its own that runs once every
	// mapper XML is read; nil on every other pass.
	MapperCalls []stmt.MapperCall
	// Mappers indexes the generated write statements of every mapper XML
	// read, for the pass of MapperCalls.
	Mappers MapperIndex
	// File is the Java file whose MapperCalls the pass judges.
	File string
	// Redis is the server a rule of KindRedis judges; nil on every other
	// pass.
	Redis *Redis
	// Usage says where the code uses the tables the migrations change,
	// for the migration rules; nil answers nothing is used.
	Usage *Usage
	// Sharding says which tables a sharded database spreads over shards,
	// for the schema rules that judge what a UNIQUE index guarantees; nil
	// when every table is whole on one server.
	Sharding *Sharding

	report func(Finding)
	// severity is what the policy makes of the rule's own code.
	severity policy.Severity
}

// NewPass returns a pass for rule whose findings go to report.
func NewPass(rule *Rule, pol *policy.Policy, s *schema.Schema, stmts []*Statement, migs []*Migration, live *Live, report func(Finding)) *Pass {
	return &Pass{Rule: rule, Policy: pol, Schema: s, Statements: stmts, Migrations: migs, Live: live, report: report}
}

// Report records a finding, filling code, rule name, severity and fix from
// the rule where the finding leaves them empty.
func (p *Pass) Report(f Finding) {
	if f.Code == "" {
		f.Code = p.Rule.Code
	}
	if f.Rule == "" {
		f.Rule = p.Rule.Name
	}
	switch {
	case f.Severity != "":
	case f.Code == p.Rule.Code:
		// The policy is read once a pass for the rule's own findings.
		if p.severity == "" {
			p.severity = p.Policy.Severity(f.Code, p.Rule.Severity)
		}
		f.Severity = p.severity
	default:
		f.Severity = p.Policy.Severity(f.Code, p.Rule.Severity)
	}
	if f.Fix == "" {
		f.Fix = p.Rule.Fix
	}
	if p.Live != nil && f.Target == "" && f.File == "" {
		f.Target = p.Live.Target
	}
	p.report(f)
}

// ReportStatement records a finding on a statement.
func (p *Pass) ReportStatement(st *Statement, table, column, format string, args ...any) {
	p.ReportStatementFix(st, table, column, "", format, args...)
}

// ReportStatementFix is ReportStatement with advice written for this
// statement, in place of the rule's general fix.
func (p *Pass) ReportStatementFix(st *Statement, table, column, fix, format string, args ...any) {
	msg := sprintf(format, args)
	if fr := st.Fragment; fr != nil && fr.Builder != "" && fr.Unchecked == "" {
		// The text is not in the file: say where it came from.
		msg += " (SQL rendered by guard from the " + fr.Builder + ")"
	}
	if st.Fragment != nil {
		msg += p.contextNote(st.Fragment.Context)
	}
	p.Report(Finding{
		File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine,
		Table: table, ColumnName: column, Fix: fix,
		Message: msg,
		SQL:     Compact(st.SQL),
	})
}

// sprintf is fmt.Sprintf(format, args...), without the formatting of a
// message already whole ("%s" and one string), as most rules pass theirs.
func sprintf(format string, args []any) string {
	if format == "%s" && len(args) == 1 {
		if s, ok := args[0].(string); ok {
			return s
		}
	}
	return fmt.Sprintf(format, args...)
}

// ReportTable records a finding on a table, at the statement that created it
// offline or on the target live.
func (p *Pass) ReportTable(t *schema.Table, column, format string, args ...any) {
	p.ReportTableFix(t, column, "", format, args...)
}

// ReportTableFix is ReportTable with advice written for this table, in
// place of the rule's general fix.
func (p *Pass) ReportTableFix(t *schema.Table, column, fix, format string, args ...any) {
	f := Finding{Table: t.Name, ColumnName: column, Fix: fix, Message: fmt.Sprintf(format, args...)}
	if t.Created.File != "" {
		f.File, f.Line, f.Column, f.EndLine = t.Created.File, t.Created.Line, max(t.Created.Col, 1), t.Created.Line
	}
	p.Report(f)
}

// ReportGap records a finding on a table that lacks a guard the policy asks
// for, with the gap in structured form: guard plan writes the migrations
// that close exactly the gaps the schema rules report.
func (p *Pass) ReportGap(t *schema.Table, g Gap, column, fix, format string, args ...any) {
	f := Finding{Table: t.Name, ColumnName: column, Fix: fix, Message: fmt.Sprintf(format, args...), Gap: &g}
	if t.Created.File != "" {
		f.File, f.Line, f.Column, f.EndLine = t.Created.File, t.Created.Line, max(t.Created.Col, 1), t.Created.Line
	}
	p.Report(f)
}

// Gap is one guard the policy asks for and a table lacks, as a schema rule
// reports it: the planner turns each into migration steps.
type Gap struct {
	Table string
	// Rule is the code of the rule that reports the gap: GS003 (no CHECK on
	// a counter), GS004 (NULLable counter), GS005 (business key or policy
	// unique set without a UNIQUE index) or GS006 (no version column).
	Rule string
	// Columns are the columns concerned, as the table spells them: the
	// counter, the key or the set; the version column for GS006.
	Columns []string
	// Unenforced is the NOT ENFORCED CHECK that already proves a GS003
	// counter non-negative, if any: turning it on closes the gap.
	Unenforced *schema.Check
	// Restore is the column-level CHECK of a GS004 counter: MariaDB ties it
	// to the column, and the MODIFY that makes the column NOT NULL drops it
	// with the old definition, so an enforced one has to be added back and
	// an unenforced one cannot be switched on afterwards.
	Restore *schema.Check
}

// Compact folds runs of white space so a statement prints on one line, as
// strings.Fields and strings.Join do; a statement already so is returned
// as it is, without a copy.
func Compact(sql string) string {
	if isCompact(sql) {
		return sql
	}
	return strings.Join(strings.Fields(sql), " ")
}

// isCompact reports whether Compact would return sql unchanged: no space
// at either end, and between words only single ASCII spaces. Most reported
// statements are already so, and are then kept without a copy.
func isCompact(sql string) bool {
	prevSpace := true // no space may lead
	for i := 0; i < len(sql); {
		switch compactClass[sql[i]] {
		case compactWord:
			prevSpace = false
		case compactSpace:
			if prevSpace {
				return false
			}
			prevSpace = true
		case compactBreak:
			return false
		default: // the first byte of a character beyond ASCII
			r, w := utf8.DecodeRuneInString(sql[i:])
			if unicode.IsSpace(r) {
				return false
			}
			prevSpace = false
			i += w
			continue
		}
		i++
	}
	return !prevSpace || sql == ""
}

// The classes of the bytes isCompact reads.
const (
	compactWord  = iota // any other ASCII byte
	compactSpace        // ' '
	compactBreak        // \t \n \v \f \r: white space Compact folds
	compactWide         // a byte of a character beyond ASCII
)

// compactClass is the class of each byte, so that isCompact, which reads
// every reported statement, tests one table entry per byte.
var compactClass = func() (t [256]uint8) {
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = compactWide
	}
	t[' '] = compactSpace
	for _, c := range "\t\n\v\f\r" {
		t[c] = compactBreak
	}
	return t
}()

// Finding is one reported problem; its JSON form is the contract of --format json.
type Finding struct {
	Code       string          `json:"code"`
	Rule       string          `json:"rule"`
	Severity   policy.Severity `json:"severity"`
	File       string          `json:"file"`
	Line       int             `json:"line"`
	Column     int             `json:"column"`
	EndLine    int             `json:"end_line"`
	Target     string          `json:"target"`
	Table      string          `json:"table"`
	ColumnName string          `json:"column_name"`
	Message    string          `json:"message"`
	Fix        string          `json:"fix"`
	SQL        string          `json:"sql"`
	// Digest, Executions, FirstSeen and LastSeen describe the statement a
	// live server ran (guard audit --queries): its performance_schema
	// digest, how often it ran and when it ran first and last (RFC 3339).
	// Empty on every other finding, and then left out of the JSON.
	Digest     string `json:"digest,omitempty"`
	Executions int64  `json:"executions,omitempty"`
	FirstSeen  string `json:"first_seen,omitempty"`
	LastSeen   string `json:"last_seen,omitempty"`
	// Settings are the server settings a live finding rests on, by name
	// (innodb_flush_log_at_trx_commit: "2"); Databases counts the audited
	// databases that share the server a PerServer finding names. Empty on
	// every other finding, and then left out of the JSON.
	Settings  map[string]string `json:"settings,omitempty"`
	Databases int               `json:"databases,omitempty"`
	// Gap is the missing guard a schema rule found, for guard plan; nil for
	// every other finding.
	Gap *Gap `json:"-"`
	// Causes are the places of host code that make a statement's finding
	// and may make others' (see Cause, JoinCauses).
	Causes []Cause `json:"-"`
}

// Summary counts what a run saw and found; its JSON form is part of the contract.
type Summary struct {
	Error      int `json:"error"`
	Warning    int `json:"warning"`
	Info       int `json:"info"`
	Files      int `json:"files"`
	Statements int `json:"statements"`
	Tables     int `json:"tables"`
}

// Result is the outcome of a run: findings sorted by file, line, column, code.
type Result struct {
	Findings []Finding
	Summary  Summary
	// OtherEngines lists the query sources (.sql, Go, Java, mapper XML)
	// left out because their path names another database engine; the
	// command line says so on stderr.
	OtherEngines []string
	// Templates lists the sources left out because their path holds a code
	// generator's placeholder; Flyway the Flyway migrations left out of the
	// query rules (they run once, at deploy). The command line says so.
	Templates, Flyway []string
	// Baseline says what Config.Baseline hid; nil without one.
	Baseline *BaselineOutcome
}
