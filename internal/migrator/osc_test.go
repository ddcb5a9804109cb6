package migrator

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/schema"
)

const oscCheckUp = "-- guard plan: add CHECK (qty >= 0) to t_stock\n" +
	"-- " + OSCDirective + " " + OSCPTOnlineSchemaChange + "\n" +
	"ALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED;\n"

// oscFiles create t_stock, then add its CHECK through pt-online-schema-change.
func oscFiles(create string) map[string]string {
	return map[string]string{
		"000001_create.up.sql":  create,
		"000002_check.up.sql":   oscCheckUp,
		"000002_check.down.sql": "ALTER TABLE t_stock DROP CONSTRAINT chk_t_stock_qty_nonneg;",
	}
}

const stockTable = "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL);"

// needPTOSC fails t when the tool is missing: tests never skip silently.
func needPTOSC(t *testing.T) {
	t.Helper()
	if _, err := lookPath(PTOSCBinary); err != nil {
		t.Fatalf("%v: make deps installs it", ErrNoOSCTool)
	}
}

// tableState is what tells an untouched table: its definition, its rows'
// count and sum, and the tables and triggers of the database.
func tableState(t *testing.T, db *dbtest.DB) string {
	t.Helper()
	var name, create string
	if err := db.SQL.QueryRow("SHOW CREATE TABLE t_stock").Scan(&name, &create); err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	if err := db.SQL.QueryRow("SELECT COUNT(*), COALESCE(SUM(qty), 0) FROM t_stock").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	var tables, triggers string
	if err := db.SQL.QueryRow("SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if err := db.SQL.QueryRow("SELECT COALESCE(GROUP_CONCAT(TRIGGER_NAME), '') FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()").Scan(&triggers); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s\nrows %d sum %d\ntables %s\ntriggers %s", create, n, sum, tables, triggers)
}

// The CHECK is added by pt-online-schema-change while a writer updates
// single rows: every write succeeds and lands (the sum of the table is the
// start's plus the writer's increments), the version is recorded clean,
// and verification finds the CHECK.
func TestOSCAddCheckWithConcurrentWriter(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	var log strings.Builder
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{Log: &syncWriter{w: &log}})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	const rows = 20000
	db.Exec(t, "INSERT INTO t_stock SELECT seq, 10 FROM seq_1_to_20000")

	// Each write runs to its end, so that every one counted is one made.
	// Two writers: one in the text protocol, which must never fail, and
	// one through server-side prepared statements (go-sql-driver's
	// default), which MariaDB can run against the old table's trigger at
	// the very moment of the swap: error 1146 on the tool's _new table.
	// That write fails whole, and is not counted.
	var stop atomic.Bool
	var writes, swapErrors atomic.Int64
	var wg sync.WaitGroup
	for _, prepared := range []bool{false, true} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				id := rand.IntN(rows) + 1
				var err error
				if prepared {
					_, err = db.SQL.ExecContext(ctx, "UPDATE t_stock SET qty = qty + 1 WHERE id = ?", id)
				} else {
					_, err = db.SQL.ExecContext(ctx, fmt.Sprintf("UPDATE t_stock SET qty = qty + 1 WHERE id = %d", id))
				}
				var me *mysql.MySQLError
				switch {
				case err == nil:
					writes.Add(1)
				case prepared && errors.As(err, &me) && me.Number == errNoSuchTable && strings.Contains(me.Message, "_t_stock_new"):
					swapErrors.Add(1)
				default:
					t.Errorf("concurrent write (prepared %v): %v", prepared, err)
					return
				}
			}
		}()
	}
	res, err := m.Up(ctx)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("up: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if len(res.Applied) != 1 || res.Applied[0].Tool != PTOSCBinary {
		t.Errorf("applied %+v, want 000002 with %s", res.Applied, PTOSCBinary)
	}
	if st := state(t, db); st != (State{Version: 2}) {
		t.Errorf("version %s, want 2 clean", st)
	}
	if len(res.Verified) != 1 || res.Verified[0].Status != VerifyPresent {
		t.Errorf("verified %+v, want the CHECK present", res.Verified)
	}
	var n, sum int64
	if err := db.SQL.QueryRow("SELECT COUNT(*), SUM(qty) FROM t_stock").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != rows || sum != rows*10+writes.Load() {
		t.Errorf("after the copy: %d rows summing %d, want %d rows summing %d (%d writes)", n, sum, rows, rows*10+writes.Load(), writes.Load())
	}
	t.Logf("%d writes during the copy, %d prepared writes failed at the swap", writes.Load(), swapErrors.Load())
	if writes.Load() == 0 {
		t.Error("the writer wrote nothing while the table was copied")
	}
	for _, want := range []string{"running " + PTOSCBinary + " --alter 'ADD CONSTRAINT", "pt-online-schema-change: altered, copied about", "swapped the tables", "with " + PTOSCBinary} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, dbtest.Redact(log.String()))
		}
	}
	if strings.Contains(log.String(), db.Password) {
		t.Error("the password is in the log")
	}
	// The CHECK works: a write below zero fails.
	if _, err := db.SQL.Exec("UPDATE t_stock SET qty = -1 WHERE id = 1"); err == nil {
		t.Error("a negative qty was written after the CHECK was added")
	}
}

// A pt-online-schema-change that aborts (here: a row breaks the CHECK,
// preflight skipped) cleans up after itself: the table is as it was, and
// the version is clean at the one before.
func TestOSCAbortLeavesTableAndVersionClean(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{SkipPreflight: true})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_stock VALUES (1, 5), (2, -3), (3, 7)")
	before := tableState(t, db)
	_, err := m.Up(ctx)
	var oe *OSCError
	if !errors.As(err, &oe) || !oe.Clean {
		t.Fatalf("up: %v, want a clean OSCError", err)
	}
	if !strings.Contains(oe.Summary, "CONSTRAINT `chk_t_stock_qty_nonneg` failed") {
		t.Errorf("summary %q lacks the server's message", oe.Summary)
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s, want 1 clean", st)
	}
	if d := cmp.Diff(before, tableState(t, db)); d != "" {
		t.Errorf("the table changed (-before +after):\n%s", d)
	}
	// Without --skip-preflight, guard refuses before the tool runs.
	m2 := open(t, db, m.opts.Dir, Options{})
	var refused *RefusedError
	if _, err := m2.Up(ctx); !errors.As(err, &refused) {
		t.Errorf("up with preflight: %v, want a refusal", err)
	}
}

// Where the tool cannot work, guard says why before anything runs.
func TestOSCRefusals(t *testing.T) {
	needPTOSC(t)
	for _, tc := range []struct {
		name, create string
		extra        []string
		want         string
	}{
		{"no key", "CREATE TABLE t_stock (id INT, qty INT NOT NULL);", nil, "no primary key or unique index"},
		{"child", stockTable, []string{"CREATE TABLE t_line (id INT PRIMARY KEY, stock_id INT, CONSTRAINT fk_line_stock FOREIGN KEY (stock_id) REFERENCES t_stock (id))"},
			"foreign keys involve the table (fk_line_stock (t_line -> t_stock))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := dbtest.MySQL(t)
			m := open(t, db, writeDir(t, oscFiles(tc.create)), Options{})
			ctx := context.Background()
			if _, err := m.Goto(ctx, 1); err != nil {
				t.Fatal(dbtest.Redact(err.Error()))
			}
			db.Exec(t, tc.extra...)
			_, err := m.Up(ctx)
			var re *OSCRefusedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("up: %v, want a refusal naming %q", err, tc.want)
			}
			if st := state(t, db); st != (State{Version: 1}) {
				t.Errorf("version %s, want 1 clean", st)
			}
		})
	}
}

func TestOSCDirectiveErrors(t *testing.T) {
	db := dbtest.MySQL(t)
	for _, tc := range []struct {
		name, up, want string
	}{
		{"unknown tool", "-- guard:osc gh-ost\nALTER TABLE t_stock ADD COLUMN x INT;", `-- guard:osc "gh-ost": want -- guard:osc pt-osc`},
		{"two statements", "-- guard:osc pt-osc\nALTER TABLE t_stock ADD COLUMN x INT;\nALTER TABLE t_stock ADD COLUMN y INT;", "exactly one ALTER TABLE"},
		{"not an alter", "-- guard:osc pt-osc\nCREATE TABLE t_other (id INT PRIMARY KEY);", "can only run an ALTER TABLE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := open(t, db, writeDir(t, map[string]string{"000001_x.up.sql": tc.up}), Options{})
			_, err := m.Up(context.Background())
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "000001_x.up.sql:") {
				t.Errorf("up: %v, want a ParseError at the file saying %q", err, tc.want)
			}
		})
	}
	// A directive after the statement is a plain comment.
	if tool, _, found := readDirective("ALTER TABLE t ADD COLUMN x INT;\n-- guard:osc pt-osc\n"); found {
		t.Errorf("directive after the statement read as %q", tool)
	}
}

func TestOSCToolMissing(t *testing.T) {
	db := dbtest.MySQL(t)
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{})
	if _, err := m.Goto(context.Background(), 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	saved := lookPath
	lookPath = func(string) (string, error) { return "", errors.New("not found") }
	defer func() { lookPath = saved }()
	if _, err := m.Up(context.Background()); !errors.Is(err, ErrNoOSCTool) {
		t.Errorf("up: %v, want ErrNoOSCTool", err)
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s, want 1 clean", st)
	}
}

func TestOptionValueAndDSN(t *testing.T) {
	if got, want := optionValue(`p"a\ss`+"\n"), `"p\"a\\ss\n"`; got != want {
		t.Errorf("optionValue = %s, want %s", got, want)
	}
}

// syncWriter lets the log be read after concurrent writes.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// The password reaches the tool in a private option file, never in its
// arguments (on Linux a memory file it inherits as /dev/fd/3, mode 0600,
// which also takes the lock of its run); the DSN names the table with h=,
// P=, D=, t=.
func TestOSCPasswordNotOnCommandLine(t *testing.T) {
	db := dbtest.MySQL(t)
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{})
	if _, err := m.Goto(context.Background(), 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, PTOSCBinary)
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + dir + "/args\n" +
		"for a; do case $a in --defaults-file=*) f=${a#--defaults-file=}; echo \"$f\" > " + dir + "/path; stat -L -c %a \"$f\" > " + dir + "/mode; cat \"$f\" > " + dir + "/cnf;; esac; done\n" +
		"echo 'Cannot connect to nowhere'; exit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	saved := lookPath
	lookPath = func(string) (string, error) { return fake, nil }
	defer func() { lookPath = saved }()
	_, err := m.Up(context.Background())
	var oe *OSCError
	if !errors.As(err, &oe) || !oe.Clean || oe.Summary != "Cannot connect to nowhere" {
		t.Fatalf("up: %v, want a clean OSCError with the tool's message", err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	args := read("args")
	if strings.Contains(args, db.Password) {
		t.Errorf("the password is in the arguments:\n%s", dbtest.Redact(args))
	}
	if want := "h=127.0.0.1,P=" + strings.Split(db.Addr, ":")[1] + ",D=" + db.Name + ",t=t_stock\n"; !strings.HasSuffix(args, want) {
		t.Errorf("arguments end %q, want the DSN %q", args[max(0, len(args)-80):], want)
	}
	if mode := strings.TrimSpace(read("mode")); mode != "600" {
		t.Errorf("option file mode %s, want 600", mode)
	}
	if cnf := read("cnf"); !strings.Contains(cnf, "password=\""+db.Password+"\"") {
		t.Error("the option file does not hold the password")
	} else if want := "init-command=\"DO GET_LOCK('" + oscLockName(db.Name, "t_stock") + "', 0)\""; !strings.Contains(cnf, want) {
		t.Errorf("the option file lacks %s", want)
	}
	if path := strings.TrimSpace(read("path")); runtime.GOOS == "linux" && path != "/dev/fd/3" {
		t.Errorf("option file %s, want /dev/fd/3: a file on no disk", path)
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s, want 1 clean", st)
	}
}

// An interrupt reaches pt-online-schema-change as SIGINT; the tool stops
// without altering the table but leaves its triggers and its copy, which
// guard drops: the table is as it was and the version clean.
func TestOSCInterruptCleansUp(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	var log strings.Builder
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{Log: &syncWriter{w: &log}})
	if _, err := m.Goto(context.Background(), 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_stock SELECT seq, 1 FROM seq_1_to_300000")
	before := tableState(t, db)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Interrupt once the tool's triggers are in place: mid-copy.
		for ctx.Err() == nil {
			var n int
			if db.SQL.QueryRow("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'pt_osc_%'").Scan(&n) == nil && n == 3 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, err := m.Up(ctx)
	var oe *OSCError
	if !errors.As(err, &oe) || !oe.Clean {
		t.Fatalf("up: %v, want a clean OSCError\n%s", err, dbtest.Redact(log.String()))
	}
	if !strings.Contains(log.String(), "dropped what it left: trigger pt_osc_") {
		t.Errorf("log does not say what was dropped:\n%s", dbtest.Redact(log.String()))
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s, want 1 clean", st)
	}
	if d := cmp.Diff(before, tableState(t, db)); d != "" {
		t.Errorf("the table changed (-before +after):\n%s", d)
	}
}

// A table with a trigger of its own goes through pt-online-schema-change
// with --preserve-triggers on a server that allows several triggers per
// event (MariaDB 10.2.3 on): the trigger is kept and still fires after the
// swap, while a writer runs; the CHECK is added.
func TestOSCPreservesTriggers(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	var log strings.Builder
	m := open(t, db, writeDir(t, oscFiles(stockTable)), Options{Log: &syncWriter{w: &log}})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "CREATE TABLE t_audit (id INT AUTO_INCREMENT PRIMARY KEY, stock_id INT NOT NULL, qty INT NOT NULL)",
		"CREATE TRIGGER trg_stock_audit AFTER UPDATE ON t_stock FOR EACH ROW INSERT INTO t_audit (stock_id, qty) VALUES (NEW.id, NEW.qty)",
		"INSERT INTO t_stock SELECT seq, 10 FROM seq_1_to_5000")
	// At the moment the trigger is moved, MariaDB can refuse a write whose
	// trigger it is running with 1146 (the trigger's own table "doesn't
	// exist"): that write fails whole, is not counted, and the sums below
	// show nothing half-applied.
	var stop atomic.Bool
	var writes, swapErrors atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			_, err := db.SQL.ExecContext(ctx, fmt.Sprintf("UPDATE t_stock SET qty = qty + 1 WHERE id = %d", rand.IntN(5000)+1))
			var me *mysql.MySQLError
			switch {
			case err == nil:
				writes.Add(1)
			case errors.As(err, &me) && me.Number == errNoSuchTable:
				swapErrors.Add(1)
			default:
				t.Errorf("concurrent write: %v", err)
				return
			}
		}
	}()
	res, err := m.Up(ctx)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("up: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if len(res.Applied) != 1 || res.Applied[0].Tool != PTOSCBinary {
		t.Fatalf("applied %+v, want 000002 with %s", res.Applied, PTOSCBinary)
	}
	if !strings.Contains(log.String(), "--execute --preserve-triggers on t_stock") {
		t.Errorf("log does not show --preserve-triggers:\n%s", dbtest.Redact(log.String()))
	}
	var triggers string
	if err := db.SQL.QueryRow("SELECT GROUP_CONCAT(TRIGGER_NAME ORDER BY TRIGGER_NAME) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 't_stock'").Scan(&triggers); err != nil {
		t.Fatal(err)
	}
	if triggers != "trg_stock_audit" {
		t.Errorf("triggers on t_stock after the swap: %q, want trg_stock_audit alone", triggers)
	}
	// No write is lost: the rows sum to the start's plus the writer's.
	var n, sum int64
	if err := db.SQL.QueryRow("SELECT COUNT(*), SUM(qty) FROM t_stock").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 5000 || sum != 5000*10+writes.Load() {
		t.Errorf("after the copy: %d rows summing %d, want 5000 summing %d", n, sum, 5000*10+writes.Load())
	}
	// A write fires the trigger at most once (on the old table or the new
	// one). pt-online-schema-change 3.2.1 moves the trigger to the new
	// table (DROP TRIGGER, CREATE TRIGGER under LOCK TABLES) a moment
	// before it swaps the tables, and a write landing in between fires
	// none: the README says so.
	var audited int64
	if err := db.SQL.QueryRow("SELECT COUNT(*) FROM t_audit").Scan(&audited); err != nil {
		t.Fatal(err)
	}
	if audited > writes.Load() || audited == 0 {
		t.Errorf("%d audit rows for %d writes", audited, writes.Load())
	}
	t.Logf("%d writes during the copy, %d of them fired the trigger, %d refused at the swap", writes.Load(), audited, swapErrors.Load())
	db.Exec(t, "UPDATE t_stock SET qty = 99 WHERE id = 1")
	var last int
	if err := db.SQL.QueryRow("SELECT qty FROM t_audit ORDER BY id DESC LIMIT 1").Scan(&last); err != nil || last != 99 {
		t.Errorf("the trigger did not fire after the swap: last audited qty %d (%v)", last, err)
	}
	if _, err := db.SQL.Exec("UPDATE t_stock SET qty = -1 WHERE id = 2"); err == nil {
		t.Error("a negative qty was written after the CHECK was added")
	}
}

// Where the server allows one trigger per event and timing, a table with
// triggers is refused, saying why.
func TestOSCTriggerRefusalByServer(t *testing.T) {
	for _, tc := range []struct {
		version string
		refused bool
	}{
		{"5.6.51", true},
		{"5.7.1", true},
		{"5.7.2", false},
		{"8.0.36", false},
		{"10.2.2-MariaDB", true},
		{"10.2.3-MariaDB", false},
		{"10.11.6-MariaDB-0+deb12u1", false},
	} {
		why := triggerRefusal(schema.ParseServer(tc.version), []string{"trg_a", "trg_b"})
		if (why != "") != tc.refused {
			t.Errorf("%s: refusal %q, want refused %v", tc.version, why, tc.refused)
		}
		if tc.refused && !strings.Contains(why, "the table has triggers (trg_a, trg_b)") || tc.refused && !strings.Contains(why, "--preserve-triggers needs MySQL 5.7.2 or MariaDB 10.2.3") {
			t.Errorf("%s: refusal %q lacks the triggers or the reason", tc.version, why)
		}
	}
}

// checkConstraints lists the CHECK constraints of table t_stock as SHOW
// CREATE TABLE prints them, in its order.
func checkConstraints(t *testing.T, db *dbtest.DB) []string {
	t.Helper()
	var name, create string
	if err := db.SQL.QueryRow("SHOW CREATE TABLE t_stock").Scan(&name, &create); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(create, "\n") {
		if l = strings.TrimSuffix(strings.TrimSpace(l), ","); strings.HasPrefix(l, "CONSTRAINT ") {
			out = append(out, l)
		}
	}
	return out
}

// pt-online-schema-change creates its copy of the table with every
// CONSTRAINT renamed (x to _x, _x to __x, __x to x), and the copy is the
// table after the swap. Two successive runs keep the names: the CHECK
// constraints after each run are those before, in SHOW CREATE TABLE; a run
// whose own ALTER names one (drops and adds _chk_keep) finds it under its
// name; and the plain migration after them, written against the names
// (DROP CONSTRAINT chk_qty), applies, as do the down files on the way back.
func TestOSCKeepsCheckNames(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	osc := "-- " + OSCDirective + " " + OSCPTOnlineSchemaChange + "\n"
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_stock (id INT PRIMARY KEY, qty INT NOT NULL, shelf INT NOT NULL DEFAULT 0 CHECK (shelf >= 0),\n" +
			"  CONSTRAINT chk_qty CHECK (qty >= 0), CONSTRAINT _chk_keep CHECK (qty < 1000000), CONSTRAINT __chk_two CHECK (qty <> -13));",
		"000001_create.down.sql": "DROP TABLE t_stock;",
		"000002_note.up.sql":     osc + "ALTER TABLE t_stock ADD COLUMN note VARCHAR(20) NULL;",
		"000002_note.down.sql":   osc + "ALTER TABLE t_stock DROP COLUMN note;",
		"000003_note2.up.sql":    osc + "ALTER TABLE t_stock ADD COLUMN note2 VARCHAR(20) NULL;",
		"000003_note2.down.sql":  osc + "ALTER TABLE t_stock DROP COLUMN note2;",
		"000004_keep.up.sql":     osc + "ALTER TABLE t_stock DROP CONSTRAINT _chk_keep, ADD CONSTRAINT _chk_keep CHECK (qty < 1000000);",
		"000004_keep.down.sql":   osc + "ALTER TABLE t_stock ENGINE=InnoDB;",
		"000005_drop.up.sql":     "ALTER TABLE t_stock DROP CONSTRAINT chk_qty;",
		"000005_drop.down.sql":   "ALTER TABLE t_stock ADD CONSTRAINT chk_qty CHECK (qty >= 0);",
	})
	var log strings.Builder
	m := open(t, db, dir, Options{Log: &log})
	ctx := context.Background()
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_stock (id, qty) SELECT seq, seq % 100 FROM seq_1_to_2000")
	want := checkConstraints(t, db)
	t.Logf("before: %q", want)
	for _, v := range []uint{2, 3} {
		if _, err := m.Goto(ctx, v); err != nil {
			t.Fatalf("goto %d: %s\n%s", v, dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
		}
		if d := cmp.Diff(want, checkConstraints(t, db)); d != "" {
			t.Errorf("CHECK constraints after the run of version %d through %s (-before +after):\n%s", v, PTOSCBinary, d)
		}
	}
	if !strings.Contains(log.String(), "kept the names of the CHECK constraints") {
		t.Errorf("the log does not say the names were kept:\n%s", dbtest.Redact(log.String()))
	}
	// The file drops and adds _chk_keep, which moves it last.
	sorted := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	if _, err := m.Goto(ctx, 4); err != nil {
		t.Fatalf("goto 4: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if d := cmp.Diff(want, checkConstraints(t, db), sorted); d != "" {
		t.Errorf("CHECK constraints after version 4 (-before +after):\n%s", d)
	}
	if _, err := m.Up(ctx); err != nil {
		t.Fatalf("up to the DROP CONSTRAINT chk_qty: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatalf("down again through every down file: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if st := state(t, db); st != (State{Version: 1}) {
		t.Errorf("version %s, want 1 clean", st)
	}
	if d := cmp.Diff(want, checkConstraints(t, db), sorted); d != "" {
		t.Errorf("CHECK constraints after the way back to version 1 (-before +after):\n%s", d)
	}
}

// Where CHECK constraint names are unique per database (MySQL 8), the
// tool's copy cannot carry them, and naming them back after the swap
// copies the table: a table with CHECK constraints is refused there.
func TestOSCCheckNameRefusalByServer(t *testing.T) {
	checks := []tableCheck{{Name: "chk_qty", Def: "CHECK (`qty` >= 0)"}}
	for _, tc := range []struct {
		version string
		refused bool
	}{
		{"8.0.36", true},
		{"8.4.2", true},
		{"10.11.6-MariaDB-0+deb12u1", false},
		{"10.2.22-MariaDB", false},
	} {
		why := checkNameRefusal(schema.ParseServer(tc.version), checks)
		if (why != "") != tc.refused {
			t.Errorf("%s: refusal %q, want refused %v", tc.version, why, tc.refused)
		}
		if tc.refused && !strings.Contains(why, "CHECK constraints (chk_qty)") {
			t.Errorf("%s: refusal %q does not name the constraint", tc.version, why)
		}
	}
	if why := checkNameRefusal(schema.ParseServer("8.0.36"), nil); why != "" {
		t.Errorf("a table without CHECK constraints refused: %q", why)
	}
	for name, want := range map[string]string{"chk_x": "_chk_x", "_chk_x": "__chk_x", "__chk_x": "chk_x", strings.Repeat("c", 64): "_" + strings.Repeat("c", 63)} {
		if got := ptOSCConstraintName(name); got != want {
			t.Errorf("ptOSCConstraintName(%q) = %q, want %q", name, got, want)
		}
	}
}

// What the next run does with what a run of pt-online-schema-change cut
// short left, by what is there: a table of the tool's names before the run
// refuses it; behind a dirty version, a run of the tool still alive (its
// lock held) is left be; the original swapped out means the table is
// altered, and is reported; the tool's copy alone means it stopped before
// the swap: it is dropped, the version recorded clean at the one before,
// and the step applied.
func TestOSCRecoveryByWhatIsLeft(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	dir := writeDir(t, oscFiles(stockTable))
	ctx := context.Background()
	var log strings.Builder
	m := open(t, db, dir, Options{Log: &log})
	if _, err := m.Goto(ctx, 1); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	db.Exec(t, "INSERT INTO t_stock SELECT seq, 1 FROM seq_1_to_1000", "CREATE TABLE _t_stock_new LIKE t_stock")
	var refused *OSCRefusedError
	if _, err := m.Up(ctx); !errors.As(err, &refused) || !strings.Contains(err.Error(), "(_t_stock_new), left by an earlier run of it") {
		t.Fatalf("up with _t_stock_new there: %v, want a refusal naming it", err)
	}

	db.Exec(t, "UPDATE schema_migrations SET version = 2, dirty = 1")
	holder, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "DO GET_LOCK(?, 0)", oscLockName(db.Name, "t_stock")); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		prepare func()
		log     string
	}{
		{"a run alive", func() {}, PTOSCBinary + " is still altering t_stock (connection "},
		{"swapped", func() {
			if _, err := holder.ExecContext(ctx, "DO RELEASE_LOCK(?)", oscLockName(db.Name, "t_stock")); err != nil {
				t.Fatal(err)
			}
			db.Exec(t, "CREATE TABLE _t_stock_old LIKE t_stock")
		}, "once the tool had swapped the tables: it left table _t_stock_new, table _t_stock_old; check t_stock"},
	}
	for _, s := range steps {
		log.Reset()
		s.prepare()
		_, err := m.Up(ctx)
		var dirty *DirtyError
		if !errors.As(err, &dirty) || dirty.Version != 2 {
			t.Errorf("%s: up: %v, want version 2 dirty", s.name, err)
		}
		if !strings.Contains(log.String(), s.log) {
			t.Errorf("%s: log lacks %q:\n%s", s.name, s.log, dbtest.Redact(log.String()))
		}
		if left, err := oscTables(ctx, db.SQL, db.Name, "t_stock"); err != nil || len(left) == 0 {
			t.Errorf("%s: the tool's tables were dropped: %v (%v)", s.name, left, err)
		}
	}

	db.Exec(t, "DROP TABLE _t_stock_old")
	log.Reset()
	res, err := m.Up(ctx)
	if err != nil {
		t.Fatalf("up once only the copy is left: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if want := "t_stock is not altered and nothing of the file was applied; dropped what it left: table _t_stock_new; version 2 was dirty: recorded clean at 1"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, dbtest.Redact(log.String()))
	}
	if len(res.Applied) != 1 || state(t, db) != (State{Version: 2}) {
		t.Errorf("applied %v, version %s; want 000002 applied, 2 clean", res.Applied, state(t, db))
	}
}

// The up file of the dirty version and the down file of the next one both
// alter the table through pt-online-schema-change: guard's history tells
// that the down file ran (its version is still recorded applied), so the
// version goes back clean to the one it was undoing.
func TestOSCRecoveryOfADownFile(t *testing.T) {
	needPTOSC(t)
	db := dbtest.MySQL(t)
	osc := "-- " + OSCDirective + " " + OSCPTOnlineSchemaChange + "\n"
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql": stockTable,
		"000002_a.up.sql":      osc + "ALTER TABLE t_stock ADD COLUMN a INT NULL;",
		"000002_a.down.sql":    osc + "ALTER TABLE t_stock DROP COLUMN a;",
		"000003_b.up.sql":      osc + "ALTER TABLE t_stock ADD COLUMN b INT NULL;",
		"000003_b.down.sql":    osc + "ALTER TABLE t_stock DROP COLUMN b;",
	})
	ctx := context.Background()
	var log strings.Builder
	m := open(t, db, dir, Options{Log: &log})
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(dbtest.Redact(err.Error()))
	}
	// What a guard killed while the down file of 3 ran leaves.
	db.Exec(t, "UPDATE schema_migrations SET version = 2, dirty = 1", "CREATE TABLE _t_stock_new LIKE t_stock")
	log.Reset()
	if _, err := m.Up(ctx); err != nil {
		t.Fatalf("up: %s\n%s", dbtest.Redact(err.Error()), dbtest.Redact(log.String()))
	}
	if want := "000003_b.down.sql: guard migrate stopped while " + PTOSCBinary + " altered t_stock"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, dbtest.Redact(log.String()))
	}
	if want := "version 2 was dirty: recorded clean at 3"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, dbtest.Redact(log.String()))
	}
	if st := state(t, db); st != (State{Version: 3}) {
		t.Errorf("version %s, want 3 clean", st)
	}
}
