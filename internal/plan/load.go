package plan

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// Offline is the state the migration folders describe.
type Offline struct {
	Schema *schema.Schema
	// Triggers holds the lower-case names of the triggers the migrations
	// create and do not drop.
	Triggers map[string]bool
	// Errors are the statements replay could not apply.
	Errors []*schema.ReplayError
}

// LoadDirs replays the up files of the migration folders together, in
// version order, as if they were one folder: a plan written to another
// folder than the one it read counts as applied when planning again. A
// folder that does not exist holds no migration; one named twice is read
// once. Trigger statements, which the parser does not read, are followed by
// name.
func LoadDirs(dirs ...string) (*Offline, error) {
	var files []schema.MigrationFile
	seen := map[string]bool{}
	for _, dir := range dirs {
		clean := filepath.Clean(dir)
		if seen[clean] {
			continue
		}
		seen[clean] = true
		fs, err := schema.ListMigrations(clean)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Version < files[j].Version })
	off := &Offline{Triggers: map[string]bool{}}
	p := sqlparse.NewParser()
	var stmts []schema.DDL
	for _, f := range files {
		if !f.Up {
			continue
		}
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, fmt.Errorf("load migrations: %w", err)
		}
		text := strings.TrimPrefix(string(b), "\ufeff")
		pos := sqlparse.NewLineCounter(text)
		for _, piece := range sqlparse.SplitScript(text) {
			line, col := pos.At(piece.Offset)
			d := schema.DDL{SQL: piece.Text, File: f.Path, Line: line, Col: col}
			n, err := p.Parse(piece.Text)
			if err != nil {
				if prog, ok := sqlparse.ReadProgram(piece.Text); ok {
					off.program(prog)
					continue
				}
			} else {
				d.Node = n
			}
			stmts = append(stmts, d)
		}
	}
	off.Schema, off.Errors = schema.FromDDL(stmts)
	return off, nil
}

// program follows the triggers a statement creates or drops.
func (o *Offline) program(p sqlparse.Program) {
	if p.Kind != "TRIGGER" {
		return
	}
	switch p.Verb {
	case "CREATE":
		o.Triggers[strings.ToLower(p.Name)] = true
	case "DROP":
		delete(o.Triggers, strings.ToLower(p.Name))
	}
}

// Live is what a plan needs to know of a live database.
type Live struct {
	Schema *schema.Schema
	Server schema.Server
	// GlobalSQLMode is @@GLOBAL.sql_mode.
	GlobalSQLMode string
	// Triggers holds the lower-case names of the database's triggers.
	Triggers map[string]bool
	// Rows holds information_schema's row estimate of each table, by
	// lower-case name.
	Rows map[string]int64
	// Notes say what the plan leaves out because the account cannot see it.
	Notes []string
}

// ReadLive reads the schema, server, global sql_mode, triggers and row
// estimates of database. Errors name what was being read, never how the
// server was reached.
func ReadLive(ctx context.Context, db schema.Querier, database string) (*Live, error) {
	s, srv, err := schema.FromInformationSchema(ctx, db, database)
	if err != nil {
		return nil, err
	}
	l := &Live{Schema: s, Server: srv, Triggers: map[string]bool{}, Rows: map[string]int64{}, Notes: UnseenNotes(s)}
	if len(s.Tables) == 0 {
		// information_schema shows a misspelt database as an empty one: a
		// plan of it must fail rather than find nothing to do.
		n := 0
		if err := queryRows(ctx, db, "look up database "+database,
			"SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", []any{database},
			func(rows *sql.Rows) error { return rows.Scan(&n) }); err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("database %s does not exist or is not visible to this account", database)
		}
	}
	if err := queryRows(ctx, db, "read sql_mode", "SELECT @@GLOBAL.sql_mode", nil, func(rows *sql.Rows) error {
		var mode sql.NullString
		err := rows.Scan(&mode)
		l.GlobalSQLMode = mode.String
		return err
	}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, db, "read triggers",
		"SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?", []any{database},
		func(rows *sql.Rows) error {
			var name string
			err := rows.Scan(&name)
			l.Triggers[strings.ToLower(name)] = true
			return err
		}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, db, "read row estimates",
		"SELECT TABLE_NAME, TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_ROWS IS NOT NULL",
		[]any{database}, func(rows *sql.Rows) error {
			var name string
			var n int64
			err := rows.Scan(&name, &n)
			l.Rows[strings.ToLower(name)] = n
			return err
		}); err != nil {
		return nil, err
	}
	return l, nil
}

// UnseenNotes says what a plan of live schema s cannot close because the
// account that read it could not see it: the guards of a table whose CHECK
// constraints are hidden (a CHECK that exists would be added again, with a
// table copy, and a NOT NULL change could drop one), and tables missing from
// the view of an account granted single tables.
func UnseenNotes(s *schema.Schema) []string {
	var notes []string
	for _, t := range s.Sorted() {
		if t.ColumnsPartial {
			notes = append(notes, fmt.Sprintf("no guard planned for %s: the account holds privileges on some of its columns only, "+
				"and sees neither its other columns, nor its indexes, nor its CHECK constraints (grant it SELECT on %s)", t.Name, t.Name))
			continue
		}
		if t.ChecksUnknown {
			notes = append(notes, fmt.Sprintf("no CHECK or NOT NULL planned for %s: the account cannot see its CHECK constraints, "+
				"so it cannot tell whether they exist (grant it SELECT on %s, or on the whole database)", t.Name, t.Name))
		}
	}
	if s.GrantedTablesOnly {
		notes = append(notes, "the account holds privileges on single tables only: tables it holds no privilege on "+
			"are not seen, so not planned (plan with SELECT on the whole database: GRANT SELECT ON db.* TO …)")
	}
	return notes
}

// CountRows replaces the row estimate of every step that blocks writes by
// an exact COUNT(*) of its table: how long writes wait depends on it.
func CountRows(ctx context.Context, db schema.Querier, steps []Step) error {
	counted := map[string]int64{}
	for i := range steps {
		st := &steps[i]
		if !st.BlocksWrites || st.Table == "" {
			continue
		}
		key := strings.ToLower(st.Table)
		n, ok := counted[key]
		if !ok {
			if err := queryRows(ctx, db, "count rows of "+st.Table, "SELECT COUNT(*) FROM "+ident(st.Table), nil,
				func(rows *sql.Rows) error { return rows.Scan(&n) }); err != nil {
				return err
			}
			counted[key] = n
		}
		st.Rows = n
	}
	return nil
}

// queryRows runs a query and calls scan for each row.
func queryRows(ctx context.Context, db schema.Querier, what, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
