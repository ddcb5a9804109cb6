package migrator

import (
	"context"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// recheck is the preflight of each step right before it runs. The preflight
// of a run reads the database as it is before the first step, so a guard
// whose rows an earlier step of the run changes (an INSERT, an UPDATE, a
// new column) is left "not checked" there; once the earlier steps have run,
// the database holds exactly what that guard will meet, and it is checked
// then. A refusal stops the run before the step, at a clean version.
type recheck struct {
	// first is the first step of the run, checked by the run's preflight
	// against the same database.
	first Step
	// res is the run's result: its Preflight verdicts are updated in place.
	res *Result
}

// StepRefusedError is returned when the preflight of a step, run after the
// earlier steps of the run were applied, finds rows that one of its
// constraints would reject. The step was not run; the earlier ones were, and
// the version is clean at the last of them.
type StepRefusedError struct {
	Step Step
	// Probes are the verdicts of the whole run, this step's included.
	Probes []Probe
}

// Error names the step not run and counts its guards that would fail.
func (e *StepRefusedError) Error() string {
	n := 0
	for _, p := range e.Probes {
		if p.Status == StatusFail && p.Guard.File == e.Step.File {
			n++
		}
	}
	return fmt.Sprintf("preflight before %s: %d constraint(s) would fail on the rows the earlier migrations of this run left; it was not run, and the version is clean",
		e.Step.File, n)
}

// Unwrap returns the refusal with every verdict of the run.
func (e *StepRefusedError) Unwrap() error { return &RefusedError{Probes: e.Probes} }

// recheckNote ends the note of a guard left not checked by the run's
// preflight that its step's own preflight will look at again.
const recheckNote = "; checked again right before its migration runs"

// noteRechecks marks the verdicts of the run's preflight that recheckStep
// will revisit: those left not checked in a file after the first step for
// a reason that lies in an earlier file, which the preflight of their step,
// reading their file alone once the earlier steps ran, does not meet. A
// reason within the file itself (a column added by the statement before)
// stands then too: no promise is made.
func noteRechecks(database string, probes []Probe, steps []Step, stmts []Stmt) {
	if len(steps) == 0 {
		return
	}
	byFile := map[string][]Stmt{}
	for _, st := range stmts {
		byFile[st.File] = append(byFile[st.File], st)
	}
	alone := map[string][]planned{}
	for i := range probes {
		p := &probes[i]
		if p.Status != StatusSkipped || p.Guard.File == steps[0].File {
			continue
		}
		plan, ok := alone[p.Guard.File]
		if !ok {
			plan, _ = analyze(database, byFile[p.Guard.File])
			alone[p.Guard.File] = plan
		}
		for _, q := range plan {
			if sameGuard(q.guard, p.Guard) && q.skip == "" {
				p.Note += recheckNote
				break
			}
		}
	}
}

// recheckStep runs the preflight of step when an earlier step of the run
// has been applied and the run's preflight left some of its guards not
// checked. Guards already judged are not probed again: their rows were not
// changed by the run, or they would have been left unchecked.
func (m *Migrator) recheckStep(ctx context.Context, step Step) error {
	rc := m.recheck
	if rc == nil || step == rc.first || step.File == "" || !rc.unchecked(step.File) {
		return nil
	}
	b, err := readBody(step.File)
	if err != nil {
		return fmt.Errorf("read migration: %w", err)
	}
	stmts, _ := parseScript(sqlparse.NewParser(), step.File, string(b))
	plan, _ := analyze(m.database, stmts)
	live, _, err := schema.FromInformationSchema(ctx, m.db, m.database)
	if err != nil {
		return fmt.Errorf("preflight before %s: %w", step.File, err)
	}
	var probes []Probe
	for _, p := range plan {
		i := rc.find(p.guard)
		if i >= 0 && rc.res.Preflight[i].Status != StatusSkipped {
			continue
		}
		pr, err := probe(ctx, m.db, live, p)
		if err != nil {
			return fmt.Errorf("preflight %s:%d: %s: %w", p.guard.File, p.guard.Line, p.guard, err)
		}
		switch {
		case pr.Status == statusNotNarrower:
			// Not narrower after all: its "not checked" verdict goes.
			if i >= 0 {
				rc.res.Preflight = append(rc.res.Preflight[:i], rc.res.Preflight[i+1:]...)
			}
		case i >= 0 && pr.Status == StatusSkipped:
			// Still not checked (for a reason its own file holds): the
			// step's reason replaces the run's in the result, and the
			// verdict, printed once already, is not printed again.
			rc.res.Preflight[i] = pr
		case i >= 0:
			probes = append(probes, pr)
			rc.res.Preflight[i] = pr
		default:
			probes = append(probes, pr)
			rc.res.Preflight = append(rc.res.Preflight, pr)
		}
	}
	if m.opts.Log != nil {
		WriteProbes(m.opts.Log, probes)
	}
	if Refused(probes) {
		return &StepRefusedError{Step: step, Probes: rc.res.Preflight}
	}
	return nil
}

// unchecked reports whether a guard of file was left not checked.
func (rc *recheck) unchecked(file string) bool {
	for _, p := range rc.res.Preflight {
		if p.Status == StatusSkipped && p.Guard.File == file {
			return true
		}
	}
	return false
}

// find returns the position of the run's verdict on g, or -1.
func (rc *recheck) find(g *Guard) int {
	for i, p := range rc.res.Preflight {
		if sameGuard(p.Guard, g) {
			return i
		}
	}
	return -1
}

// sameGuard reports whether h and g are the same guard of the same
// statement, found by two analyses.
func sameGuard(h, g *Guard) bool {
	return h.File == g.File && h.Line == g.Line && h.Column == g.Column && h.Kind == g.Kind &&
		strings.EqualFold(h.String(), g.String())
}
