package driver_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// TestRulesJudgeStatementsAlone holds the rules marked PerStatement to their
// word: every rule fixture and the corpus give the same findings when each
// statement of a script is parsed and judged on its own as when the
// statements come in parts of the usual size. A rule so marked that looked
// at a statement's neighbours would see none and report otherwise.
func TestRulesJudgeStatementsAlone(t *testing.T) {
	dirs, err := filepath.Glob("../../lint/rules/testdata/G*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("rule fixtures: %v", err)
	}
	dirs = append(dirs, "../../lint/rules/testdata/infer", "testdata/corpus")
	for _, dir := range dirs {
		pol := policy.Default()
		if _, err := os.Stat(filepath.Join(dir, "policies.toml")); err == nil {
			if pol, err = policy.Load(filepath.Join(dir, "policies.toml")); err != nil {
				t.Fatal(err)
			}
		}
		run := func() []lint.Finding {
			res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: pol, Rules: rules.All(), Learn: rules.Learn})
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			return res.Findings
		}
		want := run()
		restore := driver.SetScriptPart(1)
		got := run()
		restore()
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: findings with one statement a part differ (-parts +alone):\n%s", dir, d)
		}
	}
}
