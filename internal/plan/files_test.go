package plan

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/testtree"
)

// writeTree creates files (name -> content) under a new temporary folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testtree.Write(t, dir, files)
	return dir
}

func listDir(t *testing.T, dir string) []string {
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

func TestNextVersion(t *testing.T) {
	tests := []struct {
		name      string
		files     []string
		next      uint64
		width     int
		otherDirs []string
	}{
		{name: "empty folder", next: 1, width: 6},
		{name: "six digits", files: []string{"000001_a.up.sql", "000001_a.down.sql", "000006_b.up.sql", "README.md"}, next: 7, width: 6},
		{name: "three digits", files: []string{"001_a.up.sql", "012_b.up.sql"}, next: 13, width: 3},
		{name: "the highest version's width wins", files: []string{"1_a.up.sql", "0042_b.up.sql"}, next: 43, width: 4},
		{name: "timestamps", files: []string{"20240101120000_a.up.sql", "20240301093000_b.up.sql"}, next: 20240301093001, width: 14},
		{name: "a missing folder holds nothing", files: []string{"000003_a.up.sql"}, otherDirs: []string{"/nonexistent/guard"}, next: 4, width: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, f := range tt.files {
				files[f] = "SELECT 1;"
			}
			dir := writeTree(t, files)
			next, width, err := NextVersion(append([]string{dir}, tt.otherDirs...)...)
			if err != nil {
				t.Fatal(err)
			}
			if next != tt.next || width != tt.width {
				t.Errorf("NextVersion = %d, %d; want %d, %d", next, width, tt.next, tt.width)
			}
		})
	}
	// Two folders: the highest version of both.
	a := writeTree(t, map[string]string{"000005_a.up.sql": ""})
	b := writeTree(t, map[string]string{"000009_guard_x.up.sql": ""})
	if next, _, err := NextVersion(a, b); err != nil || next != 10 {
		t.Errorf("NextVersion of two folders = %d, %v; want 10", next, err)
	}
	// golang-migrate refuses two files of one version and direction; so does plan.
	dup := writeTree(t, map[string]string{"1_a.up.sql": "", "01_b.up.sql": ""})
	if _, _, err := NextVersion(dup); err == nil {
		t.Error("duplicate versions accepted")
	}
}

func TestFilesRendering(t *testing.T) {
	steps := []Step{
		{Table: "t", Guard: GuardCheck, Rule: "GS003", What: "add CHECK (q >= 0) to t", Name: "guard_t_q_nonneg",
			Up: "ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`q` >= 0), ALGORITHM=COPY, LOCK=SHARED", Down: "ALTER TABLE `t` DROP CONSTRAINT `c`",
			Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Rows: 42, Note: "copies the table"},
		{Table: "t", Guard: GuardTrigger, Rule: "GS003", What: "trigger", Name: "guard_t_q_nonneg_bi",
			Up: "CREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW\nIF NEW.q < 0 THEN\n  SIGNAL SQLSTATE '45000';\nEND IF", Down: "DROP TRIGGER x",
			Algorithm: schema.AlgorithmNone, Rows: -1},
		{Guard: GuardSQLMode, Rule: "GS001", What: "strict", Name: "guard_server_strict_sql_mode", Up: "SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES'",
			Down: "SET GLOBAL sql_mode = ''", Algorithm: schema.AlgorithmNone, Rows: -1},
	}
	got := map[string]string{}
	var names []string
	for _, f := range Files(steps, 41, 3) {
		got[f.Name] = string(f.Data)
		names = append(names, f.Name)
	}
	wantNames := []string{
		"041_guard_t_q_nonneg.up.sql", "041_guard_t_q_nonneg.down.sql",
		"042_guard_t_q_nonneg_bi.up.sql", "042_guard_t_q_nonneg_bi.down.sql",
		"043_guard_server_strict_sql_mode.up.sql", "043_guard_server_strict_sql_mode.down.sql",
	}
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
	want := map[string]string{
		"041_guard_t_q_nonneg.up.sql": `-- guard plan: add CHECK (q >= 0) to t
-- Fixes GS003 counter-without-check.
-- Algorithm: COPY; blocks writes: yes, for the whole statement; rows: 42.
-- Note: copies the table.
-- guard:ignore GM007 guard migrate's preflight counts the rows that would make it fail and refuses before applying anything
-- guard:ignore GM003 adding a CHECK validates every row in a table copy; planned in its own file, run it in a quiet window
ALTER TABLE ` + "`t` ADD CONSTRAINT `c` CHECK (`q` >= 0), ALGORITHM=COPY, LOCK=SHARED;\n",
		"041_guard_t_q_nonneg.down.sql": "-- guard plan: rolls back 041_guard_t_q_nonneg.up.sql (add CHECK (q >= 0) to t).\nALTER TABLE `t` DROP CONSTRAINT `c`;\n",
		"042_guard_t_q_nonneg_bi.up.sql": `-- guard plan: trigger
-- Fixes GS003 counter-without-check.
-- Algorithm: -; blocks writes: no; rows: unknown (planned offline).
-- guard:ignore GQ009 trigger bodies are outside the SQL guard parses; written by guard plan
CREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW
IF NEW.q < 0 THEN
  SIGNAL SQLSTATE '45000';
END IF;
`,
		"042_guard_t_q_nonneg_bi.down.sql": "-- guard plan: rolls back 042_guard_t_q_nonneg_bi.up.sql (trigger).\nDROP TRIGGER x;\n",
		"043_guard_server_strict_sql_mode.up.sql": `-- guard plan: strict
-- Fixes GS001 strict-sql-mode.
-- Algorithm: -; blocks writes: no; rows: n/a (server-wide).
SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES';
`,
		"043_guard_server_strict_sql_mode.down.sql": "-- guard plan: rolls back 043_guard_server_strict_sql_mode.up.sql (strict).\nSET GLOBAL sql_mode = '';\n",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
}

func TestWriteFilesNeverOverwrites(t *testing.T) {
	dir := writeTree(t, map[string]string{"000001_init.up.sql": "CREATE TABLE t (id INT PRIMARY KEY);", "000002_guard_b.down.sql": "keep me"})
	files := []File{{Name: "000002_guard_a.up.sql", Data: []byte("a")}, {Name: "000002_guard_b.down.sql", Data: []byte("b")}}
	if _, err := WriteFilesAt(dir, files); err == nil {
		t.Fatal("an existing file was overwritten")
	}
	if d := cmp.Diff([]string{"000001_init.up.sql", "000002_guard_b.down.sql"}, listDir(t, dir)); d != "" {
		t.Errorf("a failed write left files behind (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "000002_guard_b.down.sql")); string(b) != "keep me" {
		t.Errorf("existing file changed to %q", b)
	}
	out := filepath.Join(t.TempDir(), "new", "folder")
	paths, err := WriteFilesAt(out, files[:1])
	if err != nil || len(paths) != 1 || paths[0] != filepath.Join(out, "000002_guard_a.up.sql") {
		t.Errorf("WriteFilesAt into a new folder = %v, %v", paths, err)
	}
	if paths, err := WriteFilesAt(filepath.Join(t.TempDir(), "none"), nil); paths != nil || err != nil {
		t.Errorf("nothing to write: %v, %v", paths, err)
	}
}

const shopInit = `CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NULL, reserved_stock INT NOT NULL DEFAULT 0);
CREATE TABLE t_order (id BIGINT PRIMARY KEY, order_no VARCHAR(32) NOT NULL, status VARCHAR(16) NOT NULL DEFAULT 'NEW', version BIGINT NOT NULL DEFAULT 0);
`

// TestPlanTwiceWritesNothing writes a plan, plans again from the same
// folder, and requires nothing left to do, for both strategies and when the
// files go to another folder than the one read.
func TestPlanTwiceWritesNothing(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy string
		server   string
		otherOut bool
	}{
		{"checks", StrategyCheck, mariadb, false},
		{"triggers", StrategyTrigger, mariadb, false},
		{"triggers where CHECK is ignored", StrategyCheck, mysql57, false},
		{"out is another folder", StrategyCheck, mysql8, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"000001_init.up.sql": shopInit, "000001_init.down.sql": "DROP TABLE t_order; DROP TABLE t_inventory;"})
			out := dir
			if tc.otherOut {
				out = filepath.Join(t.TempDir(), "guards")
			}
			srv := schema.ParseServer(tc.server)
			planned := func() ([]Step, uint64) {
				off, err := LoadDirs(dir, out)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range off.Errors {
					t.Errorf("replay: %v", e)
				}
				steps := Plan(off.Schema, policy.Default(), srv, Options{Strategy: tc.strategy, Triggers: off.Triggers})
				next, _, err := NextVersion(dir, out)
				if err != nil {
					t.Fatal(err)
				}
				return steps, next
			}
			steps, next := planned()
			if len(steps) < 5 || next != 2 {
				t.Fatalf("first plan: %d steps from version %d: %+v", len(steps), next, steps)
			}
			paths, err := WriteFilesAt(out, Files(steps, next, DefaultWidth))
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != 2*len(steps) || !strings.HasSuffix(paths[0], "000002_"+steps[0].Name+".up.sql") {
				t.Errorf("written %v", paths)
			}
			if again, _ := planned(); len(again) != 0 {
				t.Errorf("second plan: %+v", again)
			}
			if pending, err := Unwritten(steps, dir, out); err != nil || len(pending) != 0 {
				t.Errorf("Unwritten after writing = %v, %v", pending, err)
			}
		})
	}
}

func TestWriteFilesNumbersAfterTheFolder(t *testing.T) {
	dir := writeTree(t, map[string]string{"0007_init.up.sql": shopInit})
	off, err := LoadDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	steps := Plan(off.Schema, policy.Default(), schema.ParseServer(mariadb), Options{})
	if _, err := WriteFiles(dir, steps[:1]); err != nil {
		t.Fatal(err)
	}
	want := []string{"0007_init.up.sql", "0008_" + steps[0].Name + ".down.sql", "0008_" + steps[0].Name + ".up.sql"}
	if d := cmp.Diff(want, listDir(t, dir)); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
}

func TestLoadDirsFollowsTriggers(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"1_t.up.sql": "CREATE TABLE t (id INT PRIMARY KEY, stock INT NOT NULL);",
		"2_a.up.sql": "CREATE TRIGGER `Trg_A` BEFORE INSERT ON t FOR EACH ROW\nBEGIN\n  IF NEW.stock < 0 THEN SIGNAL SQLSTATE '45000'; END IF;\nEND;\n" +
			"CREATE DEFINER=`root`@`%` TRIGGER db.trg_b BEFORE UPDATE ON t FOR EACH ROW SET NEW.stock = NEW.stock;",
		"3_c.up.sql":   "DROP TRIGGER IF EXISTS trg_b;\nALTER TABLE t ADD COLUMN version INT NOT NULL DEFAULT 0;",
		"3_c.down.sql": "CREATE TRIGGER trg_c BEFORE UPDATE ON t FOR EACH ROW SET NEW.stock = 1;",
	})
	off, err := LoadDirs(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(off.Errors) != 0 {
		t.Errorf("replay errors: %v", off.Errors)
	}
	if d := cmp.Diff(map[string]bool{"trg_a": true}, off.Triggers); d != "" {
		t.Errorf("triggers (-want +got):\n%s", d)
	}
	if off.Schema.Table("t").Column("version") == nil {
		t.Error("the ALTER after the triggers was not replayed")
	}
	if _, err := LoadDirs(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a missing folder: %v", err)
	}
}
