package rules

import (
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// unknownChecksSchema has the same counters on a table whose checks the
// account could not read and on one whose checks it read and found none.
func unknownChecksSchema() *schema.Schema {
	s := schema.New()
	for _, name := range []string{"t_hidden", "t_seen"} {
		s.Add(&schema.Table{Name: name, ChecksUnknown: name == "t_hidden", Columns: []*schema.Column{
			{Name: "id", Type: "bigint"},
			{Name: "stock", Type: "int"},
			{Name: "quantity", Type: "int", Nullable: true},
		}, PrimaryKey: []string{"id"}})
	}
	return s
}

// TestCounterChecksUnknown: a counter of a table whose checks are unknown is
// "cannot tell" at info, with no gap to plan, whatever severity the policy
// gives GS003; the twin table with checks known to be absent is an error.
func TestCounterChecksUnknown(t *testing.T) {
	for _, pol := range []string{"", "version = 1\n[rules]\nGS003 = \"error\"\n"} {
		var p *policy.Policy
		if pol != "" {
			p = mustPolicy(t, pol)
		}
		got := map[string]int{}
		for _, f := range runRule(t, schemarules.CounterWithoutCheck, p, unknownChecksSchema(), nil, nil) {
			switch f.Table {
			case "t_hidden":
				if f.Severity != policy.SevInfo || f.Gap != nil || !strings.HasPrefix(f.Message, "cannot tell whether counter t_hidden.") ||
					!strings.Contains(f.Message, "the account cannot see t_hidden's CHECK constraints") {
					t.Errorf("policy %q: t_hidden.%s: %s gap %v %q, want info without gap, cannot tell", pol, f.ColumnName, f.Severity, f.Gap, f.Message)
				}
			case "t_seen":
				if f.Severity != policy.SevError || f.Gap == nil {
					t.Errorf("policy %q: t_seen.%s: %s gap %v, want error with gap", pol, f.ColumnName, f.Severity, f.Gap)
				}
			}
			got[f.Table]++
		}
		if got["t_hidden"] != 2 || got["t_seen"] != 2 {
			t.Errorf("policy %q: findings per table %v, want 2 each", pol, got)
		}
	}
	off := mustPolicy(t, "version = 1\n[rules]\nGS003 = \"off\"\n")
	for _, f := range runRule(t, schemarules.CounterWithoutCheck, off, unknownChecksSchema(), nil, nil) {
		if f.Severity != policy.SevOff {
			t.Errorf("GS003 off: %s.%s reported at %s", f.Table, f.ColumnName, f.Severity)
		}
	}
}

// TestNullableCounterChecksUnknown: the NULLable counter is reported on both
// tables, but only the one whose checks are known gets a gap: the MODIFY of
// the other could drop a column CHECK nobody saw.
func TestNullableCounterChecksUnknown(t *testing.T) {
	fs := runRule(t, schemarules.NullableCounter, nil, unknownChecksSchema(), nil, nil)
	if len(fs) != 2 {
		t.Fatalf("%d findings, want 2: %+v", len(fs), fs)
	}
	for _, f := range fs {
		if f.Severity != policy.SevError {
			t.Errorf("%s: severity %s, want error", f.Table, f.Severity)
		}
		if hidden := f.Table == "t_hidden"; hidden != (f.Gap == nil) {
			t.Errorf("%s: gap %v", f.Table, f.Gap)
		}
		if f.Table == "t_hidden" && !strings.Contains(f.Message, "not planned: the account cannot see t_hidden's CHECK constraints") {
			t.Errorf("t_hidden: %q does not say why nothing is planned", f.Message)
		}
	}
}

// TestColumnsPartial: a table of which the account sees some columns and no
// index is left out of the rules that report what a table lacks (a business
// key without UNIQUE, no version column, no primary key); its twin, seen
// whole, gets all three.
func TestColumnsPartial(t *testing.T) {
	s := schema.New()
	for _, name := range []string{"t_partial", "t_whole"} {
		s.Add(&schema.Table{Name: name, ColumnsPartial: name == "t_partial", ChecksUnknown: name == "t_partial", Columns: []*schema.Column{
			{Name: "stock", Type: "int"},
			{Name: "order_no", Type: "varchar"},
		}})
	}
	for _, rule := range []*lint.Rule{schemarules.BusinessKeyNotUnique, schemarules.MissingVersionColumn, schemarules.NoPrimaryKey} {
		var tables []string
		for _, f := range runRule(t, rule, nil, s, nil, nil) {
			tables = append(tables, f.Table)
		}
		if strings.Join(tables, ",") != "t_whole" {
			t.Errorf("%s reported on %v, want t_whole only", rule.Code, tables)
		}
	}
}
