package plan

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// vitessSchema lacks every kind of guard a Vitess step can add.
const vitessSchema = `
CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NULL, status VARCHAR(16) NOT NULL);
CREATE TABLE t_order (id BIGINT PRIMARY KEY, order_no VARCHAR(64) NOT NULL);
`

func vitessSteps(t *testing.T, opts Options) []Step {
	t.Helper()
	return Plan(schemaOf(t, vitessSchema), nil, schema.ParseServer(mysql8), opts)
}

// TestForVitess: the ALTERs lose their ALGORITHM and LOCK clauses (Vitess
// builds a shadow table its own way), block no writes, and say what Vitess
// does; the sql_mode step is set apart and a trigger refused.
func TestForVitess(t *testing.T) {
	mode := "NO_ENGINE_SUBSTITUTION"
	steps, server, err := ForVitess(vitessSteps(t, Options{GlobalSQLMode: &mode}))
	if err != nil {
		t.Fatal(err)
	}
	var ups []string
	for _, st := range steps {
		ups = append(ups, st.Up)
		if st.Algorithm != AlgorithmVitess || st.BlocksWrites || st.OSC != "" {
			t.Errorf("%s: algorithm %q, blocks writes %v, osc %q", st.Name, st.Algorithm, st.BlocksWrites, st.OSC)
		}
		if strings.Contains(st.Down, "ALGORITHM") {
			t.Errorf("%s: down %q keeps its ALGORITHM", st.Name, st.Down)
		}
		for _, stale := range []string{"writes wait", "in place", "quiet window"} {
			if strings.Contains(st.Note, stale) {
				t.Errorf("%s: note %q says %q, which Vitess does not", st.Name, st.Note, stale)
			}
		}
		if !strings.HasPrefix(st.Note, "Vitess copies the table into a shadow table while writes continue") {
			t.Errorf("%s: note %q", st.Name, st.Note)
		}
	}
	want := []string{
		"ALTER TABLE `t_inventory` MODIFY `inventory` INT NOT NULL DEFAULT 0",
		"ALTER TABLE `t_inventory` ADD COLUMN `version` BIGINT UNSIGNED NOT NULL DEFAULT 0",
		"ALTER TABLE `t_inventory` ADD CONSTRAINT `chk_t_inventory_inventory_nonneg` CHECK (`inventory` >= 0)",
		"ALTER TABLE `t_order` ADD UNIQUE INDEX `uk_t_order_order_no` (`order_no`)",
	}
	if d := cmp.Diff(want, ups); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}
	if !strings.Contains(steps[0].Note, "fails if a row holds NULL: set those first") {
		t.Errorf("not-null note %q lost what makes it fail", steps[0].Note)
	}
	if len(server) != 1 || server[0].Guard != GuardSQLMode {
		t.Errorf("server steps = %+v, want the sql_mode step", server)
	}

	_, _, err = ForVitess(vitessSteps(t, Options{Strategy: StrategyTrigger}))
	if !errors.Is(err, ErrVitessTrigger) {
		t.Errorf("triggers: error = %v, want ErrVitessTrigger", err)
	}
}

// TestVitessFiles: one .sql file per step, in the plan's order, each its
// one statement; the script, executable, submits them in that order. The
// whole output is a golden of cmd/guard (TestPlanVitess).
func TestVitessFiles(t *testing.T) {
	steps, _, err := ForVitess(vitessSteps(t, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	files := VitessFiles(steps, 1, "customer")
	var names []string
	script := string(files[len(files)-1].Data)
	last := 0
	for i, f := range files[:len(files)-1] {
		names = append(names, f.Name)
		if !strings.HasSuffix(string(f.Data), "\n"+steps[i].Up+";\n") || strings.Count(string(f.Data), ";\n") != 1 {
			t.Errorf("%s:\n%s\nwant it to end in its one statement %s", f.Name, f.Data, steps[i].Up)
		}
		line := `ApplySchema --ddl-strategy "vitess" --sql-file ` + f.Name + ` "$KEYSPACE")`
		at := strings.Index(script, line)
		if at < last {
			t.Errorf("the script does not submit %s after the steps before it:\n%s", f.Name, script)
		}
		last = at
	}
	names = append(names, files[len(files)-1].Name)
	if !strings.Contains(script, `KEYSPACE="${KEYSPACE:-customer}"`) {
		t.Errorf("the script does not default to keyspace customer:\n%s", script)
	}
	want := []string{
		"000001_guard_t_inventory_inventory_not_null.sql",
		"000002_guard_t_inventory_add_version.sql",
		"000003_guard_t_inventory_inventory_nonneg.sql",
		"000004_guard_t_order_order_no_unique.sql",
		"apply_000001.sh",
	}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	if files[len(files)-1].Mode != 0o755 {
		t.Errorf("script mode = %v, want 0755", files[len(files)-1].Mode)
	}
}

// fakeVtctldclient answers as vtctldclient does, from what the Vitess
// documentation shows of ApplySchema (one UUID a line) and OnlineDDL show
// (a table, one row per shard): each migration runs on two shards and is
// complete at once, unless its file is named in $FAIL.
const fakeVtctldclient = `#!/bin/sh
[ "$1" = --server ] || { echo "no --server" >&2; exit 2; }
shift 2
case "$1" in
ApplySchema)
	[ "$2" = --ddl-strategy ] && [ "$3" = vitess ] && [ "$4" = --sql-file ] || { echo "bad ApplySchema: $*" >&2; exit 2; }
	[ -f "$5" ] || { echo "no file $5" >&2; exit 2; }
	n=$(( $(wc -l < "$LOG") + 1 ))
	echo "apply $5 $6" >> "$LOG"
	uuid="0000000${n}_aaaa_11ee_808b_0a43f95f28a3"
	echo "$uuid $5" >> "$LOG.uuids"
	echo "$uuid"
	;;
OnlineDDL)
	[ "$2" = show ] || exit 2
	echo "| migration_uuid | keyspace | shard | status |"
	while read -r uuid file; do
		status=complete
		case " $FAIL " in *" $file "*) status=failed ;; esac
		for shard in -80 80-; do
			if [ "$4" = "$uuid" ] || [ "$4" = "$status" ]; then
				echo "| $uuid | $3 | $shard | $status |"
			fi
		done
	done < "$LOG.uuids"
	;;
*)
	exit 2
	;;
esac
`

// TestVitessScript runs the script with a vtctldclient that answers as the
// real one does: the steps are submitted in order, each after the one
// before completed on every shard, and a failed step stops the rest.
func TestVitessScript(t *testing.T) {
	steps, _, err := ForVitess(vitessSteps(t, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, fail string, env ...string) (string, []string, error) {
		dir, bin := t.TempDir(), t.TempDir()
		if _, err := WriteFilesAt(dir, VitessFiles(steps, 1, "customer")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, "vtctldclient"), []byte(fakeVtctldclient), 0o755); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(bin, "log")
		os.WriteFile(log, nil, 0o644)
		os.WriteFile(log+".uuids", nil, 0o644)
		cmd := exec.Command("sh", filepath.Join(dir, "apply_000001.sh"))
		cmd.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "LOG=" + log, "FAIL=" + fail, "POLL=0"}, env...)
		out, err := cmd.CombinedOutput()
		b, _ := os.ReadFile(log)
		return string(out), strings.Split(strings.TrimSpace(string(b)), "\n"), err
	}

	out, applied, err := run(t, "", "VTCTLD=vtctld:15999")
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want := []string{
		"apply 000001_guard_t_inventory_inventory_not_null.sql customer",
		"apply 000002_guard_t_inventory_add_version.sql customer",
		"apply 000003_guard_t_inventory_inventory_nonneg.sql customer",
		"apply 000004_guard_t_order_order_no_unique.sql customer",
	}
	if d := cmp.Diff(want, applied); d != "" {
		t.Errorf("submitted (-want +got):\n%s", d)
	}
	if !strings.Contains(out, "guard: 000004_guard_t_order_order_no_unique.sql: migration 00000004_aaaa_11ee_808b_0a43f95f28a3 complete on every shard") {
		t.Errorf("output:\n%s", out)
	}

	out, applied, err = run(t, "000003_guard_t_inventory_inventory_nonneg.sql", "VTCTLD=vtctld:15999", "KEYSPACE=other")
	if err == nil || len(applied) != 3 || !strings.HasSuffix(applied[2], " other") ||
		!strings.Contains(out, "000003_guard_t_inventory_inventory_nonneg.sql: migration 00000003_aaaa_11ee_808b_0a43f95f28a3 is failed") {
		t.Errorf("a failed step: error %v, submitted %q, output:\n%s", err, applied, out)
	}

	out, applied, err = run(t, "")
	if err == nil || applied[0] != "" || !strings.Contains(out, "set VTCTLD to the vtctld gRPC address") {
		t.Errorf("without VTCTLD: error %v, submitted %q, output:\n%s", err, applied, out)
	}
}

func TestUnwrittenVitess(t *testing.T) {
	steps, _, err := ForVitess(vitessSteps(t, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if n, err := NextVitessNumber(filepath.Join(dir, "absent")); err != nil || n != 1 {
		t.Errorf("NextVitessNumber of no folder = %d, %v; want 1", n, err)
	}
	if _, err := WriteFilesAt(dir, VitessFiles(steps[:2], 7, "")); err != nil {
		t.Fatal(err)
	}
	left, err := UnwrittenVitess(steps, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 2 || left[0].Name != steps[2].Name {
		t.Errorf("unwritten = %v, want the last two steps", left)
	}
	if n, err := NextVitessNumber(dir); err != nil || n != 9 {
		t.Errorf("NextVitessNumber = %d, %v; want 9", n, err)
	}
}

// TestPlanSharded: with the sharding guard lint --vschema judges by, a key
// a unique lookup vindex backs gets no UNIQUE step (lint reports none), and
// one on a table sharded by another column gets its step with a note that
// it holds per shard only.
func TestPlanSharded(t *testing.T) {
	uniques := func(sh *lint.Sharding) []Step {
		var out []Step
		for _, st := range vitessSteps(t, Options{Sharding: sh}) {
			if st.Guard == GuardUnique {
				out = append(out, st)
			}
		}
		return out
	}
	byUser := lint.Vindex{Name: "hash", Type: "hash", Columns: []string{"user_id"}}
	got := uniques(&lint.Sharding{Tables: map[string]*lint.ShardedTable{"t_order": {Name: "t_order", Primary: byUser}}})
	if len(got) != 1 || !strings.HasSuffix(got[0].Note, "; t_order is sharded by (user_id): the index holds per shard only, and GS005 says how to make the key unique across the keyspace") {
		t.Errorf("sharded by user_id: unique steps %+v", got)
	}
	lookup := lint.Vindex{Name: "order_no_lookup", Type: "consistent_lookup_unique", Columns: []string{"order_no"}}
	if got := uniques(&lint.Sharding{Tables: map[string]*lint.ShardedTable{"t_order": {Name: "t_order", Primary: byUser, Lookups: []lint.Vindex{lookup}}}}); len(got) != 0 {
		t.Errorf("a lookup vindex backs order_no: unique steps %+v, want none", got)
	}
	if got := uniques(nil); len(got) != 1 || strings.Contains(got[0].Note, "shard") {
		t.Errorf("unsharded: unique steps %+v", got)
	}
}
