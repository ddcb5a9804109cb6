package drill

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/guard-sql/guard/internal/schema"
)

// ScratchPrefix starts the name of every table and view the drill creates:
// guard_drill_<16 hex digits>, and its view with the suffix _v.
const ScratchPrefix = schema.DrillScratchPrefix

// cleanupTimeout bounds the drop of the scratch table and view, which runs
// on a fresh context: the run's may be cancelled already.
const cleanupTimeout = 30 * time.Second

// scratch is the copy of the target the strategies run on, and its view.
type scratch struct {
	db     *sql.DB
	tg     *target
	rows   int
	stock  int64
	table  string
	view   string
	q      scratchSQL
	hasTbl bool
	hasVw  bool
}

// scratchSQL holds the statements on the scratch table, built once from
// its name and the target's columns.
type scratchSQL struct {
	reseed, final string
}

// newScratch names a scratch copy of tg.
func newScratch(db *sql.DB, tg *target, rows int, stock int64) *scratch {
	b := make([]byte, 8)
	rand.Read(b) // never fails: crypto/rand crashes the program instead
	name := ScratchPrefix + hex.EncodeToString(b)
	s := &scratch{db: db, tg: tg, rows: rows, stock: stock, table: name, view: name + "_v"}
	t, pk, c, v := quoteIdent(s.table), quoteIdent(tg.pk), quoteIdent(tg.counter), quoteIdent(tg.version)
	s.q = scratchSQL{
		reseed: fmt.Sprintf("UPDATE %s SET %s = ?, %s = 0 WHERE %s BETWEEN 1 AND ?", t, c, v, pk),
		final:  fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s BETWEEN 1 AND ? ORDER BY %s", pk, c, t, pk, pk),
	}
	return s
}

// create makes the scratch table, with a version column when the target
// has none, and the canonical view over it. The DDL runs on a context that
// cancellation does not interrupt, so that whether each object exists is
// always known and drop removes exactly what create made.
func (s *scratch) create(ctx context.Context) error {
	ddl := func(format string, args ...any) error {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_, err := s.db.ExecContext(c, fmt.Sprintf(format, args...))
		return err
	}
	if err := ddl("CREATE TABLE %s LIKE %s", quoteIdent(s.table), quoteIdent(s.tg.table.Name)); err != nil {
		return fmt.Errorf("create scratch table %s: %w%s", s.table, err, privilegeHint(err))
	}
	s.hasTbl = true
	if s.tg.addVersion {
		if err := ddl("ALTER TABLE %s ADD COLUMN %s BIGINT UNSIGNED NOT NULL DEFAULT 0", quoteIdent(s.table), quoteIdent(s.tg.version)); err != nil {
			return fmt.Errorf("add %s to scratch table %s: %w", s.tg.version, s.table, err)
		}
	}
	if err := ddl("CREATE ALGORITHM = MERGE VIEW %s AS SELECT %s AS `id`, %s AS `stock`, %s AS `version` FROM %s",
		quoteIdent(s.view), quoteIdent(s.tg.pk), quoteIdent(s.tg.counter), quoteIdent(s.tg.version), quoteIdent(s.table)); err != nil {
		return fmt.Errorf("create view %s: %w%s", s.view, err, privilegeHint(err))
	}
	s.hasVw = true
	return nil
}

// drop removes the view and the table create made, on a fresh context.
func (s *scratch) drop(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	var errs []error
	if s.hasVw {
		if _, err := s.db.ExecContext(c, "DROP VIEW IF EXISTS "+quoteIdent(s.view)); err != nil {
			errs = append(errs, fmt.Errorf("drop view %s: %w", s.view, err))
		} else {
			s.hasVw = false
		}
	}
	if s.hasTbl {
		if _, err := s.db.ExecContext(c, "DROP TABLE IF EXISTS "+quoteIdent(s.table)); err != nil {
			errs = append(errs, fmt.Errorf("drop scratch table %s: %w", s.table, err))
		} else {
			s.hasTbl = false
		}
	}
	return errors.Join(errs...)
}

// reseed puts every row back at the full stock and version 0.
func (s *scratch) reseed(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, s.q.reseed, s.stock, s.rows); err != nil {
		return fmt.Errorf("reseed %s: %w", s.table, err)
	}
	return nil
}

// final returns the stock of each row, indexed by id - 1.
func (s *scratch) final(ctx context.Context) ([]int64, error) {
	out := make([]int64, s.rows)
	rows, err := s.db.QueryContext(ctx, s.q.final, s.rows)
	if err != nil {
		return nil, fmt.Errorf("read the final stock of %s: %w", s.table, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, stock int64
		if err := rows.Scan(&id, &stock); err != nil {
			return nil, fmt.Errorf("read the final stock of %s: %w", s.table, err)
		}
		if id >= 1 && id <= int64(s.rows) {
			out[id-1] = stock
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the final stock of %s: %w", s.table, err)
	}
	if n != s.rows {
		return nil, fmt.Errorf("read the final stock of %s: %d rows, want %d", s.table, n, s.rows)
	}
	return out, nil
}

// privilegeHint explains an access error: the drill needs more than reads.
func privilegeHint(err error) string {
	if code, ok := mysqlErrno(err); ok && (code == 1142 || code == 1044 || code == 1227) {
		return " (the drill needs CREATE, CREATE VIEW, DROP, INSERT, UPDATE and SELECT on the database)"
	}
	return ""
}

// quoteIdent quotes an SQL identifier with backticks, doubling any inside.
func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
