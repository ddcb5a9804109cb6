package rules

import (
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// fixSchema is a schema of tables none of which is the t_inventory of the
// rules' general fixes, so that a fix naming t_inventory names the wrong table.
const fixSchema = `
CREATE TABLE t_product (
  id      BIGINT      NOT NULL PRIMARY KEY,
  sku     VARCHAR(64) NOT NULL,
  stock   INT         NOT NULL DEFAULT 0,
  status  VARCHAR(16) NOT NULL DEFAULT 'on',
  note    VARCHAR(255) NULL,
  version BIGINT      NOT NULL DEFAULT 0,
  UNIQUE KEY uk_sku (sku)
) ENGINE=InnoDB;
CREATE TABLE t_order (
  order_id BIGINT      NOT NULL PRIMARY KEY,
  status   VARCHAR(16) NOT NULL,
  quantity INT         NOT NULL
) ENGINE=InnoDB;
CREATE TABLE t_ticket (
  ticket_id BIGINT      NOT NULL PRIMARY KEY,
  state     VARCHAR(16) NOT NULL
) ENGINE=InnoDB;
CREATE TABLE t_wallet (
  id      BIGINT                 NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) UNSIGNED NULL DEFAULT 1.50,
  points  INT                    NULL,
  tag     VARCHAR(20)            NULL,
  version VARCHAR(20)            NULL
) ENGINE=InnoDB;
`

// loadFixSchema builds fixSchema.
func loadFixSchema(t *testing.T) *schema.Schema {
	t.Helper()
	var ddl []schema.DDL
	for _, piece := range sqlparse.Split(fixSchema) {
		ddl = append(ddl, schema.DDL{SQL: piece.Text, File: "schema.sql", Line: 1, Col: 1})
	}
	s, errs := schema.FromDDL(ddl)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	return s
}

// checkFix asserts that fix holds every want and none of the unwanted texts.
func checkFix(t *testing.T, name, fix string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(fix, w) {
			t.Errorf("%s: fix %q lacks %q", name, fix, w)
		}
	}
	for _, n := range not {
		if strings.Contains(fix, n) {
			t.Errorf("%s: fix %q holds %q", name, fix, n)
		}
	}
}

// TestQueryFixes checks that a query rule's fix names the finding's own
// table, column and statement kind, never the example of the rule's
// general advice.
func TestQueryFixes(t *testing.T) {
	s := loadFixSchema(t)
	goExec := &stmt.Exec{Method: "ExecContext", ResultDiscarded: true}
	tests := []struct {
		rule *lint.Rule
		sql  string
		lang stmt.Lang
		exec *stmt.Exec
		want []string
		not  []string
	}{
		{UnguardedDecrement, "UPDATE t_product SET stock = stock - ? WHERE id = ?", stmt.LangSQL, nil,
			[]string{"`AND stock >= ?`", "`UPDATE t_product SET stock = stock - ? WHERE id = ? AND stock >= ?`"}, []string{"t_inventory", "inventory"}},
		{UnguardedDecrement, "UPDATE t_product p SET p.stock = p.stock - 2 WHERE p.sku = ?", stmt.LangSQL, nil,
			[]string{"`AND p.stock >= 2`", "WHERE sku = ? AND stock >= 2`"}, []string{"t_inventory"}},
		// No equality on the row in the statement: the primary key names it.
		{UnguardedDecrement, "UPDATE t_order SET quantity = quantity - 1 WHERE quantity < 100", stmt.LangSQL, nil,
			[]string{"`UPDATE t_order SET quantity = quantity - 1 WHERE order_id = ? AND quantity >= 1`"}, []string{"t_inventory"}},
		{UnguardedDecrement, "UPDATE t_order o JOIN t_product p ON p.id = o.order_id SET p.stock = p.stock - o.quantity WHERE o.order_id = ?", stmt.LangSQL, nil,
			[]string{"`AND p.stock >= o.quantity`"}, []string{"t_inventory", "UPDATE t_product"}},
		{UnguardedDecrement, "INSERT INTO t_product (sku, stock) VALUES (?, ?) ON DUPLICATE KEY UPDATE stock = stock - VALUES(stock)", stmt.LangSQL, nil,
			[]string{"plain INSERT", "`UPDATE t_product SET stock = stock - ? WHERE sku = ? AND stock >= ?`"}, []string{"t_inventory"}},
		{UnguardedDecrement, "UPDATE t_product SET stock = CASE id WHEN ? THEN stock - ? WHEN ? THEN stock - ? END WHERE id IN (?, ?)", stmt.LangXML, nil,
			[]string{"WHERE id IN (…) AND stock >= CASE id WHEN ? THEN ? … END", "number of rows in the batch"}, []string{"t_inventory"}},
		{UnguardedDecrement, "UPDATE t_product SET stock = CASE WHEN sku = ? THEN stock - ? END WHERE sku IN (?)", stmt.LangSQL, nil,
			[]string{"WHERE sku IN (…) AND stock >= CASE WHEN sku = ? THEN ? … END"}, []string{"t_inventory", "<key>"}},
		{ClampedDecrement, "UPDATE t_product SET stock = GREATEST(stock - ?, 0) WHERE id = ?", stmt.LangSQL, nil,
			[]string{"without the clamp (`stock = stock - ?`)", "`UPDATE t_product SET stock = stock - ? WHERE id = ? AND stock >= ?`"}, []string{"t_inventory"}},
		{ClampedDecrement, "UPDATE t_product SET stock = CASE id WHEN ? THEN IF(stock >= ?, stock - ?, stock) END WHERE id IN (?)", stmt.LangSQL, nil,
			[]string{"subtract plainly in every branch", "stock >= CASE id WHEN ? THEN ? … END"}, []string{"t_inventory"}},
		{AbsoluteCounterWrite, "UPDATE t_product SET stock = ? WHERE id = ?", stmt.LangSQL, nil,
			[]string{"`UPDATE t_product SET stock = stock - ? WHERE id = ? AND stock >= ?`", "`UPDATE t_product SET stock = ?, version = version + 1 WHERE id = ? AND version = ?`"},
			[]string{"t_inventory", "GS006"}},
		// t_order has no version column: the CAS needs one first.
		{AbsoluteCounterWrite, "UPDATE t_order SET quantity = ? WHERE order_id = ?", stmt.LangSQL, nil,
			[]string{"WHERE order_id = ? AND quantity >= ?", "add a version column to t_order (GS006)"}, []string{"t_inventory"}},
		{VersionNotBumped, "UPDATE t_product SET note = ? WHERE id = ?", stmt.LangSQL, nil,
			[]string{"`UPDATE t_product SET note = …, version = version + 1 WHERE …`"}, []string{"t_inventory", "inventory"}},
		{VersionNotBumped, "INSERT INTO t_product (sku, note) VALUES (?, ?) ON DUPLICATE KEY UPDATE note = VALUES(note)", stmt.LangSQL, nil,
			[]string{"ON DUPLICATE KEY UPDATE list", "INSERT INTO t_product"}, []string{"t_inventory", "UPDATE t_product SET"}},
		{UncheckedStateTransition, "UPDATE t_order SET status = 'paid' WHERE order_id = ?", stmt.LangSQL, nil,
			[]string{"`UPDATE t_order SET status = 'paid' WHERE order_id = ? AND status = ?`"}, []string{"t_inventory", "version"}},
		{UncheckedStateTransition, "UPDATE t_product SET status = ? WHERE id = ?", stmt.LangSQL, nil,
			[]string{"`UPDATE t_product SET status = ? WHERE id = ? AND status = ?`", "version = ?"}, []string{"t_order", "t_inventory"}},
		{WriteWithoutWhere, "DELETE FROM t_order", stmt.LangSQL, nil,
			[]string{"restrict the DELETE", "`DELETE FROM t_order WHERE order_id = ?`"}, []string{"UPDATE", "<if>"}},
		{WriteWithoutWhere, "UPDATE t_product SET note = ?", stmt.LangXML, nil,
			[]string{"restrict the UPDATE", "`UPDATE t_product SET … WHERE id = ?`", "`WHERE id = #{id}`"}, []string{"t_order", "DELETE"}},
		{SelectForUpdate, "SELECT stock FROM t_product WHERE id = ? FOR UPDATE", stmt.LangSQL, nil,
			[]string{"`UPDATE t_product SET stock = stock - ? WHERE id = ? AND stock >= ?`", "`UPDATE t_product SET stock = ?, version = version + 1 WHERE id = ? AND version = ?`"},
			[]string{"t_inventory"}},
		{SelectForUpdate, "SELECT quantity FROM t_order WHERE order_id = ? FOR UPDATE", stmt.LangSQL, nil,
			[]string{"`UPDATE t_order SET quantity = quantity - ? WHERE order_id = ? AND quantity >= ?`", "after adding a version column"},
			[]string{"t_inventory"}},
		{SelectForUpdate, "SELECT state FROM t_ticket WHERE ticket_id = ? FOR UPDATE", stmt.LangSQL, nil,
			[]string{"UPDATE t_ticket SET … WHERE ticket_id = ? AND <column> = <value read>", "after adding a version column"},
			[]string{"t_inventory", "stock"}},
		{UpsertAsLock, "INSERT INTO t_product (sku, stock) VALUES (?, ?) ON DUPLICATE KEY UPDATE stock = stock + VALUES(stock)", stmt.LangSQL, nil,
			[]string{"plain INSERT INTO t_product", "`UPDATE t_product SET stock = stock - ? WHERE sku = ? AND stock >= ?`"}, []string{"t_inventory"}},
		{UpsertAsLock, "REPLACE INTO t_product (id, sku, stock) VALUES (?, ?, ?)", stmt.LangSQL, nil,
			[]string{"replace REPLACE", "WHERE id = ? AND stock >= ?"}, []string{"t_inventory"}},
		{RowsAffectedIgnored, "UPDATE t_product SET stock = stock - ? WHERE id = ? AND stock >= ?", stmt.LangGo, goExec,
			[]string{"db.ExecContext(…)", "return ErrInsufficient"}, []string{"t_inventory", "UPDATE"}},
		{RowsAffectedIgnored, "DELETE FROM t_order WHERE order_id = ? AND status = 'draft'", stmt.LangGo, goExec,
			[]string{"return ErrStateChanged"}, []string{"t_inventory", "UPDATE", "ErrInsufficient"}},
		{RowsAffectedIgnored, "UPDATE t_product SET note = ?, version = version + 1 WHERE id = ? AND version = ?", stmt.LangGo, goExec,
			[]string{"return ErrConflict"}, []string{"t_inventory", "ErrInsufficient"}},
		{RowsAffectedIgnored, "UPDATE t_product SET stock = CASE id WHEN ? THEN stock - ? END WHERE id IN (?) AND stock >= CASE id WHEN ? THEN ? END", stmt.LangGo, goExec,
			[]string{"number of rows in the batch", "return ErrInsufficient"}, []string{"n != 1"}},
	}
	for _, tt := range tests {
		fr := &stmt.Fragment{File: "q." + string(tt.lang), Lang: tt.lang, Line: 1, Col: 1, SQL: tt.sql, Exec: tt.exec}
		st := queryStmt(t, fr, tt.sql, 1, 1)
		if st.Node == nil {
			t.Fatalf("%s: does not parse", tt.sql)
		}
		var got []lint.Finding
		pass := lint.NewPass(tt.rule, policy.Default(), s, []*lint.Statement{st}, nil, nil, func(f lint.Finding) { got = append(got, f) })
		if err := tt.rule.Run(pass); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Errorf("%s %s: %d findings, want 1: %+v", tt.rule.Code, tt.sql, len(got), got)
			continue
		}
		if got[0].Fix == tt.rule.Fix {
			t.Errorf("%s %s: the rule's general fix", tt.rule.Code, tt.sql)
		}
		checkFix(t, tt.rule.Code+" "+tt.sql, got[0].Fix, tt.want, tt.not)
	}
}

// TestFixFallsBackWithoutTable checks that a rule keeps its general advice
// when the statement names no table it can build a fix for.
func TestFixFallsBackWithoutTable(t *testing.T) {
	sql := "UPDATE (SELECT 1 AS stock) AS d SET d.stock = d.stock - 1"
	fr := &stmt.Fragment{File: "q.sql", Lang: stmt.LangSQL, Line: 1, Col: 1, SQL: sql}
	st := queryStmt(t, fr, sql, 1, 1)
	var got []lint.Finding
	pass := lint.NewPass(UnguardedDecrement, policy.Default(), loadFixSchema(t), []*lint.Statement{st}, nil, nil, func(f lint.Finding) { got = append(got, f) })
	if err := UnguardedDecrement.Run(pass); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Fix != UnguardedDecrement.Fix {
		t.Errorf("findings %+v, want one with the rule's general fix", got)
	}
}

// TestSchemaFixes checks that a schema rule's fix names the table and column
// of the finding and keeps the column's full type.
func TestSchemaFixes(t *testing.T) {
	s := loadFixSchema(t)
	pol := mustPolicy(t, "version = 1\n[schema]\ncounter_columns = [\"stock\", \"balance\", \"points\", \"tag\"]\n")
	tests := []struct {
		rule          *lint.Rule
		table, column string
		want, not     []string
	}{
		// DECIMAL alone is DECIMAL(10,0): copying it would round the money.
		{schemarules.NullableCounter, "t_wallet", "balance",
			[]string{"UPDATE t_wallet SET balance = 0 WHERE balance IS NULL", "ALTER TABLE t_wallet MODIFY balance DECIMAL(12,2) UNSIGNED NOT NULL DEFAULT 1.50"},
			[]string{"t_inventory", "DECIMAL NOT", "CHARACTER SET"}},
		{schemarules.NullableCounter, "t_wallet", "points", []string{"MODIFY points INT NOT NULL DEFAULT 0"}, []string{"t_inventory"}},
		{schemarules.NullableCounter, "t_wallet", "tag", []string{"MODIFY tag VARCHAR(20) NOT NULL", "CHARACTER SET/COLLATE"}, []string{"t_inventory"}},
		{schemarules.BadVersionColumn, "t_wallet", "version",
			[]string{"UPDATE t_wallet SET version = 0 WHERE version IS NULL", "MODIFY version BIGINT UNSIGNED NOT NULL DEFAULT 0", "rewrites every row"},
			[]string{"t_inventory"}},
		{schemarules.CounterWithoutCheck, "t_product", "stock", []string{"ALTER TABLE t_product ADD CONSTRAINT", "CHECK (stock >= 0)"}, []string{"t_inventory"}},
	}
	for _, tt := range tests {
		found := false
		for _, f := range runRule(t, tt.rule, pol, s, nil, nil) {
			if f.Table != tt.table || f.ColumnName != tt.column {
				continue
			}
			found = true
			checkFix(t, tt.rule.Code+" "+tt.table+"."+tt.column, f.Fix, tt.want, tt.not)
		}
		if !found {
			t.Errorf("%s: no finding on %s.%s", tt.rule.Code, tt.table, tt.column)
		}
	}

	// An integer version column keeps its type.
	v := schema.New()
	v.Add(&schema.Table{Name: "t_cart", Columns: []*schema.Column{
		{Name: "id", Type: "bigint", ColumnType: "bigint"},
		{Name: "version", Type: "int", ColumnType: "int unsigned", Unsigned: true, Nullable: true},
	}, PrimaryKey: []string{"id"}})
	fs := runRule(t, schemarules.BadVersionColumn, nil, v, nil, nil)
	if len(fs) != 1 {
		t.Fatalf("GS007: %d findings, want 1", len(fs))
	}
	checkFix(t, "GS007 integer", fs[0].Fix, []string{"ALTER TABLE t_cart MODIFY version INT UNSIGNED NOT NULL DEFAULT 0"}, []string{"BIGINT", "rewrites"})

	// A server that ignores CHECK: upgrade, and keep the guards in the writes.
	c := schema.New()
	c.Add(&schema.Table{Name: "t_stock", Checks: []*schema.Check{{Name: "chk", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}}})
	fs = runRule(t, schemarules.CheckUnenforced, nil, c, nil, &lint.Live{Target: "db:3306/shop", Version: "5.7.44", EnforceCheck: false})
	if len(fs) != 1 {
		t.Fatalf("GS002: %d findings, want 1", len(fs))
	}
	checkFix(t, "GS002 old server", fs[0].Fix, []string{"upgrade", "`AND qty >= ?`", "t_stock"}, []string{"chk_qty", "ALTER CHECK"})

	// A policy unique set naming missing columns is a policy mistake, not an index to add.
	u := mustPolicy(t, "version = 1\n[[table]]\nname = \"t_order\"\nunique = [[\"order_no\"]]\n")
	fs = runRule(t, schemarules.BusinessKeyNotUnique, u, s, nil, nil)
	if len(fs) != 1 {
		t.Fatalf("GS005: %d findings, want 1: %+v", len(fs), fs)
	}
	checkFix(t, "GS005 policy", fs[0].Fix, []string{"policies.toml", "t_order has no column order_no"}, []string{"ADD UNIQUE", "t_payment"})
}

// TestStrictModeFixes checks that GS001's fix fits the scope and the flavor.
func TestStrictModeFixes(t *testing.T) {
	tests := []struct {
		version   string
		want, not []string
	}{
		{"8.0.36", []string{"SET PERSIST"}, []string{"MariaDB", "[mariadb]"}},
		{"10.11.6-MariaDB", []string{"SET GLOBAL", "[mariadb]"}, []string{"PERSIST"}},
	}
	for _, tt := range tests {
		fs := runRule(t, schemarules.StrictSQLMode, nil, schema.New(), nil, &lint.Live{Target: "db:3306/shop", Version: tt.version, GlobalMode: "", SessionMode: ""})
		if len(fs) != 2 {
			t.Fatalf("%s: %d findings, want 2", tt.version, len(fs))
		}
		checkFix(t, tt.version+" global", fs[0].Fix, tt.want, tt.not)
		checkFix(t, tt.version+" session", fs[1].Fix, []string{"client", "DSN"}, []string{"PERSIST", "SET GLOBAL"})
	}
}
