package migrator

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Migration states in a Status.
const (
	StateApplied = "applied"
	StatePending = "pending"
	StateDirty   = "dirty" // the current version, left part-way by a failed migration
)

// Status is the state of the database and of every migration of the directory.
type Status struct {
	State      State             `json:"state"`
	Migrations []MigrationStatus `json:"migrations"`
	// Note is set when the database is at a version the directory lacks.
	Note string `json:"note,omitempty"`
}

// MigrationStatus is one migration of the directory and whether it is applied.
type MigrationStatus struct {
	Migration
	State string `json:"state"`
	Dirty bool   `json:"dirty"`
}

// Status reads the database version and lists every migration as applied
// (at or below it), dirty (the current version when dirty) or pending.
// golang-migrate records only the current version: applied is inferred.
func (m *Migrator) Status(ctx context.Context) (*Status, error) {
	st, err := m.State(ctx)
	if err != nil {
		return nil, err
	}
	out := &Status{State: st, Migrations: make([]MigrationStatus, 0, len(m.migrations))}
	if _, err := current(m.migrations, st); err != nil {
		out.Note = err.Error()
	}
	for _, mig := range m.migrations {
		ms := MigrationStatus{Migration: mig, State: StatePending}
		switch {
		case st.Version < 0 || int64(mig.Version) > int64(st.Version):
		case int64(mig.Version) == int64(st.Version) && st.Dirty:
			ms.State, ms.Dirty = StateDirty, true
		default:
			ms.State = StateApplied
		}
		out.Migrations = append(out.Migrations, ms)
	}
	return out, nil
}

// WriteText prints the status as a table.
func (s *Status) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "version %s\n", s.State)
	if s.Note != "" {
		fmt.Fprintf(w, "note: %s\n", s.Note)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tSTATE\tNAME\tFILES")
	for _, m := range s.Migrations {
		var files []string
		for _, f := range []string{m.Up, m.Down} {
			if f != "" {
				files = append(files, f)
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", m.Version, m.State, m.Name, strings.Join(files, " "))
	}
	return tw.Flush()
}
