package driver_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// writeTree writes files below root; a value starting with "-> " makes a
// symbolic link to the rest of it instead.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := files[n]
		if target, ok := strings.CutPrefix(text, "-> "); ok {
			if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
				t.Fatalf("symbolic links: %v", err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runLint(t *testing.T, schemaPath string, paths ...string) *lint.Result {
	t.Helper()
	res, err := driver.Run(driver.Config{Paths: paths, SchemaPath: schemaPath, Policy: policy.Default(), Rules: rules.All()})
	if err != nil {
		t.Fatalf("lint %v --schema %q: %v", paths, schemaPath, err)
	}
	return res
}

// places lists the findings as "file:line CODE".
func places(res *lint.Result) []string {
	out := []string{}
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Code))
	}
	return out
}

// schemaDump has one table without a primary key (GS009) and one counter
// without a CHECK (GS003), the session lines and data mysqldump writes, and
// a suppressed finding.
const schemaDump = "/*!40101 SET NAMES utf8mb4 */;\n" + // 1
	"CREATE TABLE t_log (msg varchar(10));\n" + // 2
	"CREATE TABLE t_stock (id bigint PRIMARY KEY, quantity int NOT NULL);\n" + // 3
	"LOCK TABLES `t_stock` WRITE;\n" + // 4
	"INSERT INTO t_stock VALUES (1, 5) ON DUPLICATE KEY UPDATE quantity = quantity - 1;\n" + // 5
	"UNLOCK TABLES;\n" + // 6
	"-- guard:ignore GS009 an append-only log, never updated\n" + // 7
	"CREATE TABLE t_audit (msg varchar(10));\n" // 8

// TestSchemaOutsidePaths reports the findings of a --schema file that lies
// outside the paths linted, as the README's own example does, and keeps
// filtering the other files outside them.
func TestSchemaOutsidePaths(t *testing.T) {
	t.Chdir(t.TempDir())
	writeTree(t, ".", map[string]string{
		"db/schema.sql":              schemaDump,
		"src/q.sql":                  "UPDATE t_stock SET quantity = quantity - 1 WHERE id = 1;\n",
		"migrations/1_init.up.sql":   "CREATE TABLE t_a (msg varchar(10));\n",
		"migrations/2_more.up.sql":   "ALTER TABLE t_a ADD COLUMN n int;\n",
		"migrations/2_more.down.sql": "ALTER TABLE t_a DROP COLUMN n;\n",
		"migrations/unrelated/x.sql": "DELETE FROM t_b;\n",
	})
	res := runLint(t, "db/schema.sql", "src/")
	want := []string{"db/schema.sql:2 GS009", "db/schema.sql:3 GS003", "db/schema.sql:3 GS006", "src/q.sql:1 GQ002"}
	if diff := cmp.Diff(want, places(res)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if res.Summary.Files != 2 || res.Summary.Tables != 3 || res.Summary.Statements != 1 {
		t.Errorf("summary = %+v, want 2 files, 1 statement, 3 tables", res.Summary)
	}

	// Naming one migration replays its folder, but reports on that file only.
	res = runLint(t, "", "migrations/2_more.up.sql")
	if diff := cmp.Diff([]string{"migrations/2_more.up.sql:1 GM002"}, places(res)); diff != "" {
		t.Errorf("one migration (-want +got):\n%s", diff)
	}
	if res.Summary.Tables != 1 {
		t.Errorf("one migration: %d tables, want 1", res.Summary.Tables)
	}

	// Files alone (a pre-commit hook's staged files, its README
	// configuration adding --schema): findings on those files only, not on
	// the schema's other files.
	res = runLint(t, "migrations", "migrations/2_more.up.sql", "src/q.sql")
	if diff := cmp.Diff([]string{"migrations/2_more.up.sql:1 GM002", "src/q.sql:1 GQ002"}, places(res)); diff != "" {
		t.Errorf("staged files with --schema (-want +got):\n%s", diff)
	}
	res = runLint(t, "db/schema.sql", "src/q.sql")
	if diff := cmp.Diff([]string{"src/q.sql:1 GQ002"}, places(res)); diff != "" {
		t.Errorf("a staged query file with --schema (-want +got):\n%s", diff)
	}

	// Inside the paths, the schema is linted once, as the schema: its
	// upsert is dump data, not a query of the code.
	res = runLint(t, "db/schema.sql", ".")
	if diff := cmp.Diff([]string{
		"db/schema.sql:2 GS009", "db/schema.sql:3 GS003", "db/schema.sql:3 GS006",
		"migrations/2_more.up.sql:1 GM002", "migrations/unrelated/x.sql:1 GQ001", "src/q.sql:1 GQ002",
	}, places(res)); diff != "" {
		t.Errorf("schema inside the paths (-want +got):\n%s", diff)
	}
	if res.Summary.Files != 5 || res.Summary.Tables != 3 {
		t.Errorf("schema inside the paths: summary = %+v, want 5 files, 3 tables", res.Summary)
	}
}

// TestSchemaDumpFolder reads a --schema folder of dumps, as mysqldump and
// mariadb-dump print them with data, views and triggers: every table loads,
// and nothing but their schema findings is reported.
func TestSchemaDumpFolder(t *testing.T) {
	dumps := map[string]string{}
	for _, name := range []string{"shop_mariadb.sql", "shop_mysql8.sql"} {
		b, err := os.ReadFile(filepath.Join("..", "schema", "testdata", "dump", name))
		if err != nil {
			t.Fatal(err)
		}
		dumps["deploy/sql/"+name] = string(b)
	}
	dumps["app/q.sql"] = "UPDATE t_wallet SET balance = balance - 1 WHERE id = 1;\n"
	dumps["empty/README.md"] = "no schema here\n"
	t.Chdir(t.TempDir())
	writeTree(t, ".", dumps)

	res := runLint(t, "deploy/sql", ".")
	want := []string{
		"app/q.sql:1 GQ002",
		"deploy/sql/shop_mariadb.sql:67 GS005", "deploy/sql/shop_mariadb.sql:89 GS006",
		"deploy/sql/shop_mysql8.sql:25 GS002", "deploy/sql/shop_mysql8.sql:69 GS005", "deploy/sql/shop_mysql8.sql:69 GS008",
	}
	if diff := cmp.Diff(want, places(res)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if res.Summary.Tables != 6 || res.Summary.Files != 3 {
		t.Errorf("summary = %+v, want 3 files, 6 tables", res.Summary)
	}

	_, err := driver.Run(driver.Config{Paths: []string{"app"}, SchemaPath: "empty", Policy: policy.Default(), Rules: rules.All()})
	var ie *driver.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "empty") || !strings.Contains(err.Error(), "neither golang-migrate files") {
		t.Errorf("--schema of a folder without schema files: %v, want an input error naming it", err)
	}
}

// TestPathFormsAgree lints one tree through relative, ./-prefixed, absolute
// and roundabout paths, from inside and from beside it: each time the report
// is the same, with paths relative to the current directory.
func TestPathFormsAgree(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	writeTree(t, proj, map[string]string{
		"db/schema.sql":           schemaDump,
		"src/q.sql":               "DELETE FROM t_stock;\n",
		"migrations/1_a.up.sql":   "CREATE TABLE t_a (msg varchar(10));\n",
		"migrations/1_a.down.sql": "DROP TABLE t_a;\n",
		"other/dir/.keep":         "",
	})
	for _, tc := range []struct {
		cwd  string
		want []string
	}{
		{proj, []string{"db/schema.sql:2 GS009", "db/schema.sql:3 GS003", "db/schema.sql:3 GS006", "src/q.sql:1 GQ001"}},
		{filepath.Join(proj, "other", "dir"), []string{"../../db/schema.sql:2 GS009", "../../db/schema.sql:3 GS003", "../../db/schema.sql:3 GS006", "../../src/q.sql:1 GQ001"}},
	} {
		t.Run(tc.cwd, func(t *testing.T) {
			t.Chdir(tc.cwd)
			rel := func(p string) string {
				r, err := filepath.Rel(tc.cwd, filepath.Join(proj, p))
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			forms := map[string][2]string{
				"relative": {rel("db/schema.sql"), rel("src")},
				"dot":      {"./" + rel("db/schema.sql"), "./" + rel("src") + "/"},
				"absolute": {filepath.Join(proj, "db/schema.sql"), filepath.Join(proj, "src")},
				// out of the current directory and back in
				"roundabout": {"../" + filepath.Base(tc.cwd) + "/" + rel("db/schema.sql"), "../" + filepath.Base(tc.cwd) + "/" + rel("src")},
			}
			for name, f := range forms {
				res := runLint(t, f[0], f[1])
				if diff := cmp.Diff(tc.want, places(res)); diff != "" {
					t.Errorf("%s %v (-want +got):\n%s", name, f, diff)
				}
				if res.Summary.Files != 2 || res.Summary.Tables != 3 {
					t.Errorf("%s: summary = %+v, want 2 files, 3 tables", name, res.Summary)
				}
			}
		})
	}
}

// TestSymlinks follows links to files and folders, takes a file reached by
// two paths once, and walks through a link back up the tree without end.
func TestSymlinks(t *testing.T) {
	t.Chdir(t.TempDir())
	writeTree(t, ".", map[string]string{
		"shared/q.sql":       "DELETE FROM t_shared;\n",
		"elsewhere/one.sql":  "DELETE FROM t_one;\n",
		"tree/own.sql":       "DELETE FROM t_own;\n",
		"tree/lib":           "-> ../shared",
		"tree/lib2":          "-> ../shared",
		"tree/one.sql":       "-> ../elsewhere/one.sql",
		"tree/loop":          "-> .",
		"tree/deep/up":       "-> ..",
		"tree/dangling.sql":  "-> ../nothing.sql",
		"tree/.hidden":       "-> ../shared",
		"treelink":           "-> tree",
		"filelink.sql":       "-> elsewhere/one.sql",
		"migs/1_a.up.sql":    "CREATE TABLE t_a (id int PRIMARY KEY);\n",
		"tree/migrations":    "-> ../migs",
		"tree/mig-again":     "-> ../migs",
		"tree/deep/more.sql": "DELETE FROM t_more;\n",
	})
	want := []string{"tree/deep/more.sql:1 GQ001", "tree/lib/q.sql:1 GQ001", "tree/one.sql:1 GQ001", "tree/own.sql:1 GQ001"}
	res := runLint(t, "", "tree")
	if diff := cmp.Diff(want, places(res)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	// four query sources and one migration, each once; the loops add nothing.
	if res.Summary.Files != 5 || res.Summary.Tables != 1 {
		t.Errorf("summary = %+v, want 5 files, 1 table", res.Summary)
	}

	res = runLint(t, "", "filelink.sql", "treelink")
	want = []string{"filelink.sql:1 GQ001", "treelink/deep/more.sql:1 GQ001", "treelink/lib/q.sql:1 GQ001", "treelink/own.sql:1 GQ001"}
	if diff := cmp.Diff(want, places(res)); diff != "" {
		t.Errorf("linked paths (-want +got):\n%s", diff)
	}
	if res.Summary.Files != 5 {
		t.Errorf("linked paths: summary = %+v, want 5 files", res.Summary)
	}
}

// TestGoTestFilesExcludedByDefault: the SQL of Go test files seeds fixtures
// and is left out by the default [lint] exclude, while the same statement in
// the code is reported; a test file named on the command line is linted.
func TestGoTestFilesExcludedByDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	dao := "package dao\n\nfunc deduct(db DB) { db.Exec(\"UPDATE t_stock SET quantity = quantity - 1 WHERE id = 1\") }\n"
	writeTree(t, ".", map[string]string{
		"db/schema.sql":          "CREATE TABLE t_stock (id bigint PRIMARY KEY, quantity int NOT NULL CHECK (quantity >= 0), version bigint NOT NULL DEFAULT 0);\n",
		"dao/dao.go":             dao,
		"dao/dao_test.go":        strings.Replace(dao, "func deduct", "func seed", 1),
		"dao/testhelp/helper.go": strings.Replace(dao, "package dao", "package testhelp", 1),
	})
	files := func(res *lint.Result) []string {
		var out []string
		for _, f := range res.Findings {
			if len(out) == 0 || out[len(out)-1] != f.File {
				out = append(out, f.File)
			}
		}
		return out
	}
	res := runLint(t, "db/schema.sql", ".")
	if diff := cmp.Diff([]string{"dao/dao.go", "dao/testhelp/helper.go"}, files(res)); diff != "" {
		t.Errorf("default exclude (-want +got):\n%s", diff)
	}
	res = runLint(t, "db/schema.sql", "dao/dao_test.go")
	if diff := cmp.Diff([]string{"dao/dao_test.go"}, files(res)); diff != "" {
		t.Errorf("test file named (-want +got):\n%s", diff)
	}
}

// TestTestFoldersExcludedByDefault: test and load-test folders and Maven's
// build output are left out of a walk, and linted when named.
func TestTestFoldersExcludedByDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	reset := "UPDATE t_stock SET quantity = 0;\n"
	writeTree(t, ".", map[string]string{
		"db/schema.sql":                       "CREATE TABLE t_stock (id bigint PRIMARY KEY, quantity int NOT NULL CHECK (quantity >= 0), version bigint NOT NULL DEFAULT 0);\n",
		"sql/reset.sql":                       reset,
		"test/cleanup.sql":                    reset,
		"svc/tests/e2e/seed.sql":              reset,
		"loadtest/k6/reset.sql":               reset,
		"app/target/classes/mapper/reset.sql": reset,
		"app/target/generated/reset.sql":      reset,
	})
	files := func(res *lint.Result) []string {
		var out []string
		for _, f := range res.Findings {
			if !slices.Contains(out, f.File) {
				out = append(out, f.File)
			}
		}
		sort.Strings(out)
		return out
	}
	res := runLint(t, "db/schema.sql", ".")
	if diff := cmp.Diff([]string{"app/target/generated/reset.sql", "sql/reset.sql"}, files(res)); diff != "" {
		t.Errorf("default exclude (-want +got):\n%s", diff)
	}
	res = runLint(t, "db/schema.sql", "test")
	if diff := cmp.Diff([]string{"test/cleanup.sql"}, files(res)); diff != "" {
		t.Errorf("test folder named (-want +got):\n%s", diff)
	}
}
