package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// BadVersionColumn reports a version column that cannot serve compare-and-set.
var BadVersionColumn = &lint.Rule{
	Code:    "GS007",
	Name:    "bad-version-column",
	Summary: "version column nullable, not an integer type, or no default",
	Doc: "Compare-and-set works only when every row carries a comparable version: " +
		"`version = ?` is never true for NULL, so a NULL version makes every CAS report a " +
		"conflict (or, worse, code falls back to an unguarded write), and NULL + 1 stays NULL. " +
		"A non-integer version (a timestamp, a string) cannot be bumped atomically with " +
		"version = version + 1 and a timestamp can repeat within its precision. Without a " +
		"default, inserts that forget the column fail or store NULL.",
	Fix:      "ALTER TABLE t_inventory MODIFY version BIGINT UNSIGNED NOT NULL DEFAULT 0 (set NULL versions to 0 first)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runBadVersionColumn,
}

func runBadVersionColumn(p *lint.Pass) error {
	for _, t := range tables(p) {
		c := t.Column(p.Policy.VersionColumn())
		if c == nil {
			continue
		}
		var bad []string
		if c.Nullable {
			bad = append(bad, "is NULLable")
		}
		if !c.IsInteger() {
			bad = append(bad, "is not an integer type ("+c.Type+")")
		}
		if c.Default == nil || strings.EqualFold(*c.Default, "NULL") {
			bad = append(bad, "has no default")
		}
		if len(bad) == 0 {
			continue
		}
		p.ReportTableFix(t, c.Name, fixVersionColumn(t, c), "version column %s.%s %s", t.Name, c.Name, joinAnd(bad))
	}
	return nil
}

// joinAnd joins phrases as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
