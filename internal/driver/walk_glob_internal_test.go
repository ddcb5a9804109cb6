package driver

import (
	"path"
	"strings"
	"testing"
)

// globOracle is the plain reading of an exclude glob: both cut at every
// call, every element matched with path.Match.
func globOracle(glob, p string) bool {
	var match func(gs, ps []string) bool
	match = func(gs, ps []string) bool {
		for len(gs) > 0 {
			if gs[0] == "**" {
				if len(gs) == 1 {
					return true
				}
				for i := 0; i <= len(ps); i++ {
					if match(gs[1:], ps[i:]) {
						return true
					}
				}
				return false
			}
			if len(ps) == 0 {
				return false
			}
			if ok, err := path.Match(gs[0], ps[0]); err != nil || !ok {
				return false
			}
			gs, ps = gs[1:], ps[1:]
		}
		return len(ps) == 0
	}
	return match(strings.Split(strings.TrimPrefix(glob, "./"), "/"), strings.Split(p, "/"))
}

// TestExcludedIsTheGlobsReading holds the compiled globs to that reading on
// the default excludes and globs of every kind (literal, wildcard, class,
// escape, a malformed one), against paths that do and do not match.
func TestExcludedIsTheGlobsReading(t *testing.T) {
	globs := []string{"**/testdata/**", "vendor/**", "**/*_test.go", "**/src/test/**", "**/test/**", "./gen/*.sql",
		"db/[mM]igr*/**", `a\*b/**`, "x/[/**", "**", "sql/*.sql", "**/target/classes/**"}
	paths := []string{"testdata", "a/testdata/x.sql", "vendor/x/y.go", "x/vendor/y.go", "pkg/a_test.go", "a_test.go",
		"src/test/java/A.java", "m/src/test/A.java", "test", "tests/x", "gen/a.sql", "gen/b/a.sql", "db/migration/V1__x.sql",
		"db/Migr/x", "db/nomigr/x", "a*b/c", "axb/c", "x/[/y", "sql/a.sql", "sql/b/a.sql", "mod/target/classes/A.class",
		"x_test.go/y.go", "a/b/c/x_test.go", "gen", "gen/a.sql/b", ""}
	for _, g := range globs {
		set := compileGlobs([]string{g})
		for _, p := range paths {
			want := p != "" && globOracle(g, p)
			if got := excluded(p, set); got != want {
				t.Errorf("glob %q, path %q: excluded %v, want %v", g, p, got, want)
			}
		}
	}
}
