package rules

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/vitess"
)

// want is one expected finding: a regexp over "CODE message" at file:line.
type want struct {
	file string
	line int
	re   *regexp.Regexp
	raw  string
}

// commentMarkers start the comments that may carry a want expectation.
var commentMarkers = []string{"-- ", "//", "#", "<!--", "/*"}

// readWants collects the `want "re" …` comments of every file below dir.
func readWants(t *testing.T, dir string) []want {
	t.Helper()
	var out []want
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "policies.toml" {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			k := strings.Index(text, `want "`)
			if k < 0 || !hasMarkerBefore(text[:k]) {
				continue
			}
			rest := text[k+len("want "):]
			for strings.HasPrefix(rest, `"`) {
				s, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return fmt.Errorf("%s:%d: bad want: %v", p, line, err)
				}
				pat, _ := strconv.Unquote(s)
				re, err := regexp.Compile(pat)
				if err != nil {
					return fmt.Errorf("%s:%d: bad want regexp: %v", p, line, err)
				}
				out = append(out, want{file: filepath.ToSlash(p), line: line, re: re, raw: pat})
				rest = strings.TrimLeft(rest[len(s):], " ")
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hasMarkerBefore(s string) bool {
	for _, m := range commentMarkers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// needsGit names the rules a fixture folder cannot show, since they compare
// the files with a git revision (guard lint --new-from-rev), with the test
// that checks them in temporary repositories instead.
var needsGit = map[string]string{
	"GM008": "cmd/guard TestOutOfOrderMerge",
}

// TestFixtures lints testdata/<CODE> for every rule and compares the rule's
// findings with the fixture's want comments: a missing finding and an
// unexpected one both fail.
func TestFixtures(t *testing.T) {
	for _, r := range All() {
		dir := filepath.Join("testdata", r.Code)
		if _, err := os.Stat(dir); err != nil {
			if !r.Live && needsGit[r.Code] == "" {
				t.Errorf("%s: no fixture folder %s", r.Code, dir)
			}
			continue
		}
		if needsGit[r.Code] != "" {
			t.Errorf("%s: a fixture folder %s, though the rule needs git (%s)", r.Code, dir, needsGit[r.Code])
			continue
		}
		code := r.Code
		t.Run(code, func(t *testing.T) {
			checkFixture(t, dir, func(c string) bool { return c == code })
		})
	}
}

// TestInferenceFixture checks the project of testdata/infer against every
// rule at once: the vocabulary inference changes what several rules report,
// and each of its findings must be wanted.
func TestInferenceFixture(t *testing.T) {
	checkFixture(t, filepath.Join("testdata", "infer"), func(string) bool { return true })
}

// wantCode finds the rule code a want expectation names.
var wantCode = regexp.MustCompile(`G[MQRS][0-9]{3}`)

// checkFixture lints dir (with its policies.toml, and the Vitess keyspace
// of its vschema.json, if any) and matches the
// findings of the codes checked reports against the want comments: a missing
// and an unexpected finding both fail.
func checkFixture(t *testing.T, dir string, checked func(code string) bool) {
	t.Helper()
	pol := policy.Default()
	if _, err := os.Stat(filepath.Join(dir, "policies.toml")); err == nil {
		p, err := policy.Load(filepath.Join(dir, "policies.toml"))
		if err != nil {
			t.Fatal(err)
		}
		pol = p
	}
	cfg := driver.Config{Paths: []string{dir}, Policy: pol, Rules: All(), Learn: Learn}
	if _, err := os.Stat(filepath.Join(dir, "vschema.json")); err == nil {
		vs, err := vitess.Load(filepath.Join(dir, "vschema.json"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Sharding = vs.Sharding()
	}
	res, err := driver.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	wants := readWants(t, dir)
	wanted := func(w want) bool {
		return checked(wantCode.FindString(w.raw))
	}
	positive := 0
	for _, w := range wants {
		if wanted(w) {
			positive++
		}
	}
	if positive == 0 {
		t.Errorf("fixture %s has no want comment it checks: it cannot fail", dir)
	}
	used := make([]bool, len(wants))
	for _, f := range res.Findings {
		if f.EndLine < f.Line {
			t.Errorf("%s:%d:%d: %s ends at line %d, before it starts", f.File, f.Line, f.Column, f.Code, f.EndLine)
		}
		if !checked(f.Code) {
			continue
		}
		text := f.Code + " " + f.Message
		matched := false
		for i, w := range wants {
			if !used[i] && w.file == f.File && w.line == f.Line && w.re.MatchString(text) {
				used[i], matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected finding: %s", f.File, f.Line, f.Column, text)
		}
	}
	var missing []string
	for i, w := range wants {
		if !used[i] && wanted(w) {
			missing = append(missing, fmt.Sprintf("%s:%d: no finding matching %q", w.file, w.line, w.raw))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
}

// TestSchemaByWritesFixture checks GS006 and GS003 on testdata/versioned, a
// project whose code shows its writes: only the tables a write needs the
// version column for, and only the counters the code changes in place, are
// reported (testdata/GS006 and GS003 are schemas without code).
func TestSchemaByWritesFixture(t *testing.T) {
	checkFixture(t, filepath.Join("testdata", "versioned"), func(c string) bool { return c == "GS006" || c == "GS003" })
}
