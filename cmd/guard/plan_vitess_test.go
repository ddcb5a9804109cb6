package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// vitessWallet is a keyspace customer, as vtctldclient GetSrvVSchema prints
// it, that shards t_wallet by user_id, and the migration of t_wallet: a
// NULLable counter without CHECK, a state column without a version column,
// and a business key without UNIQUE index.
const (
	vitessWalletVSchema = `{
  "keyspaces": {
    "customer": {
      "sharded": true,
      "vindexes": {"xxhash": {"type": "xxhash", "params": {}, "owner": ""}},
      "tables": {"t_wallet": {"type": "", "column_vindexes": [{"column": "user_id", "name": "xxhash", "columns": []}],
        "auto_increment": null, "columns": [], "pinned": "", "column_list_authoritative": false, "source": ""}},
      "require_explicit_routing": false, "foreign_key_mode": 0, "multi_tenant_spec": null
    }
  },
  "routing_rules": {"rules": []},
  "shard_routing_rules": {"rules": []}
}
`
	vitessWalletDDL = `CREATE TABLE t_wallet (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  balance DECIMAL(12,2) NULL,
  pay_no VARCHAR(64) NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'new'
) ENGINE=InnoDB;
`
)

// TestPlanVitess plans t_wallet for Vitess (the vocabulary inferred from
// the project's folder only): the summary and every file
// written are the golden plan_vitess.txt; a second plan writes nothing, and
// guard lint finds nothing in what the first wrote.
func TestPlanVitess(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	mig, vschema, vt := filepath.Join(dir, "migrations"), filepath.Join(dir, "vschema.json"), filepath.Join(dir, "vitess")
	if err := os.MkdirAll(mig, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mig, "000001_wallet.up.sql"), vitessWalletDDL)
	writeFile(t, vschema, vitessWalletVSchema)

	out, stderr, code := guard(t, "plan", "--vitess", "--dir", mig, "--vschema", vschema, dir)
	if code != exitClean {
		t.Fatalf("exit = %d; stderr: %s", code, stderr)
	}
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(out, dir, "$DIR"))
	entries, err := os.ReadDir(vt)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(vt, name))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n==> vitess/" + name + " <==\n")
		b.Write(data)
	}
	golden(t, "plan_vitess.txt", b.String())
	if info, err := os.Stat(filepath.Join(vt, "apply_000001.sh")); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("the script is not executable: %v %v", info, err)
	}

	out, _, code = guard(t, "plan", "--vitess", "--dir", mig, "--vschema", vschema, dir)
	if code != exitClean || out != "nothing new to write: the steps of every missing guard are in "+vt+" already\n" {
		t.Errorf("second plan: exit %d, output %q", code, out)
	}
	out, stderr, code = guard(t, "lint", "--no-color", vt)
	if code != exitClean {
		t.Errorf("guard lint vitess: exit %d:\n%s%s", code, out, stderr)
	}
}

// TestPlanVitessJSON: the JSON plan names each step's file, the script and
// the keyspace; without a VSchema the keyspace is the script's $KEYSPACE.
func TestPlanVitessJSON(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(filepath.Join("db", "migrations"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join("db", "migrations", "000001_wallet.up.sql"), vitessWalletDDL)
	out, stderr, code := guard(t, "plan", "--vitess", "--dir", filepath.Join("db", "migrations"), "--format", "json", "--dry-run")
	if code != exitClean {
		t.Fatalf("exit = %d; stderr: %s", code, stderr)
	}
	var doc struct {
		DDLStrategy string `json:"ddl_strategy"`
		Keyspace    string `json:"keyspace"`
		Script      string `json:"script"`
		Steps       []struct {
			Up, Algorithm string
			SQLFile       string `json:"sql_file"`
		} `json:"steps"`
		Written []string `json:"written"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.DDLStrategy != "vitess" || doc.Keyspace != "" || doc.Script != filepath.Join("db", "vitess", "apply_000001.sh") ||
		len(doc.Steps) != 4 || len(doc.Written) != 0 {
		t.Fatalf("plan = %+v", doc)
	}
	for _, st := range doc.Steps {
		if st.Algorithm != "vitess" || strings.Contains(st.Up, "ALGORITHM") || !strings.HasPrefix(st.SQLFile, filepath.Join("db", "vitess")+"/") {
			t.Errorf("step %+v", st)
		}
	}
	if _, err := os.Stat(filepath.Join("db", "vitess")); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote %s: %v", filepath.Join("db", "vitess"), err)
	}
}

// TestPlanVitessRefuses what Vitess online DDL cannot run, and the flags of
// --vitess without it, before anything is read.
func TestPlanVitessRefuses(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--vitess", "--strategy", "trigger"}, "--strategy trigger: Vitess online DDL runs no CREATE TRIGGER"},
		{[]string{"--vitess", "--osc", "pt-osc"}, "--osc pt-osc: Vitess copies the tables itself"},
		{[]string{"--vitess", "--flavor", "mariadb"}, "--flavor mariadb: Vitess runs on MySQL"},
		{[]string{"--keyspace", "customer"}, "--keyspace is for --vitess"},
		{[]string{"--vitess", "--vschema", "absent.json"}, "--vschema: read vschema: open absent.json: no such file"},
	} {
		_, stderr, code := guard(t, append([]string{"plan"}, c.args...)...)
		if code != exitInput || !strings.Contains(stderr, c.want) {
			t.Errorf("guard plan %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, exitInput, c.want)
		}
	}
}
