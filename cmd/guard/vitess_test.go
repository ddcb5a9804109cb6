package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// vitessPayment is a keyspace that shards t_payment by user_id, and the
// migration of its table: UNIQUE (pay_no) holds per shard only.
const (
	vitessPaymentVSchema = `{
  "sharded": true,
  "vindexes": {"hash": {"type": "hash", "params": {}, "owner": ""}},
  "tables": {"t_payment": {"type": "", "column_vindexes": [{"column": "user_id", "name": "hash", "columns": []}]}}
}
`
	vitessPaymentDDL = `CREATE TABLE t_payment (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  pay_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_pay_no (pay_no)
) ENGINE=InnoDB;
`
)

// vitessProject writes a migrations folder with t_payment and the VSchema
// that shards it, and returns the folder and the VSchema's path.
func vitessProject(t *testing.T) (dir, vschema string) {
	t.Helper()
	dir = t.TempDir()
	mig := filepath.Join(dir, "migrations")
	if err := os.MkdirAll(mig, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mig, "000001_payment.up.sql"), vitessPaymentDDL)
	vschema = filepath.Join(dir, "vschema.json")
	writeFile(t, vschema, vitessPaymentVSchema)
	return dir, vschema
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gs005 returns the GS005 findings of a JSON report.
func gs005(t *testing.T, out string) []map[string]any {
	t.Helper()
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var found []map[string]any
	for _, f := range doc.Findings {
		if f["code"] == "GS005" {
			found = append(found, f)
		}
	}
	return found
}

// TestLintVSchema lints a sharded table whose business key has a UNIQUE
// index: clean on one server, per shard only with the VSchema.
func TestLintVSchema(t *testing.T) {
	dir, vschema := vitessProject(t)
	out, stderr, code := guard(t, "lint", "--format", "json", filepath.Join(dir, "migrations"))
	if code != exitClean || len(gs005(t, out)) != 0 {
		t.Fatalf("without --vschema: exit %d, GS005 %v; stderr: %s", code, gs005(t, out), stderr)
	}
	out, stderr, code = guard(t, "lint", "--format", "json", "--vschema", vschema, filepath.Join(dir, "migrations"))
	if code != exitFindings {
		t.Fatalf("exit = %d, want %d; stderr: %s", code, exitFindings, stderr)
	}
	found := gs005(t, out)
	if len(found) != 1 {
		t.Fatalf("GS005 findings = %v, want one", found)
	}
	msg, fix := found[0]["message"].(string), found[0]["fix"].(string)
	if !strings.HasPrefix(msg, "business key t_payment.pay_no is unique per shard only: its keyspace shards t_payment by (user_id)") {
		t.Errorf("message = %q", msg)
	}
	for _, want := range []string{"--type consistent_lookup_unique --table-owner t_payment --table-owner-columns pay_no", "or shard t_payment by pay_no",
		"Adding user_id to the key is no fix: that makes (user_id, pay_no) unique, not pay_no"} {
		if !strings.Contains(fix, want) {
			t.Errorf("fix %q lacks %q", fix, want)
		}
	}
}

// TestVSchemaMalformed: a VSchema that cannot be used is exit 2 naming the
// file, its line and column where JSON says, before anything else runs
// (guard audit connects to no server).
func TestVSchemaMalformed(t *testing.T) {
	dir, _ := vitessProject(t)
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, "{\n  \"sharded\": true,\n  \"tables\": {\"t_payment\": {\"column_vindexes\": [{\"column\": \"user_id\" \"name\": \"hash\"}]}}\n}\n")
	unknown := filepath.Join(dir, "unknown.json")
	writeFile(t, unknown, `{"sharded": true, "tables": {"t_payment": {"column_vindexes": [{"column": "user_id", "name": "hash"}]}}}`)
	cases := []struct {
		file, want string
	}{
		{bad, bad + ":3:69: invalid character '\"' after object key:value pair"},
		{unknown, unknown + `: keyspace: table t_payment: column_vindexes[0] names vindex "hash", which the keyspace's vindexes do not define`},
		{filepath.Join(dir, "absent.json"), "absent.json: no such file"},
	}
	for _, c := range cases {
		for _, args := range [][]string{
			{"lint", "--vschema", c.file, filepath.Join(dir, "migrations")},
			{"audit", "--no-data", "--dsn", "auditor:secret@tcp(" + closedPort(t) + ")/shop", "--vschema", c.file},
		} {
			_, stderr, code := guard(t, args...)
			if code != exitInput || !strings.Contains(stderr, "--vschema: ") || !strings.Contains(stderr, c.want) {
				t.Errorf("guard %s: exit %d, stderr %q; want exit %d and %q", args[0], code, stderr, exitInput, c.want)
			}
		}
	}
}

// TestAuditVSchema audits one shard of the keyspace, a live database with
// t_payment: each target is judged as a shard.
func TestAuditVSchema(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, strings.TrimSuffix(vitessPaymentDDL, ";\n"))
	_, vschema := vitessProject(t)
	r := guardAudit(t, db.Password, "--format", "json", "--no-data", "--dsn", db.DSN)
	if n := len(gs005(t, r.out)); r.code == exitRuntime || n != 0 {
		t.Fatalf("without --vschema: exit %d, %d GS005; stderr: %s", r.code, n, dbtest.Redact(r.errOut))
	}
	r = guardAudit(t, db.Password, "--format", "json", "--no-data", "--dsn", db.DSN, "--vschema", vschema)
	found := gs005(t, r.out)
	if r.code != exitFindings || len(found) != 1 {
		t.Fatalf("exit %d, GS005 %v; stderr: %s", r.code, found, dbtest.Redact(r.errOut))
	}
	if msg := found[0]["message"].(string); !strings.Contains(msg, "t_payment.pay_no is unique per shard only") || found[0]["target"] != db.Addr+"/"+db.Name {
		t.Errorf("finding = %v", found[0])
	}
}
