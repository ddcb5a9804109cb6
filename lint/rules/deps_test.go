package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesSeeNoReader keeps the seam between the readers and the rules: a
// rule reads the statement form (internal/stmt) and the schema model, never
// an extractor, a framework linker or the lint driver, so that a new host
// language or framework is a package of its own that no rule has to know.
// The guard packages the rules may depend on are listed, with the rule
// packages below lint/rules, whose own dependencies the list covers; any
// other one among `go list -deps ./lint/rules` fails.
func TestRulesSeeNoReader(t *testing.T) {
	allowed := map[string]bool{
		"github.com/guard-sql/guard/lint":              true,
		"github.com/guard-sql/guard/lint/rules":        true,
		"github.com/guard-sql/guard/internal/stmt":     true,
		"github.com/guard-sql/guard/internal/schema":   true,
		"github.com/guard-sql/guard/internal/policy":   true,
		"github.com/guard-sql/guard/internal/sqlparse": true,
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < len(allowed) {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/guard-sql/guard/") && !allowed[p] && !strings.HasPrefix(p, "github.com/guard-sql/guard/lint/rules/") {
			t.Errorf("lint/rules depends on %s: rules read only internal/stmt, the schema model and the policy", p)
		}
	}
}

// TestRulesReadNoFrameworkName keeps the framework names out of the rules
// and the rule API: what a call of host code is (stmt.MapperCall.Kind),
// how findings name its statement (Statement), how its users fix it
// (Advice) and which result a fix names (Result) come from the reader
// that knows its framework. A rule that compared Framework would have to
// be taught every framework added after it.
func TestRulesReadNoFrameworkName(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.go", "*/*.go", "../*.go"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Framework" || strings.HasPrefix(sel.Sel.Name, "Framework")) {
				t.Errorf("%s: %s reads a framework name", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if len(files) < 40 {
		t.Fatalf("read %d files", len(files))
	}
}
