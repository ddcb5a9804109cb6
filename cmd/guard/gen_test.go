package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/templates"
)

// The inventory golden case of internal/codegen: its migrations in, its
// generated package out. The CLI must write exactly that package.
const (
	genCase   = "internal/codegen/testdata/inventory"
	genSchema = genCase + "/migrations"
	genWant   = genCase + "/want"
)

// readDir returns the files of dir by name.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func TestGenDAOFromSchema(t *testing.T) {
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "inventorydao")
	stdout, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--schema", genSchema, "--out", out)
	if code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	if d := cmp.Diff(readDir(t, genWant), readDir(t, out)); d != "" {
		t.Errorf("gen dao output differs from %s (-want +got):\n%s", genWant, d)
	}
	var names []string
	for name := range readDir(t, genWant) {
		names = append(names, "wrote "+filepath.Join(out, name))
	}
	sort.Strings(names)
	if d := cmp.Diff(strings.Join(names, "\n")+"\n", stdout); d != "" {
		t.Errorf("stdout (-want +got):\n%s", d)
	}
	// A second run replaces its own files.
	if _, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--schema", genSchema, "--out", out); code != exitClean {
		t.Errorf("regenerate: exit %d; stderr: %s", code, stderr)
	}
}

// TestGenDAOFromDSN reads the table from a live MariaDB: the DAO is the
// one the migrations give, and the password appears nowhere.
func TestGenDAOFromDSN(t *testing.T) {
	db := dbtest.MySQL(t)
	up, err := os.ReadFile("../../" + genSchema + "/000001_create_inventory.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(t, string(up))
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "live")
	stdout, stderr, code := guard(t, "gen", "dao", "--dsn", db.DSN, "--table", "t_inventory", "--out", out, "--package", "inventorydao")
	if code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, dbtest.Redact(stderr))
	}
	if d := cmp.Diff(readDir(t, genWant), readDir(t, out)); d != "" {
		t.Errorf("DAO from the live table differs from the one from migrations (-migrations +live):\n%s", d)
	}
	_, stderr, code = guard(t, "gen", "dao", "--dsn", db.DSN, "--table", "t_missing", "--out", out)
	if code != exitInput || !strings.Contains(stderr, "no table t_missing") {
		t.Errorf("missing table: exit %d, stderr %q", code, dbtest.Redact(stderr))
	}
	t.Setenv("GUARD_DSN", db.DSN)
	if _, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--out", out, "--package", "inventorydao"); code != exitClean {
		t.Errorf("DSN from GUARD_DSN: exit %d; stderr: %s", code, dbtest.Redact(stderr))
	}
	for _, s := range []string{stdout, stderr} {
		if db.Password != "" && strings.Contains(s, db.Password) {
			t.Errorf("the password appears in the output")
		}
	}
}

func TestGenDAOErrors(t *testing.T) {
	t.Chdir("../..")
	tmp := t.TempDir()
	composite := filepath.Join(tmp, "composite")
	if err := os.MkdirAll(composite, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(composite, "000001_pair.up.sql"),
		[]byte("CREATE TABLE t_pair (a INT, b INT, version INT NOT NULL DEFAULT 0, PRIMARY KEY (a, b));\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	handDir := filepath.Join(tmp, "hand")
	if err := os.MkdirAll(handDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(handDir, "inventory_dao.go"), []byte("package hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no table flag", []string{"--schema", genSchema, "--out", out}, exitInput, "table"},
		{"no schema", []string{"--table", "t_inventory", "--out", out}, exitInput, "give --schema DIR or --dsn DSN"},
		{"both sources", []string{"--table", "t_inventory", "--schema", genSchema, "--dsn", "u:p@tcp(127.0.0.1:1)/db", "--out", out}, exitInput, "not both"},
		{"unknown table", []string{"--table", "t_nope", "--schema", genSchema, "--out", out}, exitInput, "no table t_nope in " + genSchema + " (tables: t_inventory)"},
		{"composite key", []string{"--table", "t_pair", "--schema", composite, "--out", out}, exitInput, "table t_pair has a composite primary key (a, b)"},
		{"bad package", []string{"--table", "t_inventory", "--schema", genSchema, "--out", out, "--package", "in-ventory"}, exitInput, "not a Go identifier"},
		{"hand-written file", []string{"--table", "t_inventory", "--schema", genSchema, "--out", handDir, "--package", "hand"}, exitInput, "not generated by guard"},
		{"missing templates", []string{"--table", "t_inventory", "--schema", genSchema, "--out", out, "--templates", filepath.Join(tmp, "none")}, exitInput, "read templates"},
		{"unreachable server", []string{"--table", "t_inventory", "--dsn", "app:s3cr3t-pw@tcp(127.0.0.1:1)/shop", "--out", out}, exitRuntime, "127.0.0.1:1/shop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := guard(t, append([]string{"gen", "dao"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
			if strings.Contains(stderr, "s3cr3t-pw") {
				t.Errorf("the password appears in stderr: %q", stderr)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(handDir, "inventory_dao.go")); string(b) != "package hand\n" {
		t.Errorf("hand-written file changed: %q", b)
	}
}

// TestGenTable scaffolds a table in an empty project: migration and DAO,
// which guard lint then finds nothing to say about.
func TestGenTable(t *testing.T) {
	t.Chdir(t.TempDir())
	stdout, stderr, code := guard(t, "gen", "table", "t_ticket", "--counter", "seats", "--key", "ticket_no", "--state", "status")
	if code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	for _, want := range []string{
		"wrote migrations/000001_create_t_ticket.up.sql", "wrote migrations/000001_create_t_ticket.down.sql",
		"wrote ticketdao/ticket_dao.go", "wrote ticketdao/guard_lock.go", "wrote ticketdao/guard_combine.go",
	} {
		if !strings.Contains(stdout, want+"\n") {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "counter seats is not a counter for the policy") || strings.Contains(stderr, "ticket_no") {
		t.Errorf("stderr = %q, want a note on seats only", stderr)
	}
	up, err := os.ReadFile("migrations/000001_create_t_ticket.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ENGINE=InnoDB", "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT", "`version` BIGINT UNSIGNED NOT NULL DEFAULT 0",
		"CHECK (`seats` >= 0)", "UNIQUE KEY `uk_t_ticket_ticket_no` (`ticket_no`)"} {
		if !strings.Contains(string(up), want) {
			t.Errorf("migration lacks %q:\n%s", want, up)
		}
	}
	dao, err := os.ReadFile("ticketdao/ticket_dao.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package ticketdao", "func (d *TicketDAO) DeductSeatsLocked(", "func (d *TicketDAO) TransitionStatus("} {
		if !strings.Contains(string(dao), want) {
			t.Errorf("DAO lacks %q", want)
		}
	}
	if out, stderr, code := guard(t, "lint", "--no-color", "."); code != exitClean || !strings.HasPrefix(out, "no findings") {
		t.Errorf("guard lint of the scaffold: exit %d\n%s%s", code, out, stderr)
	}

	if _, stderr, code := guard(t, "gen", "table", "t_ticket", "--counter", "seats"); code != exitInput || !strings.Contains(stderr, "table t_ticket already exists in migrations") {
		t.Errorf("same table again: exit %d, stderr %q", code, stderr)
	}
	stdout, stderr, code = guard(t, "gen", "table", "t_wallet", "--counter", "balance", "--key", "request_id", "--out", "internal/wallet", "--package", "wallet")
	if code != exitClean || !strings.Contains(stdout, "migrations/000002_create_t_wallet.up.sql") || !strings.Contains(stdout, "internal/wallet/wallet_dao.go") || stderr != "" {
		t.Errorf("second table: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := guard(t, "gen", "table", "t_bad", "--counter", "id"); code != exitInput || !strings.Contains(stderr, "already the primary key") {
		t.Errorf("counter named id: exit %d, stderr %q", code, stderr)
	}
	if _, _, code := guard(t, "gen", "table"); code != exitInput {
		t.Errorf("no name: exit %d, want %d", code, exitInput)
	}
}

// TestGenTemplates writes the templates, refuses to overwrite them, and a
// customised one is used by gen dao.
func TestGenTemplates(t *testing.T) {
	t.Chdir("../..")
	dir := filepath.Join(t.TempDir(), "tpl")
	if _, stderr, code := guard(t, "gen", "templates", "--out", dir); code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	written := readDir(t, dir)
	embedded := map[string]string{}
	fs.WalkDir(templates.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(templates.FS, p)
			embedded[p] = string(b)
		}
		return nil
	})
	if d := cmp.Diff(embedded, written); d != "" {
		t.Errorf("written templates differ from the embedded ones:\n%s", d)
	}
	if _, stderr, code := guard(t, "gen", "templates", "--out", dir); code != exitInput || !strings.Contains(stderr, "--force") {
		t.Errorf("second run: exit %d, stderr %q", code, stderr)
	}
	custom := strings.Replace(written["dao.go.tmpl"], "package {{.Package}}\n", "package {{.Package}}\n\n// House style: {{.Type}} lives in {{.Table}}.\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "dao.go.tmpl"), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := guard(t, "gen", "templates", "--out", dir, "--force"); code != exitClean {
		t.Errorf("--force: exit %d, stderr %q", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "dao.go.tmpl"), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "inventorydao")
	if _, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--schema", genSchema, "--out", out, "--templates", dir); code != exitClean {
		t.Fatalf("gen dao --templates: exit %d; stderr: %s", code, stderr)
	}
	if got := readDir(t, out)["inventory_dao.go"]; !strings.Contains(got, "// House style: Inventory lives in t_inventory.") {
		t.Errorf("customised template not used:\n%s", got)
	}
}

// TestGenDAOUnicodeTable: a table whose name, after [gen] strip_prefix,
// holds letters outside ASCII has no exported Go name guard can spell from
// it (库存 has no upper case; t_库存_item would silently become Item): gen
// dao refuses it, naming the table and the setting; a strip_prefix that
// removes the non-ASCII part makes the same table generate.
func TestGenDAOUnicodeTable(t *testing.T) {
	dir := t.TempDir()
	migrations := filepath.Join(dir, "migrations")
	if err := os.MkdirAll(migrations, 0o755); err != nil {
		t.Fatal(err)
	}
	const cols = " (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT UNSIGNED NOT NULL DEFAULT 0);\n"
	ddl := "CREATE TABLE 库存" + cols + "CREATE TABLE t_库存" + cols + "CREATE TABLE t_库存_item" + cols + "CREATE TABLE 仓库_item" + cols
	if err := os.WriteFile(filepath.Join(migrations, "000001_init.up.sql"), []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"库存", "t_库存", "t_库存_item"} {
		out := filepath.Join(dir, "out")
		_, stderr, code := guard(t, "gen", "dao", "--table", table, "--schema", migrations, "--out", out, "--package", "stockdao")
		if code != exitInput {
			t.Errorf("%s: exit %d, want %d; stderr %q", table, code, exitInput, stderr)
		}
		for _, want := range []string{"table " + table + ":", "outside ASCII", "[gen] strip_prefix"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: stderr %q lacks %q", table, stderr, want)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", table, out)
		}
	}
	config := filepath.Join(dir, "policies.toml")
	if err := os.WriteFile(config, []byte("version = 1\n[gen]\nstrip_prefix = \"仓库_\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "itemdao")
	if _, stderr, code := guard(t, "gen", "dao", "--config", config, "--table", "仓库_item", "--schema", migrations, "--out", out); code != exitClean {
		t.Fatalf("仓库_item with strip_prefix 仓库_: exit %d; stderr %q", code, stderr)
	}
	if dao := readDir(t, out)["item_dao.go"]; !strings.Contains(dao, "type Item struct") || !strings.Contains(dao, "仓库_item") {
		t.Errorf("item_dao.go does not hold type Item of table 仓库_item:\n%s", dao)
	}
}

// TestGenDAOLongIdentifier: a migration may name a column longer than the
// 64 characters MySQL and MariaDB accept (the parser takes it, the server
// refuses it with Error 1059): gen dao refuses the table, naming the
// identifier and the limit; at exactly 64 characters it generates.
func TestGenDAOLongIdentifier(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		column string
		code   int
	}{
		{"stock_" + strings.Repeat("x", 59), exitInput},
		{"stock_" + strings.Repeat("x", 58), exitClean},
	} {
		migrations := filepath.Join(dir, fmt.Sprint(len(tt.column)))
		if err := os.MkdirAll(migrations, 0o755); err != nil {
			t.Fatal(err)
		}
		ddl := "CREATE TABLE t_item (id BIGINT PRIMARY KEY, " + tt.column + " INT NOT NULL, version BIGINT UNSIGNED NOT NULL DEFAULT 0);\n"
		if err := os.WriteFile(filepath.Join(migrations, "000001_init.up.sql"), []byte(ddl), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := guard(t, "gen", "dao", "--table", "t_item", "--schema", migrations, "--out", filepath.Join(migrations, "itemdao"))
		if code != tt.code {
			t.Errorf("%d characters: exit %d, want %d; stderr %q", len(tt.column), code, tt.code, stderr)
		}
		if tt.code == exitInput && !strings.Contains(stderr, "column name "+tt.column+" is 65 characters long, over the limit of 64") {
			t.Errorf("stderr %q does not name the column, its length and the limit", stderr)
		}
	}
}
