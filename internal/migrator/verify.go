package migrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// Verification statuses.
const (
	VerifyPresent = "verified"     // found in the database
	VerifyMissing = "missing"      // not found: the run fails
	VerifyUnknown = "unverifiable" // the server does not show it; Note says why
)

// Verification is whether one guard of the applied files is in the database.
type Verification struct {
	Guard  *Guard `json:"guard"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// Verify reads the schema of database again and looks for every guard the
// statements leave in place (a guard a later statement of the same run
// drops is not looked for).
func Verify(ctx context.Context, db *sql.DB, database string, stmts []Stmt) ([]Verification, error) {
	_, expected := analyze(database, stmts)
	if len(expected) == 0 {
		return nil, nil
	}
	s, srv, err := schema.FromInformationSchema(ctx, db, database)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	out := make([]Verification, 0, len(expected))
	for _, g := range expected {
		v := Verification{Guard: g, Status: VerifyMissing}
		t := s.Table(g.Table)
		if t == nil {
			v.Note = "table " + g.Table + " not found"
			out = append(out, v)
			continue
		}
		switch g.Kind {
		case KindCheck:
			if !srv.ListsCheckConstraints() {
				v.Status, v.Note = VerifyUnknown, "the server does not list CHECK constraints"
				break
			}
			v.Status, v.Note = verifyCheck(t, g)
		case KindUnique:
			v.Status, v.Note = verifyUnique(t, g)
		case KindPrimary:
			if sameColumns(t.PrimaryKey, g.keys) {
				v.Status = VerifyPresent
			} else {
				v.Note = fmt.Sprintf("the primary key is (%s)", strings.Join(t.PrimaryKey, ", "))
			}
		case KindNotNull, KindColumn:
			c := t.Column(g.Name)
			switch {
			case c == nil:
				v.Note = "no column " + g.Name
			case c.Nullable && (g.Kind == KindNotNull || g.NotNull):
				v.Note = "the column is NULLable"
			default:
				v.Status = VerifyPresent
			}
		case KindTrigger:
			v.Status, v.Note, err = verifyTrigger(ctx, db, database, g)
			if err != nil {
				return nil, err
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// Missing returns the verifications that failed.
func Missing(vs []Verification) []Verification {
	var out []Verification
	for _, v := range vs {
		if v.Status == VerifyMissing {
			out = append(out, v)
		}
	}
	return out
}

// verifyCheck finds a CHECK by name, else (unnamed: the server names it) an
// enforced one with the same canonical expression or proving the same
// columns non-negative.
func verifyCheck(t *schema.Table, g *Guard) (string, string) {
	if g.Name != "" {
		for _, c := range t.Checks {
			if strings.EqualFold(c.Name, g.Name) {
				if !c.Enforced {
					return VerifyMissing, "the CHECK is NOT ENFORCED"
				}
				return VerifyPresent, ""
			}
		}
		return VerifyMissing, "no CHECK named " + g.Name
	}
	want, err := schema.CheckFromText("", g.Expr, true)
	if err != nil {
		return VerifyMissing, err.Error()
	}
	for _, c := range t.Checks {
		if c.Enforced && c.Expr == want.Expr {
			return VerifyPresent, ""
		}
	}
	if len(want.NonNegative) > 0 {
		for _, col := range want.NonNegative {
			if c := t.NonNegativeCheck(col); c == nil || !c.Enforced {
				return VerifyMissing, "no CHECK with this expression"
			}
		}
		return VerifyPresent, ""
	}
	return VerifyMissing, "no CHECK with this expression"
}

// verifyUnique finds a UNIQUE index on exactly the key columns (by name too
// when the statement named it). Functional key parts are found by name.
func verifyUnique(t *schema.Table, g *Guard) (string, string) {
	if g.Name != "" {
		ix := t.Index(g.Name)
		switch {
		case ix == nil:
			return VerifyMissing, "no index named " + g.Name
		case !ix.Unique && !ix.Primary:
			return VerifyMissing, "index " + g.Name + " is not UNIQUE"
		case hasExprPart(g.keys) || sameColumns(ix.Columns, g.keys):
			return VerifyPresent, ""
		}
		return VerifyMissing, fmt.Sprintf("index %s is on (%s)", g.Name, strings.Join(ix.Columns, ", "))
	}
	if hasExprPart(g.keys) {
		return VerifyUnknown, "an unnamed index on expressions cannot be told apart"
	}
	for _, ix := range t.Indexes {
		if (ix.Unique || ix.Primary) && sameColumns(ix.Columns, g.keys) {
			return VerifyPresent, ""
		}
	}
	return VerifyMissing, "no UNIQUE index on exactly these columns"
}

func hasExprPart(keys []keyPart) bool {
	for _, k := range keys {
		if k.column == "" {
			return true
		}
	}
	return false
}

// sameColumns reports whether cols are the key's columns, in order.
func sameColumns(cols []string, keys []keyPart) bool {
	if len(cols) != len(keys) {
		return false
	}
	for i, k := range keys {
		if !strings.EqualFold(cols[i], k.column) {
			return false
		}
	}
	return true
}

const queryTrigger = `SELECT EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION
FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? AND TRIGGER_NAME = ?`

func verifyTrigger(ctx context.Context, db *sql.DB, database string, g *Guard) (string, string, error) {
	var table, timing, event string
	err := db.QueryRowContext(ctx, queryTrigger, database, g.Name).Scan(&table, &timing, &event)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return VerifyMissing, "no trigger named " + g.Name, nil
	case err != nil:
		return "", "", fmt.Errorf("verify trigger %s: %w", g.Name, err)
	case !strings.EqualFold(table, g.Table) || !strings.EqualFold(timing, g.timing) || !strings.EqualFold(event, g.event):
		return VerifyMissing, fmt.Sprintf("trigger %s is %s %s on %s", g.Name, timing, event, table), nil
	}
	return VerifyPresent, "", nil
}
