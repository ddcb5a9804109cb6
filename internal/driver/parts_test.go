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
	sameFindingsWith(t, "one statement a part", func() func() { return driver.SetScriptPart(1) })
}

// TestWholeFileRulesNeedNoRowTree holds the rules that judge a file as a
// whole to what releasing a script's row loads assumes: every rule fixture
// and the corpus give the same findings when those rules see every INSERT's
// tree as when they see a row load's place and text alone.
func TestWholeFileRulesNeedNoRowTree(t *testing.T) {
	sameFindingsWith(t, "the row loads' trees kept", driver.KeepRowTrees)
}

// sameFindingsWith lints every rule fixture and the corpus as usual and
// with the setting change makes, and reports where the findings differ.
func sameFindingsWith(t *testing.T, what string, change func() (restore func())) {
	t.Helper()
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
		restore := change()
		got := run()
		restore()
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: findings with %s differ (-usual +changed):\n%s", dir, what, d)
		}
	}
}
