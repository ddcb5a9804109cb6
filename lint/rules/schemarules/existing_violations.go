package schemarules

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// ExistingViolations scans a live database for rows that already break the
// guards guard asks for: negative counters and duplicate business keys.
var ExistingViolations = &lint.Rule{
	Code:    "GS010",
	Name:    "existing-violations",
	Summary: "live: rows already negative, or duplicate business keys (counts + sample keys)",
	Doc: "A negative stock row or a payment recorded twice is the trace of a race that already " +
		"happened: a lock expired or failed over, and two writers both passed a check the " +
		"database did not enforce. The rows also block the fix: ADD CHECK (qty >= 0) validates " +
		"every row and fails on the first negative one (3819 on MySQL, 4025 on MariaDB), and ADD " +
		"UNIQUE fails with 1062 on the first duplicate. They must be repaired before the guard " +
		"migration can run.",
	Fix: "repair the rows first (reconcile negative counters with their ledger, merge or remove " +
		"duplicates), then add the constraint: CHECK (col >= 0) or UNIQUE on the key; find the " +
		"writer that produced them (an UPDATE without `AND col >= ?`, an INSERT without a unique key)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Live:     true,
	Run:      runExistingViolations,
}

// maxSamples is how many offending rows or keys a finding shows.
const maxSamples = 5

// maxSampleValue is how many characters of one sample value a finding shows.
const maxSampleValue = 40

// Server error numbers of a statement stopped by its time bound.
const (
	errMariaDBStatementTimeout = 1969 // ER_STATEMENT_TIMEOUT (max_statement_time)
	errMySQLQueryTimeout       = 3024 // ER_QUERY_TIMEOUT (MAX_EXECUTION_TIME)
)

// Server error numbers of a scan the account's privileges do not allow.
const (
	errTableAccessDenied  = 1142 // ER_TABLEACCESS_DENIED_ERROR: no SELECT on the table
	errColumnAccessDenied = 1143 // ER_COLUMNACCESS_DENIED_ERROR: no SELECT on a column
)

func runExistingViolations(p *lint.Pass) error {
	if p.Live == nil || p.Live.Data == nil {
		return nil
	}
	sc := &scanner{p: p, ctx: p.Live.Context, denied: map[*schema.Table]bool{}}
	if sc.ctx == nil {
		sc.ctx = context.Background()
	}
	for _, t := range tables(p) {
		for _, c := range lint.CounterColumns(p.Policy, t) {
			// An UNSIGNED column cannot hold a negative; a non-numeric one is
			// no counter the server could compare with 0.
			if c.Unsigned || !isNumeric(c) {
				continue
			}
			if sc.denied[t] {
				break
			}
			if err := sc.negatives(t, c); err != nil {
				return err
			}
		}
		for _, set := range duplicateKeySets(p.Policy, t) {
			if sc.denied[t] {
				break
			}
			if err := sc.duplicates(t, set); err != nil {
				return err
			}
		}
	}
	return nil
}

// duplicateKeySets returns the business keys and policy unique sets of t that
// no unique index covers: the sets whose duplicates nothing prevents.
func duplicateKeySets(pol *policy.Policy, t *schema.Table) [][]string {
	var out [][]string
	seen := map[string]bool{}
	add := func(set []string) {
		k := strings.ToLower(strings.Join(set, "\x00"))
		if seen[k] || t.HasUniqueOn(set...) {
			return
		}
		for _, c := range set {
			if t.Column(c) == nil {
				return
			}
		}
		seen[k] = true
		out = append(out, set)
	}
	for _, c := range t.Columns {
		if pol.IsBusinessKey(t.Name, c.Name) {
			add([]string{c.Name})
		}
	}
	for _, set := range pol.UniqueSets(t.Name) {
		if len(set) > 0 {
			add(set)
		}
	}
	return out
}

// scanner runs the bounded queries of one pass.
type scanner struct {
	p   *lint.Pass
	ctx context.Context
	// denied holds the tables the account may not read: their remaining
	// scans are skipped, the refusal reported once.
	denied map[*schema.Table]bool
}

// negatives reports the rows of t whose counter c is below zero.
func (s *scanner) negatives(t *schema.Table, c *schema.Column) error {
	col := quoteName(c.Name)
	from := " FROM " + quoteName(t.Name) + " WHERE " + col + " < 0"
	var n int64
	done, err := s.scalar(t, c.Name, "SELECT COUNT(*)"+from, &n)
	if err != nil || !done || n == 0 {
		return err
	}
	show := []*schema.Column{}
	for _, k := range t.PrimaryKey {
		if kc := t.Column(k); kc != nil && !strings.EqualFold(k, c.Name) {
			show = append(show, kc)
		}
	}
	order := col
	if len(show) > 0 {
		order = quoteList(columnNames(show))
	}
	show = append(show, c)
	rows, done, err := s.sample(t, c.Name, "SELECT "+quoteList(columnNames(show))+from+" ORDER BY "+order+" LIMIT "+strconv.Itoa(maxSamples), show, 0)
	if err != nil || !done {
		return err
	}
	msg := fmt.Sprintf("%s of %s already %s a negative %s", plural(n, "row", "rows"), t.Name, verb(n, "holds", "hold"), c.Name)
	msg += ": " + strings.Join(rows, "; ")
	if n > int64(len(rows)) {
		msg += "; …"
	}
	s.p.ReportTableFix(t, c.Name, fixNegatives(t, c.Name), "%s", msg)
	return nil
}

// duplicates reports the values of the key set that more than one row of t
// holds. Rows with a NULL in the key are left out: a UNIQUE index accepts
// any number of them.
func (s *scanner) duplicates(t *schema.Table, set []string) error {
	keys := quoteList(set)
	var where []string
	for _, k := range set {
		where = append(where, quoteName(k)+" IS NOT NULL")
	}
	group := " FROM " + quoteName(t.Name) + " WHERE " + strings.Join(where, " AND ") +
		" GROUP BY " + keys + " HAVING COUNT(*) > 1"
	slot := strings.Join(set, ",")
	var groups, total int64
	done, err := s.scalar(t, slot, "SELECT COUNT(*), COALESCE(SUM(n), 0) FROM (SELECT COUNT(*) AS n"+group+") AS dup", &groups, &total)
	if err != nil || !done || groups == 0 {
		return err
	}
	var cols []*schema.Column
	for _, k := range set {
		cols = append(cols, t.Column(k))
	}
	rows, done, err := s.sample(t, slot, "SELECT "+keys+", COUNT(*)"+group+" ORDER BY COUNT(*) DESC, "+keys+" LIMIT "+strconv.Itoa(maxSamples), cols, 1)
	if err != nil || !done {
		return err
	}
	what := t.Name + "." + set[0]
	if len(set) > 1 {
		what = t.Name + " " + list(set)
	}
	msg := fmt.Sprintf("%s of %s %s on more than one row (%s in all): %s", plural(groups, "value", "values"), what,
		verb(groups, "stands", "stand"), plural(total, "row", "rows"), strings.Join(rows, "; "))
	if groups > int64(len(rows)) {
		msg += "; …"
	}
	s.p.ReportTableFix(t, slot, fixDuplicates(t, set), "%s", msg)
	return nil
}

// scalar runs a query returning one row into dest. done is false when the
// server stopped the query at its time bound (reported as such).
func (s *scanner) scalar(t *schema.Table, slot, query string, dest ...any) (done bool, err error) {
	rows, err := s.p.Live.Data.QueryContext(s.ctx, s.bound(query))
	if err != nil {
		return s.settle(t, slot, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return s.settle(t, slot, err)
		}
		return false, fmt.Errorf("scan %s (%s): no row", t.Name, slot)
	}
	if err := rows.Scan(dest...); err != nil {
		return false, fmt.Errorf("scan %s (%s): %w", t.Name, slot, err)
	}
	return s.settle(t, slot, rows.Close())
}

// sample runs a query whose columns are cols followed by extra counts, and
// prints each row as col=value … (and "on N rows" for a count).
func (s *scanner) sample(t *schema.Table, slot, query string, cols []*schema.Column, counts int) (out []string, done bool, err error) {
	rows, err := s.p.Live.Data.QueryContext(s.ctx, s.bound(query))
	if err != nil {
		done, err = s.settle(t, slot, err)
		return nil, done, err
	}
	defer rows.Close()
	vals := make([]sql.NullString, len(cols)+counts)
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, false, fmt.Errorf("scan %s: %w", t.Name, err)
		}
		var parts []string
		for i, c := range cols {
			parts = append(parts, c.Name+"="+sampleValue(c, vals[i]))
		}
		line := strings.Join(parts, " ")
		if counts > 0 {
			line += " on " + vals[len(cols)].String + " rows"
		}
		out = append(out, line)
	}
	done, err = s.settle(t, slot, rows.Err())
	return out, done, err
}

// settle turns a query error into the rule's outcome: nil is done; a
// statement stopped by its time bound, or refused for lack of SELECT, is a
// warning that the data was not checked, and the audit of the target goes
// on; anything else fails the rule.
func (s *scanner) settle(t *schema.Table, slot string, err error) (bool, error) {
	if err == nil {
		return true, nil
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) && (me.Number == errTableAccessDenied || me.Number == errColumnAccessDenied) {
		column, what := "", "the table"
		if me.Number == errColumnAccessDenied {
			column, what = slot, "a column of "+slot
		} else {
			s.denied[t] = true
		}
		f := tableFinding(t, column, fmt.Sprintf("the scan of %s was refused (error %d): the account may not SELECT %s, "+
			"so existing negative counters and duplicate keys of %s are not checked", t.Name, me.Number, what, t.Name))
		f.Severity = policy.SevWarning
		f.Fix = fmt.Sprintf("grant the auditing account SELECT on %s (GRANT SELECT ON db.%s TO …), or audit with --no-data to read the schema only",
			q(t.Name), q(t.Name))
		s.p.Report(f)
		return false, nil
	}
	if errors.As(err, &me) && (me.Number == errMariaDBStatementTimeout || me.Number == errMySQLQueryTimeout) {
		f := tableFinding(t, slot, fmt.Sprintf("the scan of %s stopped at its time bound (%s): existing violations of %s not checked",
			t.Name, s.p.Live.ScanTimeout, slot))
		f.Severity = policy.SevWarning
		f.Fix = "run the audit when the server is less busy, or check the table by hand"
		s.p.Report(f)
		return false, nil
	}
	return false, fmt.Errorf("scan %s (%s): %w", t.Name, slot, err)
}

// bound wraps a SELECT so that the server stops it after ScanTimeout: a huge
// table must not hang the audit. MariaDB bounds a statement with SET
// STATEMENT max_statement_time (seconds) FOR, MySQL with the
// MAX_EXECUTION_TIME optimizer hint (milliseconds) after SELECT.
func (s *scanner) bound(query string) string {
	d := s.p.Live.ScanTimeout
	if d <= 0 {
		return query
	}
	if s.p.Live.MaxStatementTime {
		return "SET STATEMENT max_statement_time=" + strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " FOR " + query
	}
	ms := max(d.Milliseconds(), 1)
	return "SELECT /*+ MAX_EXECUTION_TIME(" + strconv.FormatInt(ms, 10) + ") */" + strings.TrimPrefix(query, "SELECT")
}

// quoteName backtick-quotes an identifier always: names read from a live
// server may be any keyword.
func quoteName(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteName(n)
	}
	return strings.Join(q, ", ")
}

// sampleValue prints a value the way SQL writes it: numbers bare, the rest
// quoted, long values cut and unprintable characters replaced.
func sampleValue(c *schema.Column, v sql.NullString) string {
	if !v.Valid {
		return "NULL"
	}
	s := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, v.String)
	if utf8.RuneCountInString(s) > maxSampleValue {
		s = string([]rune(s)[:maxSampleValue]) + "…"
	}
	if isNumeric(c) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// isNumeric reports whether c holds numbers the server compares with 0.
func isNumeric(c *schema.Column) bool {
	if c.IsInteger() {
		return true
	}
	switch c.Type {
	case "decimal", "numeric", "dec", "fixed", "float", "double", "real", "double precision":
		return true
	}
	return false
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}

func verb(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fixNegatives is the advice for the negative rows of t.c: repair, then the
// CHECK of GS003, which fails while any remain.
func fixNegatives(t *schema.Table, col string) string {
	return fmt.Sprintf("reconcile the rows (SELECT * FROM %[1]s WHERE %[2]s < 0) with their ledger, then "+
		"ALTER TABLE %[1]s ADD CONSTRAINT %[3]s CHECK (%[2]s >= 0), which fails (4025/3819) while any remain; "+
		"find the decrement without `AND %[2]s >= ?` that let them through",
		q(t.Name), q(col), q(schema.GuardName("chk", t.Name, col, "nonneg")))
}

// fixDuplicates is the advice for the duplicate keys of t: merge, then the
// UNIQUE index of GS005, which fails while any remain.
func fixDuplicates(t *schema.Table, set []string) string {
	qs := make([]string, len(set))
	for i, c := range set {
		qs[i] = q(c)
	}
	return fmt.Sprintf("merge or remove the duplicate rows, then ALTER TABLE %s ADD UNIQUE INDEX %s (%s), "+
		"ALGORITHM=INPLACE, LOCK=NONE, which fails (1062) while any remain",
		q(t.Name), q(schema.GuardName(append([]string{"uk", t.Name}, set...)...)), strings.Join(qs, ", "))
}
