// Package plan turns the gaps between a policy and a schema into ordered
// golang-migrate steps: one DDL statement each, with the algorithm and lock
// it runs with, whether it blocks writes, and how to roll it back. Plan is a
// pure function of its inputs; WriteFiles writes the files; the live inputs
// (server, sql_mode, triggers, row counts) come from ReadLive.
package plan

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// Gap is one guard the policy asks for and a table lacks. Its conditions are
// those of the schema rules that report it, so that a schema with every gap
// closed passes them.
type Gap struct {
	Table string
	// Rule is the code of the rule that reports the gap: GS003 (no CHECK on
	// a counter), GS004 (NULLable counter), GS005 (business key or policy
	// unique set without a UNIQUE index) or GS006 (no version column).
	Rule string
	// Columns are the columns concerned, as the table spells them: the
	// counter, the key or the set; the version column for GS006.
	Columns []string
	// Unenforced is the NOT ENFORCED CHECK that already proves a GS003
	// counter non-negative, if any: turning it on closes the gap.
	Unenforced *schema.Check
}

// Gaps returns the gaps of every table of s, ordered by table name, then as
// Plan orders its steps: NULLable counters, the version column, counters
// without an enforced CHECK, then keys and sets without a UNIQUE index.
func Gaps(s *schema.Schema, pol *policy.Policy) []Gap {
	if s == nil {
		return nil
	}
	if pol == nil {
		pol = policy.Default()
	}
	var out []Gap
	for _, t := range s.Sorted() {
		out = append(out, tableGaps(t, pol)...)
	}
	return out
}

func tableGaps(t *schema.Table, pol *policy.Policy) []Gap {
	var counters, states []*schema.Column
	for _, c := range t.Columns {
		if pol.IsCounter(t.Name, c.Name) {
			counters = append(counters, c)
		}
		if pol.IsState(t.Name, c.Name) {
			states = append(states, c)
		}
	}
	var out []Gap
	// GS004: NOT NULL first, since a CHECK lets NULL through.
	for _, c := range counters {
		if c.Nullable {
			out = append(out, Gap{Table: t.Name, Rule: "GS004", Columns: []string{c.Name}})
		}
	}
	// GS006.
	vc := pol.VersionColumn()
	if t.Column(vc) == nil && pol.RequireVersion(t.Name, len(counters)+len(states) > 0) {
		out = append(out, Gap{Table: t.Name, Rule: "GS006", Columns: []string{vc}})
	}
	// GS003.
	for _, c := range counters {
		chk := t.NonNegativeCheck(c.Name)
		switch {
		case chk != nil && c.Nullable && columnCheck(chk, c):
			// MariaDB ties a column-level CHECK to its column, and the
			// MODIFY that makes the column NOT NULL drops it with the old
			// definition: a CHECK has to come back after it.
			out = append(out, Gap{Table: t.Name, Rule: "GS003", Columns: []string{c.Name}})
		case chk != nil && chk.Enforced:
			continue
		default:
			out = append(out, Gap{Table: t.Name, Rule: "GS003", Columns: []string{c.Name}, Unenforced: chk})
		}
	}
	// GS005: single business keys, then the policy's unique sets.
	single := map[string]bool{}
	for _, c := range t.Columns {
		if !pol.IsBusinessKey(t.Name, c.Name) || t.HasUniqueOn(c.Name) {
			continue
		}
		single[strings.ToLower(c.Name)] = true
		out = append(out, Gap{Table: t.Name, Rule: "GS005", Columns: []string{c.Name}})
	}
	for _, set := range pol.UniqueSets(t.Name) {
		if len(set) == 1 && single[strings.ToLower(set[0])] {
			continue
		}
		if t.HasUniqueOn(set...) || hasSet(out, t.Name, set) {
			continue
		}
		cols := make([]string, 0, len(set))
		for _, name := range set {
			c := t.Column(name)
			if c == nil {
				// GS005 reports a set naming a missing column as a policy
				// mistake: no index can fix it.
				cols = nil
				break
			}
			cols = append(cols, c.Name)
		}
		if cols != nil {
			out = append(out, Gap{Table: t.Name, Rule: "GS005", Columns: cols})
		}
	}
	return out
}

// columnCheck reports whether chk is the column-level CHECK of c: MariaDB
// names such a check after its column, and so does FromDDL.
func columnCheck(chk *schema.Check, c *schema.Column) bool {
	return strings.EqualFold(chk.Name, c.Name)
}

// hasSet reports whether gaps already hold a unique gap of table on the
// columns set, in any order: a policy may repeat a set.
func hasSet(gaps []Gap, table string, set []string) bool {
	for _, g := range gaps {
		if g.Rule == "GS005" && g.Table == table && schema.SameColumns(g.Columns, set) {
			return true
		}
	}
	return false
}
