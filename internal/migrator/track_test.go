package migrator

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// analyzeText parses text as one file f.sql and analyzes it.
func analyzeText(t *testing.T, text string) ([]string, []string) {
	t.Helper()
	stmts, errs := parseScript(sqlparse.NewParser(), "f.sql", text)
	if len(errs) > 0 {
		t.Fatalf("parse: %v", errs)
	}
	plan, expected := analyze("shop", stmts)
	var probes, guards []string
	for _, p := range plan {
		if p.guard.Kind == KindFits {
			// Every MODIFY plans one; TestNarrowingPreflight covers them.
			continue
		}
		s := p.guard.String() + " @" + p.live
		if p.skip != "" {
			s += " skipped: " + p.skip
		}
		probes = append(probes, s)
	}
	for _, g := range expected {
		guards = append(guards, g.String())
	}
	return probes, guards
}

func TestAnalyze(t *testing.T) {
	tests := []struct {
		name           string
		sql            string
		probes, guards []string
	}{
		{
			name: "guard plan's statements",
			sql: "ALTER TABLE t_inv ADD COLUMN version BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT;\n" +
				"ALTER TABLE t_inv ADD CONSTRAINT chk_t_inv_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY;\n" +
				"ALTER TABLE t_inv ADD UNIQUE INDEX uk_t_inv_sku (sku, shop_id), ALGORITHM=INPLACE, LOCK=NONE;\n" +
				"ALTER TABLE t_inv MODIFY qty INT NOT NULL DEFAULT 0;\n" +
				"CREATE TRIGGER trg_bu BEFORE UPDATE ON t_inv FOR EACH ROW BEGIN IF NEW.qty < 0 THEN SIGNAL SQLSTATE '45000'; END IF; END;\n" +
				"SET PERSIST sql_mode = 'STRICT_TRANS_TABLES';",
			probes: []string{
				"t_inv: CHECK chk_t_inv_qty_nonneg (`qty`>=0) @t_inv",
				"t_inv: UNIQUE uk_t_inv_sku (`sku`, `shop_id`) @t_inv",
				"t_inv: qty NOT NULL @t_inv",
			},
			guards: []string{
				"t_inv: column version NOT NULL",
				"t_inv: CHECK chk_t_inv_qty_nonneg (`qty`>=0)",
				"t_inv: UNIQUE uk_t_inv_sku (`sku`, `shop_id`)",
				"t_inv: qty NOT NULL",
				"t_inv: trigger trg_bu BEFORE UPDATE",
			},
		},
		{
			name: "key parts, primary key and column options",
			sql: "CREATE UNIQUE INDEX uk_name ON t (name(10), code);\n" +
				"ALTER TABLE t ADD PRIMARY KEY (id), ADD CONSTRAINT CHECK (a > 0 AND b >= a);\n" +
				"ALTER TABLE t CHANGE old_qty qty INT NOT NULL CHECK (qty >= 0) UNIQUE;\n" +
				"ALTER TABLE t ADD CONSTRAINT chk_off CHECK (x > 0) NOT ENFORCED;",
			probes: []string{
				"t: UNIQUE uk_name (LEFT(`name`, 10), `code`) @t",
				"t: PRIMARY KEY (`id`) @t",
				"t: CHECK (`a`>0 AND `b`>=`a`) @t",
				"t: qty NOT NULL @t",
				"t: CHECK (`qty`>=0) @t skipped: column qty is added or renamed by f.sql:3 in this run",
				"t: UNIQUE (`qty`) @t skipped: column qty is added or renamed by f.sql:3 in this run",
			},
			guards: []string{
				"t: UNIQUE uk_name (LEFT(`name`, 10), `code`)",
				"t: PRIMARY KEY (`id`)",
				"t: CHECK (`a`>0 AND `b`>=`a`)",
				"t: qty NOT NULL",
				"t: CHECK (`qty`>=0)",
				"t: UNIQUE (`qty`)",
			},
		},
		{
			name: "later statements drop what earlier ones added",
			sql: "ALTER TABLE t ADD CONSTRAINT chk_a CHECK (a >= 0), ADD UNIQUE KEY uk_b (b), ADD UNIQUE (c);\n" +
				"ALTER TABLE t DROP CHECK chk_a;\n" +
				"DROP INDEX uk_b ON t;\n" +
				"ALTER TABLE t DROP INDEX c;\n" +
				"ALTER TABLE t MODIFY d INT NOT NULL;\n" +
				"ALTER TABLE t MODIFY d INT NULL;\n" +
				"CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW SET @x = 1;\n" +
				"DROP TRIGGER IF EXISTS tr;",
			probes: []string{
				"t: CHECK chk_a (`a`>=0) @t",
				"t: UNIQUE uk_b (`b`) @t",
				"t: UNIQUE (`c`) @t",
				"t: d NOT NULL @t",
			},
		},
		{
			name: "created, filled, renamed and dropped tables",
			sql: "CREATE TABLE n (id INT PRIMARY KEY, q INT CHECK (q >= 0), UNIQUE KEY uk_q (q));\n" +
				"UPDATE old SET q = 0 WHERE q < 0;\n" +
				"ALTER TABLE old ADD CONSTRAINT chk_q CHECK (q >= 0);\n" +
				"RENAME TABLE live TO renamed;\n" +
				"ALTER TABLE renamed ADD UNIQUE INDEX uk_r (r);\n" +
				"ALTER TABLE renamed RENAME TO again, ADD CONSTRAINT chk_r CHECK (r > 0);\n" +
				"ALTER TABLE other.t ADD CONSTRAINT chk_elsewhere CHECK (z > 0);\n" +
				"DROP TABLE n;",
			probes: []string{
				"n: CHECK (`q`>=0) @n skipped: the table is created or replaced by f.sql:1 in this run: no existing rows",
				"n: UNIQUE uk_q (`q`) @n skipped: the table is created or replaced by f.sql:1 in this run: no existing rows",
				"old: CHECK chk_q (`q`>=0) @old skipped: rows are changed by f.sql:2 before it in this run: the result cannot be predicted",
				"renamed: UNIQUE uk_r (`r`) @live",
				"again: CHECK chk_r (`r`>0) @live",
			},
			guards: []string{
				"old: CHECK chk_q (`q`>=0)",
				"again: UNIQUE uk_r (`r`)",
				"again: CHECK chk_r (`r`>0)",
			},
		},
		{
			name: "a created table filled before its guard",
			sql: "INSERT INTO f VALUES (1, 1);\n" +
				"DROP TABLE f; CREATE TABLE f (id INT PRIMARY KEY, q INT);\n" +
				"ALTER TABLE f ADD CONSTRAINT chk_empty CHECK (q >= 0);\n" +
				"INSERT INTO f VALUES (2, -1);\n" +
				"ALTER TABLE f ADD CONSTRAINT chk_filled CHECK (q >= 0);",
			probes: []string{
				"f: CHECK chk_empty (`q`>=0) @f skipped: the table is created or replaced by f.sql:2 in this run: no existing rows",
				"f: CHECK chk_filled (`q`>=0) @f skipped: rows are changed by f.sql:4 before it in this run: the result cannot be predicted",
			},
			guards: []string{
				"f: CHECK chk_empty (`q`>=0)",
				"f: CHECK chk_filled (`q`>=0)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probes, guards := analyzeText(t, tt.sql)
			if d := cmp.Diff(tt.probes, probes); d != "" {
				t.Errorf("probes (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.guards, guards); d != "" {
				t.Errorf("expected guards (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseScriptPositions(t *testing.T) {
	text := "\ufeff-- header\nALTER TABLE t ADD COLUMN a INT;\n  ALTER TABLE t\n    ADD COLUMN b INT NOT NUL;\nCREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END;\nSELEC 1;"
	stmts, errs := parseScript(sqlparse.NewParser(), "m.up.sql", text)
	want := []FileError{
		{File: "m.up.sql", Line: 4, Column: 26, Msg: errs[0].Msg},
		{File: "m.up.sql", Line: 6, Column: 1, Msg: errs[1].Msg},
	}
	if d := cmp.Diff(want, errs); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
	if len(stmts) != 2 || stmts[0].Line != 2 || stmts[1].Program == nil || stmts[1].Program.Name != "x" {
		t.Errorf("statements: %+v", stmts)
	}
	if !strings.Contains(errs[0].String(), "m.up.sql:4:26: syntax error") {
		t.Errorf("error text %q", errs[0])
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"ALTER TABLE t ADD CONSTRAINT c CHECK (q >= 0), ADD UNIQUE (a(3), b), MODIFY q INT NOT NULL;",
		"CREATE TABLE t (id INT PRIMARY KEY, q INT CHECK (q >= 0) UNIQUE); DROP TABLE t; RENAME TABLE a TO b, b TO c;",
		"ALTER TABLE t CHANGE a b INT NOT NULL, DROP COLUMN c, RENAME COLUMN d TO e, RENAME TO u, DROP PRIMARY KEY;",
		"CREATE UNIQUE INDEX i ON s.t ((lower(a))); DROP INDEX i ON t; UPDATE t, u SET t.a = 1; DELETE t FROM t JOIN u;",
		"CREATE TRIGGER tr BEFORE UPDATE ON t FOR EACH ROW BEGIN IF NEW.q < 0 THEN SIGNAL SQLSTATE '45000'; END IF; END; DROP TRIGGER tr;",
		"INSERT INTO t SELECT * FROM u; LOAD DATA INFILE 'x' INTO TABLE t; TRUNCATE t; SET PERSIST x = 1;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		stmts, errs := parseScript(sqlparse.NewParser(), "f.sql", text)
		for _, e := range errs {
			if e.Line < 1 || e.Column < 1 {
				t.Fatalf("error at %d:%d", e.Line, e.Column)
			}
		}
		plan, expected := analyze("db", stmts)
		for _, p := range plan {
			_ = p.guard.String()
			for _, k := range p.guard.keys {
				_ = k.sql()
			}
		}
		for _, g := range expected {
			_ = g.String()
		}
	})
}
