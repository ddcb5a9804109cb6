package migrator

import (
	"context"
	"fmt"

	"github.com/guard-sql/guard/internal/schema"
)

// Op is what a run does: up, down N or goto V.
type Op struct {
	kind runKind
	arg  int
}

// UpOp applies every pending migration.
func UpOp() Op { return Op{kind: runUp} }

// DownOp undoes the last n applied migrations.
func DownOp(n int) Op { return Op{kind: runDown, arg: n} }

// GotoOp migrates up or down to version v.
func GotoOp(v uint) Op { return Op{kind: runGoto, arg: int(v)} }

// check validates op against the directory of m.
func (m *Migrator) check(op Op) error {
	switch op.kind {
	case runDown:
		if op.arg < 1 {
			return fmt.Errorf("down %d: want 1 or more", op.arg)
		}
	case runGoto:
		if index(m.migrations, op.arg) < 0 {
			return fmt.Errorf("goto %d: %w", op.arg, ErrNoSuchVersion)
		}
	}
	return nil
}

// Up applies every pending migration.
func (m *Migrator) Up(ctx context.Context) (*Result, error) { return m.Run(ctx, UpOp()) }

// Down undoes the last n applied migrations.
func (m *Migrator) Down(ctx context.Context, n int) (*Result, error) { return m.Run(ctx, DownOp(n)) }

// Goto migrates up or down to version v.
func (m *Migrator) Goto(ctx context.Context, v uint) (*Result, error) { return m.Run(ctx, GotoOp(v)) }

// Run runs op: preflight, golang-migrate, verification.
func (m *Migrator) Run(ctx context.Context, op Op) (*Result, error) {
	if err := m.check(op); err != nil {
		return nil, err
	}
	return m.run(ctx, op.kind, op.arg)
}

// Check does what Run does before it applies anything — reads the state,
// plans the steps, parses the pending files and runs their preflight —
// and applies nothing. Its error is the one Run would return before the
// first step: a dirty state, a file that does not parse, a refusal. A
// fleet checks every target this way before any target applies anything.
// The preflight verdicts are logged only when they refuse.
func (m *Migrator) Check(ctx context.Context, op Op) (*Result, error) {
	if err := m.check(op); err != nil {
		return nil, err
	}
	release, err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := m.prepare(ctx, op.kind, op.arg, false)
	if p == nil {
		return nil, err
	}
	return p.res, err
}

// prepared is a run checked and ready to apply.
type prepared struct {
	osc   map[string]*oscPlan
	res   *Result
	steps []Step
	up    bool
	stmts []Stmt
}

// prepare reads the state and plans the steps of kind, then parses and
// preflights their files. It returns a nil error with no steps when there
// is nothing to do. logAll logs every preflight verdict; without it only
// a refusal's are logged.
func (m *Migrator) prepare(ctx context.Context, kind runKind, arg int, logAll bool) (*prepared, error) {
	st, err := m.State(ctx)
	if err != nil {
		return nil, err
	}
	p := &prepared{res: &Result{From: st, To: st}}
	if st.Dirty {
		return p, m.dirtyFound(st)
	}
	if p.steps, p.up, err = m.plan(st, kind, arg); err != nil || len(p.steps) == 0 {
		return p, err
	}
	stmts, ferrs, err := readSteps(p.steps)
	if err != nil {
		return p, err
	}
	p.stmts = stmts
	if err := emptySteps(p.steps); err != nil {
		return p, err
	}
	if len(ferrs) > 0 && !m.opts.SkipPreflight {
		return p, &ParseError{Errors: ferrs}
	}
	if p.osc, err = m.oscPlans(p.steps, stmts); err != nil {
		return p, err
	}
	if err := m.checkOSC(ctx, p.osc, p.steps); err != nil {
		return p, err
	}
	if m.opts.SkipPreflight {
		p.res.PreflightSkipped = true
		if logAll {
			m.logf("preflight skipped (--skip-preflight)\n")
		}
		return p, nil
	}
	live, _, err := schema.FromInformationSchema(ctx, m.db, m.database)
	if err != nil {
		return p, fmt.Errorf("preflight: %w", err)
	}
	if p.res.Preflight, err = Preflight(ctx, m.db, m.database, live, stmts); err != nil {
		return p, err
	}
	noteRechecks(p.res.Preflight, p.steps)
	refused := Refused(p.res.Preflight)
	if m.opts.Log != nil && (logAll || refused) {
		WriteProbes(m.opts.Log, p.res.Preflight)
	}
	if refused {
		return p, &RefusedError{Probes: p.res.Preflight}
	}
	return p, nil
}
