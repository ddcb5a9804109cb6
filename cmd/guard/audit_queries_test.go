package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestAuditQueries runs statements through a client on a server with
// performance_schema on: the unguarded decrement the application ran 7
// times is GQ002 with its executions, the status update without a
// predicate GQ005, and the guarded decrement nothing.
func TestAuditQueries(t *testing.T) {
	db := dbtest.PerformanceSchemaMySQL(t)
	db.Exec(t, `CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL, CHECK (inventory >= 0)) ENGINE=InnoDB`,
		`CREATE TABLE t_order (id BIGINT PRIMARY KEY, status VARCHAR(16) NOT NULL) ENGINE=InnoDB`,
		`INSERT INTO t_inventory VALUES (1, 100), (2, 100)`,
		`CREATE TABLE t_goods (id BIGINT PRIMARY KEY, goods_num INT NOT NULL) ENGINE=InnoDB`,
		`INSERT INTO t_order VALUES (5, 'NEW')`, `INSERT INTO t_goods VALUES (1, 9)`)
	// goods_num is no counter by name: the decrements the server ran make
	// it one, as they would in code.
	db.Exec(t, "UPDATE t_goods SET goods_num = goods_num - 1 WHERE id = 1", "UPDATE t_goods SET goods_num = goods_num - 1 WHERE id = 1")
	for i := range 7 {
		db.Exec(t, "UPDATE t_inventory SET inventory = inventory - 1 WHERE id = "+[]string{"1", "2"}[i%2])
	}
	for range 3 {
		db.Exec(t, "UPDATE t_inventory SET inventory = inventory - 2 WHERE id = 1 AND inventory >= 2")
	}
	db.Exec(t, "UPDATE t_order SET status = 'PAID' WHERE id = 5")
	// A prepared statement (binary protocol) has no digest on MariaDB: a
	// note says --queries does not see it.
	if _, err := db.SQL.Exec("UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", 1, 2); err != nil {
		t.Fatal(err)
	}
	name := db.Addr + "/" + db.Name

	r := guardAudit(t, db.Password, "--dsn", db.DSN, "--queries", "--no-data", "--format", "json", "--fail-on", "never")
	if r.code != 0 {
		t.Fatalf("exit = %d, want 0; stderr:\n%s", r.code, dbtest.Redact(r.errOut))
	}
	var doc struct {
		Findings []struct {
			Code, Target, Table, SQL, Digest string
			Column                           string `json:"column_name"`
			Executions                       int64
			FirstSeen                        string `json:"first_seen"`
			LastSeen                         string `json:"last_seen"`
			File                             string
		}
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, r.out)
	}
	type got struct {
		code, table, column string
		executions          int64
	}
	var queries []got
	for _, f := range doc.Findings {
		if !strings.HasPrefix(f.Code, "GQ") {
			continue
		}
		queries = append(queries, got{f.Code, f.Table, f.Column, f.Executions})
		if f.Target != name || f.File != "" || f.Digest == "" || !strings.HasPrefix(f.SQL, "UPDATE `t_") {
			t.Errorf("finding %s: target %q file %q digest %q sql %q, want target %s, no file, a digest and the digest text",
				f.Code, f.Target, f.File, f.Digest, f.SQL, name)
		}
		for _, ts := range []string{f.FirstSeen, f.LastSeen} {
			if at, err := time.Parse(time.RFC3339, ts); err != nil || time.Since(at) > time.Hour {
				t.Errorf("finding %s: first/last seen %q, want a recent RFC 3339 time", f.Code, ts)
			}
		}
	}
	want := []got{{"GQ002", "t_goods", "goods_num", 2}, {"GQ002", "t_inventory", "inventory", 7}, {"GQ005", "t_order", "status", 1}}
	if !slices.Equal(queries, want) {
		t.Errorf("query findings = %+v, want %+v\n%s", queries, want, r.out)
	}

	text := guardAudit(t, db.Password, "--dsn", db.DSN, "--queries", "--no-data", "--no-color")
	if text.code != exitFindings {
		t.Errorf("text: exit = %d, want %d", text.code, exitFindings)
	}
	if !strings.Contains(text.out, name+": GQ002 error: ") || !strings.Contains(text.out, "(ran 7 times)") {
		t.Errorf("text report does not show GQ002 with how often it ran:\n%s", text.out)
	}
	if !strings.Contains(text.errOut, "prepared statements") || !strings.Contains(text.errOut, "MariaDB records no digest") {
		t.Errorf("stderr does not say prepared statements are not seen:\n%s", text.errOut)
	}
	for _, format := range []string{"sarif", "github", "gitlab"} {
		if r := guardAudit(t, db.Password, "--dsn", db.DSN, "--queries", "--no-data", "--format", format); r.code != exitFindings || !strings.Contains(r.out, "GQ002") {
			t.Errorf("%s: exit %d, want %d and GQ002 in:\n%s", format, r.code, exitFindings, r.out)
		}
	}
}

// TestAuditQueriesOff: a server whose performance_schema is off fails its
// target with the setting to change, never "no findings".
func TestAuditQueriesOff(t *testing.T) {
	db := dbtest.NoPerformanceSchemaMySQL(t)
	var on int
	if err := db.SQL.QueryRow("SELECT @@performance_schema").Scan(&on); err != nil || on != 0 {
		t.Fatalf("performance_schema is %d (%v), want a server with it off", on, err)
	}
	for _, format := range []string{"text", "json"} {
		r := guardAudit(t, db.Password, "--dsn", db.DSN, "--queries", "--no-data", "--format", format)
		if r.code != exitRuntime {
			t.Errorf("%s: exit = %d, want %d", format, r.code, exitRuntime)
		}
		if !strings.Contains(r.errOut, "performance_schema is OFF") || !strings.Contains(r.errOut, "performance_schema=ON") {
			t.Errorf("%s: stderr does not name the setting:\n%s", format, dbtest.Redact(r.errOut))
		}
	}
}

// TestAuditQueriesNoGrant: an account without SELECT on performance_schema
// fails its target with the grant it lacks.
func TestAuditQueriesNoGrant(t *testing.T) {
	db := dbtest.PerformanceSchemaMySQL(t)
	user := "guard_nopfs_" + db.Name[len(db.Name)-8:]
	const password = "Nopfs2DigestsXq7"
	db.Server().Exec(t, "CREATE USER '"+user+"'@'127.0.0.1' IDENTIFIED BY '"+password+"'",
		"GRANT SELECT ON `"+db.Name+"`.* TO '"+user+"'@'127.0.0.1'")
	t.Cleanup(func() { db.Server().Exec(t, "DROP USER '"+user+"'@'127.0.0.1'") })
	dsn := user + ":" + password + "@tcp(" + db.Addr + ")/" + db.Name
	r := guardAudit(t, password, "--dsn", dsn, "--queries", "--no-data")
	if r.code != exitRuntime || !strings.Contains(r.errOut, "no SELECT on performance_schema") ||
		!strings.Contains(r.errOut, "GRANT SELECT ON performance_schema.*") {
		t.Errorf("exit %d, want %d and the missing grant named; stderr:\n%s", r.code, exitRuntime, r.errOut)
	}
}

// TestAuditQueriesSkipsBookkeeping runs what guard and its tools run on a
// database — golang-migrate's version writes and guard's history through
// guard migrate, pt-online-schema-change's copy, triggers and EXPLAINs
// through a migration handed to it, and guard drill's scratch table and
// view — beside one unguarded decrement of the application's: audit
// --queries reports the application's statement and none of the others.
func TestAuditQueriesSkipsBookkeeping(t *testing.T) {
	db := dbtest.PerformanceSchemaMySQL(t)
	dir := writeMigrations(t, map[string]string{
		"000001_create_t.up.sql":   "CREATE TABLE t (id BIGINT PRIMARY KEY, stock INT NOT NULL) ENGINE=InnoDB;\n",
		"000001_create_t.down.sql": "DROP TABLE t;\n",
		"000002_t_note.up.sql": "-- the note column, copied online\n-- guard:osc pt-osc\n" +
			"ALTER TABLE t ADD COLUMN note VARCHAR(32) NULL, ALGORITHM=COPY, LOCK=SHARED;\n",
		"000002_t_note.down.sql": "ALTER TABLE t DROP COLUMN note, ALGORITHM=INPLACE, LOCK=NONE;\n",
	})
	r := guardMigrate(t, db.Password, "up", "--dsn", db.DSN, "--dir", dir)
	r.expect(t, "migrate up", exitClean, []string{"with pt-online-schema-change"}, nil)
	db.Exec(t, "INSERT INTO t (id, stock) VALUES (1, 100), (2, 100)")
	srv := dbtest.Redis(t)
	if _, errOut, code := guardDrill(t, db.Password, "--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t",
		"--workers", "8", "--conns", "4", "--stock", "10", "--rows", "2"); code != exitClean && code != exitFindings {
		t.Fatalf("drill: exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	for range 3 {
		db.Exec(t, "UPDATE t SET stock = stock - 1 WHERE id = 1")
	}

	// The server recorded the tools' statements: the audit has them to leave out.
	for _, like := range []string{"%schema_migrations%", "%_t_new%", "CREATE TRIGGER `pt_osc_%", "EXPLAIN %", "UPDATE `guard_drill_%_v`%"} {
		var n int
		if err := db.SQL.QueryRow("SELECT COUNT(*) FROM performance_schema.events_statements_summary_by_digest "+
			"WHERE SCHEMA_NAME = ? AND DIGEST_TEXT LIKE ?", db.Name, like).Scan(&n); err != nil || n == 0 {
			t.Errorf("no digest LIKE %q recorded (%v)", like, err)
		}
	}

	r2 := guardAudit(t, db.Password, "--dsn", db.DSN, "--queries", "--no-data", "--format", "json", "--fail-on", "never")
	if r2.code != 0 {
		t.Fatalf("exit = %d, want 0; stderr:\n%s", r2.code, dbtest.Redact(r2.errOut))
	}
	var doc struct {
		Findings []struct {
			Code, Table, SQL string
			Executions       int64
		}
	}
	if err := json.Unmarshal([]byte(r2.out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, r2.out)
	}
	var user int
	for _, f := range doc.Findings {
		if f.SQL == "" {
			continue // a schema finding
		}
		if f.Code == "GQ002" && f.Table == "t" && f.Executions == 3 && strings.HasPrefix(f.SQL, "UPDATE `t` SET `stock`") {
			user++
			continue
		}
		t.Errorf("finding %s on %q (ran %d times): %s; want only the application's decrement", f.Code, f.Table, f.Executions, f.SQL)
	}
	if user != 1 {
		t.Errorf("%d GQ002 on the application's UPDATE t SET stock = stock - 1, want 1:\n%s", user, r2.out)
	}
}
