package migrator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// A migration file hands its ALTER TABLE to an online schema change tool
// with a directive among the comments before its statement:
//
//	-- guard:osc pt-osc
//	ALTER TABLE t_stock ADD CONSTRAINT chk_t_stock_qty_nonneg CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED;
//
// guard migrate then runs pt-online-schema-change --alter '<the text after
// the table name>' --execute on the table instead of the statement; the
// file stays plain SQL that golang-migrate alone runs as written. It must
// hold exactly one ALTER TABLE.
const (
	// OSCDirective opens the directive comment.
	OSCDirective = "guard:osc"
	// OSCPTOnlineSchemaChange names pt-online-schema-change (Percona
	// Toolkit) in the directive.
	OSCPTOnlineSchemaChange = "pt-osc"
)

// PTOSCBinary is the program OSCPTOnlineSchemaChange runs.
const PTOSCBinary = "pt-online-schema-change"

// ErrNoOSCTool is wrapped when a migration asks for pt-online-schema-change
// and it is not installed: nothing was applied.
var ErrNoOSCTool = errors.New(PTOSCBinary + " is not installed (Debian/Ubuntu: apt-get install percona-toolkit)")

// oscPlan is a migration file handed to an online schema change tool.
type oscPlan struct {
	Tool  string
	File  string
	Table string
	// Alter is the text of the alter specifications, for --alter.
	Alter string
	// PreserveTriggers is set when the table has triggers of its own,
	// which the tool keeps (--preserve-triggers) on a server that allows
	// its triggers beside them.
	PreserveTriggers bool
	// Checks are the table's CHECK constraints when the tool runs, whose
	// names its copy of the table gets back (see checkNamesPlugin).
	Checks []tableCheck
}

// readDirective returns the tool a file's directive names, and where the
// directive stands; "" when there is none. Only the comment lines before
// the first statement are read.
func readDirective(text string) (tool string, line int, found bool) {
	for i, l := range strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "--") {
			return "", 0, false
		}
		f := strings.Fields(strings.TrimPrefix(l, "--"))
		if len(f) > 0 && f[0] == OSCDirective {
			if len(f) > 1 {
				tool = f[1]
			}
			return tool, i + 1, true
		}
	}
	return "", 0, false
}

// oscPlans reads the directives of the steps' files and checks that each
// file so marked can be handed over: a known tool, installed, and one
// ALTER TABLE of a table of this database. Errors are *ParseError (the
// file) or wrap ErrNoOSCTool.
func (m *Migrator) oscPlans(steps []Step, stmts []Stmt) (map[string]*oscPlan, error) {
	var plans map[string]*oscPlan
	var ferrs []FileError
	for _, s := range steps {
		if s.File == "" {
			continue
		}
		b, err := os.ReadFile(s.File)
		if err != nil {
			return nil, fmt.Errorf("read migration: %w", err)
		}
		tool, line, found := readDirective(string(b))
		if !found {
			continue
		}
		bad := func(msg string) { ferrs = append(ferrs, FileError{File: s.File, Line: line, Column: 1, Msg: msg}) }
		if tool != OSCPTOnlineSchemaChange {
			bad(fmt.Sprintf("-- %s %q: want -- %s %s", OSCDirective, tool, OSCDirective, OSCPTOnlineSchemaChange))
			continue
		}
		var mine []Stmt
		for _, st := range stmts {
			if st.File == s.File {
				mine = append(mine, st)
			}
		}
		if len(mine) != 1 || mine[0].Node == nil {
			bad(fmt.Sprintf("-- %s %s: the file must hold exactly one ALTER TABLE statement that parses, it holds %d statement(s)", OSCDirective, tool, len(mine)))
			continue
		}
		schemaName, table, alter, ok := sqlparse.OnlineAlter(mine[0].SQL, mine[0].Node)
		switch {
		case !ok:
			bad(fmt.Sprintf("-- %s %s: %s can only run an ALTER TABLE that keeps the table's name", OSCDirective, tool, PTOSCBinary))
			continue
		case schemaName != "" && schemaName != m.database:
			bad(fmt.Sprintf("-- %s %s: the table is in database %s, not this run's %s", OSCDirective, tool, schemaName, m.database))
			continue
		}
		if plans == nil {
			plans = map[string]*oscPlan{}
		}
		plans[s.File] = &oscPlan{Tool: tool, File: s.File, Table: table, Alter: alter}
	}
	if len(ferrs) > 0 {
		return nil, &ParseError{Errors: ferrs}
	}
	if len(plans) > 0 {
		if _, err := lookPath(PTOSCBinary); err != nil {
			return nil, ErrNoOSCTool
		}
	}
	return plans, nil
}

// OSCRefusedError is returned when pt-online-schema-change cannot work on
// a table. Nothing of the step was run; the version is clean.
type OSCRefusedError struct {
	File    string
	Table   string
	Reasons []string
}

// Error names the table and every reason.
func (e *OSCRefusedError) Error() string {
	return fmt.Sprintf("%s: %s cannot alter %s: %s; nothing was applied (remove the -- %s line to run the ALTER itself, blocking writes)",
		e.File, PTOSCBinary, e.Table, strings.Join(e.Reasons, "; "), OSCDirective)
}

// oscTable is what pt-online-schema-change meets on a table.
type oscTable struct {
	// Exists is false when the table is not there (yet).
	Exists bool
	// Reasons are why the tool cannot alter it; empty when it can.
	Reasons []string
	// Triggers is set when the table has triggers of its own, which the
	// tool keeps with --preserve-triggers.
	Triggers bool
	// Checks are its table CHECK constraints, whose names the tool's copy
	// gets back (see checkNamesPlugin).
	Checks []tableCheck
}

// oscRefusal reads what the tool meets on table and why it cannot alter
// it: no primary key or unique index (its DELETE trigger needs one),
// triggers on the table where the server allows only one trigger per event
// and timing (the tool needs its own beside them; elsewhere it keeps them
// with --preserve-triggers), foreign keys (it would rename or rebuild
// them), CHECK constraints where their names are unique per database (see
// checkNameRefusal), and tables of the names the tool gives its copy and
// the original after the swap (what an earlier run left: the tool would
// pick other names, and what a run of guard left could no longer be told
// from what it made).
func oscRefusal(ctx context.Context, db *sql.DB, srv schema.Server, database, table string) (oscTable, error) {
	var ot oscTable
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", database, table).Scan(&n); err != nil {
		return ot, err
	}
	if n == 0 {
		return ot, nil
	}
	ot.Exists = true
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0", database, table).Scan(&n); err != nil {
		return ot, err
	}
	if n == 0 {
		ot.Reasons = append(ot.Reasons, "the table has no primary key or unique index")
	}
	names, err := strings1(ctx, db, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? AND TRIGGER_NAME NOT LIKE 'pt\\_osc\\_%' ORDER BY TRIGGER_NAME", database, table)
	if err != nil {
		return ot, err
	}
	if len(names) > 0 {
		if why := triggerRefusal(srv, names); why != "" {
			ot.Reasons = append(ot.Reasons, why)
		} else {
			ot.Triggers = true
		}
	}
	fks, err := strings1(ctx, db, `SELECT CONCAT(CONSTRAINT_NAME, ' (', TABLE_NAME, ' -> ', REFERENCED_TABLE_NAME, ')')
		FROM information_schema.REFERENTIAL_CONSTRAINTS
		WHERE (CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?) OR (UNIQUE_CONSTRAINT_SCHEMA = ? AND REFERENCED_TABLE_NAME = ?)
		ORDER BY CONSTRAINT_NAME`, database, table, database, table)
	if err != nil {
		return ot, err
	}
	if len(fks) > 0 {
		ot.Reasons = append(ot.Reasons, "foreign keys involve the table ("+strings.Join(fks, ", ")+")")
	}
	if ot.Checks, err = tableChecks(ctx, db, table); err != nil {
		return ot, err
	}
	if why := checkNameRefusal(srv, ot.Checks); why != "" {
		ot.Reasons = append(ot.Reasons, why)
	}
	inWay, err := oscTables(ctx, db, database, table)
	if err != nil {
		return ot, err
	}
	if len(inWay) > 0 {
		ot.Reasons = append(ot.Reasons, fmt.Sprintf("tables named as the tool names its copy and the original after the swap are there (%s), "+
			"left by an earlier run of it: drop them once no run of it is under way", strings.Join(inWay, ", ")))
	}
	if trig, err := oscTriggers(ctx, db, database, table); err != nil {
		return ot, err
	} else if len(trig) > 0 {
		ot.Reasons = append(ot.Reasons, fmt.Sprintf("the tool's triggers are on the table (%s): a run of it is under way, or one left them; "+
			"drop them once none is", strings.Join(trig, ", ")))
	}
	return ot, nil
}

// triggerRefusal is why the tool cannot alter a table with the triggers
// names on srv; empty when it can, keeping them with --preserve-triggers.
func triggerRefusal(srv schema.Server, names []string) string {
	if srv.SupportsMultipleTriggers() {
		return ""
	}
	return fmt.Sprintf("the table has triggers (%s) and %s allows one trigger per event and timing, while %s needs its own beside them "+
		"(--preserve-triggers needs MySQL 5.7.2 or MariaDB 10.2.3)", strings.Join(names, ", "), srv, PTOSCBinary)
}

// strings1 returns the one string column of a query's rows.
func strings1(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// checkOSC refuses the plans whose table pt-online-schema-change cannot
// alter. A table that does not exist yet is checked right before its step.
func (m *Migrator) checkOSC(ctx context.Context, plans map[string]*oscPlan, steps []Step) error {
	for _, s := range steps {
		p := plans[s.File]
		if p == nil {
			continue
		}
		ot, err := oscRefusal(ctx, m.db, m.server, m.database, p.Table)
		if err != nil {
			return fmt.Errorf("%s: check %s for %s: %w", s.File, p.Table, PTOSCBinary, err)
		}
		if len(ot.Reasons) > 0 {
			return &OSCRefusedError{File: s.File, Table: p.Table, Reasons: ot.Reasons}
		}
		p.PreserveTriggers = ot.Triggers
	}
	return nil
}
