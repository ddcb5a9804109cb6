package migrator

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/guard-sql/guard/internal/schema"
)

// HistoryTable is guard's own record of the versions applied to a
// database, one row each, beside golang-migrate's schema_migrations, which
// keeps only the current version. golang-migrate's up goes from the
// current version to the ones above it, so a file whose version is below
// the current one when it arrives (a branch merged below main's newest) is
// passed over for good, without a word; the history tells such a file
// from one that ran.
//
// The history starts at the first guard migrate run that applies
// something (or has nothing to apply) on a database: the versions of the
// directory up to the current one are taken as applied then, since nothing
// tells otherwise. From there every step guard runs adds or removes its
// version, guard migrate force V takes every version up to V as applied,
// and versions another tool applied on top are taken as applied in order
// (golang-migrate applies nothing below its current version).
const HistoryTable = schema.HistoryTable

// GM008 is the code of the out-of-order migration rule, offline in guard
// lint and live in guard migrate.
const GM008 = "GM008"

// OutOfOrderError is returned when pending files have a version below
// the applied one and never ran: golang-migrate would never apply them.
// Nothing was applied.
type OutOfOrderError struct {
	// Applied is the database's current version.
	Applied int
	// Newest is the highest version of the directory.
	Newest uint
	Files  []OutOfOrderFile
}

// OutOfOrderFile is one file below the applied version that never ran.
type OutOfOrderFile struct {
	File    string `json:"file"`
	Version uint   `json:"version"`
}

// Error names every file, its version, the applied version and the ways out.
func (e *OutOfOrderError) Error() string {
	parts := make([]string, len(e.Files))
	for i, f := range e.Files {
		parts[i] = fmt.Sprintf("%s (version %d)", f.File, f.Version)
	}
	return fmt.Sprintf("%s out-of-order: %s below the applied version %d never ran on this database, and golang-migrate would pass over it for good; nothing was applied. "+
		"Renumber it above the newest version of the directory (%d) so that it runs next, "+
		"or, if its changes are in the database already, record every version up to %d as applied with `%s`",
		GM008, strings.Join(parts, ", "), e.Applied, e.Newest, e.Applied, ForceCommand(e.Applied))
}

// history is the versions the history table lists; exists is false when
// the table is not there (nothing recorded yet).
type history struct {
	exists   bool
	versions map[uint]bool
}

// readHistory reads the history table without creating it.
func (m *Migrator) readHistory(ctx context.Context) (history, error) {
	h := history{versions: map[uint]bool{}}
	rows, err := m.db.QueryContext(ctx, "SELECT version FROM "+quote(HistoryTable))
	var me *mysql.MySQLError
	switch {
	case errors.As(err, &me) && me.Number == errNoSuchTable:
		return h, nil
	case err != nil:
		return h, fmt.Errorf("read %s: %w", HistoryTable, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v uint64
		if err := rows.Scan(&v); err != nil {
			return h, fmt.Errorf("read %s: %w", HistoryTable, err)
		}
		h.versions[uint(v)] = true
	}
	if err := rows.Err(); err != nil {
		return h, fmt.Errorf("read %s: %w", HistoryTable, err)
	}
	h.exists = true
	return h, nil
}

// reconcile returns the versions of ms applied at state st, from the
// history h: without a history, every version up to st's; with one, its
// versions up to st's (those above were undone by another tool), and, when
// st's own version is not among them, the versions between the highest
// recorded one and st's (another tool applied them, in order).
func reconcile(ms []Migration, st State, h history) map[uint]bool {
	applied := map[uint]bool{}
	if st.Version < 0 {
		return applied
	}
	cur := uint(st.Version)
	if !h.exists {
		for _, mg := range ms {
			if mg.Version <= cur {
				applied[mg.Version] = true
			}
		}
		return applied
	}
	var top uint
	seen := false
	for v := range h.versions {
		if v <= cur {
			applied[v] = true
			if !seen || v > top {
				top, seen = v, true
			}
		}
	}
	if !applied[cur] {
		for _, mg := range ms {
			if (!seen || mg.Version > top) && mg.Version <= cur {
				applied[mg.Version] = true
			}
		}
		applied[cur] = true
	}
	return applied
}

// outOfOrder returns the up files of ms below the current version that
// the applied set lacks.
func outOfOrder(dir string, ms []Migration, st State, applied map[uint]bool) *OutOfOrderError {
	if st.Version < 0 || len(ms) == 0 {
		return nil
	}
	e := &OutOfOrderError{Applied: st.Version, Newest: ms[len(ms)-1].Version}
	for _, mg := range ms {
		if int64(mg.Version) < int64(st.Version) && !applied[mg.Version] && mg.Up != "" {
			e.Files = append(e.Files, OutOfOrderFile{File: filepath.Join(dir, mg.Up), Version: mg.Version})
		}
	}
	if len(e.Files) == 0 {
		return nil
	}
	return e
}

const createHistory = "CREATE TABLE IF NOT EXISTS %s (\n" +
	"  version BIGINT UNSIGNED NOT NULL PRIMARY KEY,\n" +
	"  name VARCHAR(255) NOT NULL DEFAULT '',\n" +
	"  applied_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)\n" +
	") ENGINE=InnoDB COMMENT='guard migrate: every version applied (golang-migrate keeps only the current one)'"

// writeHistory makes the history table list exactly applied.
func (m *Migrator) writeHistory(ctx context.Context, applied map[uint]bool) error {
	if _, err := m.db.ExecContext(ctx, fmt.Sprintf(createHistory, quote(HistoryTable))); err != nil {
		return fmt.Errorf("create %s: %w", HistoryTable, err)
	}
	h, err := m.readHistory(ctx)
	if err != nil {
		return err
	}
	var stale []any
	for v := range h.versions {
		if !applied[v] {
			stale = append(stale, uint64(v))
		}
	}
	if len(stale) > 0 {
		q := "DELETE FROM " + quote(HistoryTable) + " WHERE version IN (?" + strings.Repeat(", ?", len(stale)-1) + ")"
		if _, err := m.db.ExecContext(ctx, q, stale...); err != nil {
			return fmt.Errorf("update %s: %w", HistoryTable, err)
		}
	}
	vs := make([]uint, 0, len(applied))
	for v := range applied {
		if !h.versions[v] {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	for _, v := range vs {
		if err := m.recordApplied(ctx, v); err != nil {
			return err
		}
	}
	return nil
}

// recordApplied adds version v to the history.
func (m *Migrator) recordApplied(ctx context.Context, v uint) error {
	name := ""
	if i := index(m.migrations, int(v)); i >= 0 {
		name = m.migrations[i].Name
	}
	if _, err := m.db.ExecContext(ctx, "INSERT IGNORE INTO "+quote(HistoryTable)+" (version, name) VALUES (?, ?)", uint64(v), name); err != nil {
		return fmt.Errorf("record version %d in %s: %w", v, HistoryTable, err)
	}
	return nil
}

// recordStep adds the version of an up step to the history, or removes
// the version a down step undid.
func (m *Migrator) recordStep(ctx context.Context, step Step) error {
	if step.Up {
		return m.recordApplied(ctx, step.Version)
	}
	if _, err := m.db.ExecContext(ctx, "DELETE FROM "+quote(HistoryTable)+" WHERE version = ?", uint64(step.Version)); err != nil {
		return fmt.Errorf("remove version %d from %s: %w", step.Version, HistoryTable, err)
	}
	return nil
}

// appliedUpTo is every version of ms up to v.
func appliedUpTo(ms []Migration, v int) map[uint]bool {
	out := map[uint]bool{}
	for _, mg := range ms {
		if int64(mg.Version) <= int64(v) {
			out[mg.Version] = true
		}
	}
	return out
}
