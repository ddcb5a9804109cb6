package migrator

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/schema"
)

func TestListMigrations(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"1_a.up.sql":              "",
		"1_a.down.sql":            "",
		"20240101120000_b.up.sql": "",
		"3_c.down.sql":            "",
		"README.md":               "",
		"x_1.up.sql":              "",
	})
	got, err := ListMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Migration{
		{Version: 1, Name: "a", Up: "1_a.up.sql", Down: "1_a.down.sql"},
		{Version: 3, Name: "c", Down: "3_c.down.sql"},
		{Version: 20240101120000, Name: "b", Up: "20240101120000_b.up.sql"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	dup := writeDir(t, map[string]string{"1_a.up.sql": "", "01_b.up.sql": ""})
	if _, err := ListMigrations(dup); err == nil || !strings.Contains(err.Error(), "duplicate up migration for version 1") {
		t.Errorf("duplicate versions: err = %v", err)
	}
	// golang-migrate's own parser takes any extension; guard takes .sql
	// only and refuses the rest, as lint and plan do.
	stray := writeDir(t, map[string]string{"1_a.up.sql": "", "2_b.up.txt": ""})
	if _, err := ListMigrations(stray); !errors.Is(err, schema.ErrMisnamedMigration) || !strings.Contains(err.Error(), "2_b.up.txt") {
		t.Errorf("misnamed file: err = %v", err)
	}
	if _, err := ListMigrations(writeDir(t, nil)); !errors.Is(err, ErrNoMigrations) {
		t.Errorf("empty directory: err = %v", err)
	}
}

func TestPlanSteps(t *testing.T) {
	m := &Migrator{opts: Options{Dir: "d"}, migrations: []Migration{
		{Version: 1, Name: "a", Up: "1_a.up.sql", Down: "1_a.down.sql"},
		{Version: 3, Name: "b", Up: "3_b.up.sql"},
		{Version: 7, Name: "c", Up: "7_c.up.sql", Down: "7_c.down.sql"},
	}}
	type want struct {
		steps []string
		up    bool
		err   error
	}
	tests := []struct {
		name string
		st   State
		kind runKind
		arg  int
		want want
	}{
		{"up from nothing", State{Version: -1}, runUp, 0, want{[]string{"1 d/1_a.up.sql", "3 d/3_b.up.sql", "7 d/7_c.up.sql"}, true, nil}},
		{"up from 3", State{Version: 3}, runUp, 0, want{[]string{"7 d/7_c.up.sql"}, true, nil}},
		{"up at the top", State{Version: 7}, runUp, 0, want{nil, true, nil}},
		{"down 2 from 7", State{Version: 7}, runDown, 2, want{[]string{"7 d/7_c.down.sql", "3 (no file)"}, false, nil}},
		{"down 3 from 7", State{Version: 7}, runDown, 3, want{[]string{"7 d/7_c.down.sql", "3 (no file)", "1 d/1_a.down.sql"}, false, nil}},
		{"down 4 from 7", State{Version: 7}, runDown, 4, want{nil, false, ErrTooFewApplied}},
		{"goto 3 from 1", State{Version: 1}, runGoto, 3, want{[]string{"3 d/3_b.up.sql"}, true, nil}},
		{"goto 1 from 7", State{Version: 7}, runGoto, 1, want{[]string{"7 d/7_c.down.sql", "3 (no file)"}, false, nil}},
		{"unknown database version", State{Version: 5}, runUp, 0, want{nil, false, ErrUnknownState}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, up, err := m.plan(tt.st, tt.kind, tt.arg)
			var got []string
			for _, s := range steps {
				f := s.File
				if f == "" {
					f = "(no file)"
				}
				got = append(got, strconv.FormatUint(uint64(s.Version), 10)+" "+f)
			}
			if !errors.Is(err, tt.want.err) || (err == nil && up != tt.want.up) {
				t.Errorf("up = %v, err = %v; want %v, %v", up, err, tt.want.up, tt.want.err)
			}
			if d := cmp.Diff(tt.want.steps, got); d != "" {
				t.Errorf("steps (-want +got):\n%s", d)
			}
		})
	}
	if got := previous(m.migrations, 7); got != 3 {
		t.Errorf("previous(7) = %d", got)
	}
	if got := previous(m.migrations, 1); got != -1 {
		t.Errorf("previous(1) = %d", got)
	}
	if got := next(m.migrations, -1); got != 1 {
		t.Errorf("next(-1) = %d", got)
	}
}

func TestConnConfig(t *testing.T) {
	tests := []struct {
		dsn  string
		mode string
	}{
		{"u:p@tcp(h:3306)/db", "'STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"},
		{"u:p@tcp(h:3306)/db?sql_mode=%27ANSI_QUOTES,strict_trans_tables%27",
			"'ANSI_QUOTES,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"},
		{"u:p@tcp(h:3306)/db?sql_mode=TRADITIONAL&readTimeout=30s",
			"'TRADITIONAL,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"},
	}
	for _, tt := range tests {
		cfg, err := mysql.ParseDSN(tt.dsn)
		if err != nil {
			t.Fatal(err)
		}
		got := ConnConfig(cfg)
		if got.Params["sql_mode"] != tt.mode || !got.MultiStatements || got.ReadTimeout != 0 {
			t.Errorf("%s: sql_mode %s, multiStatements %v, readTimeout %s", tt.dsn, got.Params["sql_mode"], got.MultiStatements, got.ReadTimeout)
		}
		if cfg.MultiStatements {
			t.Errorf("%s: ConnConfig changed its argument", tt.dsn)
		}
	}
	if n := len(lockName(strings.Repeat("d", 64))); n > 64 {
		t.Errorf("lock name of %d characters", n)
	}
}

func TestDirtyErrorMessages(t *testing.T) {
	tests := []struct {
		err  DirtyError
		want string
	}{
		{DirtyError{Version: 5, Force: 3, File: "m/5_x.up.sql", Up: true, Cause: errors.New("Error 1054")},
			"m/5_x.up.sql failed: Error 1054; version 5 is dirty: fix the database by hand, then run `guard migrate force 3` (3: the last version applied in full, before the failed up migration 5)"},
		{DirtyError{Version: 3, Force: 5, File: "m/5_x.down.sql"},
			"version 3 is dirty: fix the database by hand, then run `guard migrate force 5` (5: the version whose down migration failed)"},
		{DirtyError{Version: 1, Force: -1},
			"version 1 is dirty: fix the database by hand, then run `guard migrate force -- -1` (-1: the version before 1, right when the up migration of 1 failed; after a failed down migration force the version it was undoing)"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
		}
		if tt.err.Explain() == "" {
			t.Errorf("%+v: no explanation", tt.err)
		}
	}
}

func TestStatusText(t *testing.T) {
	s := &Status{State: State{Version: 3, Dirty: true}, Migrations: []MigrationStatus{
		{Migration: Migration{Version: 1, Name: "a", Up: "1_a.up.sql", Down: "1_a.down.sql"}, State: StateApplied},
		{Migration: Migration{Version: 3, Name: "b", Up: "3_b.up.sql"}, State: StateDirty, Dirty: true},
		{Migration: Migration{Version: 12, Name: "c", Up: "12_c.up.sql"}, State: StatePending},
	}}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `version 3 (dirty)
VERSION  STATE    NAME  FILES
1        applied  a     1_a.up.sql 1_a.down.sql
3        dirty    b     3_b.up.sql
12       pending  c     12_c.up.sql
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
