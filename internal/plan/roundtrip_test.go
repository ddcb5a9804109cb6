package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// copyDir copies the files of src into a new temporary folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func ruleByCode(t *testing.T, code string) *lint.Rule {
	t.Helper()
	for _, r := range rules.All() {
		if r.Code == code {
			return r
		}
	}
	t.Fatalf("no rule %s", code)
	return nil
}

// TestFixturesRoundTrip plans every fixture of the schema rules the plan
// answers, writes the files next to the fixture's migrations, and lints the
// folder again: the rule reports nothing that a guard can fix, guard's
// migration rules report nothing in the planned files, and a second plan is
// empty.
func TestFixturesRoundTrip(t *testing.T) {
	for _, code := range []string{"GS003", "GS004", "GS005", "GS006"} {
		fixture := filepath.Join("..", "..", "lint", "rules", "testdata", code)
		pol := policy.Default()
		if _, err := os.Stat(filepath.Join(fixture, "policies.toml")); err == nil {
			if pol, err = policy.Load(filepath.Join(fixture, "policies.toml")); err != nil {
				t.Fatal(err)
			}
		}
		use := []*lint.Rule{ruleByCode(t, code), ruleByCode(t, "GM001"), ruleByCode(t, "GM002"), ruleByCode(t, "GM003"), ruleByCode(t, "GM007"), ruleByCode(t, "GQ009")}
		if got, want := ruleNames[code], use[0].Name; got != want {
			t.Errorf("plan names %s %q, the rule is %q", code, got, want)
		}
		for _, flavor := range []string{FlavorMariaDB, FlavorMySQL8} {
			t.Run(code+"/"+flavor, func(t *testing.T) {
				dir := copyDir(t, filepath.Join(fixture, "migrations"))
				lintCode := func() (fixable, planned []string) {
					res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: pol, Rules: use})
					if err != nil {
						t.Fatal(err)
					}
					for _, f := range res.Findings {
						switch {
						case strings.Contains(filepath.Base(f.File), "_guard_"):
							planned = append(planned, f.File+": "+f.Code+" "+f.Message)
						case f.Code == code && !strings.Contains(f.Message, "names columns the table lacks"):
							fixable = append(fixable, f.Code+" "+f.Message)
						}
					}
					return fixable, planned
				}
				before, _ := lintCode()
				if len(before) == 0 {
					t.Fatalf("the fixture has no %s finding to fix", code)
				}
				off, err := LoadDirs(dir)
				if err != nil {
					t.Fatal(err)
				}
				srv, _ := OfflineServer(flavor)
				steps := Plan(off.Schema, pol, srv, Options{Triggers: off.Triggers})
				if _, err := WriteFiles(dir, steps); err != nil {
					t.Fatal(err)
				}
				after, planned := lintCode()
				if len(after) > 0 {
					t.Errorf("%s still reports after %d steps:\n%s", code, len(steps), strings.Join(after, "\n"))
				}
				if len(planned) > 0 {
					t.Errorf("findings in the planned files:\n%s", strings.Join(planned, "\n"))
				}
				again, err := LoadDirs(dir)
				if err != nil {
					t.Fatal(err)
				}
				if more := Plan(again.Schema, pol, srv, Options{Triggers: again.Triggers}); len(more) > 0 {
					t.Errorf("second plan: %+v", more)
				}
			})
		}
	}
}
