package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// guard runs the command line from the repository root and returns stdout,
// stderr and the exit code.
func guard(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"guard"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("cmd", "guard", "testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/guard -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, d)
	}
}

func TestLintExampleShop(t *testing.T) {
	t.Chdir("../..")
	out, stderr, code := guard(t, "lint", "--no-color", "examples/shop")
	if code != exitFindings {
		t.Errorf("exit = %d, want %d; stderr: %s", code, exitFindings, stderr)
	}
	golden(t, "shop.txt", out)

	out, _, code = guard(t, "lint", "--format", "json", "examples/shop")
	if code != exitFindings {
		t.Errorf("json exit = %d", code)
	}
	out = regexp.MustCompile(`"version": "[^"]*"`).ReplaceAllString(out, `"version": "X"`)
	golden(t, "shop.json", out)

	_, _, code = guard(t, "lint", "--fail-on", "never", "examples/shop")
	if code != exitClean {
		t.Errorf("--fail-on never: exit = %d", code)
	}
}

// marker is an "unsafe CODE…" comment of the example shop: the statement that
// follows must be reported with exactly those codes.
type marker struct {
	file  string
	line  int
	codes []string
}

var markerRE = regexp.MustCompile(`(?:--|//|<!--)\s*unsafe((?:\s+G[SQM]\d{3})+):`)

// TestExampleShopMarkers checks that every statement the example marks unsafe
// is reported once, with the codes its marker names, on the next lines, and
// that nothing else is reported.
func TestExampleShopMarkers(t *testing.T) {
	t.Chdir("../..")
	var markers []marker
	err := filepath.WalkDir("examples/shop", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			if m := markerRE.FindStringSubmatch(sc.Text()); m != nil {
				markers = append(markers, marker{filepath.ToSlash(p), line, strings.Fields(m[1])})
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(markers) < 10 {
		t.Fatalf("only %d unsafe markers found", len(markers))
	}
	out, _, _ := guard(t, "lint", "--format", "json", "examples/shop")
	var doc struct {
		Findings []struct {
			Code string `json:"code"`
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, f := range doc.Findings {
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Code))
	}
	for _, m := range markers {
		for _, c := range m.codes {
			// The statement starts on one of the next lines (a Java text block
			// starts after its annotation line).
			line := m.line + 1
			for _, g := range got {
				for d := 1; d <= 3; d++ {
					if g == fmt.Sprintf("%s:%d %s", m.file, m.line+d, c) {
						line = m.line + d
					}
				}
			}
			want = append(want, fmt.Sprintf("%s:%d %s", m.file, line, c))
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings on examples/shop differ from its unsafe markers (-want +got):\n%s", d)
	}
}

func TestExitCodesAndErrors(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	bad := filepath.Join(dir, "policies.toml")
	os.WriteFile(bad, []byte("version = 1\n[schema]\ncounter_colums = [\"stock\"]\n"), 0o644)
	wrongType := filepath.Join(dir, "wrong.toml")
	os.WriteFile(wrongType, []byte("version = 1\n[lock]\nmax_attempts = \"three\"\n"), 0o644)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"missing path", []string{"lint", "no/such/dir"}, exitInput, "no/such/dir: no such file or directory"},
		{"unknown policy key", []string{"lint", "--config", bad, "examples/shop"}, exitInput, bad + ":3:1: unknown key \"schema.counter_colums\""},
		{"wrong policy type", []string{"lint", "--config", wrongType, "examples/shop"}, exitInput, wrongType + ":3:"},
		{"missing policy file", []string{"lint", "--config", filepath.Join(dir, "none.toml"), "."}, exitInput, "none.toml"},
		{"unknown flag", []string{"lint", "--bogus"}, exitInput, "bogus"},
		{"bad format", []string{"lint", "--format", "xml", "examples/shop"}, exitInput, "--format"},
		{"bad fail-on", []string{"lint", "--fail-on", "sometimes", "examples/shop"}, exitInput, "--fail-on"},
		{"unknown rule", []string{"rules", "GQ999"}, exitInput, "unknown rule code"},
		{"rule", []string{"rules", "GQ002"}, exitClean, ""},
		{"catalogue", []string{"rules"}, exitClean, ""},
		{"clean lint", []string{"lint", "examples/shop/migrations/000001_create_product.up.sql"}, exitClean, ""},
		{"schema folder without schema", []string{"lint", "--schema", dir, "examples/shop"}, exitInput, "holds neither golang-migrate files (NNN_title.up.sql) nor .sql dumps"},
		{"missing schema", []string{"lint", "--schema", "no/such.sql", "examples/shop"}, exitInput, "schema no/such.sql: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := guard(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit = %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.stderr)
			}
		})
	}
}

func TestRulesCommand(t *testing.T) {
	out, _, code := guard(t, "rules", "GQ002")
	if code != 0 || !strings.Contains(out, "GQ002 unguarded-decrement") || !strings.Contains(out, "Fix:") {
		t.Errorf("guard rules GQ002 = %d\n%s", code, out)
	}
	out, _, _ = guard(t, "rules", "--format", "json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) < 20 {
		t.Errorf("rules json: %v, %d rules", err, len(list))
	}
}
