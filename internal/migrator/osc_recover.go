package migrator

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// A guard that dies while pt-online-schema-change runs (SIGKILL, the OOM
// killer, a lost machine) leaves the version dirty, as golang-migrate
// leaves it when guard dies in the middle of a file. On Linux the tool
// dies with it (dieWithGuard) and, stopped as on an interrupt, leaves its
// triggers and its copy of the table; elsewhere it runs on alone. The next
// run that finds the version dirty looks at the table of the dirty
// version's pt-osc file (recoverOSC):
//
//   - a run of the tool still alive (its lock is held): nothing is touched,
//     and the dirty version is reported;
//   - the tool's triggers or its copy on the table, and no original table
//     swapped out: the tool stopped before the swap, the table is not
//     altered and nothing of the file was applied (the file holds that one
//     ALTER). What it left is dropped and the version recorded clean at the
//     one before the step, as when the tool aborts under a live guard;
//   - the original swapped out (_t_old): the table is altered, and what is
//     left is reported with the dirty version;
//   - nothing: the tool either never began or finished, which nothing
//     tells apart; the dirty version is reported.
//
// oscRefusal makes sure no table of the tool's names is there when a run
// starts, so that whatever is there afterwards is that run's.

// oscCandidate is a step whose failure may have left the version dirty at
// its current value, handed to the tool.
type oscCandidate struct {
	step  Step
	table string
	// before is the version the database was at before the step.
	before int
}

// oscCandidates are the steps that leave the version dirty at v when they
// fail, those of them handed to pt-online-schema-change: the up step of v
// (golang-migrate and runOSC mark the file's own version dirty going up)
// and the down step of the version after v (the version before it, going
// down).
func (m *Migrator) oscCandidates(v int) ([]oscCandidate, error) {
	var steps []Step
	var befores []int
	if i := index(m.migrations, v); i >= 0 {
		steps, befores = append(steps, m.migrations[i].step(m.opts.Dir, true)), append(befores, previous(m.migrations, v))
	}
	if x := next(m.migrations, v); x >= 0 {
		steps, befores = append(steps, m.migrations[index(m.migrations, x)].step(m.opts.Dir, false)), append(befores, x)
	}
	var out []oscCandidate
	for i, s := range steps {
		if s.File == "" {
			continue
		}
		b, err := readBody(s.File)
		if err != nil {
			return nil, fmt.Errorf("read migration: %w", err)
		}
		if tool, _, found := readDirective(string(b)); !found || tool != OSCPTOnlineSchemaChange {
			continue
		}
		stmts, _ := parseScript(sqlparse.NewParser(), s.File, string(b))
		if len(stmts) != 1 || stmts[0].Node == nil {
			continue
		}
		schemaName, table, _, ok := sqlparse.OnlineAlter(stmts[0].SQL, stmts[0].Node)
		if !ok || (schemaName != "" && schemaName != m.database) {
			continue
		}
		out = append(out, oscCandidate{step: s, table: table, before: befores[i]})
	}
	return out, nil
}

// recoverOSC looks at what a run of pt-online-schema-change cut short left
// behind the dirty state st, drops it when the tool stopped before the
// swap and returns the state then recorded; otherwise it says what it
// found and returns st. See the comment above oscCandidate.
func (m *Migrator) recoverOSC(ctx context.Context, st State) (State, error) {
	cands, err := m.oscCandidates(st.Version)
	if err != nil {
		return st, err
	}
	if len(cands) == 2 && strings.EqualFold(cands[0].table, cands[1].table) {
		// The up file of the dirty version and the down file of the next
		// one alter the same table: guard's history tells which ran, the
		// next version being still recorded as applied while its down
		// file runs.
		h, err := m.readHistory(ctx)
		if err != nil {
			return st, err
		}
		switch {
		case !h.exists:
			m.logf("%s and %s both alter %s with %s, and no history of this database tells which of them ran: see what it left, then force the version\n",
				displayFile(cands[0].step.File), displayFile(cands[1].step.File), cands[0].table, PTOSCBinary)
			return st, nil
		case h.versions[cands[1].step.Version]:
			cands = cands[1:]
		default:
			cands = cands[:1]
		}
	}
	for _, c := range cands {
		var holder sql.NullInt64
		if err := m.db.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?)", oscLockName(m.database, c.table)).Scan(&holder); err != nil {
			return st, fmt.Errorf("look for a run of %s on %s: %w", PTOSCBinary, c.table, err)
		}
		if holder.Valid {
			m.logf("%s: %s is still altering %s (connection %d), started by a guard migrate that is gone: "+
				"let it finish, or stop it (KILL %d) and run guard migrate again\n",
				displayFile(c.step.File), PTOSCBinary, c.table, holder.Int64, holder.Int64)
			return st, nil
		}
	}
	for _, c := range cands {
		left, err := oscLeftovers(ctx, m.db, m.database, c.table)
		if err != nil {
			return st, fmt.Errorf("look for what %s left on %s: %w", PTOSCBinary, c.table, err)
		}
		if len(left) == 0 {
			continue
		}
		tables, err := oscTables(ctx, m.db, m.database, c.table)
		if err != nil {
			return st, err
		}
		swapped := false
		for _, t := range tables {
			for _, o := range oscOlds(c.table) {
				swapped = swapped || t == o
			}
		}
		if swapped || containsPrefix(left, "no table ") {
			// Past the swap (or in the middle of a swap the tool does in
			// two steps): the table holds the change, or is missing;
			// what is left is all there is of the rows as they were.
			m.logf("%s: guard migrate stopped while %s altered %s, once the tool had swapped the tables: it left %s; "+
				"check %s against the file, drop what is left once it is not needed, then force the version\n",
				displayFile(c.step.File), PTOSCBinary, c.table, strings.Join(left, ", "), c.table)
			return st, nil
		}
		dropped, err := m.dropOSCCopy(ctx, c.table)
		if err != nil {
			return st, fmt.Errorf("drop what %s left on %s (dropped: %s): %w", PTOSCBinary, c.table, strings.Join(dropped, ", "), err)
		}
		clean := State{Version: c.before}
		conn, err := m.db.Conn(ctx)
		if err != nil {
			return st, fmt.Errorf("record version %s: %w", clean, err)
		}
		err = setVersion(ctx, conn, clean.Version, false)
		conn.Close()
		if err != nil {
			return st, err
		}
		m.logf("%s: guard migrate stopped while %s altered %s, and the tool stopped before it swapped the tables: "+
			"%s is not altered and nothing of the file was applied; dropped what it left: %s; version %d was dirty: recorded clean at %s\n",
			displayFile(c.step.File), PTOSCBinary, c.table, c.table, strings.Join(dropped, ", "), st.Version, clean)
		return clean, nil
	}
	for _, c := range cands {
		m.logf("%s: %s left nothing on %s: it either never began or finished the change, which nothing tells apart; "+
			"see whether %s has the change of the file, then force the version\n",
			displayFile(c.step.File), PTOSCBinary, c.table, c.table)
	}
	return st, nil
}

// containsPrefix reports whether a string of list starts with prefix.
func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
