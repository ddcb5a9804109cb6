package drill

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// target is the table drilled and the columns the drill deducts through.
type target struct {
	table  *schema.Table
	server schema.Server
	// pk is the single-column integer primary key, counter the column
	// deducted, version the compare-and-set column.
	pk, counter, version string
	// addVersion says the table has no version column: the scratch copy
	// gets one.
	addVersion bool
	// unique holds the columns, lower case, that must differ between
	// seeded rows: those of a unique index, and business keys.
	unique map[string]bool
	notes  []string
}

// inspect reads the table from information_schema and picks its columns,
// refusing (RefusedError) a table the drill cannot run on.
func inspect(ctx context.Context, db *sql.DB, opts *Options) (*target, error) {
	s, server, err := schema.FromInformationSchema(ctx, db, opts.Database)
	if err != nil {
		return nil, fmt.Errorf("read the schema of %s: %w", opts.Database, err)
	}
	t := s.Table(opts.Table)
	if t == nil {
		return nil, &RefusedError{Table: opts.Table, Reason: fmt.Sprintf("no base table %s in database %s", opts.Table, opts.Database)}
	}
	return pickColumns(t, server, opts.Column, opts.Policy)
}

// pickColumns finds the primary key, the counter and the version column of
// t. column, when not empty, names the counter.
func pickColumns(t *schema.Table, server schema.Server, column string, pol *policy.Policy) (*target, error) {
	refuse := func(format string, args ...any) error {
		return &RefusedError{Table: t.Name, Reason: fmt.Sprintf(format, args...)}
	}
	tg := &target{table: t, server: server, unique: map[string]bool{}}
	for _, ix := range t.Indexes {
		if ix.Unique && !ix.Primary {
			for _, c := range ix.Columns {
				tg.unique[strings.ToLower(c)] = true
			}
		}
	}
	for _, c := range t.Columns {
		if pol.IsBusinessKey(t.Name, c.Name) {
			tg.unique[strings.ToLower(c.Name)] = true
		}
	}
	switch len(t.PrimaryKey) {
	case 0:
		return nil, refuse("it has no primary key: the drill needs a single-column integer primary key")
	case 1:
	default:
		return nil, refuse("its primary key is composite (%s): the drill needs a single-column integer primary key", strings.Join(t.PrimaryKey, ", "))
	}
	pk := t.Column(t.PrimaryKey[0])
	if pk == nil || !pk.IsInteger() {
		typ := "unknown"
		if pk != nil {
			typ = pk.ColumnType
		}
		return nil, refuse("its primary key %s is %s: the drill needs a single-column integer primary key", t.PrimaryKey[0], typ)
	}
	tg.pk = pk.Name

	vname := pol.VersionColumn()
	counter, err := pickCounter(t, pk, vname, column, pol)
	if err != nil {
		return nil, refuse("%s", err)
	}
	tg.counter = counter.Name

	switch v := t.Column(vname); {
	case v == nil:
		tg.version, tg.addVersion = vname, true
		tg.notes = append(tg.notes, fmt.Sprintf("%s has no version column %s: the drill added one to its scratch copy for cas and lock-cas", t.Name, vname))
	case strings.EqualFold(v.Name, pk.Name) || strings.EqualFold(v.Name, counter.Name):
		return nil, refuse("its version column %s is also its primary key or counter", v.Name)
	case !v.IsInteger() || v.Nullable:
		return nil, refuse("its version column %s is %s: compare-and-set needs a NOT NULL integer", v.Name, v.ColumnType)
	default:
		tg.version = v.Name
	}

	switch ck := t.NonNegativeCheck(counter.Name); {
	case ck == nil && counter.Unsigned:
		tg.notes = append(tg.notes, fmt.Sprintf("%s is UNSIGNED without CHECK (%s >= 0): a decrement below zero fails (1690), an absolute write of a negative may clamp to 0", counter.Name, counter.Name))
	case ck == nil:
		tg.notes = append(tg.notes, fmt.Sprintf("%s has no CHECK (%s >= 0): only the statements keep it from going negative", counter.Name, counter.Name))
	case !ck.Enforced:
		tg.notes = append(tg.notes, fmt.Sprintf("the CHECK on %s is NOT ENFORCED: only the statements keep it from going negative", counter.Name))
	case !server.EnforcesCheck():
		tg.notes = append(tg.notes, fmt.Sprintf("%s ignores CHECK constraints: only the statements keep %s from going negative", server, counter.Name))
	}
	return tg, nil
}

// pickCounter returns the column the drill deducts: column when given, else
// the one counter the policy finds.
func pickCounter(t *schema.Table, pk *schema.Column, version, column string, pol *policy.Policy) (*schema.Column, error) {
	if column != "" {
		c := t.Column(column)
		switch {
		case c == nil:
			return nil, fmt.Errorf("it has no column %s", column)
		case strings.EqualFold(c.Name, pk.Name):
			return nil, fmt.Errorf("%s is its primary key, not a counter", c.Name)
		case strings.EqualFold(c.Name, version):
			return nil, fmt.Errorf("%s is its version column, not a counter", c.Name)
		case !c.IsInteger():
			return nil, fmt.Errorf("counter %s is %s: the drill deducts whole units of an integer column", c.Name, c.ColumnType)
		}
		return c, nil
	}
	var found []*schema.Column
	for _, c := range t.Columns {
		if !strings.EqualFold(c.Name, pk.Name) && pol.IsCounter(t.Name, c.Name) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("it has no counter column (policy counter_columns or [[table]] counters): name the column to deduct with --column")
	case 1:
	default:
		var names []string
		for _, c := range found {
			names = append(names, c.Name)
		}
		return nil, fmt.Errorf("it has several counter columns (%s): pick one with --column", strings.Join(names, ", "))
	}
	c := found[0]
	if !c.IsInteger() {
		return nil, fmt.Errorf("counter %s is %s: the drill deducts whole units of an integer column", c.Name, c.ColumnType)
	}
	return c, nil
}
