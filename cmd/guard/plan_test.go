package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// shopCopy copies the example shop's migrations into a temporary folder.
func shopCopy(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "shop", "migrations")
	dst := filepath.Join(t.TempDir(), "migrations")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func fileNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestPlanDryRun(t *testing.T) {
	dir := shopCopy(t)
	before := fileNames(t, dir)
	out, errOut, code := guard(t, "plan", "--dir", dir, "--dry-run")
	if code != exitClean {
		t.Fatalf("exit = %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"TABLE        GUARD           ALGORITHM  BLOCKS WRITES  ROWS  STATEMENT\n",
		"t_inventory  version-column  INSTANT    no             -     ALTER TABLE `t_inventory` ADD COLUMN `version` BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT\n",
		"t_inventory  check           COPY       YES            -     ALTER TABLE `t_inventory` ADD CONSTRAINT `chk_t_inventory_inventory_nonneg` CHECK (`inventory` >= 0), ALGORITHM=COPY, LOCK=SHARED\n",
		"t_order      unique          INPLACE    no             -     ALTER TABLE `t_order` ADD UNIQUE INDEX `uk_t_order_order_no` (`order_no`), ALGORITHM=INPLACE, LOCK=NONE\n",
		"would write 3 migrations (6 files) to " + dir + "\n",
		filepath.Join(dir, "000008_guard_t_inventory_inventory_nonneg.up.sql"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if d := cmp.Diff(before, fileNames(t, dir)); d != "" {
		t.Errorf("--dry-run wrote files (-before +after):\n%s", d)
	}
}

func TestPlanJSON(t *testing.T) {
	dir := shopCopy(t)
	out, errOut, code := guard(t, "plan", "--dir", dir, "--dry-run", "--format", "json", "--flavor", "mysql8")
	if code != exitClean {
		t.Fatalf("exit = %d; stderr:\n%s", code, errOut)
	}
	var doc struct {
		Tool    string `json:"tool"`
		Version string `json:"version"`
		Steps   []struct {
			Table, Guard, Rule, Name, Up, Down, Algorithm string
			BlocksWrites                                  bool   `json:"blocks_writes"`
			Rows                                          int64  `json:"rows"`
			UpFile                                        string `json:"up_file"`
			DownFile                                      string `json:"down_file"`
		} `json:"steps"`
		Written []string `json:"written"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.Tool != "guard" || doc.Version == "" || len(doc.Steps) != 3 || len(doc.Written) != 0 {
		t.Fatalf("document = %+v", doc)
	}
	for _, key := range []string{`"what": "add CHECK (inventory >= 0) to t_inventory"`, `"note": "copies the table`} {
		if !strings.Contains(out, key) {
			t.Errorf("document lacks %s:\n%s", key, out)
		}
	}
	check := doc.Steps[1]
	if check.Guard != "check" || check.Rule != "GS003" || !check.BlocksWrites || check.Rows != -1 || check.Algorithm != "COPY" ||
		check.Down != "ALTER TABLE `t_inventory` DROP CHECK `chk_t_inventory_inventory_nonneg`, ALGORITHM=INPLACE, LOCK=NONE" ||
		check.UpFile != filepath.Join(dir, "000008_guard_t_inventory_inventory_nonneg.up.sql") {
		t.Errorf("check step = %+v", check)
	}
}

// TestPlanTwice writes the plan, lints the folder clean of the rules the
// plan answers and of guard's migration rules, and plans again: nothing.
func TestPlanTwice(t *testing.T) {
	for _, strategy := range []string{"check", "trigger"} {
		t.Run(strategy, func(t *testing.T) {
			dir := shopCopy(t)
			out, errOut, code := guard(t, "plan", "--dir", dir, "--strategy", strategy)
			if code != exitClean || !strings.Contains(out, "wrote ") {
				t.Fatalf("first plan: exit %d\n%s\n%s", code, out, errOut)
			}
			out, errOut, code = guard(t, "plan", "--dir", dir, "--strategy", strategy)
			if code != exitClean || out != "nothing to do: the schema has every guard the policy asks for\n" || errOut != "" {
				t.Errorf("second plan: exit %d\n%s\n%s", code, out, errOut)
			}
			out, _, _ = guard(t, "lint", "--no-color", "--fail-on", "never", dir)
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, "_guard_") || strings.Contains(line, "GS005") || strings.Contains(line, "GS006") ||
					(strategy == "check" && strings.Contains(line, "GS003")) {
					t.Errorf("lint after plan: %s", line)
				}
			}
		})
	}
}

func TestPlanInputErrors(t *testing.T) {
	dir := shopCopy(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--dir", dir, "--strategy", "lock"}, `--strategy "lock": want check or trigger`},
		{[]string{"--dir", dir, "--flavor", "oracle"}, `--flavor "oracle": want mariadb or mysql8`},
		{[]string{"--dir", filepath.Join(dir, "nope")}, "no such folder"},
		{[]string{"--dir", dir, "--format", "sarif"}, `--format "sarif"`},
		{[]string{"--dir", dir, "extra"}, "extra: no such file or directory"},
		{[]string{"--dsn", "u:p@tcp(127.0.0.1:1)/db", "--flavor", "mysql8"}, "--flavor is for offline plans"},
		{[]string{"--dsn", "u:p@tcp(127.0.0.1:1)/"}, `no database name after "/"`},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(strings.Join(tt.args, " "), dir, "DIR"), func(t *testing.T) {
			_, errOut, code := guard(t, append([]string{"plan"}, tt.args...)...)
			if code != exitInput || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, exitInput, tt.want)
			}
		})
	}
}

// TestPlanLive plans from a live database into a folder, then again: the
// files written and still pending count as done. The password never shows.
func TestPlanLive(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, "CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL DEFAULT 0)",
		"INSERT INTO t_inventory (id) VALUES (1), (2)")
	out := filepath.Join(t.TempDir(), "guards")
	for i, want := range []string{"wrote 2 migrations", "nothing to do"} {
		stdout, stderr, code := guard(t, "plan", "--dsn", db.DSN, "--out", out, "--no-color")
		for _, s := range []string{stdout, stderr} {
			if strings.Contains(s, db.Password) {
				t.Fatalf("the password shows:\n%s", dbtest.Redact(s))
			}
		}
		if code != exitClean || !strings.Contains(stdout, want) {
			t.Fatalf("run %d: exit %d, want output with %q:\n%s\n%s", i+1, code, want, stdout, dbtest.Redact(stderr))
		}
		if i == 0 && !strings.Contains(stdout, "t_inventory  check           COPY       YES            2     ALTER TABLE") {
			t.Errorf("the CHECK step lacks its row count:\n%s", stdout)
		}
	}
	want := []string{
		"000001_guard_t_inventory_add_version.down.sql", "000001_guard_t_inventory_add_version.up.sql",
		"000002_guard_t_inventory_inventory_nonneg.down.sql", "000002_guard_t_inventory_inventory_nonneg.up.sql",
	}
	if d := cmp.Diff(want, fileNames(t, out)); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}

	_, stderr, code := guard(t, "plan", "--dsn", "mysql://"+db.User+":"+db.Password+"@"+closedPort(t)+"/"+db.Name)
	if code != exitRuntime || strings.Contains(stderr, db.Password) || !strings.Contains(stderr, "connect") {
		t.Errorf("unreachable server: exit %d, stderr %s", code, dbtest.Redact(stderr))
	}
}

// TestPlanLiveSQLMode plans the strict sql_mode of a lax MariaDB: SET
// GLOBAL, with the reminder that it does not survive a restart.
func TestPlanLiveSQLMode(t *testing.T) {
	db := dbtest.MySQL(t)
	root := db.Server().Root()
	var before string
	if err := root.QueryRow("SELECT @@GLOBAL.sql_mode").Scan(&before); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := root.Exec("SET GLOBAL sql_mode = ?", before); err != nil {
			t.Error(err)
		}
	})
	if _, err := root.Exec("SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'"); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stdout, stderr, code := guard(t, "plan", "--dsn", db.DSN, "--out", out)
	if code != exitClean {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, dbtest.Redact(stderr))
	}
	const reminder = "SET GLOBAL does not survive a restart: also put sql_mode = 'NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLES' under [mysqld]"
	if !strings.Contains(stderr, "guard: reminder: ") || !strings.Contains(stderr, reminder) || !strings.Contains(stdout, reminder) {
		t.Errorf("no reminder on stderr and in the summary:\n%s\n%s", stdout, dbtest.Redact(stderr))
	}
	b, err := os.ReadFile(filepath.Join(out, "000001_guard_server_strict_sql_mode.up.sql"))
	if err != nil || !strings.HasSuffix(string(b), "\nSET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLES';\n") {
		t.Errorf("up file: %v\n%s", err, b)
	}
}

// TestPlanOutIsTheFolder follows DESIGN §2's `guard plan --out migrations/`:
// without --dir, the folder written to is the one planned.
func TestPlanOutIsTheFolder(t *testing.T) {
	dir := shopCopy(t)
	t.Chdir(t.TempDir()) // no ./migrations here
	out, errOut, code := guard(t, "plan", "--out", dir)
	if code != exitClean || !strings.Contains(out, "wrote ") {
		t.Fatalf("plan --out: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = guard(t, "plan", "--out", dir)
	if code != exitClean || !strings.HasPrefix(out, "nothing to do") {
		t.Errorf("second plan --out: exit %d\n%s", code, out)
	}
}
