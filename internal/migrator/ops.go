package migrator

import (
	"context"
	"errors"
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
	p, err := m.prepare(ctx, op.kind, op.arg, false, false)
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
	// applied is the versions applied before the run (see HistoryTable).
	applied map[uint]bool
	// impacts are what each statement will do to the server.
	impacts []Impact
	// refusals, on a dry run, are why the run would not start; a run
	// returns the first instead.
	refusals []error
	dry      bool
}

// refuse records why the run would not start: the error a run returns,
// nil on a dry run, which goes on to report everything.
func (p *prepared) refuse(err error) error {
	if p.dry {
		p.refusals = append(p.refusals, err)
		return nil
	}
	return err
}

// prepare reads the state and plans the steps of kind, then parses and
// preflights their files. It returns a nil error with no steps when there
// is nothing to do. logAll logs every preflight verdict; without it only
// a refusal's are logged. dry collects the refusals (p.refusals) and goes
// on, for DryRun; errors that leave nothing to report still end it.
// Nothing is written to the database.
func (m *Migrator) prepare(ctx context.Context, kind runKind, arg int, logAll, dry bool) (*prepared, error) {
	st, err := m.State(ctx)
	if err != nil {
		return nil, err
	}
	if st.Dirty && !dry {
		// A guard that died while pt-online-schema-change ran left the
		// version dirty: what the tool left says whether the step was
		// applied (see recoverOSC).
		if st, err = m.recoverOSC(ctx, st); err != nil {
			return nil, err
		}
	}
	p := &prepared{res: &Result{From: st, To: st}, dry: dry}
	if st.Dirty {
		return p, m.dirtyFound(st)
	}
	if p.steps, p.up, err = m.plan(st, kind, arg); err != nil {
		return p, err
	}
	h, err := m.readHistory(ctx)
	if err != nil {
		return p, err
	}
	p.applied = reconcile(m.migrations, st, h)
	if p.up {
		if e := outOfOrder(m.opts.Dir, m.migrations, st, p.applied); e != nil {
			if err := p.refuse(e); err != nil {
				return p, err
			}
		}
	}
	if len(p.steps) == 0 {
		return p, nil
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
		var refused *OSCRefusedError
		if !errors.As(err, &refused) {
			return p, err
		}
		if err := p.refuse(err); err != nil {
			return p, err
		}
	}
	judge := dry || (m.opts.MaxBlockingRows > 0 && !m.opts.AllowBlocking)
	var live *schema.Schema
	if judge || !m.opts.SkipPreflight {
		if live, _, err = schema.FromInformationSchema(ctx, m.db, m.database); err != nil {
			return p, fmt.Errorf("preflight: %w", err)
		}
	}
	if judge {
		if err := m.judgeBlocking(ctx, p, live); err != nil {
			return p, err
		}
	}
	if m.opts.SkipPreflight {
		p.res.PreflightSkipped = true
		if logAll {
			m.logf("preflight skipped (--skip-preflight)\n")
		}
		return p, nil
	}
	// A statement naming a constraint or index its table lacks would fail
	// part-way through its file, leaving the version dirty.
	if err := m.checkNames(ctx, live, stmts); err != nil {
		var missing *MissingNameError
		if !errors.As(err, &missing) {
			return p, err
		}
		if err := p.refuse(err); err != nil {
			return p, err
		}
	}
	if p.res.Preflight, err = Preflight(ctx, m.db, m.database, live, stmts); err != nil {
		return p, err
	}
	noteRechecks(m.database, p.res.Preflight, p.steps, stmts)
	refused := Refused(p.res.Preflight)
	if m.opts.Log != nil && !dry && (logAll || refused) {
		WriteProbes(m.opts.Log, p.res.Preflight)
	}
	if refused {
		return p, p.refuse(&RefusedError{Probes: p.res.Preflight})
	}
	return p, nil
}

// judgeBlocking works out what each statement of the run does to the
// server and refuses the statements that block writes on a table above
// Options.MaxBlockingRows, unless Options.AllowBlocking.
func (m *Migrator) judgeBlocking(ctx context.Context, p *prepared, live *schema.Schema) error {
	sizes, err := tableSizes(ctx, m.db, m.database, impactTables(m.server, m.database, p.stmts))
	if err != nil {
		return err
	}
	p.impacts = impacts(m.server, m.database, p.stmts, p.osc, live, sizes)
	if m.opts.AllowBlocking {
		return nil
	}
	if over := blocking(p.impacts, m.opts.MaxBlockingRows); len(over) > 0 {
		return p.refuse(&BlockingError{Max: m.opts.MaxBlockingRows, Impacts: over})
	}
	return nil
}
