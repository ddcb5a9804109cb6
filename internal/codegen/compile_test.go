package codegen

import (
	"bufio"
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

// genModule is the module path of the temporary module the generated code
// is compiled in.
const genModule = "example.com/gencheck"

// TestGeneratedCodeCompiles builds and vets every golden package, two
// tables generated into one package, and a program written against DESIGN
// §7 that calls every API, in a module of their own that requires only the
// sqlx and go-redis versions of guard's go.mod. No network: GOPROXY=off and
// the shared module cache.
func TestGeneratedCodeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a module: not in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the generated code: %v", err)
	}
	root := t.TempDir()
	requires := requiredVersions(t, "../../go.mod", "github.com/jmoiron/sqlx", "github.com/redis/go-redis/v9")
	gomod := "module " + genModule + "\n\ngo 1.22\n\nrequire (\n"
	for _, r := range requires {
		gomod += "\t" + r + "\n"
	}
	gomod += ")\n"
	writeFile(t, filepath.Join(root, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "go.sum"), sum)

	for _, c := range goldenCases {
		writeFiles(t, filepath.Join(root, c.pkg), renderCase(t, c, c.pkg))
	}
	shop := renderCase(t, goldenCases[0], "shop")
	for name, b := range renderCase(t, goldenCases[2], "shop") {
		shop[name] = b
	}
	writeFiles(t, filepath.Join(root, "shop"), shop)
	usage, err := os.ReadFile("testdata/usage/main.go")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "cmd", "usage", "main.go"), usage)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The generated module resolves guard's own dependency graph offline;
	// listing it from guard's module first fetches the go.mod files a fresh
	// module cache lacks (pruned graphs do not need them to build guard).
	list := exec.CommandContext(ctx, goBin, "list", "-m", "all")
	list.Dir = ".."
	if out, err := list.CombinedOutput(); err != nil {
		t.Logf("go list -m all: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, goBin, "vet", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet of the generated code: %v\n%s", err, out)
	}
}

// requiredVersions returns "path version" of each module in the go.mod file.
func requiredVersions(t *testing.T, gomod string, paths ...string) []string {
	t.Helper()
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		found := ""
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
			if len(fields) >= 2 && fields[0] == p {
				found = fields[0] + " " + fields[1]
			}
		}
		if found == "" {
			t.Fatalf("%s does not require %s", gomod, p)
		}
		out = append(out, found)
	}
	return out
}

// TestGeneratedCodeLintsClean runs guard lint over each generated package
// with its table's migrations: the code guard writes must not be code guard
// reports (no unguarded decrement, version always bumped, RowsAffected
// always compared).
func TestGeneratedCodeLintsClean(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.dir, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, filepath.Join(dir, c.pkg), renderCase(t, c, c.pkg))
			pol := policy.Default()
			if p := filepath.Join("testdata", c.dir, "policies.toml"); fileExists(p) {
				var err error
				if pol, err = policy.Load(p); err != nil {
					t.Fatal(err)
				}
			}
			res, err := driver.Run(driver.Config{
				Paths:      []string{dir},
				SchemaPath: filepath.Join("testdata", c.dir, "migrations"),
				Policy:     pol,
				Rules:      rules.All(),
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.Statements < 6 {
				t.Errorf("lint saw %d statements in the generated code, want at least 6", res.Summary.Statements)
			}
			for _, f := range res.Findings {
				if strings.HasPrefix(f.File, "testdata/") {
					continue // the fixture schema's own findings, not the generated code's
				}
				t.Errorf("%s:%d: %s %s (%s)", f.File, f.Line, f.Code, f.Message, f.SQL)
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		writeFile(t, filepath.Join(dir, name), b)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// importsOf returns the import paths of a Go file.
func importsOf(t *testing.T, name string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}
