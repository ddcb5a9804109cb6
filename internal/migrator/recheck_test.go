package migrator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// TestRecheckStopsAtACleanVersion: the rows an earlier step of the run
// inserts are checked right before the step that adds the CHECK; the run
// stops there, the earlier steps applied and the version clean.
func TestRecheckStopsAtACleanVersion(t *testing.T) {
	db := dbtest.MySQL(t)
	dir := writeDir(t, map[string]string{
		"000001_create.up.sql": "CREATE TABLE t_r (id INT PRIMARY KEY, qty INT NOT NULL, sku VARCHAR(8) NOT NULL);",
		"000002_seed.up.sql":   "INSERT INTO t_r VALUES (1, 3, 'a'), (2, -4, 'a');",
		"000003_uk.up.sql":     "ALTER TABLE t_r ADD UNIQUE INDEX uk_t_r_sku (sku), ALGORITHM=INPLACE, LOCK=NONE;",
		"000004_check.up.sql":  "ALTER TABLE t_r ADD CONSTRAINT chk_t_r_qty CHECK (qty >= 0);",
	})
	m := open(t, db, dir, Options{})
	res, err := m.Up(context.Background())
	var step *StepRefusedError
	if !errors.As(err, &step) || !strings.HasSuffix(step.Step.File, "000003_uk.up.sql") {
		t.Fatalf("up: err = %v, want the UNIQUE step refused", err)
	}
	if !errors.As(err, new(*RefusedError)) {
		t.Errorf("a step refusal is not a RefusedError: %v", err)
	}
	if got := state(t, db); got != (State{Version: 2}) {
		t.Errorf("state = %v, want 2 clean", got)
	}
	if res.To != (State{Version: 2}) || len(res.Applied) != 2 {
		t.Errorf("result: to %v after %d steps, want 2 after 2", res.To, len(res.Applied))
	}
	// Every verdict of the run, the re-checked one in its place.
	var got []string
	for _, p := range res.Preflight {
		got = append(got, p.Status+" "+p.Guard.Name)
	}
	if want := "fail uk_t_r_sku,skipped chk_t_r_qty"; strings.Join(got, ",") != want {
		t.Errorf("preflight = %v, want %s", got, want)
	}
}
