package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// TestOneFindingPerStatement checks that the engine reports a finding once
// for the variants of a dynamic statement, and keeps apart what differs:
// another statement, another column, the statements of one static element.
func TestOneFindingPerStatement(t *testing.T) {
	dir := t.TempDir()
	mapper := `<mapper namespace="m">
  <update id="dynamic">
    UPDATE t SET a = 1
    <where><if test="x != null">id = #{x}</if></where>
  </update>
  <update id="twice">UPDATE t SET a = 1 WHERE id = 1; UPDATE t SET a = 2 WHERE id = 2</update>
</mapper>`
	if err := os.WriteFile(filepath.Join(dir, "M.xml"), []byte(mapper), 0o644); err != nil {
		t.Fatal(err)
	}
	everyStatement := &lint.Rule{Code: "GQ001", Name: "every-statement", Kind: lint.KindQuery, Severity: policy.SevError,
		Run: func(p *lint.Pass) error {
			for _, st := range p.Statements {
				if st.Node == nil {
					continue
				}
				p.ReportStatement(st, "t", "a", "statement %q %s", st.Fragment.ID, st.Fragment.Variant)
				p.ReportStatement(st, "t", "b", "statement %q %s", st.Fragment.ID, st.Fragment.Variant)
			}
			return nil
		}}
	res, err := Run(Config{Paths: []string{dir}, Rules: []*lint.Rule{everyStatement}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.ColumnName+" "+f.Message)
	}
	want := []string{
		`a statement "dynamic" with every optional condition present`,
		`b statement "dynamic" with every optional condition present`,
		`a statement "twice" `,
		`b statement "twice" `,
		`a statement "twice" `,
		`b statement "twice" `,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}
