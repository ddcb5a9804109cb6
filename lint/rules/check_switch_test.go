package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// TestCheckConstraintChecksOff: each scope in which MariaDB's
// check_constraint_checks is OFF is one GS002, counting the enforced CHECKs
// it switches off; NOT ENFORCED ones are still reported on their own.
func TestCheckConstraintChecksOff(t *testing.T) {
	s := schema.New()
	s.Add(&schema.Table{Name: "t_stock", Checks: []*schema.Check{
		{Name: "chk_a", Expr: "`a`>=0", Enforced: true, NonNegative: []string{"a"}},
		{Name: "chk_b", Expr: "`b`>=0", Enforced: true, NonNegative: []string{"b"}},
	}})
	s.Add(&schema.Table{Name: "t_off", Checks: []*schema.Check{{Name: "chk_c", Expr: "`c`>=0", NonNegative: []string{"c"}}}})
	live := &lint.Live{Target: "db:3306/shop", Version: "10.11.6-MariaDB", EnforceCheck: true, CheckChecksOff: []string{"global", "session"}}
	var got []string
	for _, f := range runRule(t, schemarules.CheckUnenforced, nil, s, nil, live) {
		got = append(got, f.ColumnName+": "+f.Message)
	}
	want := []string{
		"@@global.check_constraint_checks: global check_constraint_checks is OFF: none of the 2 CHECK constraints on 1 table is evaluated, and a write that breaks one succeeds",
		"@@session.check_constraint_checks: session check_constraint_checks is OFF: none of the 2 CHECK constraints on 1 table is evaluated, and a write that breaks one succeeds",
		"c: CHECK chk_c (`c`>=0) on t_off is NOT ENFORCED: the server never evaluates it",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	live.CheckChecksOff = []string{"session"}
	fs := runRule(t, schemarules.CheckUnenforced, nil, schema.New(), nil, live)
	if len(fs) != 1 || fs[0].Message != "session check_constraint_checks is OFF: no CHECK constraint is evaluated, not even one added later, "+
		"and a write that breaks one succeeds" {
		t.Errorf("no CHECK: %+v", fs)
	}
	// Offline, the switch is unknown: nothing is said of it.
	if fs := runRule(t, schemarules.CheckUnenforced, nil, schema.New(), nil, nil); len(fs) != 0 {
		t.Errorf("offline: %+v", fs)
	}
}
