package schema

import "strings"

// MigrationsTable is where golang-migrate records the version and the dirty
// flag, as its mysql driver does by default and guard migrate does.
const MigrationsTable = "schema_migrations"

// HistoryTable is where guard migrate records every version it applied,
// one row each: golang-migrate's table holds only the current version, so
// it cannot tell a file below it that never ran (GM008 out-of-order).
const HistoryTable = "guard_migration_history"

// DrillScratchPrefix starts the name of every table guard drill creates: the
// prefix, then 16 hex digits (its view adds the suffix _v).
const DrillScratchPrefix = "guard_drill_"

// drillScratchHex is the number of hex digits after DrillScratchPrefix.
const drillScratchHex = 16

// toolTables are the tables other tools keep in the application's
// database: the version tables of Flyway, Liquibase (and its lock) and
// goose, and the undo log of Seata's AT transactions.
var toolTables = map[string]bool{
	"flyway_schema_history": true, "databasechangelog": true, "databasechangeloglock": true,
	"goose_db_version": true, "undo_log": true,
}

// IsBookkeeping reports whether a table named name holds the bookkeeping of
// a tool rather than the application's data: golang-migrate's version table
// and guard migrate's history, guard drill's scratch copies, and other
// migration and transaction tools' tables (toolTables). They are not user
// tables for any rule, so both builders leave them out of the model: a
// database guard migrated passes its own audit, and a dump of it lints like
// its migrations.
func IsBookkeeping(name string) bool {
	name = strings.ToLower(name)
	if name == MigrationsTable || name == HistoryTable || toolTables[name] {
		return true
	}
	hex, ok := strings.CutPrefix(name, DrillScratchPrefix)
	if !ok || len(hex) != drillScratchHex {
		return false
	}
	for _, r := range hex {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// dropBookkeeping removes the bookkeeping tables from s.
func dropBookkeeping(s *Schema) {
	for key, t := range s.Tables {
		if IsBookkeeping(t.Name) {
			delete(s.Tables, key)
		}
	}
}
