package migrator

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/schema"
)

// lookPath finds a program; tests replace it.
var lookPath = exec.LookPath

// OSCError is a pt-online-schema-change run that failed. When Clean, the
// tool aborted and cleaned up after itself: the original table is intact,
// nothing of its copy is left, and the version is clean at the one before
// the step. Otherwise Leftovers says what it left and the version is dirty.
type OSCError struct {
	File  string
	Table string
	// Summary is the gist of the tool's output: its error.
	Summary   string
	ExitCode  int
	Clean     bool
	Leftovers []string
}

// Error says what failed and what it left.
func (e *OSCError) Error() string {
	msg := fmt.Sprintf("%s: %s failed (exit %d): %s", e.File, PTOSCBinary, e.ExitCode, e.Summary)
	if e.Clean {
		return msg + fmt.Sprintf("; it cleaned up: %s is intact and not altered, nothing was applied", e.Table)
	}
	return msg + "; it left " + strings.Join(e.Leftovers, ", ")
}

// runOSC runs a step through pt-online-schema-change instead of
// golang-migrate. The version is marked dirty while the tool runs, as
// golang-migrate marks it before running a file (a crash of guard mid-way
// is then seen), recorded clean at the step's version only when the tool
// succeeded, and put back clean at the version before the step when the
// tool aborted and left the table as it was.
func (m *Migrator) runOSC(ctx context.Context, conn *sql.Conn, step Step, p *oscPlan) error {
	ot, err := oscRefusal(ctx, m.db, m.server, m.database, p.Table)
	switch {
	case err != nil:
		return fmt.Errorf("%s: check %s for %s: %w", step.File, p.Table, PTOSCBinary, err)
	case !ot.Exists:
		ot.Reasons = []string{"the table does not exist"}
	}
	if len(ot.Reasons) > 0 {
		return &OSCRefusedError{File: step.File, Table: p.Table, Reasons: ot.Reasons}
	}
	p.PreserveTriggers, p.Checks = ot.Triggers, ot.Checks
	before, after := previous(m.migrations, int(step.Version)), int(step.Version)
	if !step.Up {
		before, after = after, before
	}
	if err := setVersion(ctx, conn, after, true); err != nil {
		return err
	}
	start := time.Now()
	out, code, runErr := m.execPTOSC(ctx, p)
	bg := context.WithoutCancel(ctx)
	if runErr == nil {
		m.logf("%s: %s: %s (%s)\n", displayFile(step.File), PTOSCBinary, oscSuccess(out), time.Since(start).Round(time.Millisecond))
		return setVersion(bg, conn, after, false)
	}
	e := &OSCError{File: step.File, Table: p.Table, Summary: oscFailure(out, runErr), ExitCode: code}
	if ctx.Err() != nil {
		e.Summary = "interrupted: " + e.Summary
	}
	if bytes.Contains(out, []byte("was not altered.")) {
		// Interrupted, the tool leaves its triggers and its copy behind
		// (and says so): with the original table not altered, they are
		// only in the way, and the triggers slow every write.
		m.cleanOSC(bg, p.Table)
	}
	if e.Leftovers, err = oscLeftovers(bg, m.db, m.database, p.Table); err != nil {
		e.Leftovers = []string{"an unknown state (" + err.Error() + ")"}
	}
	if len(e.Leftovers) > 0 {
		return e
	}
	e.Clean = true
	if err := setVersion(bg, conn, before, false); err != nil {
		return errors.Join(e, err)
	}
	return e
}

// oscFile is a file handed to the tool (see handOver).
type oscFile struct {
	name string
	body []byte
}

// oscLockName is the named lock every connection of a run of the tool on
// table holds while it lives (the option file's init-command takes it):
// a lock held tells a run of the tool alive, whatever became of the guard
// that started it.
func oscLockName(database, table string) string {
	return schema.GuardName("guard_osc", database, table)
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

// optionFile is the tool's option file: the account, and the lock of its
// run on table.
func (m *Migrator) optionFile(table string) []byte {
	lock := "DO GET_LOCK(" + sqlString(oscLockName(m.database, table)) + ", 0)"
	return []byte("[client]\nuser=" + optionValue(m.cfg.User) + "\npassword=" + optionValue(m.cfg.Passwd) +
		"\ninit-command=" + optionValue(lock) + "\n")
}

// execPTOSC runs the tool on the plan's table with the migration
// connection's account. The password goes in an option file that never is
// on the command line, nor, on Linux, on any disk (see handOver); the
// tool dies with guard (see dieWithGuard).
func (m *Migrator) execPTOSC(ctx context.Context, p *oscPlan) ([]byte, int, error) {
	bin, err := lookPath(PTOSCBinary)
	if err != nil {
		return nil, -1, ErrNoOSCTool
	}
	dsn, err := ptDSN(m.cfg, p.Table)
	if err != nil {
		return nil, -1, err
	}
	cmd := exec.CommandContext(ctx, bin)
	files := []oscFile{{name: "client.cnf", body: m.optionFile(p.Table)}}
	if len(p.Checks) > 0 {
		files = append(files, oscFile{name: "check-names.pl", body: checkNamesPlugin(checkRestore(p.Checks))})
	}
	paths, done, err := handOver(cmd, files)
	if err != nil {
		return nil, -1, err
	}
	defer done()
	args := []string{"--defaults-file=" + paths[0], "--alter", p.Alter, "--execute", "--statistics", "--charset=utf8mb4"}
	if len(paths) > 1 {
		args = append(args, "--plugin="+paths[1])
	}
	if p.PreserveTriggers {
		// The table's own triggers are copied to the new table and keep
		// firing; without the option the tool refuses the table.
		args = append(args, "--preserve-triggers")
	}
	if secs := m.ddlLockTimeout(); secs > 0 {
		// Its triggers and the swap of the tables wait for the table's
		// metadata lock no longer than guard's own statements do; it
		// retries them.
		args = append(args, fmt.Sprintf("--set-vars=lock_wait_timeout=%d", secs))
	}
	args = append(args, dsn)
	cmd.Args = append(cmd.Args, args...)
	preserve := ""
	if p.PreserveTriggers {
		preserve = " --preserve-triggers"
	}
	m.logf("%s: running %s --alter %s --execute%s on %s\n", displayFile(p.File), PTOSCBinary, shellWord(p.Alter), preserve, p.Table)
	// An interrupt reaches the tool as one, and it cleans up after itself.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// PTDEBUG would make the tool dump its connection settings: off,
	// whatever the environment says (the last value wins).
	cmd.Env = append(os.Environ(), "PTDEBUG=")
	dieWithGuard(cmd)
	// The thread that starts the tool must live as long as the tool: the
	// kernel signals the child when that thread ends, and the Go runtime
	// may end a thread while the process lives on.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Run()
	code := 0
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		code = xe.ExitCode()
	}
	return out.Bytes(), code, err
}

// ptDSN is the tool's DSN of the table: h=,P= (or S=), D=, t=.
func ptDSN(cfg *mysql.Config, table string) (string, error) {
	var parts []string
	switch cfg.Net {
	case "unix":
		parts = append(parts, "S="+cfg.Addr)
	default:
		host, port, err := net.SplitHostPort(cfg.Addr)
		if err != nil {
			host, port = cfg.Addr, "3306"
		}
		parts = append(parts, "h="+host, "P="+port)
	}
	parts = append(parts, "D="+cfg.DBName, "t="+table)
	for _, p := range parts {
		if strings.ContainsAny(p[2:], ",=") {
			return "", fmt.Errorf("%s cannot name %q in its DSN (a comma or =)", PTOSCBinary, p[2:])
		}
	}
	if cfg.TLSConfig != "" && cfg.TLSConfig != "false" {
		parts = append(parts, "s=1")
	}
	return strings.Join(parts, ","), nil
}

// optionValue quotes v for a MySQL option file.
func optionValue(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return `"` + r.Replace(v) + `"`
}

// shellWord quotes s for display as one shell word.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var (
	copyingRE = regexp.MustCompile(`Copying approximately (\d+) rows`)
	chunksRE  = regexp.MustCompile(`(?m)^# INSERT\s+(\d+)`)
	stampRE   = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\s+`)
)

// oscSuccess summarises the output of a run that succeeded.
func oscSuccess(out []byte) string {
	parts := []string{"altered"}
	if m := copyingRE.FindSubmatch(out); m != nil {
		parts = append(parts, "copied about "+string(m[1])+" rows")
	}
	if m := chunksRE.FindSubmatch(out); m != nil {
		parts = append(parts, "in "+string(m[1])+" chunk(s)")
	}
	if bytes.Contains(out, []byte("Swapped original and new tables OK")) {
		parts = append(parts, "swapped the tables")
	}
	if bytes.Contains(out, []byte(checkNamesKept)) {
		parts = append(parts, "kept the names of the CHECK constraints")
	}
	return strings.Join(parts, ", ")
}

// oscFailure summarises the output of a run that failed: its first error
// line and the server's message when it quotes one.
func oscFailure(out []byte, err error) string {
	var first, message string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(stampRE.ReplaceAllString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "(in cleanup)")), ""))
		switch {
		case first == "" && (strings.Contains(l, "Error") || strings.Contains(l, "error") || strings.HasPrefix(l, "Cannot") || strings.Contains(l, "but --")):
			first = l
		case message == "" && strings.HasPrefix(l, "Message:"):
			message = strings.TrimSpace(strings.TrimPrefix(l, "Message:"))
		}
	}
	switch {
	case first == "" && message == "":
		if s := strings.TrimSpace(string(out)); s != "" {
			lines := strings.Split(s, "\n")
			return strings.TrimSpace(lines[len(lines)-1])
		}
		return err.Error()
	case message != "":
		return strings.TrimSuffix(first, ":") + ": " + message
	}
	return first
}

// ptOSCTable is the name the tool gives a table of its own beside table:
// prefix, the table's name and suffix, cut to 64 characters.
func ptOSCTable(prefix, table, suffix string) string {
	name := prefix + table + suffix
	if r := []rune(name); len(r) > schema.MaxIdentLen {
		name = string(r[:schema.MaxIdentLen])
	}
	return name
}

// oscCopies are the names of the tool's copy of table (the second when
// the first is taken), oscOlds those of the original after the swap.
func oscCopies(table string) []string {
	return []string{ptOSCTable("_", table, "_new"), ptOSCTable("__", table, "_new")}
}

func oscOlds(table string) []string {
	return []string{ptOSCTable("_", table, "_old"), ptOSCTable("__", table, "_old")}
}

// oscTables lists the tables of the tool's names beside table that exist:
// its copies, then the original tables it swapped out.
func oscTables(ctx context.Context, db *sql.DB, database, table string) ([]string, error) {
	names := append(oscCopies(table), oscOlds(table)...)
	found, err := strings1(ctx, db, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?, ?, ?)",
		database, names[0], names[1], names[2], names[3])
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		for _, f := range found {
			if f == n {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// oscTriggers lists the tool's triggers on table.
func oscTriggers(ctx context.Context, db *sql.DB, database, table string) ([]string, error) {
	return strings1(ctx, db, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? AND TRIGGER_NAME LIKE 'pt\\_osc\\_%' ORDER BY TRIGGER_NAME", database, table)
}

// dropOSCCopy drops the triggers and the copy the tool left on table when
// it stopped before the swap (the triggers first: they write into the
// copy), and returns what it dropped.
func (m *Migrator) dropOSCCopy(ctx context.Context, table string) ([]string, error) {
	trig, err := oscTriggers(ctx, m.db, m.database, table)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, t := range trig {
		if _, err := m.db.ExecContext(ctx, "DROP TRIGGER IF EXISTS "+quote(t)); err != nil {
			return dropped, fmt.Errorf("drop trigger %s: %w", t, err)
		}
		dropped = append(dropped, "trigger "+t)
	}
	copies, err := strings1(ctx, m.db, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?)",
		m.database, oscCopies(table)[0], oscCopies(table)[1])
	if err != nil {
		return dropped, err
	}
	for _, t := range copies {
		if _, err := m.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+quote(t)); err != nil {
			return dropped, fmt.Errorf("drop table %s: %w", t, err)
		}
		dropped = append(dropped, "table "+t)
	}
	return dropped, nil
}

// cleanOSC drops what the tool left on table when it stopped before
// altering it, and says so.
func (m *Migrator) cleanOSC(ctx context.Context, table string) {
	dropped, _ := m.dropOSCCopy(ctx, table)
	if len(dropped) > 0 {
		m.logf("%s stopped before altering %s: dropped what it left: %s\n", PTOSCBinary, table, strings.Join(dropped, ", "))
	}
}

// oscLeftovers lists what a failed run left: the tool's copy of the table,
// the original it swapped out, its triggers, a missing original.
func oscLeftovers(ctx context.Context, db *sql.DB, database, table string) ([]string, error) {
	var out []string
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", database, table).Scan(&n); err != nil {
		return nil, err
	}
	tables, err := oscTables(ctx, db, database, table)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		out = append(out, "table "+t)
	}
	if n == 0 {
		out = append(out, "no table "+table+" (the swap did not complete)")
	}
	trig, err := oscTriggers(ctx, db, database, table)
	if err != nil {
		return nil, err
	}
	for _, t := range trig {
		out = append(out, "trigger "+t)
	}
	return out, nil
}

// setVersion records the version as golang-migrate's mysql driver does: the
// one row of its table, none for -1 clean.
func setVersion(ctx context.Context, conn *sql.Conn, v int, dirty bool) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record version %s: %w", State{Version: v, Dirty: dirty}, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM "+quote(MigrationsTable)); err != nil {
		return fmt.Errorf("record version %s: %w", State{Version: v, Dirty: dirty}, err)
	}
	if v >= 0 || dirty {
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+quote(MigrationsTable)+" (version, dirty) VALUES (?, ?)", v, dirty); err != nil {
			return fmt.Errorf("record version %s: %w", State{Version: v, Dirty: dirty}, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record version %s: %w", State{Version: v, Dirty: dirty}, err)
	}
	return nil
}
