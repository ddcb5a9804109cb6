package plan

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// The kinds of guard a step adds, in the order Plan writes them for a table.
const (
	GuardNotNull       = "not-null"
	GuardVersionColumn = "version-column"
	GuardCheck         = "check"
	GuardTrigger       = "trigger"
	GuardUnique        = "unique"
	GuardSQLMode       = "sql-mode"
)

// Strategies: how a counter is kept non-negative.
const (
	// StrategyCheck adds CHECK (col >= 0) constraints.
	StrategyCheck = "check"
	// StrategyTrigger adds BEFORE INSERT and BEFORE UPDATE triggers that
	// SIGNAL on a negative value: no table copy, and the only guard on a
	// server that does not enforce CHECK.
	StrategyTrigger = "trigger"
)

// Step is one migration: one statement up, one down.
type Step struct {
	// Table is the table the step changes; empty for the server-wide
	// sql-mode step.
	Table string `json:"table"`
	// Guard is the kind of guard: GuardNotNull, GuardVersionColumn,
	// GuardCheck, GuardTrigger, GuardUnique or GuardSQLMode.
	Guard string `json:"guard"`
	// Rule is the code of the rule whose finding the step fixes.
	Rule string `json:"rule"`
	// What says what the step does, in a few words.
	What string `json:"what"`
	// Name is the title of the migration files, e.g.
	// "guard_t_inventory_add_version"; WriteFiles puts the version before it.
	Name string `json:"name"`
	// Up and Down are one statement each, without a terminating semicolon.
	Up   string `json:"up"`
	Down string `json:"down"`
	// Algorithm is INSTANT, INPLACE, COPY, or "-" for a statement that is
	// not ALTER TABLE.
	Algorithm string `json:"algorithm"`
	// BlocksWrites is set when writes to the table wait for the whole
	// statement (a table copy).
	BlocksWrites bool `json:"blocks_writes"`
	// Rows is the table's row count when known (live), else -1.
	Rows int64 `json:"rows"`
	// Note says what the user must know before running the step.
	Note string `json:"note,omitempty"`
	// OSC names the online schema change tool guard migrate hands the
	// statement to (OSCPTOnlineSchemaChange); empty: the statement runs
	// as written.
	OSC string `json:"osc,omitempty"`
}

// Options are the inputs of Plan besides the schema, the policy and the server.
type Options struct {
	// Strategy is StrategyCheck (the default when empty) or StrategyTrigger.
	// A server that does not enforce CHECK gets triggers whatever it says.
	Strategy string
	// GlobalSQLMode is the server's global sql_mode; nil when unknown
	// (offline), which plans no sql-mode step.
	GlobalSQLMode *string
	// Triggers holds the lower-case names of the triggers that exist, so
	// that planned triggers are not planned twice.
	Triggers map[string]bool
	// Rows holds row counts by lower-case table name; a table without one
	// gets -1.
	Rows map[string]int64
	// Sharding names the tables a sharded database (Vitess) spreads over
	// shards, judged as guard lint --vschema judges them; nil: none.
	Sharding *lint.Sharding
}

// Plan returns the steps that close every gap between the policy and the
// schema on srv, ordered by table name, then NOT NULL counters, the version
// column, CHECKs (or triggers), UNIQUE indexes; the sql-mode step comes last.
// The same inputs give the same steps.
func Plan(s *schema.Schema, pol *policy.Policy, srv schema.Server, opts Options) []Step {
	if pol == nil {
		pol = policy.Default()
	}
	triggers := opts.Strategy == StrategyTrigger || !srv.EnforcesCheck()
	var steps []Step
	gaps := shardedGaps(s, pol, opts.Sharding)
	// A column-level CHECK of a NULLable counter goes with the MODIFY that
	// makes the column NOT NULL: it cannot be switched on afterwards.
	dropped := map[*schema.Check]bool{}
	for _, g := range gaps {
		if g.Rule == "GS004" && g.Restore != nil {
			dropped[g.Restore] = true
		}
	}
	for _, g := range gaps {
		t := s.Table(g.Table)
		var add []Step
		switch g.Rule {
		case "GS004":
			c := t.Column(g.Columns[0])
			add = []Step{notNullStep(t, c)}
			if g.Restore != nil && g.Restore.Enforced {
				// The MODIFY drops the column's own CHECK with its old
				// definition: add it back after it.
				for _, st := range counterCheckSteps(t, c, srv, triggers, opts) {
					st.Rule = "GS003"
					add = append(add, st)
				}
			}
		case "GS006":
			add = []Step{versionStep(t, g.Columns[0], srv)}
		case "GS003":
			if g.Unenforced != nil && !dropped[g.Unenforced] && !triggers && srv.SupportsAlterCheckEnforced() {
				add = []Step{enforceStep(t, g.Unenforced)}
			} else {
				add = counterCheckSteps(t, t.Column(g.Columns[0]), srv, triggers, opts)
			}
		case "GS005":
			st := uniqueStep(t, g.Columns)
			if sh := opts.Sharding.Table(t.Name); sh != nil && !sh.UniqueAcrossShards(g.Columns) {
				st.Note += fmt.Sprintf("; %s is sharded by (%s): the index holds per shard only, and GS005 says how to make the key unique across the keyspace",
					t.Name, strings.Join(sh.Primary.Columns, ", "))
			}
			add = []Step{st}
		}
		for _, st := range add {
			if st.Rule == "" {
				st.Rule = g.Rule
			}
			st.Rows = rowsOf(opts.Rows, t.Name)
			steps = append(steps, st)
		}
	}
	if st, ok := sqlModeStep(pol, srv, opts.GlobalSQLMode); ok {
		steps = append(steps, st)
	}
	// Titles join names with _, so t_a.b_c and t_a_b.c could meet; a file
	// title names one step, since Unwritten recognises steps by it.
	seen := map[string]bool{}
	for i := range steps {
		if seen[steps[i].Name] {
			steps[i].Name = fileTitle(strings.TrimPrefix(steps[i].Name, "guard_"), shortHash(steps[i].Up))
		}
		seen[steps[i].Name] = true
	}
	return steps
}

// counterCheckSteps keep counter c non-negative: a CHECK, or triggers where
// the server does not enforce CHECK or the strategy asks for them.
func counterCheckSteps(t *schema.Table, c *schema.Column, srv schema.Server, triggers bool, opts Options) []Step {
	if triggers {
		return triggerSteps(t, c, srv, opts.Triggers)
	}
	return []Step{checkStep(t, c, srv)}
}

func rowsOf(rows map[string]int64, table string) int64 {
	if n, ok := rows[strings.ToLower(table)]; ok {
		return n
	}
	return -1
}

// notNullStep makes a counter NOT NULL, keeping its type and its default; a
// counter without one gets DEFAULT 0, since a missing count is zero.
func notNullStep(t *schema.Table, c *schema.Column) Step {
	typ := columnTypeSQL(c)
	def := "0"
	if c.Default != nil && !strings.EqualFold(*c.Default, "NULL") {
		def = *c.Default
	}
	oldDef := "NULL"
	if c.Default != nil {
		oldDef = *c.Default
	}
	return Step{
		Table: t.Name,
		Guard: GuardNotNull,
		What:  fmt.Sprintf("make counter %s.%s NOT NULL", t.Name, c.Name),
		Name:  fileTitle(t.Name, c.Name, "not_null"),
		Up: fmt.Sprintf("ALTER TABLE %s MODIFY %s %s NOT NULL DEFAULT %s, ALGORITHM=INPLACE, LOCK=NONE",
			ident(t.Name), ident(c.Name), typ, def),
		Down: fmt.Sprintf("ALTER TABLE %s MODIFY %s %s NULL DEFAULT %s, ALGORITHM=INPLACE, LOCK=NONE",
			ident(t.Name), ident(c.Name), typ, oldDef),
		Algorithm: schema.AlgorithmInplace,
		Note: fmt.Sprintf("rebuilds the table in place, writes continue; fails if a row holds NULL: "+
			"set those first (UPDATE %[1]s SET %[2]s = 0 WHERE %[2]s IS NULL); the column's comment, if any, is not kept",
			ident(t.Name), ident(c.Name)),
	}
}

// versionStep adds the version column last, where ADD COLUMN is instant.
func versionStep(t *schema.Table, vc string, srv schema.Server) Step {
	st := Step{
		Table: t.Name,
		Guard: GuardVersionColumn,
		What:  fmt.Sprintf("add version column %s.%s", t.Name, vc),
		Name:  fileTitle(t.Name, "add", vc),
		Up:    fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s BIGINT UNSIGNED NOT NULL DEFAULT 0", ident(t.Name), ident(vc)),
		Down:  fmt.Sprintf("ALTER TABLE %s DROP COLUMN %s, ALGORITHM=INPLACE, LOCK=NONE", ident(t.Name), ident(vc)),
		Note: fmt.Sprintf("bump it in every UPDATE (%[1]s = %[1]s + 1) and compare it in read-modify-write updates (WHERE … AND %[1]s = ?)",
			ident(vc)),
	}
	if srv.SupportsInstantAddColumn() {
		st.Up += ", ALGORITHM=INSTANT"
		st.Algorithm = schema.AlgorithmInstant
	} else {
		st.Up += ", ALGORITHM=INPLACE, LOCK=NONE"
		st.Algorithm = schema.AlgorithmInplace
		st.Note = "rebuilds the table in place, writes continue; " + st.Note
	}
	return st
}

// checkStep adds CHECK (col >= 0). The server validates every row in a
// table copy, so the lock is said, not left to the server.
func checkStep(t *schema.Table, c *schema.Column, srv schema.Server) Step {
	name := freeCheckName(t, schema.GuardName("chk", t.Name, c.Name, "nonneg"))
	note := "copies the table and validates every row: writes wait for the whole copy (reads continue); " +
		"fails if a row is negative; run it in a quiet window"
	if c.Unsigned {
		note += "; the column is UNSIGNED, so decrements below zero already fail (1690) and the CHECK " +
			"catches what strict sql_mode would otherwise clamp"
	}
	return Step{
		Table: t.Name,
		Guard: GuardCheck,
		What:  fmt.Sprintf("add CHECK (%s >= 0) to %s", c.Name, t.Name),
		Name:  fileTitle(t.Name, c.Name, "nonneg"),
		Up: fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s >= 0), ALGORITHM=COPY, LOCK=SHARED",
			ident(t.Name), ident(name), ident(c.Name)),
		Down:         fmt.Sprintf("ALTER TABLE %s %s %s, ALGORITHM=INPLACE, LOCK=NONE", ident(t.Name), dropCheck(srv), ident(name)),
		Algorithm:    schema.AlgorithmCopy,
		BlocksWrites: true,
		Note:         note,
	}
}

// enforceStep turns on a NOT ENFORCED check (MySQL), which validates every
// row like adding it would.
func enforceStep(t *schema.Table, chk *schema.Check) Step {
	return Step{
		Table:        t.Name,
		Guard:        GuardCheck,
		What:         fmt.Sprintf("enforce CHECK %s (%s) of %s", chk.Name, chk.Expr, t.Name),
		Name:         fileTitle(t.Name, "enforce", chk.Name),
		Up:           fmt.Sprintf("ALTER TABLE %s ALTER CHECK %s ENFORCED, ALGORITHM=COPY, LOCK=SHARED", ident(t.Name), ident(chk.Name)),
		Down:         fmt.Sprintf("ALTER TABLE %s ALTER CHECK %s NOT ENFORCED", ident(t.Name), ident(chk.Name)),
		Algorithm:    schema.AlgorithmCopy,
		BlocksWrites: true,
		Note: "validates every row in a table copy: writes wait for the whole copy (reads continue); " +
			"fails if a row breaks the check; run it in a quiet window",
	}
}

// dropCheck is how the flavor drops a CHECK: MySQL's DROP CHECK, MariaDB's
// DROP CONSTRAINT.
func dropCheck(srv schema.Server) string {
	if srv.Flavor == schema.FlavorMySQL {
		return "DROP CHECK"
	}
	return "DROP CONSTRAINT"
}

// uniqueStep adds a UNIQUE index built in place, concurrent writes allowed.
func uniqueStep(t *schema.Table, cols []string) Step {
	name := freeIndexName(t, schema.GuardName(append([]string{"uk", t.Name}, cols...)...))
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = ident(c)
	}
	return Step{
		Table: t.Name,
		Guard: GuardUnique,
		What:  fmt.Sprintf("add UNIQUE (%s) to %s", strings.Join(cols, ", "), t.Name),
		Name:  fileTitle(append(append([]string{t.Name}, cols...), "unique")...),
		Up: fmt.Sprintf("ALTER TABLE %s ADD UNIQUE INDEX %s (%s), ALGORITHM=INPLACE, LOCK=NONE",
			ident(t.Name), ident(name), strings.Join(quoted, ", ")),
		Down:      fmt.Sprintf("ALTER TABLE %s DROP INDEX %s, ALGORITHM=INPLACE, LOCK=NONE", ident(t.Name), ident(name)),
		Algorithm: schema.AlgorithmInplace,
		Note: "built in place, writes continue; fails with 1062 if duplicates exist or are written during the build: " +
			"remove them first (guard audit counts them)",
	}
}

// freeCheckName returns name, or name with a numbered suffix when the
// table already has a check of that name that does not do the job.
func freeCheckName(t *schema.Table, name string) string {
	return freeName(name, func(n string) bool {
		for _, c := range t.Checks {
			if strings.EqualFold(c.Name, n) {
				return true
			}
		}
		return false
	})
}

// freeIndexName is freeCheckName for indexes.
func freeIndexName(t *schema.Table, name string) string {
	return freeName(name, func(n string) bool { return t.Index(n) != nil })
}

func freeName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		n := schema.GuardName(name, fmt.Sprint(i))
		if !taken(n) {
			return n
		}
	}
}

// columnTypeSQL is the full type a MODIFY must repeat to keep the column's
// type (schema.Column.SQLType).
func columnTypeSQL(c *schema.Column) string { return c.SQLType() }

// ident backtick-quotes a name, always, doubling the backticks inside it.
func ident(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// quoteString returns s as an SQL string literal that reads the same with
// and without NO_BACKSLASH_ESCAPES: quotes are doubled and backslashes,
// which only a message holds, are left out.
func quoteString(s string) string {
	s = strings.ReplaceAll(s, `\`, "")
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// offlineServers are the servers an offline plan assumes, by flavor name:
// the oldest supported release of each family, on which every planned
// statement runs.
var offlineServers = map[string]string{
	FlavorMariaDB: "10.6.0-MariaDB",
	FlavorMySQL8:  "8.0.16",
}

// Flavor names for an offline plan.
const (
	FlavorMariaDB = "mariadb"
	FlavorMySQL8  = "mysql8"
)

// OfflineServer returns the server an offline plan for flavor assumes;
// ok is false for an unknown flavor.
func OfflineServer(flavor string) (srv schema.Server, ok bool) {
	v, ok := offlineServers[flavor]
	if !ok {
		return schema.Server{}, false
	}
	return schema.ParseServer(v), true
}
