package schemarules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// BusinessKeyNotUnique reports business keys and policy unique sets without a
// UNIQUE index on exactly their columns.
var BusinessKeyNotUnique = &lint.Rule{
	Code:    "GS005",
	Name:    "business-key-not-unique",
	Summary: "business key (or policy `unique` set) has no UNIQUE index on exactly it",
	Doc: "Idempotency rests on the database refusing the second row: two retries of one " +
		"payment callback that both pass a \"SELECT ... WHERE pay_no = ?\" check under a lost " +
		"lock insert two rows, and the order is paid twice. Only a UNIQUE index makes the " +
		"second INSERT fail (1062). An index on (pay_no, channel) does not: it allows the " +
		"same pay_no once per channel.",
	Fix: "ALTER TABLE t_payment ADD UNIQUE KEY uk_pay_no (pay_no), ALGORITHM=INPLACE, LOCK=NONE " +
		"(remove duplicates first: the build fails with 1062 if any exist)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runBusinessKeyNotUnique,
}

func runBusinessKeyNotUnique(p *lint.Pass) error {
	for _, t := range wholeTables(p) {
		reported := map[string]bool{}
		for _, c := range t.Columns {
			if !p.Policy.IsBusinessKey(t.Name, c.Name) || t.HasUniqueOn(c.Name) {
				continue
			}
			reported[strings.ToLower(c.Name)] = true
			msg := "business key " + t.Name + "." + c.Name + " has no UNIQUE index on exactly " + list([]string{c.Name})
			if ix := widerUnique(t, c.Name); ix != nil {
				msg += "; the unique index " + ix.Name + " on " + list(ix.Columns) + " allows duplicates of " + c.Name
			}
			p.ReportGap(t, lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: []string{c.Name}}, c.Name, fixAddUnique(t, []string{c.Name}), "%s", msg)
		}
		o := p.Policy.Override(t.Name)
		var sets [][]string
		for _, set := range p.Policy.UniqueSets(t.Name) {
			if len(set) == 1 && reported[strings.ToLower(set[0])] {
				continue
			}
			if t.HasUniqueOn(set...) || repeated(sets, set) {
				continue // a policy may name a set twice: one index closes both
			}
			sets = append(sets, set)
			var missing []string
			for _, c := range set {
				if t.Column(c) == nil {
					missing = append(missing, c)
				}
			}
			if len(missing) > 0 {
				// A glob entry spans tables that need not all carry the set;
				// an entry naming this table alone is a policy mistake worth saying.
				if o != nil && !hasGlob(o.Name) {
					p.ReportTableFix(t, strings.Join(set, ","),
						fmt.Sprintf("correct the unique set %s of the [[table]] entry %q in policies.toml: %s has no column %s",
							list(set), o.Name, t.Name, strings.Join(missing, ", ")),
						"policy unique set %s of %s names columns the table lacks: %s",
						list(set), t.Name, strings.Join(missing, ", "))
				}
				continue
			}
			// The set stands in the column slot so that two sets of one table
			// stay two findings.
			cols := make([]string, len(set))
			for i, name := range set {
				cols[i] = t.Column(name).Name
			}
			p.ReportGap(t, lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: cols}, strings.Join(set, ","), fixAddUnique(t, set), "policy unique set %s of %s has no UNIQUE index on exactly those columns",
				list(set), t.Name)
		}
	}
	return nil
}

// widerUnique returns a unique index that contains col among other columns:
// the usual near miss.
func widerUnique(t *schema.Table, col string) *schema.Index {
	for _, ix := range t.Indexes {
		if !ix.Unique && !ix.Primary {
			continue
		}
		for _, c := range ix.Columns {
			if strings.EqualFold(c, col) {
				return ix
			}
		}
	}
	return nil
}

// repeated reports whether sets already holds set, in any order.
func repeated(sets [][]string, set []string) bool {
	for _, s := range sets {
		if schema.SameColumns(s, set) {
			return true
		}
	}
	return false
}
