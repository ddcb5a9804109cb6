package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// Querier runs a query: *sql.DB, *sql.Conn and *sql.Tx implement it. An
// implementation for tests or recording must return the rows of the query
// as the server would.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// InfoRows are the rows of information_schema that describe one database,
// as the server returned them: the input of FromRows. They are kept raw (no
// quoting decided, no expression parsed) so that rows recorded from a server
// as JSON go through the same code as rows read live. JSON names are the
// information_schema column names.
type InfoRows struct {
	// Version is @@version.
	Version  string `json:"version"`
	Database string `json:"database"`
	// Tables are the base tables (views and sequences left out).
	Tables     []TableRow      `json:"tables"`
	Columns    []ColumnRow     `json:"columns"`
	Statistics []StatisticsRow `json:"statistics"`
	Checks     []CheckRow      `json:"checks"`
	// Privileges is what the account holds beyond single tables; nil when
	// it could not be read, which is taken for a full view.
	Privileges *PrivilegeRow `json:"privileges,omitempty"`
	// Definitions are the SHOW CREATE TABLE of the tables whose CHECK
	// constraints CHECK_CONSTRAINTS may have hidden from the account (see
	// Server.HidesChecksWithoutSchemaPrivilege).
	Definitions []DefinitionRow `json:"definitions,omitempty"`
	// Queries is how many queries Introspect issued; it does not grow with
	// the number of tables, but for the Definitions an account granted
	// single tables needs read.
	Queries int `json:"queries"`
}

// TableRow is a row of information_schema.TABLES.
type TableRow struct {
	Name   string  `json:"TABLE_NAME"`
	Engine *string `json:"ENGINE"`
}

// ColumnRow is a row of information_schema.COLUMNS.
type ColumnRow struct {
	Table    string `json:"TABLE_NAME"`
	Name     string `json:"COLUMN_NAME"`
	Position int    `json:"ORDINAL_POSITION"`
	// ColumnType is the full type, e.g. "bigint(20) unsigned", "decimal(10,2)".
	ColumnType string `json:"COLUMN_TYPE"`
	// DataType is the base type, e.g. "bigint".
	DataType   string `json:"DATA_TYPE"`
	IsNullable string `json:"IS_NULLABLE"`
	// Default is SQL text on MariaDB ("'NEW'", "NULL"), the bare value on
	// MySQL ("NEW", nil for none); see Server.QuotesColumnDefault.
	Default *string `json:"COLUMN_DEFAULT"`
	Extra   string  `json:"EXTRA"`
	Comment string  `json:"COLUMN_COMMENT"`
}

// StatisticsRow is a row of information_schema.STATISTICS: one part of one index.
type StatisticsRow struct {
	Table     string `json:"TABLE_NAME"`
	Index     string `json:"INDEX_NAME"`
	NonUnique int    `json:"NON_UNIQUE"`
	Seq       int    `json:"SEQ_IN_INDEX"`
	// Column is nil for a functional key part (MySQL 8.0.13 on), whose
	// expression is in Expression.
	Column     *string `json:"COLUMN_NAME"`
	Expression *string `json:"EXPRESSION,omitempty"`
	// Nullable is "YES" when the part can be NULL, else "".
	Nullable  string `json:"NULLABLE"`
	IndexType string `json:"INDEX_TYPE"`
}

// CheckRow is a CHECK constraint: a row of CHECK_CONSTRAINTS, joined on
// MySQL with TABLE_CONSTRAINTS for its table and ENFORCED.
type CheckRow struct {
	Table  string `json:"TABLE_NAME"`
	Name   string `json:"CONSTRAINT_NAME"`
	Clause string `json:"CHECK_CLAUSE"`
	// Enforced is "YES" or "NO" on MySQL; nil on MariaDB, which enforces
	// every CHECK.
	Enforced *string `json:"ENFORCED,omitempty"`
}

// PrivilegeRow counts the privileges of the account that cover the whole
// database: table privileges (SELECT, INSERT, …) granted globally
// (USER_PRIVILEGES) or on the database (SCHEMA_PRIVILEGES), and the roles
// enabled for the session, whose privileges these views do not show.
type PrivilegeRow struct {
	TablePrivileges int `json:"table_privileges"`
	EnabledRoles    int `json:"enabled_roles"`
}

// tablesOnly reports whether the account sees the database through grants on
// single tables only.
func (p *PrivilegeRow) tablesOnly() bool {
	return p != nil && p.TablePrivileges == 0 && p.EnabledRoles == 0
}

// mayHideChecks reports whether a server that hides checks without a
// database-wide privilege may have hidden some from this account.
func (p *PrivilegeRow) mayHideChecks() bool { return p != nil && p.TablePrivileges == 0 }

// DefinitionRow is the SHOW CREATE TABLE of one table, or the server's refusal
// to show it.
type DefinitionRow struct {
	Table       string `json:"table"`
	CreateTable string `json:"create_table,omitempty"`
	// Refused is set when the account may not see the definition (it holds
	// privileges on some columns only).
	Refused bool `json:"refused,omitempty"`
}

// FromInformationSchema reads the schema of database from a live server:
// Introspect, then FromRows.
func FromInformationSchema(ctx context.Context, db Querier, database string) (*Schema, Server, error) {
	rows, err := Introspect(ctx, db, database)
	if err != nil {
		return nil, Server{}, err
	}
	return FromRows(rows)
}

// The queries of Introspect. Each reads the whole database at once, so that
// their number does not grow with the number of tables. STATISTICS has no
// ORDER BY: MariaDB lists a table's indexes in the table's own key order,
// which no column of it shows (see Server.ListsIndexesInKeyOrder).
const (
	queryVersion = `SELECT @@version`
	queryTables  = `SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES
WHERE TABLE_SCHEMA = ? AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')
ORDER BY TABLE_NAME`
	queryColumns = `SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COLUMN_COMMENT
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?
ORDER BY TABLE_NAME, ORDINAL_POSITION`
	queryStatistics = `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, NULLABLE, INDEX_TYPE
FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?`
	queryStatisticsExpr = `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, NULLABLE, INDEX_TYPE, EXPRESSION
FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?`
	// MySQL: check names are unique per schema, so the name joins a check
	// to its table.
	queryChecksMySQL = `SELECT tc.TABLE_NAME, cc.CONSTRAINT_NAME, cc.CHECK_CLAUSE, tc.ENFORCED
FROM information_schema.CHECK_CONSTRAINTS cc
JOIN information_schema.TABLE_CONSTRAINTS tc
  ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME
WHERE cc.CONSTRAINT_SCHEMA = ? AND tc.CONSTRAINT_TYPE = 'CHECK'
ORDER BY tc.TABLE_NAME, cc.CONSTRAINT_NAME`
	queryChecksMariaDB = `SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE
FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`
	// The account's table privileges held globally or on the database (a
	// grant on a name pattern included), then its enabled roles (MariaDB
	// lists one NULL role when none is). GRANTEE is 'user'@'host';
	// CURRENT_USER() is user@host.
	queryPrivileges = `SELECT
  (SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES u
    WHERE u.GRANTEE = me.g AND u.PRIVILEGE_TYPE IN (` + tablePrivileges + `))
  + (SELECT COUNT(*) FROM information_schema.SCHEMA_PRIVILEGES s
    WHERE s.GRANTEE = me.g AND ? LIKE s.TABLE_SCHEMA AND s.PRIVILEGE_TYPE IN (` + tablePrivileges + `)),
  (SELECT COUNT(ROLE_NAME) FROM information_schema.ENABLED_ROLES)
FROM (SELECT CONCAT(QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', 1)), '@', QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', -1))) AS g) AS me`
	tablePrivileges = `'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'REFERENCES', 'INDEX', 'ALTER',
    'CREATE VIEW', 'SHOW VIEW', 'TRIGGER', 'DELETE HISTORY'`
)

// Server errors of a statement the account's privileges do not allow.
const (
	errTableAccessDenied  = 1142 // ER_TABLEACCESS_DENIED_ERROR
	errColumnAccessDenied = 1143 // ER_COLUMNACCESS_DENIED_ERROR
	errDBAccessDenied     = 1044 // ER_DBACCESS_DENIED_ERROR
)

// Introspect reads the rows of information_schema that describe database:
// @@version, then its tables, columns, index parts and CHECK constraints, one
// query each whatever the number of tables, and the account's privileges on
// the database. An account that holds privileges on single tables only sees
// only those tables; where the server then hides their CHECK constraints,
// Introspect reads SHOW CREATE TABLE of each table without a visible check,
// one query per table. Errors name what was being read, never how the server
// was reached.
func Introspect(ctx context.Context, db Querier, database string) (*InfoRows, error) {
	if database == "" {
		return nil, errors.New("introspect: no database given")
	}
	in := &introspection{ctx: ctx, db: db, rows: &InfoRows{Database: database}}
	if err := in.readVersion(); err != nil {
		return nil, err
	}
	srv := ParseServer(in.rows.Version)
	if err := in.readTables(); err != nil {
		return nil, err
	}
	if err := in.readColumns(); err != nil {
		return nil, err
	}
	if err := in.readIndexes(srv); err != nil {
		return nil, err
	}
	r := in.rows
	if !srv.ListsCheckConstraints() {
		return r, nil
	}
	if err := in.readChecks(srv); err != nil {
		return nil, err
	}
	in.readPrivileges()
	if srv.HidesChecksWithoutSchemaPrivilege() && r.Privileges.mayHideChecks() {
		if err := in.readDefinitions(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// readVersion fills Version, which every later query depends on: the
// server's family and version decide which columns the views have.
func (in *introspection) readVersion() error {
	if err := in.query("version", queryVersion, nil, func(sc scanner) error {
		return sc.Scan(&in.rows.Version)
	}); err != nil {
		return err
	}
	if in.rows.Version == "" {
		return fmt.Errorf("introspect %s: the server reported no version", in.rows.Database)
	}
	return nil
}

// readTables fills Tables: one query for every base table of the database,
// whatever their number.
func (in *introspection) readTables() error {
	r := in.rows
	return in.query("tables", queryTables, []any{r.Database}, func(sc scanner) error {
		var t TableRow
		var engine sql.NullString
		if err := sc.Scan(&t.Name, &engine); err != nil {
			return err
		}
		t.Engine = nullable(engine)
		r.Tables = append(r.Tables, t)
		return nil
	})
}

// readColumns fills Columns, the columns of every table in one query; a
// column without a default (nil) stays apart from one whose default is "".
func (in *introspection) readColumns() error {
	r := in.rows
	return in.query("columns", queryColumns, []any{r.Database}, func(sc scanner) error {
		var c ColumnRow
		var def, extra, comment sql.NullString
		if err := sc.Scan(&c.Table, &c.Name, &c.Position, &c.ColumnType, &c.DataType, &c.IsNullable, &def, &extra, &comment); err != nil {
			return err
		}
		c.Default, c.Extra, c.Comment = nullable(def), extra.String, comment.String
		r.Columns = append(r.Columns, c)
		return nil
	})
}

// readIndexes fills Statistics, with the expression of each key part where
// srv has functional key parts (the column does not exist elsewhere).
func (in *introspection) readIndexes(srv Server) error {
	r := in.rows
	withExpr := srv.SupportsFunctionalKeyParts()
	stats := queryStatistics
	if withExpr {
		stats = queryStatisticsExpr
	}
	return in.query("indexes", stats, []any{r.Database}, func(sc scanner) error {
		var s StatisticsRow
		var col, nul, typ, expr sql.NullString
		dest := []any{&s.Table, &s.Index, &s.NonUnique, &s.Seq, &col, &nul, &typ}
		if withExpr {
			dest = append(dest, &expr)
		}
		if err := sc.Scan(dest...); err != nil {
			return err
		}
		s.Column, s.Expression, s.Nullable, s.IndexType = nullable(col), nullable(expr), nul.String, typ.String
		r.Statistics = append(r.Statistics, s)
		return nil
	})
}

// readChecks fills Checks, on a server that lists CHECK constraints, with
// whether each is enforced where the server can leave one unenforced.
func (in *introspection) readChecks(srv Server) error {
	r := in.rows
	// TABLE_CONSTRAINTS.ENFORCED exists where NOT ENFORCED does.
	withEnforced := srv.SupportsNotEnforced()
	checks := queryChecksMariaDB
	if withEnforced {
		checks = queryChecksMySQL
	}
	return in.query("check constraints", checks, []any{r.Database}, func(sc scanner) error {
		var c CheckRow
		if !withEnforced {
			if err := sc.Scan(&c.Table, &c.Name, &c.Clause); err != nil {
				return err
			}
		} else {
			var enforced sql.NullString
			if err := sc.Scan(&c.Table, &c.Name, &c.Clause, &enforced); err != nil {
				return err
			}
			c.Enforced = nullable(enforced)
		}
		r.Checks = append(r.Checks, c)
		return nil
	})
}

// readPrivileges fills Privileges. A server without one of the views (MySQL
// before 8.0.19 has no ENABLED_ROLES) leaves it nil: a full view, as guard
// assumed before it asked.
func (in *introspection) readPrivileges() {
	var p PrivilegeRow
	err := in.query("privileges", queryPrivileges, []any{in.rows.Database}, func(sc scanner) error {
		return sc.Scan(&p.TablePrivileges, &p.EnabledRoles)
	})
	if err == nil {
		in.rows.Privileges = &p
	}
}

// readDefinitions reads SHOW CREATE TABLE of every table that no check row
// names; a table whose definition the account may not see is Refused.
func (in *introspection) readDefinitions() error {
	withChecks := map[string]bool{}
	for _, c := range in.rows.Checks {
		withChecks[strings.ToLower(c.Table)] = true
	}
	for _, t := range in.rows.Tables {
		if withChecks[strings.ToLower(t.Name)] {
			continue
		}
		d := DefinitionRow{Table: t.Name}
		show := "SHOW CREATE TABLE " + QuoteIdent(in.rows.Database) + "." + QuoteIdent(t.Name)
		err := in.query("definition of "+t.Name, show, nil, func(sc scanner) error {
			var name string
			return sc.Scan(&name, &d.CreateTable)
		})
		var me *mysql.MySQLError
		switch {
		case errors.As(err, &me) && (me.Number == errTableAccessDenied || me.Number == errColumnAccessDenied || me.Number == errDBAccessDenied):
			d.Refused, d.CreateTable = true, ""
		case err != nil:
			return err
		}
		in.rows.Definitions = append(in.rows.Definitions, d)
	}
	return nil
}

// introspection is one run of Introspect.
type introspection struct {
	ctx  context.Context
	db   Querier
	rows *InfoRows
}

// scanner is the part of *sql.Rows a row callback needs.
type scanner interface{ Scan(dest ...any) error }

// query runs one query, counts it and hands each row to row.
func (in *introspection) query(what, query string, args []any, row func(scanner) error) error {
	in.rows.Queries++
	rs, err := in.db.QueryContext(in.ctx, query, args...)
	if err != nil {
		return fmt.Errorf("introspect %s: read %s: %w", in.rows.Database, what, err)
	}
	defer rs.Close()
	for rs.Next() {
		if err := row(rs); err != nil {
			return fmt.Errorf("introspect %s: read %s: %w", in.rows.Database, what, err)
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("introspect %s: read %s: %w", in.rows.Database, what, err)
	}
	return nil
}

func nullable(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := s.String
	return &v
}
