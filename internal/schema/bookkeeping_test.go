package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsBookkeeping(t *testing.T) {
	for name, want := range map[string]bool{
		"schema_migrations":              true,
		"SCHEMA_MIGRATIONS":              true,
		"guard_drill_0011223344556677":   true,
		"GUARD_DRILL_00112233445566AB":   true,
		"schema_migrations_old":          false,
		"t_schema_migrations":            false,
		"guard_drill":                    false, // the drill DAO's template table, a real table
		"guard_drill_orders":             false,
		"guard_drill_001122334455667":    false,
		"guard_drill_00112233445566778":  false,
		"guard_drill_001122334455667g":   false,
		"guard_drill_0011223344556677_v": false, // the view: never a table of the model
		"t_stock":                        false,
		"flyway_schema_history":          true,
		"DATABASECHANGELOG":              true,
		"databasechangeloglock":          true,
		"goose_db_version":               true,
		"undo_log":                       true,
		"t_undo_log":                     false,
	} {
		if got := IsBookkeeping(name); got != want {
			t.Errorf("IsBookkeeping(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestFromDDLLeavesOutBookkeeping replays a dump of a migrated database that
// also holds a drill's leftover copy: only the application's table remains,
// and the statements on the bookkeeping tables replay without errors.
func TestFromDDLLeavesOutBookkeeping(t *testing.T) {
	s, errs := replayDDL(t, `CREATE TABLE schema_migrations (version bigint NOT NULL, dirty tinyint(1) NOT NULL, PRIMARY KEY (version));
ALTER TABLE schema_migrations ADD COLUMN note INT;
CREATE TABLE guard_drill_0011223344556677 (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT NOT NULL);
CREATE TABLE guard_drill (id BIGINT PRIMARY KEY, stock INT NOT NULL, version BIGINT UNSIGNED NOT NULL);
CREATE TABLE t_stock (id INT PRIMARY KEY, stock INT NOT NULL);`)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var names []string
	for _, tb := range s.Sorted() {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"guard_drill", "t_stock"}, names); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
}

// TestFromRowsLeavesOutBookkeeping: the live builder leaves out the same
// tables, with their columns and indexes.
func TestFromRowsLeavesOutBookkeeping(t *testing.T) {
	rows := &InfoRows{
		Version: "10.11.8-MariaDB",
		Tables:  []TableRow{{Name: "schema_migrations"}, {Name: "t_stock"}},
		Columns: []ColumnRow{
			{Table: "schema_migrations", Name: "version", Position: 1, ColumnType: "bigint(20)", DataType: "bigint", IsNullable: "NO"},
			{Table: "t_stock", Name: "id", Position: 1, ColumnType: "int(11)", DataType: "int", IsNullable: "NO"},
		},
	}
	s, _, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 1 || s.Table("t_stock") == nil {
		t.Errorf("tables %v, want only t_stock", s.Tables)
	}
}
