// Package codegen turns a table of the schema model and the policy into the
// data of guard gen's templates, and renders them: a DAO whose counters are
// deducted by guarded UPDATEs and by a Redis lock plus a version
// compare-and-set, and the migration of a new guarded table. Generators
// return bytes; Write puts them on disk.
package codegen

import (
	"fmt"
	"strings"
	"time"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// Options say how a table becomes a DAO.
type Options struct {
	// Package is the Go package of the generated files.
	Package string
	// Policy gives the counter and state heuristics, the version column,
	// [gen] strip_prefix and the [lock] defaults; nil means the built-in
	// policy.
	Policy *policy.Policy
	// Counters and States, when non-nil, name the counter and state columns
	// instead of the policy's heuristics (guard gen table knows them).
	Counters, States []string
	// Metrics names the metrics backend to generate beside the no-op
	// default: "" for none, MetricsPrometheus for guard_prometheus.go.
	Metrics string
}

// Data is what the DAO templates render: one table.
type Data struct {
	Package string
	// Table is the SQL name; Type the Go type of a row (Inventory).
	Table string
	Type  string
	// FileBase names the table's own file: FileBase + "_dao.go".
	FileBase string
	Fields   []*Field
	// PK is the single-column integer primary key; Version the version column.
	PK      *Field
	Version *Field
	// AutoIncrement says the database gives PK its value on Insert.
	AutoIncrement bool
	Counters      []*Counter
	States        []*State
	// InsertFields are the columns Insert writes, UpdateFields those
	// UpdateCAS writes (all but the primary key and the version).
	InsertFields []*Field
	UpdateFields []*Field
	// ServerDefaults are the columns Insert leaves to the server's default.
	ServerDefaults []string
	// NeedsTime says a field has a type of package time; NeedsParseTime that
	// the DSN must set parseTime=true.
	NeedsTime      bool
	NeedsParseTime bool
	Lock           Lock
	SQL            Statements
	// Metrics says which metrics backend is generated, and its buckets.
	Metrics Metrics
}

// Field is a column and its Go field.
type Field struct {
	Column string
	Name   string
	GoType string
	// Tag is the field's struct tag as a Go literal: `db:"name"`.
	Tag string
	// SQLType describes the column for the field's comment.
	SQLType  string
	Nullable bool
}

// Counter is a column that must never go negative: it gets Deduct<Name> and
// Deduct<Name>Locked.
type Counter struct {
	Field *Field
	// Index numbers the counters of a table from 0: the hot-row combining
	// of Deduct<Name>Locked queues each counter of a row apart.
	Index int
	// SQLRead reads the counter and the version of a row; SQLDeduct is the
	// guarded UPDATE, SQLDeductCAS the same with the version compare-and-set.
	SQLRead, SQLDeduct, SQLDeductCAS string
}

// State is a state machine column: it gets Transition<Name>.
type State struct {
	Field *Field
	// ArgType is the Go type of the from and to states.
	ArgType       string
	SQLTransition string
}

// Lock holds the defaults of the generated options, from policies.toml [lock].
type Lock struct {
	TTL, Wait              time.Duration
	MaxAttempts            int
	BackoffMin, BackoffMax time.Duration
}

// Statements are the table-wide statements of the DAO.
type Statements struct {
	Get, Exists, Insert, UpdateCAS string
}

// minLockTTL is the shortest TTL the generated watchdog can renew (ttl/3).
const minLockTTL = 3 * time.Millisecond

// NewData builds the template data of table t. The table needs a
// single-column integer primary key and a NOT NULL integer version column;
// counters must be integers. Errors name the table and say what is missing.
func NewData(t *schema.Table, opts Options) (*Data, error) {
	pol := opts.Policy
	if pol == nil {
		pol = policy.Default()
	}
	if err := checkPackage(opts.Package); err != nil {
		return nil, err
	}
	if err := checkName("table", t.Name); err != nil {
		return nil, err
	}
	if err := checkLengths(t); err != nil {
		return nil, err
	}
	if err := checkASCII(t, pol.Gen.StripPrefix); err != nil {
		return nil, err
	}
	d := &Data{Package: opts.Package, Table: t.Name, Type: TypeName(t.Name, pol.Gen.StripPrefix)}
	if d.Type == "" || reservedTypes[d.Type] {
		return nil, fmt.Errorf("table %s: Go type name %q is not usable (change [gen] strip_prefix or rename the table)", t.Name, d.Type)
	}
	d.FileBase = FileBase(d.Type)
	lock, err := lockDefaults(pol.Lock)
	if err != nil {
		return nil, err
	}
	d.Lock = lock
	if d.Metrics, err = newMetrics(opts.Metrics, lock); err != nil {
		return nil, err
	}

	byName := map[string]*Field{}
	seen := map[string]string{}
	for _, c := range t.Columns {
		f, isTime, err := newField(t.Name, c)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[f.Name]; dup {
			return nil, fmt.Errorf("table %s: columns %s and %s both become Go field %s", t.Name, other, c.Name, f.Name)
		}
		seen[f.Name] = c.Name
		d.NeedsTime = d.NeedsTime || strings.HasPrefix(f.GoType, "time.")
		d.NeedsParseTime = d.NeedsParseTime || isTime
		byName[strings.ToLower(c.Name)] = f
		d.Fields = append(d.Fields, f)
	}

	if err := d.setKeys(t, pol, byName); err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		f := byName[strings.ToLower(c.Name)]
		if f == d.PK && c.AutoIncrement {
			continue
		}
		if serverDefault(c) {
			d.ServerDefaults = append(d.ServerDefaults, c.Name)
			if f == d.PK {
				return nil, fmt.Errorf("table %s: primary key %s has a server-computed default, which Insert cannot return", t.Name, c.Name)
			}
			continue
		}
		d.InsertFields = append(d.InsertFields, f)
	}
	for _, f := range d.Fields {
		if f != d.PK && f != d.Version {
			d.UpdateFields = append(d.UpdateFields, f)
		}
	}
	if err := d.setGuarded(t, pol, opts, byName); err != nil {
		return nil, err
	}
	d.SQL = d.statements()
	return d, nil
}

func newField(table string, c *schema.Column) (*Field, bool, error) {
	if err := checkName("column", c.Name); err != nil {
		return nil, false, fmt.Errorf("table %s: %w", table, err)
	}
	name := GoName(c.Name)
	if name == "" {
		return nil, false, fmt.Errorf("table %s: column %q has no letter or digit to name a Go field", table, c.Name)
	}
	gt, isTime, err := goTypeOf(table, c)
	if err != nil {
		return nil, false, err
	}
	return &Field{Column: c.Name, Name: name, GoType: gt, Tag: structTag(c.Name), SQLType: sqlTypeOf(c), Nullable: c.Nullable}, isTime, nil
}

// setKeys finds the primary key and the version column.
func (d *Data) setKeys(t *schema.Table, pol *policy.Policy, byName map[string]*Field) error {
	if len(t.PrimaryKey) != 1 {
		if len(t.PrimaryKey) == 0 {
			return fmt.Errorf("table %s has no primary key: the DAO needs a single-column integer primary key", t.Name)
		}
		return fmt.Errorf("table %s has a composite primary key (%s): the DAO needs a single-column integer primary key",
			t.Name, strings.Join(t.PrimaryKey, ", "))
	}
	pk := t.Column(t.PrimaryKey[0])
	if pk == nil || !pk.IsInteger() {
		typ := "unknown"
		if pk != nil {
			typ = pk.Type
		}
		return fmt.Errorf("table %s: primary key %s is %s: the DAO needs a single-column integer primary key", t.Name, t.PrimaryKey[0], typ)
	}
	d.PK = byName[strings.ToLower(pk.Name)]
	d.AutoIncrement = pk.AutoIncrement

	vname := pol.VersionColumn()
	v := t.Column(vname)
	switch {
	case v == nil:
		return fmt.Errorf("table %s has no version column %q: UpdateCAS and the locked deductions compare-and-set on it (add it: %s BIGINT UNSIGNED NOT NULL DEFAULT 0)", t.Name, vname, vname)
	case !v.IsInteger() || v.Nullable:
		return fmt.Errorf("table %s: version column %s must be a NOT NULL integer (it is %s)", t.Name, v.Name, sqlTypeOf(v))
	case strings.EqualFold(v.Name, pk.Name):
		return fmt.Errorf("table %s: the primary key %s cannot be the version column", t.Name, pk.Name)
	}
	d.Version = byName[strings.ToLower(v.Name)]
	return nil
}

// setGuarded picks the counter and state columns, from opts when given,
// else from the policy.
func (d *Data) setGuarded(t *schema.Table, pol *policy.Policy, opts Options, byName map[string]*Field) error {
	isCounter := func(c *schema.Column) bool { return pol.IsCounter(t.Name, c.Name) }
	if opts.Counters != nil {
		isCounter = func(c *schema.Column) bool { return containsFold(opts.Counters, c.Name) }
		if err := mustExist(t, "counter", opts.Counters); err != nil {
			return err
		}
	}
	isState := func(c *schema.Column) bool { return pol.IsState(t.Name, c.Name) }
	if opts.States != nil {
		isState = func(c *schema.Column) bool { return containsFold(opts.States, c.Name) }
		if err := mustExist(t, "state", opts.States); err != nil {
			return err
		}
	}
	for _, c := range t.Columns {
		f := byName[strings.ToLower(c.Name)]
		if f == d.PK || f == d.Version {
			continue
		}
		switch {
		case isCounter(c):
			if !c.IsInteger() {
				return fmt.Errorf("table %s: counter %s is %s: Deduct%s needs an integer column (store amounts in minor units)", t.Name, c.Name, c.Type, f.Name)
			}
			c := d.counter(f)
			c.Index = len(d.Counters)
			d.Counters = append(d.Counters, c)
		case isState(c):
			arg := f.GoType
			if gt, ok := goTypes[c.Type]; ok {
				arg = gt.plain
			}
			d.States = append(d.States, &State{Field: f, ArgType: arg, SQLTransition: d.transitionSQL(f)})
		}
	}
	return nil
}

func mustExist(t *schema.Table, what string, cols []string) error {
	for _, name := range cols {
		if t.Column(name) == nil {
			return fmt.Errorf("table %s has no %s column %s", t.Name, what, name)
		}
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// lockDefaults validates the [lock] section for generated code.
func lockDefaults(l policy.Lock) (Lock, error) {
	out := Lock{TTL: l.TTL.Duration, Wait: l.Wait.Duration, MaxAttempts: l.MaxAttempts,
		BackoffMin: l.BackoffMin.Duration, BackoffMax: l.BackoffMax.Duration}
	switch {
	case out.TTL < minLockTTL:
		return Lock{}, fmt.Errorf("[lock] ttl %v: the generated watchdog needs at least %v", out.TTL, minLockTTL)
	case out.Wait < 0 || out.BackoffMin < 0 || out.BackoffMax < out.BackoffMin:
		return Lock{}, fmt.Errorf("[lock] wait and backoff must be non-negative with backoff_min <= backoff_max")
	case out.MaxAttempts < 1:
		return Lock{}, fmt.Errorf("[lock] max_attempts %d: must be at least 1", out.MaxAttempts)
	}
	return out, nil
}
