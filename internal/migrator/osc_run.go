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
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
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
	reasons, triggers, exists, err := oscRefusal(ctx, m.db, m.server, m.database, p.Table)
	switch {
	case err != nil:
		return fmt.Errorf("%s: check %s for %s: %w", step.File, p.Table, PTOSCBinary, err)
	case !exists:
		reasons = []string{"the table does not exist"}
	}
	if len(reasons) > 0 {
		return &OSCRefusedError{File: step.File, Table: p.Table, Reasons: reasons}
	}
	p.PreserveTriggers = triggers
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

// execPTOSC runs the tool on the plan's table with the migration
// connection's account. The password goes in an option file of a private
// temporary directory, never on the command line.
func (m *Migrator) execPTOSC(ctx context.Context, p *oscPlan) ([]byte, int, error) {
	bin, err := lookPath(PTOSCBinary)
	if err != nil {
		return nil, -1, ErrNoOSCTool
	}
	dir, err := os.MkdirTemp("", "guard-osc-")
	if err != nil {
		return nil, -1, err
	}
	defer os.RemoveAll(dir)
	defaults := filepath.Join(dir, "client.cnf")
	cnf := "[client]\nuser=" + optionValue(m.cfg.User) + "\npassword=" + optionValue(m.cfg.Passwd) + "\n"
	if err := os.WriteFile(defaults, []byte(cnf), 0o600); err != nil {
		return nil, -1, err
	}
	dsn, err := ptDSN(m.cfg, p.Table)
	if err != nil {
		return nil, -1, err
	}
	args := []string{"--defaults-file=" + defaults, "--alter", p.Alter, "--execute", "--statistics", "--charset=utf8mb4"}
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
	preserve := ""
	if p.PreserveTriggers {
		preserve = " --preserve-triggers"
	}
	m.logf("%s: running %s --alter %s --execute%s on %s\n", displayFile(p.File), PTOSCBinary, shellWord(p.Alter), preserve, p.Table)
	cmd := exec.CommandContext(ctx, bin, args...)
	// An interrupt reaches the tool as one, and it cleans up after itself.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// PTDEBUG would make the tool dump its connection settings: off,
	// whatever the environment says (the last value wins).
	cmd.Env = append(os.Environ(), "PTDEBUG=")
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

// cleanOSC drops the triggers and the copy that the tool left on table
// when it stopped before the swap; the triggers go first, since they write
// into the copy.
func (m *Migrator) cleanOSC(ctx context.Context, table string) {
	trig, err := strings1(ctx, m.db, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? AND TRIGGER_NAME LIKE 'pt\\_osc\\_%'", m.database, table)
	if err != nil {
		return
	}
	var dropped []string
	for _, t := range trig {
		if _, err := m.db.ExecContext(ctx, "DROP TRIGGER IF EXISTS "+quote(t)); err == nil {
			dropped = append(dropped, "trigger "+t)
		}
	}
	copies, err := strings1(ctx, m.db, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?)",
		m.database, "_"+table+"_new", "__"+table+"_new")
	if err != nil {
		return
	}
	for _, t := range copies {
		if _, err := m.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+quote(t)); err == nil {
			dropped = append(dropped, "table "+t)
		}
	}
	if len(dropped) > 0 {
		m.logf("%s stopped before altering %s: dropped what it left: %s\n", PTOSCBinary, table, strings.Join(dropped, ", "))
	}
}

// oscLeftovers lists what a failed run left: the tool's copy of the table,
// its triggers, a missing original.
func oscLeftovers(ctx context.Context, db *sql.DB, database, table string) ([]string, error) {
	var out []string
	tables, err := strings1(ctx, db, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?, ?, ?, ?)",
		database, table, "_"+table+"_new", "__"+table+"_new", "_"+table+"_old", "__"+table+"_old")
	if err != nil {
		return nil, err
	}
	found := false
	for _, t := range tables {
		if t == table {
			found = true
			continue
		}
		out = append(out, "table "+t)
	}
	if !found {
		out = append(out, "no table "+table+" (the swap did not complete)")
	}
	trig, err := strings1(ctx, db, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? AND TRIGGER_NAME LIKE 'pt\\_osc\\_%'", database, table)
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
