package migrator

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/dbtest"
)

func fleetTargets(t *testing.T, dbs ...*dbtest.DB) []FleetTarget {
	t.Helper()
	var out []FleetTarget
	for _, db := range dbs {
		cfg, err := mysql.ParseDSN(db.DSN)
		if err != nil {
			t.Fatal(dbtest.Redact(err.Error()))
		}
		out = append(out, FleetTarget{Name: db.Name, Config: cfg})
	}
	return out
}

// A target failing while another is running stops the running one after
// its current migration, at a clean version.
func TestRunFleetStopsRunningTargets(t *testing.T) {
	dir := writeDir(t, map[string]string{
		// A second on the good target; at once an error on the bad one,
		// which has the table already.
		"1_create.up.sql": "CREATE TABLE t_x (id INT) SELECT SLEEP(1) AS s;",
		"2_more.up.sql":   "CREATE TABLE t_y (id INT PRIMARY KEY);",
	})
	bad, good := dbtest.MySQL(t), dbtest.MySQL(t)
	bad.Exec(t, "CREATE TABLE t_x (id INT PRIMARY KEY)")
	var log bytes.Buffer
	var mu sync.Mutex
	res := RunFleet(context.Background(), fleetTargets(t, bad, good), UpOp(), FleetOptions{
		Options: Options{Dir: dir}, Parallel: 2, Log: &lockedWriter{w: &log, mu: &mu},
	})
	var got []string
	for _, r := range res {
		got = append(got, r.Outcome+" "+r.To.String())
	}
	// The good target is stopped after the migration it was running (1),
	// or before its first when the failure came first on a loaded machine;
	// never dirty, never past it.
	want := []string{"dirty 1 (dirty)", "stopped 1"}
	if len(got) == 2 && got[1] == "stopped none" {
		want[1] = "stopped none"
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st := state(t, good); st.Dirty || st.Version > 1 {
		t.Errorf("good target at %s, want clean at 1 or before", st)
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(log.String(), "\n"), "\n") {
		if line != "" && !strings.HasPrefix(line, bad.Name+": ") && !strings.HasPrefix(line, good.Name+": ") {
			t.Errorf("log line without its target: %q", line)
		}
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func TestPrefixWriterWholeLines(t *testing.T) {
	var b bytes.Buffer
	var mu sync.Mutex
	p := &prefixWriter{w: &b, mu: &mu, prefix: "db1: "}
	for _, s := range []string{"appl", "ied x\nverif", "ied y\n"} {
		p.Write([]byte(s))
	}
	if d := cmp.Diff("db1: applied x\ndb1: verified y\n", b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
