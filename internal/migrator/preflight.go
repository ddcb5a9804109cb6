package migrator

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/schema"
)

// MaxSamples is how many offending rows (or duplicate key values) a probe
// shows.
const MaxSamples = 5

// Probe statuses.
const (
	StatusOK      = "ok"      // no existing row breaks the guard
	StatusFail    = "fail"    // some rows would make the statement fail
	StatusSkipped = "skipped" // not checked; Note says why

	// statusNotNarrower is a fits probe of a column whose new type is not
	// narrower than its live one: there is nothing to count, and no
	// verdict is reported.
	statusNotNarrower = "not-narrower"
)

// Probe is preflight's verdict on one guard of the pending migrations.
type Probe struct {
	Guard  *Guard `json:"guard"`
	Status string `json:"status"`
	// Rows is the number of rows that break the guard: rows where a CHECK
	// is false or a NOT NULL column is NULL; for a UNIQUE index, the rows
	// of the duplicate groups.
	Rows int64 `json:"rows"`
	// Groups is the number of duplicate key values (UNIQUE, PRIMARY KEY).
	Groups int64 `json:"groups,omitempty"`
	// NullRows counts the rows with a NULL in a new PRIMARY KEY (in Rows too).
	NullRows int64    `json:"null_rows,omitempty"`
	Samples  []Sample `json:"samples,omitempty"`
	Note     string   `json:"note,omitempty"`
	// Elapsed is how long the probe's queries took.
	Elapsed time.Duration `json:"-"`
}

// Sample is one offending row (its primary key and the values the guard
// reads) or one duplicate key value with the number of rows sharing it.
type Sample struct {
	Values []Value `json:"values"`
	Rows   int64   `json:"rows,omitempty"`
}

// Value is one column of a sample; nil is SQL NULL.
type Value struct {
	Column string  `json:"column"`
	Value  *string `json:"value"`
}

// String prints the sample as col=value pairs.
func (s Sample) String() string {
	parts := make([]string, len(s.Values))
	for i, v := range s.Values {
		val := "NULL"
		if v.Value != nil {
			val = *v.Value
		}
		parts[i] = v.Column + "=" + val
	}
	out := strings.Join(parts, " ")
	if s.Rows > 0 {
		out += fmt.Sprintf(" (%d rows)", s.Rows)
	}
	return out
}

// Preflight counts, for each guard the statements add, the existing rows
// that would make it fail, and takes samples of them. live is the schema of
// the database before the run; db runs the queries. A query that fails is an
// error: a guard that cannot be checked is not reported as safe.
func Preflight(ctx context.Context, db *sql.DB, database string, live *schema.Schema, stmts []Stmt) ([]Probe, error) {
	plan, _ := analyze(database, stmts)
	probes := make([]Probe, 0, len(plan))
	for _, p := range plan {
		pr, err := probe(ctx, db, live, p)
		if err != nil {
			return probes, fmt.Errorf("preflight %s:%d: %s: %w", p.guard.File, p.guard.Line, p.guard, err)
		}
		if pr.Status != statusNotNarrower {
			probes = append(probes, pr)
		}
	}
	return probes, nil
}

// Refused reports whether any probe failed.
func Refused(probes []Probe) bool {
	for _, p := range probes {
		if p.Status == StatusFail {
			return true
		}
	}
	return false
}

func probe(ctx context.Context, db *sql.DB, live *schema.Schema, p planned) (Probe, error) {
	g := p.guard
	pr := Probe{Guard: g, Status: StatusSkipped, Note: p.skip}
	if p.skip != "" {
		return pr, nil
	}
	t := live.Table(p.live)
	if t == nil {
		pr.Note = "the table does not exist yet"
		return pr, nil
	}
	for _, c := range g.probeColumns() {
		if t.Column(c) == nil {
			pr.Note = "column " + c + " does not exist yet"
			return pr, nil
		}
	}
	start := time.Now()
	var err error
	switch g.Kind {
	case KindCheck:
		err = probeCheck(ctx, db, t, g, &pr)
	case KindUnique:
		err = probeUnique(ctx, db, t, g, &pr)
	case KindPrimary:
		if err = probeUnique(ctx, db, t, g, &pr); err == nil {
			dups := pr.Rows
			err = probeNulls(ctx, db, t, g.Columns, &pr)
			pr.NullRows = pr.Rows - dups
		}
	case KindNotNull:
		err = probeNulls(ctx, db, t, []string{g.liveColumn}, &pr)
	case KindFits:
		cond, narrower := narrowing(t.Column(g.liveColumn), g.newType)
		if !narrower {
			pr.Status = statusNotNarrower
			return pr, nil
		}
		err = probeWhere(ctx, db, t, g.liveColumn, cond, &pr)
	}
	pr.Elapsed = time.Since(start)
	if err != nil {
		return pr, err
	}
	pr.Status = StatusOK
	if pr.Rows > 0 {
		pr.Status = StatusFail
	}
	return pr, nil
}

// probeCheck counts the rows where the CHECK expression is false. A row
// where it is NULL passes a CHECK, and NOT (NULL) is not true either, so
// WHERE NOT (expr) counts exactly the rows the server would reject.
func probeCheck(ctx context.Context, db *sql.DB, t *schema.Table, g *Guard, pr *Probe) error {
	cond := "NOT (" + g.Expr + ")"
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t.Name)+" WHERE "+cond).Scan(&pr.Rows); err != nil {
		return err
	}
	if pr.Rows == 0 {
		return nil
	}
	cols := sampleColumns(t, g.Columns)
	if len(cols) == 0 {
		return nil
	}
	var err error
	pr.Samples, err = querySamples(ctx, db, cols, false,
		"SELECT "+quoteAll(cols)+" FROM "+quote(t.Name)+" WHERE "+cond+orderBy(t.PrimaryKey)+limit())
	return err
}

// probeUnique counts the key values held by more than one row, and their
// rows. Rows with a NULL in the key never collide, as in the index; values
// equal in the key's collation ('a' and 'A ' in a case-insensitive, PAD
// SPACE one) do.
func probeUnique(ctx context.Context, db *sql.DB, t *schema.Table, g *Guard, pr *Probe) error {
	keys := make([]string, len(g.keys))
	cols := make([]string, len(g.keys))
	notNull := make([]string, len(g.keys))
	for i, k := range g.keys {
		keys[i] = k.sql()
		notNull[i] = keys[i] + " IS NOT NULL"
		cols[i] = k.column
		if cols[i] == "" {
			cols[i] = keys[i]
		}
	}
	where := " FROM " + quote(t.Name) + " WHERE " + strings.Join(notNull, " AND ")
	// COUNT(DISTINCT) compares with the columns' collations, as the index
	// does, and is many times faster than grouping on a key without an
	// index: it answers the common case, no duplicates, alone.
	var extra int64
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) - COUNT(DISTINCT "+strings.Join(keys, ", ")+")"+where).Scan(&extra); err != nil {
		return err
	}
	if extra == 0 {
		return nil
	}
	from := where + " GROUP BY " + strings.Join(keys, ", ") + " HAVING COUNT(*) > 1"
	var groups, rows sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*), SUM(n) FROM (SELECT COUNT(*) AS n"+from+") AS dup").Scan(&groups, &rows); err != nil {
		return err
	}
	pr.Groups, pr.Rows = groups.Int64, rows.Int64
	if pr.Groups == 0 {
		return nil
	}
	var err error
	pr.Samples, err = querySamples(ctx, db, cols, true,
		"SELECT "+strings.Join(keys, ", ")+", COUNT(*)"+from+" ORDER BY COUNT(*) DESC, "+strings.Join(keys, ", ")+limit())
	return err
}

// probeWhere counts the rows where cond holds, and samples them with
// their primary key and column col.
func probeWhere(ctx context.Context, db *sql.DB, t *schema.Table, col, cond string, pr *Probe) error {
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t.Name)+" WHERE "+cond).Scan(&pr.Rows); err != nil {
		return err
	}
	if pr.Rows == 0 {
		return nil
	}
	show := sampleColumns(t, []string{col})
	var err error
	pr.Samples, err = querySamples(ctx, db, show, false,
		"SELECT "+quoteAll(show)+" FROM "+quote(t.Name)+" WHERE "+cond+orderBy(t.PrimaryKey)+limit())
	return err
}

// probeNulls counts the rows where any of cols is NULL.
func probeNulls(ctx context.Context, db *sql.DB, t *schema.Table, cols []string, pr *Probe) error {
	isNull := make([]string, len(cols))
	for i, c := range cols {
		isNull[i] = quote(c) + " IS NULL"
	}
	cond := strings.Join(isNull, " OR ")
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t.Name)+" WHERE "+cond).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	pr.Rows += n
	show := sampleColumns(t, cols)
	if len(show) == 0 || len(pr.Samples) > 0 {
		return nil
	}
	var err error
	pr.Samples, err = querySamples(ctx, db, show, false,
		"SELECT "+quoteAll(show)+" FROM "+quote(t.Name)+" WHERE "+cond+orderBy(t.PrimaryKey)+limit())
	return err
}

// sampleColumns returns the primary key columns of t, then those of cols
// that exist and are not part of it.
func sampleColumns(t *schema.Table, cols []string) []string {
	out := append([]string(nil), t.PrimaryKey...)
	for _, c := range cols {
		col := t.Column(c)
		if col == nil {
			continue
		}
		dup := false
		for _, have := range out {
			dup = dup || strings.EqualFold(have, col.Name)
		}
		if !dup {
			out = append(out, col.Name)
		}
	}
	return out
}

func quoteAll(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quote(c)
	}
	return strings.Join(q, ", ")
}

func orderBy(pk []string) string {
	if len(pk) == 0 {
		return ""
	}
	return " ORDER BY " + quoteAll(pk)
}

func limit() string { return fmt.Sprintf(" LIMIT %d", MaxSamples) }

// querySamples runs a sample query whose columns are names, followed by a
// row count when counted is set.
func querySamples(ctx context.Context, db *sql.DB, names []string, counted bool, query string) ([]Sample, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Sample
	for rows.Next() {
		vals := make([]any, len(names))
		dest := make([]any, len(names), len(names)+1)
		for i := range vals {
			dest[i] = &vals[i]
		}
		var n int64
		if counted {
			dest = append(dest, &n)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		s := Sample{Rows: n}
		for i, v := range vals {
			s.Values = append(s.Values, Value{Column: names[i], Value: display(v)})
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// display prints a value the driver returned; nil stays nil (NULL).
func display(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		if utf8.Valid(x) {
			s = string(x)
		} else {
			s = "0x" + hex.EncodeToString(x)
		}
	case time.Time:
		s = x.Format("2006-01-02 15:04:05.999999")
	default:
		s = fmt.Sprint(x)
	}
	return &s
}
