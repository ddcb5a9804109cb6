package rules

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/migrationrules"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// runRule runs rule over a hand-made pass and returns its findings.
func runRule(t *testing.T, rule *lint.Rule, pol *policy.Policy, s *schema.Schema, migs []*lint.Migration, live *lint.Live) []lint.Finding {
	t.Helper()
	if pol == nil {
		pol = policy.Default()
	}
	var got []lint.Finding
	pass := lint.NewPass(rule, pol, s, nil, migs, live, func(f lint.Finding) { got = append(got, f) })
	if err := rule.Run(pass); err != nil {
		t.Fatalf("%s: %v", rule.Code, err)
	}
	return got
}

func mustPolicy(t *testing.T, text string) *policy.Policy {
	t.Helper()
	p, err := policy.Parse("policies.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// short is the part of a finding a test compares.
type short struct {
	Severity policy.Severity
	Table    string
	Column   string
	Target   string
	Message  string
}

func shorten(fs []lint.Finding) []short {
	var out []short
	for _, f := range fs {
		out = append(out, short{f.Severity, f.Table, f.ColumnName, f.Target, f.Message})
	}
	return out
}

func TestStrictSQLMode(t *testing.T) {
	const lacks = " sql_mode lacks STRICT_TRANS_TABLES and STRICT_ALL_TABLES ("
	const tail = "): invalid values are clamped or truncated with a warning instead of rejected"
	relaxed := mustPolicy(t, "version = 1\n[server]\nrequire_strict_mode = false\n")
	tests := []struct {
		name string
		pol  *policy.Policy
		live *lint.Live
		want []short
	}{
		{name: "offline", live: nil},
		{name: "both strict", live: &lint.Live{Target: "db:3306/shop", GlobalMode: "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION", SessionMode: "STRICT_ALL_TABLES"}},
		{name: "lower case and spaces", live: &lint.Live{Target: "db:3306/shop", GlobalMode: "no_zero_date, strict_trans_tables", SessionMode: "strict_all_tables"}},
		{
			name: "session relaxed",
			live: &lint.Live{Target: "db:3306/shop", GlobalMode: "STRICT_TRANS_TABLES", SessionMode: "NO_ENGINE_SUBSTITUTION"},
			want: []short{{policy.SevError, "", "@@session.sql_mode", "db:3306/shop", "session" + lacks + `"NO_ENGINE_SUBSTITUTION"` + tail}},
		},
		{
			name: "both relaxed, one empty",
			live: &lint.Live{Target: "db:3306/shop", GlobalMode: "", SessionMode: "ANSI_QUOTES,STRICT_TRANS_TABLE"},
			want: []short{
				{policy.SevError, "", "@@global.sql_mode", "db:3306/shop", "global" + lacks + "empty" + tail},
				{policy.SevError, "", "@@session.sql_mode", "db:3306/shop", "session" + lacks + `"ANSI_QUOTES,STRICT_TRANS_TABLE"` + tail},
			},
		},
		{name: "policy does not require it", pol: relaxed, live: &lint.Live{GlobalMode: "", SessionMode: ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shorten(runRule(t, schemarules.StrictSQLMode, tt.pol, schema.New(), nil, tt.live))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

func TestCheckUnenforcedLive(t *testing.T) {
	s := schema.New()
	s.Add(&schema.Table{Name: "t_stock", Checks: []*schema.Check{
		{Name: "chk_stock", Expr: "`stock`>=0", Enforced: true, NonNegative: []string{"stock"}},
	}})
	s.Add(&schema.Table{Name: "t_wallet", Checks: []*schema.Check{
		{Name: "chk_a", Expr: "`a`>=0", Enforced: false, NonNegative: []string{"a"}},
		{Name: "chk_b", Expr: "`b`>=0", Enforced: true, NonNegative: []string{"b"}},
	}})
	s.Add(&schema.Table{Name: "t_plain"})
	tests := []struct {
		name string
		live *lint.Live
		want []short
	}{
		{
			name: "offline reports the NOT ENFORCED check only",
			want: []short{{policy.SevError, "t_wallet", "a", "", "CHECK chk_a (`a`>=0) on t_wallet is NOT ENFORCED: the server never evaluates it"}},
		},
		{
			name: "modern server is the same",
			live: &lint.Live{Target: "db:3306/shop", EnforceCheck: true},
			want: []short{{policy.SevError, "t_wallet", "a", "db:3306/shop", "CHECK chk_a (`a`>=0) on t_wallet is NOT ENFORCED: the server never evaluates it"}},
		},
		{
			name: "old server: one finding per table with checks",
			live: &lint.Live{Target: "db:3306/shop", Version: "5.7.44", EnforceCheck: false},
			want: []short{
				{policy.SevError, "t_stock", "stock", "db:3306/shop", "server 5.7.44 does not enforce CHECK constraints: CHECK chk_stock (`stock`>=0) on t_stock guards nothing"},
				{policy.SevError, "t_wallet", "", "db:3306/shop", "server 5.7.44 does not enforce CHECK constraints: CHECK chk_a (`a`>=0), CHECK chk_b (`b`>=0) on t_wallet guard nothing"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shorten(runRule(t, schemarules.CheckUnenforced, nil, s, nil, tt.live))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

func TestCounterWithoutCheckSeverity(t *testing.T) {
	s := schema.New()
	s.Add(&schema.Table{Name: "t_stock", Created: schema.Pos{File: "m/000001_init.up.sql", Line: 3, Col: 1}, Columns: []*schema.Column{
		{Name: "id", Type: "bigint"},
		{Name: "stock", Type: "int"},
		{Name: "quantity", Type: "int", Unsigned: true},
	}})
	tests := []struct {
		name string
		pol  string
		want map[string]policy.Severity
	}{
		{name: "defaults", want: map[string]policy.Severity{"stock": policy.SevError, "quantity": policy.SevWarning}},
		{name: "policy raises GS003", pol: "version = 1\n[rules]\nGS003 = \"error\"\n", want: map[string]policy.Severity{"stock": policy.SevError, "quantity": policy.SevError}},
		{name: "policy lowers GS003", pol: "version = 1\n[rules]\nGS003 = \"info\"\n", want: map[string]policy.Severity{"stock": policy.SevInfo, "quantity": policy.SevInfo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pol *policy.Policy
			if tt.pol != "" {
				pol = mustPolicy(t, tt.pol)
			}
			got := map[string]policy.Severity{}
			for _, f := range runRule(t, schemarules.CounterWithoutCheck, pol, s, nil, nil) {
				got[f.ColumnName] = f.Severity
				if f.File != "m/000001_init.up.sql" || f.Line != 3 || f.Column != 1 {
					t.Errorf("%s: placed at %s:%d:%d, want the CREATE TABLE", f.ColumnName, f.File, f.Line, f.Column)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("severities (-want +got):\n%s", d)
			}
		})
	}
}

func TestVersionAndKeyRulesWithoutSchema(t *testing.T) {
	// A pass without a schema (nothing replayed) must report nothing and not fail.
	for _, r := range []*lint.Rule{schemarules.CheckUnenforced, schemarules.CounterWithoutCheck, schemarules.NullableCounter, schemarules.BusinessKeyNotUnique,
		schemarules.MissingVersionColumn, schemarules.BadVersionColumn, schemarules.NonTransactionalEngine, schemarules.NoPrimaryKey} {
		if got := runRule(t, r, nil, nil, nil, nil); len(got) != 0 {
			t.Errorf("%s: %v", r.Code, got)
		}
	}
}

// migration parses each text as one statement of a migration file.
func migration(t *testing.T, file string, texts ...string) *lint.Migration {
	t.Helper()
	p := sqlparse.NewParser()
	m := &lint.Migration{File: file}
	for i, text := range texts {
		node, err := p.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		m.Statements = append(m.Statements, &lint.Statement{SQL: text, Node: node, File: file, Line: i + 1, Column: 1, EndLine: i + 1})
	}
	return m
}

func TestAlterWithoutAlgorithm(t *testing.T) {
	const tail = ": the server may silently copy the table and block writes instead of refusing"
	tests := []struct {
		sql  string
		want string // "" when nothing is reported
	}{
		{"ALTER TABLE t ADD COLUMN c INT", "ALTER TABLE t without an explicit ALGORITHM= and LOCK=" + tail},
		{"ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INPLACE", "ALTER TABLE t without an explicit LOCK=" + tail},
		{"ALTER TABLE t ADD COLUMN c INT, LOCK=NONE", "ALTER TABLE t without an explicit ALGORITHM=" + tail},
		{"ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INPLACE, LOCK=NONE", ""},
		{"ALTER TABLE t ALGORITHM=COPY, LOCK=EXCLUSIVE, ADD COLUMN c INT", ""},
		{"ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INSTANT", ""},
		{"ALTER TABLE t ADD COLUMN c INT, ALGORITHM=DEFAULT, LOCK=DEFAULT", "ALTER TABLE t without an explicit ALGORITHM= and LOCK=" + tail},
		{"ALTER TABLE t RENAME TO u", "ALTER TABLE t without an explicit ALGORITHM= and LOCK=" + tail},
		{"CREATE INDEX ix ON t (c)", "CREATE INDEX t without an explicit ALGORITHM= and LOCK=" + tail},
		{"CREATE INDEX ix ON t (c) LOCK=NONE", "CREATE INDEX t without an explicit ALGORITHM=" + tail},
		{"CREATE INDEX ix ON t (c) ALGORITHM=INPLACE LOCK=NONE", ""},
		{"DROP INDEX ix ON t", "DROP INDEX t without an explicit ALGORITHM= and LOCK=" + tail},
		{"DROP INDEX ix ON t ALGORITHM=INSTANT", ""},
		{"CREATE TABLE t (id INT PRIMARY KEY)", ""},
		{"DROP TABLE t", ""},
		{"UPDATE t SET c = 1 WHERE id = 1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			got := runRule(t, migrationrules.AlterWithoutAlgorithm, nil, schema.New(), []*lint.Migration{migration(t, "m/1.up.sql", tt.sql)}, nil)
			var msgs []string
			for _, f := range got {
				msgs = append(msgs, f.Message)
				if f.Severity != policy.SevWarning || f.Table != "t" {
					t.Errorf("severity %q table %q, want warning on t", f.Severity, f.Table)
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if d := cmp.Diff(want, msgs); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestBlockingDDL(t *testing.T) {
	const create = "CREATE TABLE t (id INT PRIMARY KEY, q INT NOT NULL, d DECIMAL(10,2), s VARCHAR(10))"
	const head = "ALTER TABLE t blocks writes while the table is copied: "
	tests := []struct {
		sql  string
		want string
	}{
		{"ALTER TABLE t ADD CONSTRAINT c CHECK (q >= 0)", head + "ADD CHECK validates every row (ALGORITHM=COPY)"},
		{"ALTER TABLE t ADD CHECK (q >= 0) NOT ENFORCED", ""},
		{"ALTER TABLE t ALTER CHECK c ENFORCED", head + "ALTER CHECK ... ENFORCED validates every row (ALGORITHM=COPY)"},
		{"ALTER TABLE t ALTER CHECK c NOT ENFORCED", ""},
		{"ALTER TABLE t MODIFY q BIGINT NOT NULL", head + "MODIFY COLUMN q changes its type from int(11) to bigint(20) (ALGORITHM=COPY)"},
		{"ALTER TABLE t MODIFY q INT UNSIGNED NOT NULL", head + "MODIFY COLUMN q changes its type from int(11) to int(11) unsigned (ALGORITHM=COPY)"},
		{"ALTER TABLE t MODIFY q INTEGER NULL DEFAULT 3", ""},
		{"ALTER TABLE t MODIFY d DECIMAL(12,2)", head + "MODIFY COLUMN d changes its type from decimal(10,2) to decimal(12,2) (ALGORITHM=COPY)"},
		{"ALTER TABLE t CHANGE s s2 VARCHAR(10)", ""},
		{"ALTER TABLE t CHANGE s s2 VARCHAR(20)", head + "CHANGE COLUMN s2 changes its type from varchar(10) to varchar(20) (ALGORITHM=COPY)"},
		{"ALTER TABLE t MODIFY nope INT", head + "MODIFY COLUMN nope may change its type (its previous definition is not in the migrations); a type change copies the table"},
		{"ALTER TABLE t MODIFY q INT NOT NULL CHECK (q >= 0)", head + "MODIFY COLUMN q with a CHECK validates every row (ALGORITHM=COPY)"},
		{"ALTER TABLE t ADD COLUMN r INT CHECK (r > 0)", head + "ADD COLUMN r with a CHECK validates every row (ALGORITHM=COPY)"},
		{"ALTER TABLE t ADD COLUMN r INT, ALGORITHM=INSTANT", ""},
		{"ALTER TABLE t ADD KEY ix (q), ALGORITHM=COPY", head + "ALGORITHM=COPY forces a table copy"},
		{"ALTER TABLE t ALGORITHM=COPY, ADD CHECK (q >= 0)", head + "ADD CHECK validates every row (ALGORITHM=COPY)"},
		{"ALTER TABLE t ENGINE=InnoDB", head + "ENGINE=InnoDB rebuilds the table"},
		{"ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4", head + "CONVERT TO CHARACTER SET utf8mb4 rewrites every row"},
		{"ALTER TABLE t CHARACTER SET utf8mb4", ""},
		{"ALTER TABLE t COMMENT 'x'", ""},
		{"ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (id, q)", head + "DROP PRIMARY KEY rebuilds the table; ADD PRIMARY KEY rebuilds the table"},
		{"ALTER TABLE t FORCE", head + "FORCE rebuilds the table"},
		{"ALTER TABLE t ADD UNIQUE KEY uk (s), ALGORITHM=INPLACE, LOCK=NONE", ""},
		{"CREATE TABLE u (id INT PRIMARY KEY, CHECK (id > 0)) ENGINE=MyISAM", ""},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			migs := []*lint.Migration{migration(t, "m/1.up.sql", create), migration(t, "m/2.up.sql", tt.sql)}
			var msgs []string
			for _, f := range runRule(t, migrationrules.BlockingDDL, nil, schema.New(), migs, nil) {
				msgs = append(msgs, f.Message)
				if f.File != "m/2.up.sql" || f.Severity != policy.SevWarning {
					t.Errorf("finding in %s with severity %s", f.File, f.Severity)
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if d := cmp.Diff(want, msgs); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestBlockingDDLReplay(t *testing.T) {
	// Types follow renames of columns and tables; other folders are other schemas.
	migs := []*lint.Migration{
		migration(t, "a/1.up.sql", "CREATE TABLE t (id INT PRIMARY KEY, q INT)"),
		migration(t, "a/2.up.sql",
			"ALTER TABLE t RENAME COLUMN q TO qty",
			"RENAME TABLE t TO t2",
			"ALTER TABLE t2 MODIFY qty INT NOT NULL",
			"ALTER TABLE t2 MODIFY qty BIGINT",
			"CREATE TABLE t3 LIKE t2",
			"ALTER TABLE t3 MODIFY qty BIGINT",
			"ALTER TABLE t2 DROP COLUMN qty",
			"ALTER TABLE t2 ADD COLUMN qty SMALLINT",
			"ALTER TABLE t2 MODIFY qty SMALLINT NOT NULL",
			"DROP TABLE t2",
			"ALTER TABLE t2 MODIFY qty SMALLINT"),
		migration(t, "b/1.up.sql", "ALTER TABLE t MODIFY q INT"),
	}
	var got []string
	for _, f := range runRule(t, migrationrules.BlockingDDL, nil, schema.New(), migs, nil) {
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Message))
	}
	const head = " blocks writes while the table is copied: "
	want := []string{
		"a/2.up.sql:4 ALTER TABLE t2" + head + "MODIFY COLUMN qty changes its type from int(11) to bigint(20) (ALGORITHM=COPY)",
		"a/2.up.sql:11 ALTER TABLE t2" + head + "MODIFY COLUMN qty may change its type (its previous definition is not in the migrations); a type change copies the table",
		"b/1.up.sql:1 ALTER TABLE t" + head + "MODIFY COLUMN q may change its type (its previous definition is not in the migrations); a type change copies the table",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestMultipleDDL(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  []string // "line message"
	}{
		{name: "one", texts: []string{"CREATE TABLE t (id INT PRIMARY KEY)"}},
		{name: "dml and set do not count", texts: []string{"SET NAMES utf8mb4", "ALTER TABLE t ADD COLUMN c INT", "INSERT INTO t VALUES (1, 2)", "DELETE FROM t WHERE id = 1"}},
		{
			name:  "three",
			texts: []string{"INSERT INTO t VALUES (1)", "CREATE TABLE t (id INT PRIMARY KEY)", "TRUNCATE TABLE t", "DROP TABLE t"},
			want:  []string{"3 migration holds 3 DDL statements; DDL is not transactional, so a failure after the first leaves it half applied and the version dirty"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range runRule(t, migrationrules.MultipleDDL, nil, schema.New(), []*lint.Migration{migration(t, "m/1.up.sql", tt.texts...)}, nil) {
				got = append(got, fmt.Sprintf("%d %s", f.Line, f.Message))
				if f.Severity != policy.SevWarning {
					t.Errorf("severity %s, want warning", f.Severity)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
