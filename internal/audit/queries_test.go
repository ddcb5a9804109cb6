package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

const digestSchema = `
CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL, CHECK (inventory >= 0)) ENGINE=InnoDB;
CREATE TABLE t_order (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL) ENGINE=InnoDB;
`

// recordedDigests reads the rows of events_statements_summary_by_digest
// recorded from a MySQL 8 server, in the form the server gives them.
func recordedDigests(t *testing.T) []Digest {
	t.Helper()
	raw, err := os.ReadFile("testdata/mysql8_digests.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Digest     string `json:"DIGEST"`
		Text       string `json:"DIGEST_TEXT"`
		Executions int64  `json:"COUNT_STAR"`
		First      string `json:"FIRST_SEEN"`
		Last       string `json:"LAST_SEEN"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	var out []Digest
	for _, r := range rows {
		first, err1 := time.Parse("2006-01-02 15:04:05.999999", r.First)
		last, err2 := time.Parse("2006-01-02 15:04:05.999999", r.Last)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		out = append(out, Digest{Digest: r.Digest, Text: r.Text, Executions: r.Executions, FirstSeen: first, LastSeen: last})
	}
	return out
}

// TestJudgeDigestsMySQL8 runs the query rules on MySQL 8's digest texts:
// backquoted names, (...) lists, a text cut at the maximum digest length.
func TestJudgeDigestsMySQL8(t *testing.T) {
	var ddl []schema.DDL
	for _, piece := range sqlparse.Split(digestSchema) {
		ddl = append(ddl, schema.DDL{SQL: piece.Text, File: "schema.sql", Line: 1, Col: 1})
	}
	sch, errs := schema.FromDDL(ddl)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	var found []lint.Finding
	live := &lint.Live{Target: "db1:3306/shop", EnforceCheck: true}
	ran := newRan(recordedDigests(t), 1024, sch)
	if err := ran.judge(rules.All(), policy.Default(), sch, live, func(f lint.Finding) { found = append(found, f) }); err != nil {
		t.Fatal(err)
	}
	notes := ran.notes
	type row struct {
		Code, Table, Column, Digest, SQL, First, Last string
		Executions                                    int64
		Line                                          int
	}
	var got []row
	lint.Order(found)
	for _, f := range found {
		got = append(got, row{f.Code, f.Table, f.ColumnName, f.Digest[:4], f.SQL, f.FirstSeen, f.LastSeen, f.Executions, f.Line})
		if f.Code == "GQ009" && (!strings.Contains(f.Message, "performance_schema_max_digest_length (1024 bytes)") ||
			!strings.Contains(f.Fix, "max_digest_length")) {
			t.Errorf("GQ009 of a cut digest: %q, fix %q; want the setting named", f.Message, f.Fix)
		}
	}
	want := []row{
		{"GQ009", "", "", "6b7c", "UPDATE `t_inventory` SET `inventory` = `inventory` - ? WHERE `id` IN (...) AND `inventory` >= ? AND `id` NOT IN ( SELECT `id` FROM ...",
			"2026-12-01T08:00:00Z", "2026-12-01T09:00:00Z", 5, 0},
		{"GQ002", "t_inventory", "inventory", "4f1b", "UPDATE `t_inventory` SET `inventory` = `inventory` - ? WHERE `id` = ?",
			"2026-11-30T09:12:44Z", "2026-12-01T11:58:02Z", 7, 0},
		{"GQ005", "t_order", "status", "1c2d", "UPDATE `t_order` SET `status` = ? WHERE `id` = ?",
			"2026-12-01T10:00:00Z", "2026-12-01T10:00:00Z", 1, 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	// The cut SELECT is a read: skipped, and said so.
	if len(notes) != 1 || !strings.Contains(notes[0], "1 of the 9 statements") {
		t.Errorf("notes = %q, want one saying a read was skipped", notes)
	}
}

// TestJudgeDigestsUnparsable: a write the parser rejects is one GQ009 that
// says where it stopped; a read it rejects is only counted in a note.
func TestJudgeDigestsUnparsable(t *testing.T) {
	ds := []Digest{
		{Digest: "aa01", Text: "DELETE FROM `t_order` WHERE `id` = ? RETURNING `id` , `status` ", Executions: 4},
		{Digest: "aa02", Text: "SELECT `id` FROM `t_order` WHERE `id` = ? INTO OUTFILE ? FIELDS BOGUS ", Executions: 2},
	}
	sch := &schema.Schema{Tables: map[string]*schema.Table{}}
	ran := newRan(ds, 1024, sch)
	var found []lint.Finding
	if err := ran.judge(rules.All(), policy.Default(), sch, &lint.Live{Target: "db1:3306/shop"}, func(f lint.Finding) { found = append(found, f) }); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Code != "GQ009" || found[0].Digest != "aa01" || found[0].Executions != 4 ||
		!strings.Contains(found[0].Message, "does not parse") || found[0].Fix != digestFix {
		t.Errorf("findings = %+v, want one GQ009 on digest aa01", found)
	}
	if len(ran.notes) != 1 || !strings.Contains(ran.notes[0], "1 of the 2 statements") {
		t.Errorf("notes = %q", ran.notes)
	}
}

// TestJudgeDigestsSkipsBookkeeping: the statements of golang-migrate, of
// guard migrate's history, of guard drill's scratch table and view and of
// pt-online-schema-change (its copy into _t_new, cut or whole, its
// triggers, EXPLAINs and SHOWs), in the digest form MariaDB recorded them,
// are no finding and no skipped statement of the note; the application's
// unguarded decrement beside them is GQ002, and so is one on a table whose
// name only looks like a copy of pt-osc's (no table t_stock).
func TestJudgeDigestsSkipsBookkeeping(t *testing.T) {
	sch, errs := schema.FromDDL([]schema.DDL{
		{SQL: "CREATE TABLE t (id BIGINT PRIMARY KEY, stock INT NOT NULL)", File: "schema.sql", Line: 1, Col: 1},
		{SQL: "CREATE TABLE _t_stock_new (id BIGINT PRIMARY KEY, stock INT NOT NULL)", File: "schema.sql", Line: 2, Col: 1},
	})
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	const drill = "`guard_drill_f4b3946308815272`"
	const view = "`guard_drill_f4b3946308815272_v`"
	tool := []string{
		"SELECT `version` , `dirty` FROM `schema_migrations` LIMIT ?",
		"DELETE FROM `schema_migrations`",
		"DELETE FROM `schema_migrations` LIMIT ?",
		"INSERT INTO `schema_migrations` ( `version` , `dirty` ) VALUES (...)",
		"TRUNCATE `schema_migrations`",
		"CREATE TABLE `schema_migrations` ( `version` INT8 NOT NULL PRIMARY KEY , `dirty` BOOLEAN NOT NULL )",
		"INSERT IGNORE INTO `guard_migration_history` ( `version` , NAME ) VALUES (...)",
		"DELETE FROM `guard_migration_history` WHERE `version` IN (...)",
		"DELETE FROM `guard_migration_history` WHERE `version` = ?",
		"CREATE TABLE " + drill + " LIKE `t`",
		"CREATE ALGORITHM = MERGE VIEW " + view + " AS SELECT `id` AS `id` , `stock` AS `stock` , `version` AS `version` FROM " + drill,
		"UPDATE " + drill + " SET `stock` = ? , `version` = ? WHERE `id` BETWEEN ? AND ?",
		"UPDATE " + view + " SET `stock` = `stock` - ? , `version` = `version` + ? WHERE `id` = ?",
		"UPDATE " + view + " SET `stock` = ? , `version` = `version` + ? WHERE `id` = ?",
		"SELECT `stock` FROM " + view + " WHERE `id` = ? FOR UPDATE",
		"DROP VIEW IF EXISTS " + view,
		"CREATE TABLE `shop` . `_t_new` ( `id` INT8 (?) NOT NULL , `stock` INTEGER (?) NOT NULL , PRIMARY KEY ( `id` ) ) ENGINE = `InnoDB`",
		"ALTER TABLE `shop` . `_t_new` ADD COLUMN `note` VARCHARACTER (?) NULL , ALGORITHM = `COPY` , LOCK = `SHARED`",
		"SHOW CREATE TABLE `shop` . `t`",
		"EXPLAIN SELECT * FROM `shop` . `t` WHERE ? = ?",
		"EXPLAIN SELECT `id` , `stock` FROM `shop` . `t` LOCK IN SHARE MODE",
		"EXPLAIN SELECT `id` FROM `shop` . `t` FORCE INDEX ( `PRIMARY` ) WHERE `id` >= ? ORDER BY `id` LIMIT ?, ?",
		"INSERT LOW_PRIORITY IGNORE INTO `shop` . `_t_new` ( `id` , `stock` ) SELECT `id` , `stock` FROM `shop` . `t` LOCK IN SHARE MODE",
		"INSERT LOW_PRIORITY IGNORE INTO `shop` . `_t_new` ( `id` , `stock` ) SELECT `id` , `stock` FROM `shop` . `t` FORCE INDEX ( `PRIMARY` ) WHERE ( ( `id` >= ? ) ) AND ...",
		"CREATE TRIGGER `pt_osc_shop_t_del` AFTER DELETE ON `shop` . `t` FOR EACH ROW DELETE IGNORE FROM `shop` . `_t_new` WHERE `shop` . `_t_new` . `id` <=> `OLD` . `id`",
		"CREATE TRIGGER `pt_osc_shop_t_ins` AFTER INSERT ON `shop` . `t` FOR EACH ROW REPLACE INTO `shop` . `_t_new` ( `id` , `stock` ) VALUES ( `NEW` . `id` , `NEW` . `stock` )",
		"DROP TRIGGER IF EXISTS `shop` . `pt_osc_shop_t_del`",
		"DROP TABLE IF EXISTS `shop` . `_t_old`",
	}
	var ds []Digest
	for i, text := range tool {
		ds = append(ds, Digest{Digest: fmt.Sprintf("b%03d", i), Text: text, Executions: 2})
	}
	ds = append(ds,
		Digest{Digest: "user1", Text: "UPDATE `t` SET `stock` = `stock` - ? WHERE ID = ?", Executions: 3},
		Digest{Digest: "user2", Text: "UPDATE `_t_stock_new` SET `stock` = `stock` - ? WHERE `id` = ?", Executions: 1},
		Digest{Digest: "user3", Text: "SHOW SLAVE HOSTS", Executions: 1})
	ran := newRan(ds, 1024, sch)
	var got []string
	if err := ran.judge(rules.All(), policy.Default(), sch, &lint.Live{Target: "db1:3306/shop", EnforceCheck: true},
		func(f lint.Finding) { got = append(got, f.Code+" "+f.Digest) }); err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if d := cmp.Diff([]string{"GQ002 user1", "GQ002 user2"}, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if len(ran.notes) != 1 || !strings.Contains(ran.notes[0], "1 of the 31 statements") {
		t.Errorf("notes = %q, want one counting the unparsable SHOW SLAVE HOSTS alone", ran.notes)
	}
}
