package rules

import (
	"os"
	"regexp"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/policy"
)

var (
	codeRE = regexp.MustCompile(`^G[SQMR][0-9]{3}$`)
	nameRE = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
)

// TestRegistry keeps the catalogue coherent: unique sorted codes and names,
// complete documentation, and every code known to policies.toml.
func TestRegistry(t *testing.T) {
	all := All()
	codes := map[string]bool{}
	names := map[string]bool{}
	var list []string
	for _, r := range all {
		if !codeRE.MatchString(r.Code) {
			t.Errorf("%s: bad code", r.Code)
		}
		if !nameRE.MatchString(r.Name) {
			t.Errorf("%s: bad name %q", r.Code, r.Name)
		}
		if codes[r.Code] || names[r.Name] {
			t.Errorf("%s %s: duplicate code or name", r.Code, r.Name)
		}
		codes[r.Code], names[r.Name] = true, true
		if r.Summary == "" || r.Doc == "" || r.Fix == "" || r.Run == nil {
			t.Errorf("%s: summary, doc, fix and run are required", r.Code)
		}
		if r.Severity.Rank() == 0 {
			t.Errorf("%s: default severity %q", r.Code, r.Severity)
		}
		list = append(list, r.Code)
	}
	if !sort.StringsAreSorted(list) {
		t.Errorf("All() is not sorted by code: %v", list)
	}
	ref, err := os.ReadFile("../../policies.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if !regexp.MustCompile(`(?m)^#?\s*` + c + `\s*=`).Match(ref) {
			t.Errorf("%s: not named in the [rules] table of the root policies.toml", c)
		}
	}
	if d := cmp.Diff(policy.Codes(), list); d != "" {
		t.Errorf("policy.Rules fields differ from the registry (-policy +registry):\n%s", d)
	}
}
