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
	// TiDB is the TiDB release ("7.5.0") when the server is TiDB, which
	// speaks MySQL's protocol and information_schema and answers VERSION()
	// as MySQL 8.0.11 ("8.0.11-TiDB-v7.5.0"): its Flavor is MySQL and its
	// numbers are 8.0.11. "" for MySQL and MariaDB.
	TiDB string
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
	if i := strings.Index(strings.ToLower(version), "-tidb-"); i >= 0 {
		s.TiDB = TiDBRelease(version[i+len("-tidb-"):])
		if s.TiDB == "" {
			s.TiDB = "unknown"
		}
	}
	return s
}

// TiDBRelease reads a TiDB release from the text that names it: the tail of
// VERSION() ("v7.5.0"), or the "Release Version: v7.5.0" line of
// tidb_version(). It returns "7.5.0", or "" when no release is named.
func TiDBRelease(text string) string {
	if i := strings.Index(text, "Release Version:"); i >= 0 {
		text = text[i+len("Release Version:"):]
	}
	text = strings.TrimPrefix(strings.TrimSpace(text), "v")
	end := 0
	for end < len(text) && (text[end] >= '0' && text[end] <= '9' || text[end] == '.') {
		end++
	}
	release := strings.Trim(text[:end], ".")
	if release == "" || !strings.Contains(release, ".") {
		return ""
	}
	return release
}

// String returns the flavor and version, e.g. "MariaDB 10.11.19", or
// "TiDB 7.5.0".
func (s Server) String() string {
	if s.IsTiDB() {
		return "TiDB " + s.TiDB
	}
	return fmt.Sprintf("%s %d.%d.%d", s.Flavor, s.Major, s.Minor, s.Patch)
}

// IsTiDB reports whether the server is TiDB.
func (s Server) IsTiDB() bool { return s.TiDB != "" }

// tidbAtLeast reports whether the server is a TiDB of at least release
// major.minor.
func (s Server) tidbAtLeast(major, minor int) bool {
	if !s.IsTiDB() {
		return false
	}
	parts := strings.SplitN(s.TiDB, ".", 3)
	maj, err1 := strconv.Atoi(parts[0])
	mnr := 0
	var err2 error
	if len(parts) > 1 {
		mnr, err2 = strconv.Atoi(parts[1])
	}
	if err1 != nil || err2 != nil {
		return false
	}
	return maj > major || maj == major && mnr >= minor
}

// SwitchesCheckConstraints reports whether the server enforces CHECK
// constraints only while a variable says so: TiDB from v7.2 does with
// tidb_enable_check_constraint = ON (default OFF); older TiDB parses CHECK
// and ignores it.
func (s Server) SwitchesCheckConstraints() bool { return s.tidbAtLeast(7, 2) }

// RetriesOptimisticTransactions reports whether TiDB may retry an explicit
// optimistic transaction that met a write conflict by running its writes
// again (with tidb_disable_txn_auto_retry = OFF): TiDB before v8.0, which
// removed the retry.
func (s Server) RetriesOptimisticTransactions() bool { return s.IsTiDB() && !s.tidbAtLeast(8, 0) }

// NamesReplicas reports whether the server names its replication
// statements after replicas and sources (SHOW REPLICA STATUS, SHOW
// REPLICAS): MySQL 8.0.22 on, where SHOW SLAVE … is deprecated (gone in
// 8.4). MariaDB keeps SHOW ALL SLAVES STATUS and SHOW SLAVE HOSTS.
func (s Server) NamesReplicas() bool { return s.atLeast(FlavorMySQL, 8, 0, 22) && !s.IsTiDB() }

// NamesSemiSyncSource reports whether MySQL's semi-synchronous replication
// variables are rpl_semi_sync_source_* (the plugin of 8.0.26 on) rather
// than rpl_semi_sync_master_*. A server may load either plugin, so a
// reader asks for both names; this says which to name in advice.
func (s Server) NamesSemiSyncSource() bool { return s.atLeast(FlavorMySQL, 8, 0, 26) && !s.IsTiDB() }

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
// TiDB enforces them only as a variable says (SwitchesCheckConstraints),
// which the server must be asked: EnforcesCheck does not hold for it.
func (s Server) EnforcesCheck() bool {
	if s.IsTiDB() {
		return false
	}
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
