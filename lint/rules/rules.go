// Package rules holds guard's rules, one per file, and the registry of them all.
package rules

import (
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/migrationrules"
	"github.com/guard-sql/guard/lint/rules/redisrules"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// All returns every rule, sorted by code. The list is explicit so that adding
// a rule is a visible change.
func All() []*lint.Rule {
	return []*lint.Rule{
		migrationrules.MultipleDDL,           // GM001
		migrationrules.AlterWithoutAlgorithm, // GM002
		migrationrules.BlockingDDL,           // GM003
		migrationrules.Destructive,           // GM004
		migrationrules.GuardRemoved,          // GM005
		migrationrules.Incompatible,          // GM006
		migrationrules.DataDependent,         // GM007
		migrationrules.OutOfOrder,            // GM008
		WriteWithoutWhere,                    // GQ001
		UnguardedDecrement,                   // GQ002
		AbsoluteCounterWrite,                 // GQ003
		VersionNotBumped,                     // GQ004
		UncheckedStateTransition,             // GQ005
		ClampedDecrement,                     // GQ006
		SelectForUpdate,                      // GQ007
		UpsertAsLock,                         // GQ008
		NotChecked,                           // GQ009
		MybatisDollar,                        // GQ010
		RowsAffectedIgnored,                  // GQ011
		redisrules.LockEvictable,             // GR001
		redisrules.LockNotPersisted,          // GR002
		redisrules.LockFsyncWindow,           // GR003
		redisrules.AsyncFailoverWindow,       // GR004
		redisrules.LockWithoutTTL,            // GR005
		schemarules.StrictSQLMode,            // GS001
		schemarules.CheckUnenforced,          // GS002
		schemarules.CounterWithoutCheck,      // GS003
		schemarules.NullableCounter,          // GS004
		schemarules.BusinessKeyNotUnique,     // GS005
		schemarules.MissingVersionColumn,     // GS006
		schemarules.BadVersionColumn,         // GS007
		schemarules.NonTransactionalEngine,   // GS008
		schemarules.NoPrimaryKey,             // GS009
		schemarules.ExistingViolations,       // GS010
		schemarules.CommitDurability,         // GS011
		schemarules.FailoverSafety,           // GS012
	}
}

// ByCode returns the rule with the given code, or nil.
func ByCode(code string) *lint.Rule {
	for _, r := range All() {
		if r.Code == code {
			return r
		}
	}
	return nil
}
