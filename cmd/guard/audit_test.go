package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestMain stops the throwaway servers of the package's tests.
func TestMain(m *testing.M) { dbtest.Main(m) }

// auditRun is one guard audit invocation and what it printed.
type auditRun struct {
	out, errOut string
	code        int
}

// guardAudit runs guard audit and fails t if the password shows in stdout or
// stderr.
func guardAudit(t *testing.T, password string, args ...string) auditRun {
	t.Helper()
	out, errOut, code := guard(t, append([]string{"audit"}, args...)...)
	if password == "" {
		t.Fatal("no password to look for")
	}
	for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if strings.Contains(s, password) {
			t.Errorf("guard audit %s: the password appears in %s:\n%s", dbtest.Redact(strings.Join(args, " ")), name, dbtest.Redact(s))
		}
	}
	return auditRun{out, errOut, code}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return "127.0.0.1:" + strconv.Itoa(port)
}

// TestAuditFleet audits three targets, one of them unreachable, in every
// format: the two others are reported, the failure is named, the exit code
// is 3, and no output holds the password.
func TestAuditFleet(t *testing.T) {
	a, b := dbtest.MySQL(t), dbtest.MySQL(t)
	a.Exec(t, `CREATE TABLE t_nopk (name VARCHAR(8)) ENGINE=InnoDB`)
	b.Exec(t, `CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (stock >= -10)) ENGINE=InnoDB`,
		`INSERT INTO t_stock VALUES (1, -2, 0), (2, 3, 0)`)
	down := closedPort(t)
	// The unreachable target is given in URL form with the same password,
	// percent-encoded where it needs to be.
	dsns := []string{a.DSN, "mysql://" + a.User + ":" + a.Password + "@" + down + "/" + a.Name, b.DSN}
	targetA, targetB, targetDown := a.Addr+"/"+a.Name, b.Addr+"/"+b.Name, down+"/"+a.Name
	var args []string
	for _, d := range dsns {
		args = append(args, "--dsn", d)
	}

	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			r := guardAudit(t, a.Password, append([]string{"--format", format, "--no-color", "--parallel", "3"}, args...)...)
			if r.code != exitRuntime {
				t.Errorf("exit = %d, want %d; stderr:\n%s", r.code, exitRuntime, dbtest.Redact(r.errOut))
			}
			wantErr := "guard: " + targetDown + ": connect: "
			if !strings.HasPrefix(r.errOut, wantErr) || strings.Count(r.errOut, "\n") != 1 {
				t.Errorf("stderr = %q, want one line starting %q", dbtest.Redact(r.errOut), wantErr)
			}
			for _, want := range []string{targetA, targetB, "GS009", "GS010"} {
				if !strings.Contains(r.out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, dbtest.Redact(r.out))
				}
			}
			switch format {
			case "json":
				checkJSONReport(t, r.out, targetA, targetB, targetDown)
			case "sarif":
				checkSARIFReport(t, r.out, targetDown)
			case "text":
				if !strings.Contains(r.out, targetB+": GS010 error: 1 row of t_stock already holds a negative stock: id=1 stock=-2") {
					t.Errorf("text report:\n%s", dbtest.Redact(r.out))
				}
				if !regexp.MustCompile(`\n\d+ errors?, \d+ warnings?, \d+ infos? on 2 targets \(0 statements, 2 tables\); 1 target not audited \(see stderr\)\n$`).MatchString(r.out) {
					t.Errorf("text report's summary does not count the targets audited and the one that failed:\n%s", dbtest.Redact(r.out))
				}
			}
		})
	}
}

// TestAuditEveryTargetFailed audits only an unreachable target: stdout does
// not claim "no findings" of a server nobody read, the exit code is 3.
func TestAuditEveryTargetFailed(t *testing.T) {
	t.Chdir(t.TempDir())
	r := guardAudit(t, "secret-pw", "--dsn", "u:secret-pw@tcp("+closedPort(t)+")/db")
	if r.code != exitRuntime || r.out != "nothing audited: 1 target failed (see stderr)\n" || !strings.Contains(r.errOut, "connect:") {
		t.Errorf("exit %d, want %d\nstdout: %q\nstderr: %s", r.code, exitRuntime, r.out, r.errOut)
	}
}

// checkJSONReport checks the keys of DESIGN §5 and the failures array.
func checkJSONReport(t *testing.T, out, targetA, targetB, targetDown string) {
	t.Helper()
	var doc struct {
		Tool     string `json:"tool"`
		Findings []struct {
			Code   string `json:"code"`
			Target string `json:"target"`
			File   string `json:"file"`
			Table  string `json:"table"`
		} `json:"findings"`
		Summary  map[string]int `json:"summary"`
		Failures []struct {
			Target string `json:"target"`
			Error  string `json:"error"`
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, dbtest.Redact(out))
	}
	var keys []string
	dec := json.NewDecoder(strings.NewReader(out))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if d := cmp.Diff([]string{"tool", "version", "findings", "summary", "failures"}, keys); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	type tf struct{ Target, Code, Table string }
	var got []tf
	for _, f := range doc.Findings {
		if f.File != "" {
			t.Errorf("%s: live finding with file %q", f.Code, f.File)
		}
		got = append(got, tf{f.Target, f.Code, f.Table})
	}
	// The CHECK of t_stock is no CHECK (stock >= 0): GS003 as well.
	want := []tf{{targetA, "GS009", "t_nopk"}, {targetB, "GS003", "t_stock"}, {targetB, "GS010", "t_stock"}}
	if targetB < targetA {
		want = append(want[1:], want[0])
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if doc.Summary["error"] != 3 || doc.Summary["tables"] != 2 {
		t.Errorf("summary = %v", doc.Summary)
	}
	if len(doc.Failures) != 1 || doc.Failures[0].Target != targetDown || !strings.Contains(doc.Failures[0].Error, "connect") {
		t.Errorf("failures = %+v", doc.Failures)
	}
}

// checkSARIFReport checks that the failure is a tool execution notification.
func checkSARIFReport(t *testing.T, out, targetDown string) {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results     []json.RawMessage `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("sarif: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("sarif shape: %s", dbtest.Redact(out))
	}
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) != 1 || inv.Notifications[0].Level != "error" ||
		!strings.HasPrefix(inv.Notifications[0].Message.Text, targetDown+": connect") {
		t.Errorf("invocation = %+v", inv)
	}
}

// TestAuditExitCodes covers a clean target, findings, --fail-on, --no-data,
// GUARD_DSN and --targets.
func TestAuditExitCodes(t *testing.T) {
	db := dbtest.MySQL(t)
	db.Exec(t, `CREATE TABLE t_account (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (balance >= -5)) ENGINE=InnoDB`)
	dir := t.TempDir()
	targets := filepath.Join(dir, "targets.txt")
	os.WriteFile(targets, []byte("# one shard\n"+db.DSN+"\n"), 0o600)

	r := guardAudit(t, db.Password, "--dsn", db.DSN)
	// balance has a CHECK, but not >= 0: GS003.
	if r.code != exitFindings || !strings.Contains(r.out, "GS003") {
		t.Errorf("findings: exit %d\n%s%s", r.code, dbtest.Redact(r.out), dbtest.Redact(r.errOut))
	}
	r = guardAudit(t, db.Password, "--fail-on", "never", "--targets", targets)
	if r.code != exitClean || !strings.Contains(r.out, "GS003") {
		t.Errorf("--fail-on never: exit %d\n%s", r.code, dbtest.Redact(r.out))
	}
	db.Exec(t, `ALTER TABLE t_account DROP CONSTRAINT IF EXISTS CONSTRAINT_1`, `ALTER TABLE t_account ADD CONSTRAINT chk_balance CHECK (balance >= 0)`)
	t.Setenv("GUARD_DSN", db.DSN)
	r = guardAudit(t, db.Password, "--no-data")
	if r.code != exitClean || strings.Contains(r.out, "GS0") {
		t.Errorf("clean: exit %d\n%s%s", r.code, dbtest.Redact(r.out), dbtest.Redact(r.errOut))
	}
	// A negative row: GS010 fires unless --no-data.
	db.Exec(t, `ALTER TABLE t_account DROP CONSTRAINT chk_balance`, `INSERT INTO t_account VALUES (1, -3, 0)`,
		`ALTER TABLE t_account ADD CONSTRAINT chk_balance CHECK (balance >= -5)`)
	r = guardAudit(t, db.Password, "--format", "json")
	if r.code != exitFindings || !strings.Contains(r.out, `"code": "GS010"`) {
		t.Errorf("GS010: exit %d\n%s", r.code, dbtest.Redact(r.out))
	}
	r = guardAudit(t, db.Password, "--format", "json", "--no-data")
	if strings.Contains(r.out, `"GS010"`) {
		t.Errorf("--no-data reported GS010:\n%s", dbtest.Redact(r.out))
	}
}

// TestAuditInputErrors covers exit 2: bad DSNs, files and flags, none of
// which may print the password.
func TestAuditInputErrors(t *testing.T) {
	const pw = "Sup3rS3cretPw"
	dir := t.TempDir()
	bad := filepath.Join(dir, "targets.txt")
	os.WriteFile(bad, []byte("# shards\nu:"+pw+"@tcp(h:1)/db\nu:"+pw+"@tcp(h:2)/\n"), 0o600)
	t.Setenv("GUARD_DSN", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "no target"},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1)/"}, `--dsn #1: DSN: no database name after "/" (at offset 25)`},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1"}, `--dsn #1: DSN: "(" of the address is not closed`},
		{[]string{"--dsn", "mysql://u:" + pw + "@h:1"}, `DSN: no "/dbname" after the address`},
		{[]string{"--targets", bad}, bad + `:3: DSN: no database name after "/"`},
		{[]string{"--targets", filepath.Join(dir, "none.txt")}, "none.txt: no such file"},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1)/db", "--parallel", "0"}, "--parallel 0"},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1)/db", "--format", "xml"}, `--format "xml"`},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1)/db", "extra"}, "extra: no such file or directory"},
		{[]string{"--dsn", "u:" + pw + "@tcp(h:1)/db", "--timeout", "0s"}, "--timeout 0s"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := guardAudit(t, pw, tt.args...)
			if r.code != exitInput || !strings.Contains(r.errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.errOut, tt.want)
			}
		})
	}
}

// TestAuditInfersFromCode audits a server holding the inference fixture's
// schema with and without its code: with the code the schema findings are
// those guard lint reports on the same project (inferred counters, states,
// flags and owned keys included); without it the policy alone decides.
func TestAuditInfersFromCode(t *testing.T) {
	t.Chdir("../..")
	dir := filepath.Join("lint", "rules", "testdata", "infer")
	files, err := filepath.Glob(filepath.Join(dir, "migrations", "*.up.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations in %s: %v", dir, err)
	}
	db := dbtest.MySQL(t)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		db.Exec(t, string(b))
	}
	schemaFindings := func(out []byte) []string {
		var doc struct {
			Findings []struct {
				Code   string `json:"code"`
				Table  string `json:"table"`
				Column string `json:"column_name"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		var got []string
		for _, f := range doc.Findings {
			switch f.Code {
			case "GS003", "GS004", "GS005", "GS006":
				got = append(got, f.Code+" "+f.Table+" "+f.Column)
			}
		}
		sort.Strings(got)
		return got
	}
	lintOut, _, _ := guard(t, "lint", "--format", "json", "--fail-on", "never", dir)
	want := schemaFindings([]byte(lintOut))
	if !slices.Contains(want, "GS003 t_sku stock_num") {
		t.Fatalf("lint does not infer t_sku.stock_num a counter: %v", want)
	}
	with := guardAudit(t, db.Password, "--dsn", db.DSN, "--no-data", "--format", "json", "--fail-on", "never", dir)
	if with.code != 0 {
		t.Fatalf("exit %d: %s", with.code, dbtest.Redact(with.errOut))
	}
	if d := cmp.Diff(want, schemaFindings([]byte(with.out))); d != "" {
		t.Errorf("audit with the code vs lint (-lint +audit):\n%s", d)
	}
	without := guardAudit(t, db.Password, "--dsn", db.DSN, "--no-data", "--format", "json", "--fail-on", "never")
	if got := schemaFindings([]byte(without.out)); slices.Contains(got, "GS003 t_sku stock_num") {
		t.Errorf("without the code, stock_num is not a counter by any pattern; got %v", got)
	}
}
