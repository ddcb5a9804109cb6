package plan

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

// TestPlanAgreesWithLint checks, on every fixture project with migrations
// (each rule's fixture folder, the example shop, the inference fixtures),
// that the gaps guard plan fills are exactly the GS003–GS006 findings guard
// lint reports with the same policy, inferred vocabulary included, and that
// every gap gets at least one step.
func TestPlanAgreesWithLint(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "lint", "rules", "testdata", "*"))
	dirs = append(dirs, filepath.Join("..", "..", "examples", "shop"))
	checked := 0
	for _, dir := range dirs {
		migs := filepath.Join(dir, "migrations")
		if _, err := os.Stat(migs); err != nil {
			continue
		}
		checked++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			pol := policy.Default()
			if _, err := os.Stat(filepath.Join(dir, "policies.toml")); err == nil {
				var err error
				if pol, err = policy.Load(filepath.Join(dir, "policies.toml")); err != nil {
					t.Fatal(err)
				}
			}
			res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: pol, Rules: rules.All(), Learn: rules.Learn})
			if err != nil {
				t.Fatal(err)
			}
			var fromLint []string
			for _, f := range res.Findings {
				switch f.Code {
				case "GS003", "GS004", "GS005", "GS006":
				default:
					continue
				}
				if f.Gap == nil {
					if !strings.Contains(f.Message, "names columns the table lacks") {
						t.Errorf("%s finding without a gap: %s", f.Code, f.Message)
					}
					continue
				}
				fromLint = append(fromLint, gapText(*f.Gap))
			}

			off, err := LoadDirs(migs)
			if err != nil {
				t.Fatal(err)
			}
			v, err := driver.Infer(driver.Config{Paths: []string{dir}, Policy: pol, Schema: off.Schema, Rules: rules.All(), Learn: rules.Learn})
			if err != nil {
				t.Fatal(err)
			}
			var fromPlan []string
			for _, g := range Gaps(off.Schema, v.Policy) {
				fromPlan = append(fromPlan, gapText(g))
			}
			sort.Strings(fromLint)
			sort.Strings(fromPlan)
			if d := cmp.Diff(fromLint, fromPlan); d != "" {
				t.Errorf("lint findings vs plan gaps (-lint +plan):\n%s", d)
			}
			srv, _ := OfflineServer(FlavorMariaDB)
			steps := Plan(off.Schema, v.Policy, srv, Options{Triggers: off.Triggers})
			for _, g := range fromPlan {
				table, rule, _ := strings.Cut(g, " ")
				rule, _, _ = strings.Cut(rule, " ")
				found := false
				for _, st := range steps {
					if strings.EqualFold(st.Table, table) && st.Rule == rule {
						found = true
					}
				}
				if !found {
					t.Errorf("gap %s has no step", g)
				}
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d fixture projects with migrations", checked)
	}
}

func gapText(g Gap) string {
	return strings.ToLower(g.Table) + " " + g.Rule + " " + strings.ToLower(strings.Join(g.Columns, ","))
}
