package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// Flavor is the server family: MySQL or MariaDB. They share a protocol and
// most of their SQL, but not their version numbers, nor the shape of some
// information_schema tables.
type Flavor int

// Server families. The zero Flavor is unknown: no feature predicate holds
// for it.
const (
	FlavorMySQL Flavor = iota + 1
	FlavorMariaDB
)

// String returns "MySQL", "MariaDB" or "unknown".
func (f Flavor) String() string {
	switch f {
	case FlavorMySQL:
		return "MySQL"
	case FlavorMariaDB:
		return "MariaDB"
	}
	return "unknown"
}

// Server is a server's identity as @@version tells it. Every difference
// between flavors and versions that guard depends on is a method of Server,
// so that no other code compares version numbers.
type Server struct {
	// Version is @@version as the server reported it, e.g.
	// "10.11.19-MariaDB-0+deb12u1" or "8.0.36".
	Version string
	Flavor  Flavor
	Major   int
	Minor   int
	Patch   int
}

// ParseServer reads a version string: MariaDB's "10.11.19-MariaDB-0+deb12u1"
// (also with the "5.5.5-" prefix MariaDB puts in the protocol handshake) or
// MySQL's "8.0.36", "8.4.3-commercial", "8.0.36-0ubuntu0.22.04.1". A string
// naming MariaDB is MariaDB; any other is MySQL. Missing or unreadable
// numbers are 0, so an unknown version fails every feature predicate.
func ParseServer(version string) Server {
	s := Server{Version: version, Flavor: FlavorMySQL}
	v := strings.TrimSpace(version)
	if strings.Contains(strings.ToLower(v), "mariadb") {
		s.Flavor = FlavorMariaDB
		// MariaDB 10+ announces itself as 5.5.5-10.x in the handshake so
		// that old clients do not take it for a MySQL 10.
		if rest, ok := strings.CutPrefix(v, "5.5.5-"); ok {
			v = rest
		}
	}
	nums := [3]int{}
	for i := range nums {
		end := 0
		for end < len(v) && v[end] >= '0' && v[end] <= '9' {
			end++
		}
		if end == 0 || end > 9 {
			break
		}
		nums[i], _ = strconv.Atoi(v[:end])
		v = v[end:]
		if i == len(nums)-1 || !strings.HasPrefix(v, ".") {
			break
		}
		v = v[1:]
	}
	s.Major, s.Minor, s.Patch = nums[0], nums[1], nums[2]
	return s
}

// String returns the flavor and version, e.g. "MariaDB 10.11.19".
func (s Server) String() string {
	return fmt.Sprintf("%s %d.%d.%d", s.Flavor, s.Major, s.Minor, s.Patch)
}

// atLeast reports whether the server is of the given flavor and at least
// version major.minor.patch.
func (s Server) atLeast(f Flavor, major, minor, patch int) bool {
	if s.Flavor != f {
		return false
	}
	if s.Major != major {
		return s.Major > major
	}
	if s.Minor != minor {
		return s.Minor > minor
	}
	return s.Patch >= patch
}

func (s Server) isMySQL() bool   { return s.Flavor == FlavorMySQL }
func (s Server) isMariaDB() bool { return s.Flavor == FlavorMariaDB }

// EnforcesCheck reports whether the server enforces CHECK constraints:
// MySQL 8.0.16 and MariaDB 10.2.1 on. Older servers parse CHECK and ignore
// it, so a CHECK guards nothing there.
func (s Server) EnforcesCheck() bool {
	return s.atLeast(FlavorMySQL, 8, 0, 16) || s.atLeast(FlavorMariaDB, 10, 2, 1)
}

// SupportsInstantAddColumn reports whether ADD COLUMN can be
// ALGORITHM=INSTANT: MySQL 8.0.12 on (for a column added last), MariaDB
// 10.3.2 on.
func (s Server) SupportsInstantAddColumn() bool {
	return s.atLeast(FlavorMySQL, 8, 0, 12) || s.atLeast(FlavorMariaDB, 10, 3, 2)
}

// SupportsNotEnforced reports whether a CHECK can be declared NOT ENFORCED:
// MySQL only, from 8.0.16, where CHECK constraints exist at all. MariaDB
// enforces every CHECK it stores.
func (s Server) SupportsNotEnforced() bool { return s.atLeast(FlavorMySQL, 8, 0, 16) }

// SupportsAlterCheckEnforced reports whether ALTER TABLE … ALTER CHECK name
// [NOT] ENFORCED exists (MySQL 8.0.16 on), which turns a CHECK on without
// dropping and re-adding it.
func (s Server) SupportsAlterCheckEnforced() bool { return s.atLeast(FlavorMySQL, 8, 0, 16) }

// SupportsPersist reports whether SET PERSIST exists (MySQL 8.0 on), so that
// a global setting such as sql_mode survives a restart without my.cnf.
func (s Server) SupportsPersist() bool { return s.atLeast(FlavorMySQL, 8, 0, 0) }

// AddCheckNeedsCopy reports whether ADD CONSTRAINT … CHECK rebuilds the table
// with ALGORITHM=COPY, blocking writes while every row is validated. It holds
// for every MySQL and MariaDB release guard knows of.
func (s Server) AddCheckNeedsCopy() bool { return s.isMySQL() || s.isMariaDB() }

// ListsCheckConstraints reports whether information_schema.CHECK_CONSTRAINTS
// exists: MySQL 8.0.16 on; MariaDB 10.2.22 on in the 10.2 series, 10.3.10 on
// later.
func (s Server) ListsCheckConstraints() bool {
	if s.isMariaDB() && s.Major == 10 && s.Minor == 2 {
		return s.Patch >= 22
	}
	return s.atLeast(FlavorMySQL, 8, 0, 16) || s.atLeast(FlavorMariaDB, 10, 3, 10)
}

// SupportsFunctionalKeyParts reports whether an index part can be an
// expression (MySQL 8.0.13 on), which information_schema.STATISTICS shows in
// its EXPRESSION column with a NULL COLUMN_NAME.
func (s Server) SupportsFunctionalKeyParts() bool { return s.atLeast(FlavorMySQL, 8, 0, 13) }

// QuotesColumnDefault reports whether information_schema.COLUMNS.COLUMN_DEFAULT
// holds SQL text ('NEW', NULL, current_timestamp()), as on MariaDB 10.2.7 on.
// Otherwise (MySQL) it holds the bare value: NEW, no text for no default,
// with EXTRA DEFAULT_GENERATED marking an expression.
func (s Server) QuotesColumnDefault() bool { return s.atLeast(FlavorMariaDB, 10, 2, 7) }

// EscapesExpressionText reports whether the expressions information_schema
// shows (CHECK_CLAUSE, expression defaults, functional key parts) come with
// their quotes and backslashes escaped once more, as in _utf8mb4\'NEW\':
// MySQL 8.0 on, whose data dictionary stores them so.
func (s Server) EscapesExpressionText() bool { return s.atLeast(FlavorMySQL, 8, 0, 0) }

// ListsIndexesInKeyOrder reports whether information_schema.STATISTICS lists
// a table's indexes in the order the server keeps them (SHOW CREATE TABLE's
// order): MariaDB reads them from the table definition. MySQL 8 serves
// STATISTICS from a view over its data dictionary that promises no order.
func (s Server) ListsIndexesInKeyOrder() bool {
	return s.isMariaDB() || (s.isMySQL() && !s.atLeast(FlavorMySQL, 8, 0, 0))
}

// SortsChecksByName reports whether the server keeps a table's CHECK
// constraints ordered by name (MySQL: SHOW CREATE TABLE lists them so);
// MariaDB keeps column checks in column order, then table checks in the
// order they were added.
func (s Server) SortsChecksByName() bool { return s.isMySQL() }

// HidesChecksWithoutSchemaPrivilege reports whether CHECK_CONSTRAINTS leaves
// out the checks of a table to an account whose privileges on it are granted
// on the table alone: MariaDB lists them only for a table privilege held on
// the whole database or globally (GRANT ALL ON db.t is not enough), while
// SHOW CREATE TABLE shows them for any privilege on the table. MySQL 8 lists
// the checks of every table the account can see.
func (s Server) HidesChecksWithoutSchemaPrivilege() bool { return s.isMariaDB() }
