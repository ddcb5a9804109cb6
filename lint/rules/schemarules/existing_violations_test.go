package schemarules

import (
	"database/sql"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// GS010 against a real server is tested by internal/audit (it needs
// rows); these tests cover what it builds before it asks.

func TestExistingViolationsNeedsData(t *testing.T) {
	s := schema.New()
	s.Add(&schema.Table{Name: "t_stock", Columns: []*schema.Column{{Name: "stock", Type: "int"}}})
	for _, live := range []*lint.Live{nil, {Target: "h:1/db"}} {
		var got []lint.Finding
		pass := lint.NewPass(ExistingViolations, policy.Default(), s, nil, nil, live, func(f lint.Finding) { got = append(got, f) })
		if err := ExistingViolations.Run(pass); err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("live %v: findings without a data connection: %v", live, got)
		}
	}
}

func TestExistingViolationsBound(t *testing.T) {
	const sel = "SELECT COUNT(*) FROM `t` WHERE `c` < 0"
	tests := []struct {
		name string
		live lint.Live
		want string
	}{
		{"mariadb", lint.Live{ScanTimeout: 1500 * time.Millisecond, MaxStatementTime: true},
			"SET STATEMENT max_statement_time=1.5 FOR " + sel},
		{"mysql", lint.Live{ScanTimeout: 30 * time.Second},
			"SELECT /*+ MAX_EXECUTION_TIME(30000) */ COUNT(*) FROM `t` WHERE `c` < 0"},
		{"mysql below a millisecond", lint.Live{ScanTimeout: time.Microsecond},
			"SELECT /*+ MAX_EXECUTION_TIME(1) */ COUNT(*) FROM `t` WHERE `c` < 0"},
		{"no bound", lint.Live{}, sel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &scanner{p: &lint.Pass{Live: &tt.live}}
			if got := s.bound(sel); got != tt.want {
				t.Errorf("bound = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDuplicateKeySets(t *testing.T) {
	pol, err := policy.Parse("policies.toml", []byte(`version = 1
[[table]]
name = "t_pay"
unique = [["channel", "trade_no"], ["pay_no"], ["gone", "pay_no"]]
`))
	if err != nil {
		t.Fatal(err)
	}
	tbl := &schema.Table{
		Name: "t_pay",
		Columns: []*schema.Column{
			{Name: "id", Type: "bigint"}, {Name: "pay_no", Type: "varchar"}, {Name: "channel", Type: "varchar"},
			{Name: "trade_no", Type: "varchar"}, {Name: "order_no", Type: "varchar"},
		},
		Indexes: []*schema.Index{
			{Name: "PRIMARY", Primary: true, Columns: []string{"id"}},
			{Name: "uk_order", Unique: true, Columns: []string{"order_no"}},
		},
	}
	want := [][]string{{"pay_no"}, {"trade_no"}, {"channel", "trade_no"}}
	if d := cmp.Diff(want, duplicateKeySets(pol, tbl)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	tbl.Indexes = append(tbl.Indexes, &schema.Index{Name: "uk_ct", Unique: true, Columns: []string{"trade_no", "channel"}})
	if d := cmp.Diff([][]string{{"pay_no"}, {"trade_no"}}, duplicateKeySets(pol, tbl)); d != "" {
		t.Errorf("with a unique index on the set (-want +got):\n%s", d)
	}
	if got := duplicateKeySets(policy.Default(), &schema.Table{Name: "t", Columns: []*schema.Column{{Name: "name"}}}); got != nil {
		t.Errorf("no business key: %v", got)
	}
}

func TestSampleValue(t *testing.T) {
	num := &schema.Column{Name: "stock", Type: "int"}
	dec := &schema.Column{Name: "balance", Type: "decimal"}
	str := &schema.Column{Name: "pay_no", Type: "varchar"}
	tests := []struct {
		col  *schema.Column
		v    sql.NullString
		want string
	}{
		{num, sql.NullString{String: "-3", Valid: true}, "-3"},
		{dec, sql.NullString{String: "-0.50", Valid: true}, "-0.50"},
		{str, sql.NullString{String: "it's", Valid: true}, "'it''s'"},
		{str, sql.NullString{}, "NULL"},
		{str, sql.NullString{String: "a\nb\x00\xff", Valid: true}, "'a?b??'"},
		{str, sql.NullString{String: "0123456789012345678901234567890123456789XYZ", Valid: true}, "'0123456789012345678901234567890123456789…'"},
	}
	for _, tt := range tests {
		if got := sampleValue(tt.col, tt.v); got != tt.want {
			t.Errorf("sampleValue(%s, %q) = %q, want %q", tt.col.Type, tt.v.String, got, tt.want)
		}
	}
}

func TestQuoteName(t *testing.T) {
	for in, want := range map[string]string{"t_stock": "`t_stock`", "order": "`order`", "a`b": "`a``b`"} {
		if got := quoteName(in); got != want {
			t.Errorf("quoteName(%q) = %q, want %q", in, got, want)
		}
	}
}
