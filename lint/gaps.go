package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// Gaps runs the offline schema rules of rules on s and returns the gaps
// their findings report — the same findings guard lint prints, severities
// of the policy applied (a rule turned off reports none) — ordered by
// table, then by the order of codes (rules reporting no gaps are skipped).
// guard plan closes exactly these gaps, so lint and plan cannot disagree on
// what is missing. sh is the sharding the rules judge the schema with, as
// guard lint's --vschema gives it (nil: every table on one server).
func Gaps(rules []*Rule, pol *policy.Policy, s *schema.Schema, sh *Sharding, order []string) ([]Gap, error) {
	if pol == nil {
		pol = policy.Default()
	}
	var gaps []Gap
	for _, r := range rules {
		if r.Kind != KindSchema || r.Live {
			continue
		}
		pass := NewPass(r, pol, s, nil, nil, nil, func(f Finding) {
			if f.Gap != nil && f.Severity != policy.SevOff {
				gaps = append(gaps, *f.Gap)
			}
		})
		pass.Sharding = sh
		if err := r.Run(pass); err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.Code, err)
		}
	}
	rank := func(code string) int {
		for i, c := range order {
			if c == code {
				return i
			}
		}
		return len(order)
	}
	sort.SliceStable(gaps, func(i, j int) bool {
		a, b := strings.ToLower(gaps[i].Table), strings.ToLower(gaps[j].Table)
		if a != b {
			return a < b
		}
		return rank(gaps[i].Rule) < rank(gaps[j].Rule)
	})
	return gaps, nil
}
