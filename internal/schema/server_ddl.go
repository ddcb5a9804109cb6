package schema

// The algorithms of an ALTER TABLE, as the server names them, cheapest
// first; AlgorithmNone is for the statements that are not one (CREATE
// TABLE, a trigger, SET, DML).
const (
	AlgorithmInstant = "INSTANT"
	AlgorithmInplace = "INPLACE"
	AlgorithmCopy    = "COPY"
	AlgorithmNone    = "-"
)

// The locks of an ALTER TABLE, least restrictive first: NONE lets reads and
// writes go on, SHARED lets reads go on, EXCLUSIVE lets nothing go on.
// LockNone is also the lock of an online copy.
const (
	LockNone      = "NONE"
	LockShared    = "SHARED"
	LockExclusive = "EXCLUSIVE"
)

// What an online DDL operation costs on each server: the algorithm it needs
// at least and whether writes go on while it runs. guard migrate --dry-run
// and [migrate] max_blocking_rows read them; the version knowledge stays
// here, next to Server's other predicates.

// SupportsInstantDropColumn reports whether DROP COLUMN can be
// ALGORITHM=INSTANT: MySQL 8.0.29 on, MariaDB 10.4.0 on. Before that it
// rebuilds the table in place (writes go on).
func (s Server) SupportsInstantDropColumn() bool {
	return s.atLeast(FlavorMySQL, 8, 0, 29) || s.atLeast(FlavorMariaDB, 10, 4, 0)
}

// SupportsInstantAddColumnAnywhere reports whether an ADD COLUMN with FIRST
// or AFTER can be ALGORITHM=INSTANT: MySQL 8.0.29 on (before, only a column
// added last), MariaDB 10.4.0 on (10.3 only a column added last).
func (s Server) SupportsInstantAddColumnAnywhere() bool {
	return s.atLeast(FlavorMySQL, 8, 0, 29) || s.atLeast(FlavorMariaDB, 10, 4, 0)
}

// BuildsIndexOnline reports whether ADD INDEX / ADD UNIQUE / CREATE INDEX
// runs ALGORITHM=INPLACE, LOCK=NONE (InnoDB online DDL: writes go on while
// the index is built): MySQL 5.6 and MariaDB 10.0 on.
func (s Server) BuildsIndexOnline() bool {
	return s.atLeast(FlavorMySQL, 5, 6, 0) || s.atLeast(FlavorMariaDB, 10, 0, 0)
}

// ChangesColumnTypeByCopy reports whether changing a column's data type
// (MODIFY/CHANGE to another type, other than a VARCHAR lengthened within the
// same length-prefix size) copies the table, blocking writes: every MySQL
// and MariaDB release guard knows of.
func (s Server) ChangesColumnTypeByCopy() bool { return s.isMySQL() || s.isMariaDB() }

// RejectsLockWithInstant reports whether the server refuses
// ALGORITHM=INSTANT together with an explicit LOCK= clause (NONE, SHARED or
// EXCLUSIVE): MySQL does, MariaDB accepts the pair.
func (s Server) RejectsLockWithInstant() bool { return s.isMySQL() }

// SupportsMultipleTriggers reports whether a table can have several
// triggers for one event and action time (MySQL 5.7.2 on, MariaDB 10.2.3
// on): pt-online-schema-change --preserve-triggers needs it, since its own
// triggers sit beside the table's.
func (s Server) SupportsMultipleTriggers() bool {
	return s.atLeast(FlavorMySQL, 5, 7, 2) || s.atLeast(FlavorMariaDB, 10, 2, 3)
}
