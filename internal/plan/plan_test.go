package plan

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// schemaOf replays DDL text.
func schemaOf(t testing.TB, ddl string) *schema.Schema {
	t.Helper()
	var stmts []schema.DDL
	for _, p := range sqlparse.SplitScript(ddl) {
		stmts = append(stmts, schema.DDL{SQL: p.Text})
	}
	s, errs := schema.FromDDL(stmts)
	for _, e := range errs {
		t.Fatalf("replay: %v", e)
	}
	return s
}

func policyOf(t testing.TB, toml string) *policy.Policy {
	t.Helper()
	if toml == "" {
		return policy.Default()
	}
	p, err := policy.Parse("policies.toml", []byte("version = 1\n"+toml))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	mariadb  = "10.11.6-MariaDB"
	mysql8   = "8.0.36"
	mysql811 = "8.0.11" // no INSTANT ADD COLUMN
	mysql57  = "5.7.44" // parses CHECK, enforces nothing
)

// guarded is a table with every guard, the neighbour of the tables under test.
const guarded = `CREATE TABLE t_ok (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0 CHECK (stock >= 0),
  order_no VARCHAR(32) NOT NULL UNIQUE, version BIGINT UNSIGNED NOT NULL DEFAULT 0);`

func TestPlanGuardKinds(t *testing.T) {
	strict, lax, empty := "STRICT_TRANS_TABLES", "NO_ENGINE_SUBSTITUTION", ""
	tests := []struct {
		name    string
		ddl     string
		policy  string
		version string
		opts    Options
		want    []Step
	}{
		{
			name:    "version column, instant",
			ddl:     "CREATE TABLE t (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL DEFAULT 'new');",
			version: mariadb,
			want: []Step{{
				Table: "t", Guard: GuardVersionColumn, Rule: "GS006", What: "add version column t.version", Name: "guard_t_add_version",
				Up:        "ALTER TABLE `t` ADD COLUMN `version` BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT",
				Down:      "ALTER TABLE `t` DROP COLUMN `version`, ALGORITHM=INPLACE, LOCK=NONE",
				Algorithm: schema.AlgorithmInstant, Rows: -1,
				Note: "bump it in every UPDATE (`version` = `version` + 1) and compare it in read-modify-write updates (WHERE … AND `version` = ?)",
			}},
		},
		{
			name:    "version column in place where INSTANT is missing, policy name and versioned table",
			ddl:     "CREATE TABLE t_profile (id BIGINT PRIMARY KEY, nick VARCHAR(16) NOT NULL);",
			policy:  "[schema]\nversion_column = \"rev\"\n[[table]]\nname = \"t_profile\"\nversioned = true\n[[table]]\nname = \"t_ok\"\nversioned = false\n",
			version: mysql811,
			want: []Step{{
				Table: "t_profile", Guard: GuardVersionColumn, Rule: "GS006", What: "add version column t_profile.rev", Name: "guard_t_profile_add_rev",
				Up:        "ALTER TABLE `t_profile` ADD COLUMN `rev` BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INPLACE, LOCK=NONE",
				Down:      "ALTER TABLE `t_profile` DROP COLUMN `rev`, ALGORITHM=INPLACE, LOCK=NONE",
				Algorithm: schema.AlgorithmInplace, Rows: -1,
				Note: "rebuilds the table in place, writes continue; bump it in every UPDATE (`rev` = `rev` + 1) and compare it in read-modify-write updates (WHERE … AND `rev` = ?)",
			}},
		},
		{
			name:    "check on MariaDB drops a constraint",
			ddl:     "CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0);",
			version: mariadb,
			opts:    Options{Rows: map[string]int64{"t_inventory": 1234}},
			want: []Step{{
				Table: "t_inventory", Guard: GuardCheck, Rule: "GS003", What: "add CHECK (inventory >= 0) to t_inventory", Name: "guard_t_inventory_inventory_nonneg",
				Up:        "ALTER TABLE `t_inventory` ADD CONSTRAINT `chk_t_inventory_inventory_nonneg` CHECK (`inventory` >= 0), ALGORITHM=COPY, LOCK=SHARED",
				Down:      "ALTER TABLE `t_inventory` DROP CONSTRAINT `chk_t_inventory_inventory_nonneg`, ALGORITHM=INPLACE, LOCK=NONE",
				Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Rows: 1234,
				Note: "copies the table and validates every row: writes wait for the whole copy (reads continue); fails if a row is negative; run it in a quiet window",
			}},
		},
		{
			name:    "check on MySQL drops a check; UNSIGNED is said",
			ddl:     "CREATE TABLE t_seat (id BIGINT PRIMARY KEY, quantity INT UNSIGNED NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0);",
			version: mysql8,
			want: []Step{{
				Table: "t_seat", Guard: GuardCheck, Rule: "GS003", What: "add CHECK (quantity >= 0) to t_seat", Name: "guard_t_seat_quantity_nonneg",
				Up:        "ALTER TABLE `t_seat` ADD CONSTRAINT `chk_t_seat_quantity_nonneg` CHECK (`quantity` >= 0), ALGORITHM=COPY, LOCK=SHARED",
				Down:      "ALTER TABLE `t_seat` DROP CHECK `chk_t_seat_quantity_nonneg`, ALGORITHM=INPLACE, LOCK=NONE",
				Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Rows: -1,
				Note: "copies the table and validates every row: writes wait for the whole copy (reads continue); fails if a row is negative; " +
					"run it in a quiet window; the column is UNSIGNED, so decrements below zero already fail (1690) and the CHECK catches what strict sql_mode would otherwise clamp",
			}},
		},
		{
			name:    "a NOT ENFORCED check is turned on where MySQL can",
			ddl:     "CREATE TABLE t_coupon (id BIGINT PRIMARY KEY, quantity INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0, CONSTRAINT chk_coupon CHECK (quantity >= 0) NOT ENFORCED);",
			version: mysql8,
			want: []Step{{
				Table: "t_coupon", Guard: GuardCheck, Rule: "GS003", What: "enforce CHECK chk_coupon (`quantity`>=0) of t_coupon", Name: "guard_t_coupon_enforce_chk_coupon",
				Up:        "ALTER TABLE `t_coupon` ALTER CHECK `chk_coupon` ENFORCED, ALGORITHM=COPY, LOCK=SHARED",
				Down:      "ALTER TABLE `t_coupon` ALTER CHECK `chk_coupon` NOT ENFORCED",
				Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Rows: -1,
				Note: "validates every row in a table copy: writes wait for the whole copy (reads continue); fails if a row breaks the check; run it in a quiet window",
			}},
		},
		{
			name:    "nullable counters keep type and default; NULL default becomes 0",
			ddl:     "CREATE TABLE t_wallet (id BIGINT PRIMARY KEY, balance DECIMAL(12,2) UNSIGNED, points INT NULL DEFAULT 5 CHECK (points >= 0), version INT NOT NULL DEFAULT 0, CHECK (balance >= 0));",
			version: mariadb,
			want: []Step{
				{
					Table: "t_wallet", Guard: GuardNotNull, Rule: "GS004", What: "make counter t_wallet.balance NOT NULL", Name: "guard_t_wallet_balance_not_null",
					Up:        "ALTER TABLE `t_wallet` MODIFY `balance` DECIMAL(12,2) UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INPLACE, LOCK=NONE",
					Down:      "ALTER TABLE `t_wallet` MODIFY `balance` DECIMAL(12,2) UNSIGNED NULL DEFAULT NULL, ALGORITHM=INPLACE, LOCK=NONE",
					Algorithm: schema.AlgorithmInplace, Rows: -1,
					Note: "rebuilds the table in place, writes continue; fails if a row holds NULL: set those first (UPDATE `t_wallet` SET `balance` = 0 WHERE `balance` IS NULL); the column's comment, if any, is not kept",
				},
				{
					Table: "t_wallet", Guard: GuardNotNull, Rule: "GS004", What: "make counter t_wallet.points NOT NULL", Name: "guard_t_wallet_points_not_null",
					Up:        "ALTER TABLE `t_wallet` MODIFY `points` INT NOT NULL DEFAULT 5, ALGORITHM=INPLACE, LOCK=NONE",
					Down:      "ALTER TABLE `t_wallet` MODIFY `points` INT NULL DEFAULT 5, ALGORITHM=INPLACE, LOCK=NONE",
					Algorithm: schema.AlgorithmInplace, Rows: -1,
					Note: "rebuilds the table in place, writes continue; fails if a row holds NULL: set those first (UPDATE `t_wallet` SET `points` = 0 WHERE `points` IS NULL); the column's comment, if any, is not kept",
				},
				// MODIFY drops the column-level CHECK of points on MariaDB; the
				// table-level one of balance stays.
				{
					Table: "t_wallet", Guard: GuardCheck, Rule: "GS003", What: "add CHECK (points >= 0) to t_wallet", Name: "guard_t_wallet_points_nonneg",
					Up:        "ALTER TABLE `t_wallet` ADD CONSTRAINT `chk_t_wallet_points_nonneg` CHECK (`points` >= 0), ALGORITHM=COPY, LOCK=SHARED",
					Down:      "ALTER TABLE `t_wallet` DROP CONSTRAINT `chk_t_wallet_points_nonneg`, ALGORITHM=INPLACE, LOCK=NONE",
					Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Rows: -1,
					Note: "copies the table and validates every row: writes wait for the whole copy (reads continue); fails if a row is negative; run it in a quiet window",
				},
			},
		},
		{
			name: "unique business key and policy sets",
			ddl: `CREATE TABLE t_pay (id BIGINT PRIMARY KEY, pay_no VARCHAR(64) NOT NULL, channel VARCHAR(16) NOT NULL, trade_no VARCHAR(64) NOT NULL,
  idem VARCHAR(64) NOT NULL, KEY ix_pay_no (pay_no), UNIQUE KEY uk_wide (channel, trade_no, idem));`,
			policy:  "[[table]]\nname = \"t_pay\"\nkeys = [\"pay_no\"]\nunique = [[\"Trade_No\", \"channel\"], [\"channel\", \"trade_no\"], [\"missing\"], [\"pay_no\"]]\n",
			version: mariadb,
			want: []Step{
				{
					Table: "t_pay", Guard: GuardUnique, Rule: "GS005", What: "add UNIQUE (pay_no) to t_pay", Name: "guard_t_pay_pay_no_unique",
					Up:        "ALTER TABLE `t_pay` ADD UNIQUE INDEX `uk_t_pay_pay_no` (`pay_no`), ALGORITHM=INPLACE, LOCK=NONE",
					Down:      "ALTER TABLE `t_pay` DROP INDEX `uk_t_pay_pay_no`, ALGORITHM=INPLACE, LOCK=NONE",
					Algorithm: schema.AlgorithmInplace, Rows: -1,
					Note: "built in place, writes continue; fails with 1062 if duplicates exist or are written during the build: remove them first (guard audit counts them)",
				},
				{
					Table: "t_pay", Guard: GuardUnique, Rule: "GS005", What: "add UNIQUE (trade_no, channel) to t_pay", Name: "guard_t_pay_trade_no_channel_unique",
					Up:        "ALTER TABLE `t_pay` ADD UNIQUE INDEX `uk_t_pay_trade_no_channel` (`trade_no`, `channel`), ALGORITHM=INPLACE, LOCK=NONE",
					Down:      "ALTER TABLE `t_pay` DROP INDEX `uk_t_pay_trade_no_channel`, ALGORITHM=INPLACE, LOCK=NONE",
					Algorithm: schema.AlgorithmInplace, Rows: -1,
					Note: "built in place, writes continue; fails with 1062 if duplicates exist or are written during the build: remove them first (guard audit counts them)",
				},
			},
		},
		{
			name:    "triggers by choice on a server that enforces CHECK; existing trigger kept",
			ddl:     "CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0);",
			version: mariadb,
			opts:    Options{Strategy: StrategyTrigger, Triggers: map[string]bool{"trg_t_stock_stock_nonneg_bi": true}},
			want: []Step{{
				Table: "t_stock", Guard: GuardTrigger, Rule: "GS003", What: "trigger rejecting a negative t_stock.stock on UPDATE", Name: "guard_t_stock_stock_nonneg_bu",
				Up: "CREATE TRIGGER `trg_t_stock_stock_nonneg_bu` BEFORE UPDATE ON `t_stock` FOR EACH ROW\nIF NEW.`stock` < 0 THEN\n" +
					"  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: t_stock.stock must not be negative';\nEND IF",
				Down:      "DROP TRIGGER `trg_t_stock_stock_nonneg_bu`",
				Algorithm: schema.AlgorithmNone, Rows: -1,
				Note: "installed without a table copy; rows already negative stay as they are (guard audit finds them); the server enforces CHECK, which GS003 looks for: a CHECK is the simpler guard",
			}},
		},
		{
			name:    "triggers on a server that ignores CHECK",
			ddl:     "CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0, version INT NOT NULL DEFAULT 0);",
			version: mysql57,
			want: []Step{
				{
					Table: "t_stock", Guard: GuardTrigger, Rule: "GS003", What: "trigger rejecting a negative t_stock.stock on INSERT", Name: "guard_t_stock_stock_nonneg_bi",
					Up: "CREATE TRIGGER `trg_t_stock_stock_nonneg_bi` BEFORE INSERT ON `t_stock` FOR EACH ROW\nIF NEW.`stock` < 0 THEN\n" +
						"  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: t_stock.stock must not be negative';\nEND IF",
					Down:      "DROP TRIGGER `trg_t_stock_stock_nonneg_bi`",
					Algorithm: schema.AlgorithmNone, Rows: -1,
					Note: "the server does not enforce CHECK, so a trigger is the guard; installed without a table copy; rows already negative stay as they are (guard audit finds them)",
				},
				{
					Table: "t_stock", Guard: GuardTrigger, Rule: "GS003", What: "trigger rejecting a negative t_stock.stock on UPDATE", Name: "guard_t_stock_stock_nonneg_bu",
					Up: "CREATE TRIGGER `trg_t_stock_stock_nonneg_bu` BEFORE UPDATE ON `t_stock` FOR EACH ROW\nIF NEW.`stock` < 0 THEN\n" +
						"  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: t_stock.stock must not be negative';\nEND IF",
					Down:      "DROP TRIGGER `trg_t_stock_stock_nonneg_bu`",
					Algorithm: schema.AlgorithmNone, Rows: -1,
					Note: "the server does not enforce CHECK, so a trigger is the guard; installed without a table copy; rows already negative stay as they are (guard audit finds them)",
				},
			},
		},
		{
			name:    "sql_mode persisted on MySQL 8",
			ddl:     "",
			version: mysql8,
			opts:    Options{GlobalSQLMode: &lax},
			want: []Step{{
				Guard: GuardSQLMode, Rule: "GS001", What: "add STRICT_TRANS_TABLES to the global sql_mode", Name: "guard_server_strict_sql_mode",
				Up:        "SET PERSIST sql_mode = 'NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLES'",
				Down:      "SET PERSIST sql_mode = 'NO_ENGINE_SUBSTITUTION'",
				Algorithm: schema.AlgorithmNone, Rows: -1,
				Note: "applies to new connections; needs SYSTEM_VARIABLES_ADMIN; PERSIST keeps it across restarts",
			}},
		},
		{
			name:    "sql_mode set globally on MariaDB, from an empty mode",
			ddl:     "",
			version: mariadb,
			opts:    Options{GlobalSQLMode: &empty},
			want: []Step{{
				Guard: GuardSQLMode, Rule: "GS001", What: "add STRICT_TRANS_TABLES to the global sql_mode", Name: "guard_server_strict_sql_mode",
				Up:        "SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES'",
				Down:      "SET GLOBAL sql_mode = ''",
				Algorithm: schema.AlgorithmNone, Rows: -1,
				Note: "applies to new connections; needs SUPER; SET GLOBAL does not survive a restart: also put sql_mode = 'STRICT_TRANS_TABLES' under [mysqld] in the server's configuration",
			}},
		},
		{name: "strict already", ddl: "", version: mariadb, opts: Options{GlobalSQLMode: &strict}},
		{name: "strict not required", ddl: "", policy: "[server]\nrequire_strict_mode = false\n", version: mariadb, opts: Options{GlobalSQLMode: &lax}},
		{name: "counters off for a table", ddl: "CREATE TABLE t_ledger (id BIGINT PRIMARY KEY, balance INT NULL);", policy: "[[table]]\nname = \"t_ledger\"\ncounters = []\n", version: mariadb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Plan(schemaOf(t, tt.ddl+guarded), policyOf(t, tt.policy), schema.ParseServer(tt.version), tt.opts)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Plan (-want +got):\n%s", d)
			}
		})
	}
}

// TestPlanOrder checks the order of steps: tables by name, then NOT NULL,
// version, CHECK, UNIQUE; sql_mode last.
func TestPlanOrder(t *testing.T) {
	ddl := `CREATE TABLE t_b (id BIGINT PRIMARY KEY, order_no VARCHAR(32) NOT NULL, stock INT NULL, quantity INT NOT NULL);
CREATE TABLE t_a (id BIGINT PRIMARY KEY, pay_no VARCHAR(32) NOT NULL, status VARCHAR(8) NOT NULL);`
	mode := ""
	var got []string
	for _, st := range Plan(schemaOf(t, ddl), policy.Default(), schema.ParseServer(mariadb), Options{GlobalSQLMode: &mode}) {
		got = append(got, st.Table+" "+st.Guard+" "+st.Name)
	}
	want := []string{
		"t_a version-column guard_t_a_add_version",
		"t_a unique guard_t_a_pay_no_unique",
		"t_b not-null guard_t_b_stock_not_null",
		"t_b version-column guard_t_b_add_version",
		"t_b check guard_t_b_stock_nonneg",
		"t_b check guard_t_b_quantity_nonneg",
		"t_b unique guard_t_b_order_no_unique",
		" sql-mode guard_server_strict_sql_mode",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

// TestPlanNames covers quoting and the 64-character limit.
func TestPlanNames(t *testing.T) {
	long := strings.Repeat("x", 64)
	tests := []struct {
		name, ddl string
		check     func(t *testing.T, steps []Step)
	}{
		{
			name: "backticks and quotes in names",
			ddl:  "CREATE TABLE `it's``t` (id BIGINT PRIMARY KEY, stock INT NOT NULL, `a``b_no` INT NOT NULL, version INT NOT NULL DEFAULT 0);",
			check: func(t *testing.T, steps []Step) {
				var ups []string
				for _, st := range steps {
					ups = append(ups, st.Up)
				}
				want := []string{
					"ALTER TABLE `it's``t` ADD CONSTRAINT `chk_it's``t_stock_nonneg` CHECK (`stock` >= 0), ALGORITHM=COPY, LOCK=SHARED",
					"ALTER TABLE `it's``t` ADD UNIQUE INDEX `uk_it's``t_a``b_no` (`a``b_no`), ALGORITHM=INPLACE, LOCK=NONE",
					"CREATE TRIGGER `trg_it's``t_stock_nonneg_bi` BEFORE INSERT ON `it's``t` FOR EACH ROW\nIF NEW.`stock` < 0 THEN\n" +
						"  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'guard: it''s`t.stock must not be negative';\nEND IF",
				}
				if d := cmp.Diff(want, ups[:3]); d != "" {
					t.Errorf("statements (-want +got):\n%s", d)
				}
				if steps[0].Name != "guard_it_s_t_stock_nonneg" || steps[1].Name != "guard_it_s_t_a_b_no_unique" {
					t.Errorf("file titles %q, %q", steps[0].Name, steps[1].Name)
				}
			},
		},
		{
			name: "64-character table and column",
			ddl:  "CREATE TABLE " + long + " (id BIGINT PRIMARY KEY, " + long[:58] + "_stock INT NOT NULL, " + long[:61] + "_no VARCHAR(8) NOT NULL, version INT NOT NULL DEFAULT 0);",
			check: func(t *testing.T, steps []Step) {
				kinds := map[string]int{}
				for _, st := range steps {
					kinds[st.Guard]++
				}
				if kinds[GuardCheck] != 1 || kinds[GuardTrigger] != 2 || kinds[GuardUnique] != 2 {
					t.Fatalf("steps = %+v", steps)
				}
				for _, st := range steps {
					for _, name := range backtickNames(st.Up) {
						if utf8.RuneCountInString(name) > schema.MaxIdentLen {
							t.Errorf("%s: name %q is %d characters long", st.Name, name, len(name))
						}
					}
					if len(st.Name) > maxTitle {
						t.Errorf("file title %q is %d bytes long", st.Name, len(st.Name))
					}
					if st.Guard == GuardTrigger {
						msg := st.Up[strings.Index(st.Up, "MESSAGE_TEXT = '")+len("MESSAGE_TEXT = '") : strings.LastIndex(st.Up, "'")]
						if n := utf8.RuneCountInString(msg); n != maxMessageText {
							t.Errorf("message of %d characters, want it cut to %d: %s", n, maxMessageText, msg)
						}
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schemaOf(t, tt.ddl)
			steps := Plan(s, policy.Default(), schema.ParseServer(mariadb), Options{})
			// One run with triggers too, for the trigger names.
			steps = append(steps, Plan(s, policy.Default(), schema.ParseServer(mysql57), Options{})...)
			var keep []Step
			for _, st := range steps {
				if st.Guard == GuardCheck || st.Guard == GuardTrigger || st.Guard == GuardUnique {
					keep = append(keep, st)
				}
			}
			tt.check(t, keep)
			// Every name replays: the plan applied leaves nothing to plan.
			assertIdempotent(t, tt.ddl, policy.Default(), schema.ParseServer(mariadb))
		})
	}
}

// TestPlanTitlesAreUnique: t_a.b_stock and t_a_b.stock would both be
// guard_t_a_b_stock_nonneg.
func TestPlanTitlesAreUnique(t *testing.T) {
	s := schemaOf(t, `CREATE TABLE t_a (id INT PRIMARY KEY, b_stock INT NOT NULL, version INT NOT NULL DEFAULT 0);
CREATE TABLE t_a_b (id INT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0);`)
	steps := Plan(s, policy.Default(), schema.ParseServer(mariadb), Options{})
	if len(steps) != 2 || steps[0].Name != "guard_t_a_b_stock_nonneg" || !strings.HasPrefix(steps[1].Name, "guard_t_a_b_stock_nonneg_") {
		t.Errorf("titles %q", []string{steps[0].Name, steps[len(steps)-1].Name})
	}
}

// backtickNames returns the backtick-quoted names of a statement, unquoted.
func backtickNames(sql string) []string {
	var out []string
	for i := 0; i < len(sql); i++ {
		if sql[i] != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(sql); j++ {
			if sql[j] == '`' {
				if j+1 < len(sql) && sql[j+1] == '`' {
					b.WriteByte('`')
					j++
					continue
				}
				break
			}
			b.WriteByte(sql[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

// assertIdempotent replays ddl, then the plan's up statements, and requires
// a second plan to be empty. srv must enforce CHECK: replay does not follow
// triggers (LoadDirs does, by name).
func assertIdempotent(t *testing.T, ddl string, pol *policy.Policy, srv schema.Server) {
	t.Helper()
	steps := Plan(schemaOf(t, ddl), pol, srv, Options{})
	var b strings.Builder
	b.WriteString(ddl)
	for _, st := range steps {
		b.WriteString("\n" + st.Up + ";")
	}
	if again := Plan(schemaOf(t, b.String()), pol, srv, Options{}); len(again) > 0 {
		t.Errorf("after applying %d steps, plan again gives %+v", len(steps), again)
	}
}

func TestGapsAgreeWithPlan(t *testing.T) {
	s := schemaOf(t, "CREATE TABLE t (id BIGINT PRIMARY KEY, stock INT NULL, pay_no VARCHAR(8));")
	gaps := Gaps(s, nil)
	var got []string
	for _, g := range gaps {
		got = append(got, g.Rule+" "+strings.Join(g.Columns, ","))
	}
	want := []string{"GS004 stock", "GS006 version", "GS003 stock", "GS005 pay_no"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("gaps (-want +got):\n%s", d)
	}
	if Gaps(nil, nil) != nil {
		t.Error("Gaps of no schema")
	}
}

func TestOfflineServer(t *testing.T) {
	for flavor, want := range map[string]schema.Flavor{FlavorMariaDB: schema.FlavorMariaDB, FlavorMySQL8: schema.FlavorMySQL} {
		srv, ok := OfflineServer(flavor)
		if !ok || srv.Flavor != want || !srv.EnforcesCheck() || !srv.SupportsInstantAddColumn() {
			t.Errorf("OfflineServer(%q) = %v, %v", flavor, srv, ok)
		}
	}
	if _, ok := OfflineServer("oracle"); ok {
		t.Error("unknown flavor accepted")
	}
}
