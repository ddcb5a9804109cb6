package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/testtree"
)

// manyFindings is a project of the example shop's schema whose query
// files hold well over a hundred findings, some statements twice in a file.
func manyFindings(t *testing.T, dir string) {
	testtree.Copy(t, "../../examples/shop/migrations", filepath.Join(dir, "migrations"))
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("sql/report_%02d.sql", i)] = fmt.Sprintf(`-- nightly job %d
UPDATE t_inventory SET inventory = inventory - ? WHERE product_id = ? AND warehouse_id = %d;
UPDATE t_inventory SET inventory = ? WHERE id = ?;
DELETE FROM t_order;
UPDATE t_product SET name = ? WHERE sku = ?;
UPDATE t_inventory
   SET inventory = inventory - ?
 WHERE product_id = ? AND warehouse_id = %d;
`, i, i, i)
	}
	files["internal/dao/stock.go"] = "package dao\n\nimport \"database/sql\"\n\nfunc take(db *sql.DB) {\n" +
		"\tdb.Exec(\"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?\", 1, 2)\n" +
		"\tdb.Exec(\"DELETE FROM t_payment\")\n}\n"
	testtree.Write(t, dir, files)
}

// shiftEveryFile inserts lines at the top of every file below dir, each in
// its language's comment syntax (after an XML declaration).
func shiftEveryFile(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(b)
		switch filepath.Ext(p) {
		case ".sql":
			text = "-- moved down\n\n-- by three lines\n" + text
		case ".go", ".java":
			text = "// moved down\n\n// by three lines\n" + text
		case ".xml":
			decl, rest, _ := strings.Cut(text, "\n")
			text = decl + "\n<!-- moved down -->\n\n<!-- by three lines -->\n" + rest
		default:
			return nil
		}
		return os.WriteFile(p, []byte(text), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestBaselineHidesRecordedFindings is the acceptance of the baseline: a
// baseline written then read hides everything; lines inserted above every
// statement do not bring a finding back; one new unsafe statement is
// exactly what is reported.
func TestBaselineHidesRecordedFindings(t *testing.T) {
	shop := t.TempDir()
	testtree.Copy(t, "../../examples/shop", shop)
	many := t.TempDir()
	manyFindings(t, many)
	cases := []struct {
		name, dir, addTo, add string
		atLeast               int
	}{
		{"shop", shop, "sql/admin.sql", "\nDELETE FROM t_payment;\n", 15},
		{"many", many, "sql/report_07.sql", "\nDELETE FROM t_account WHERE 1 = 1;\n", 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.dir)
			out, _, _ := guard(t, "lint", "--format", "json", "--fail-on", "never", ".")
			var all struct{ Findings []struct{ Code string } }
			if err := json.Unmarshal([]byte(out), &all); err != nil {
				t.Fatal(err)
			}
			if len(all.Findings) < tc.atLeast {
				t.Fatalf("%d findings before the baseline, want at least %d", len(all.Findings), tc.atLeast)
			}
			out, stderr, code := guard(t, "lint", "--write-baseline", "guard-baseline.json", ".")
			if code != exitClean || out != "" || !strings.Contains(stderr, fmt.Sprintf("records %d finding(s)", len(all.Findings))) {
				t.Fatalf("--write-baseline: exit %d, stdout %q, stderr %q", code, out, stderr)
			}
			out, stderr, code = guard(t, "lint", "--baseline", "guard-baseline.json", ".")
			if code != exitClean || !strings.HasPrefix(out, "no findings") {
				t.Errorf("--baseline: exit %d, stdout %q; want 0 and no findings", code, out)
			}
			if want := fmt.Sprintf("hid %d finding(s)", len(all.Findings)); !strings.Contains(stderr, want) || strings.Contains(stderr, "no longer occur") {
				t.Errorf("--baseline: stderr %q; want %q and no stale entries", stderr, want)
			}

			shiftEveryFile(t, ".")
			appendTo(t, tc.addTo, tc.add)
			out, _, code = guard(t, "lint", "--format", "json", "--baseline", "guard-baseline.json", ".")
			var res struct {
				Findings []struct {
					Code, File string
					Line       int
				}
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if code != exitFindings || len(res.Findings) != 1 || res.Findings[0].File != tc.addTo {
				t.Errorf("after moving every statement and adding one: exit %d, findings %+v; want exactly the new one in %s", code, res.Findings, tc.addTo)
			}
		})
	}
}

// TestBaselineListsPaidDebt lists the entries whose findings are gone, and
// reports a changed statement as new.
func TestBaselineListsPaidDebt(t *testing.T) {
	dir := t.TempDir()
	testtree.Copy(t, "../../examples/shop/migrations", filepath.Join(dir, "migrations"))
	testtree.Write(t, dir, map[string]string{"q.sql": "DELETE FROM t_order;\nUPDATE t_inventory SET inventory = ? WHERE id = ?;\n"})
	t.Chdir(dir)
	if _, stderr, code := guard(t, "lint", "--write-baseline", "b.json", "q.sql"); code != exitClean {
		t.Fatalf("--write-baseline: exit %d, %s", code, stderr)
	}
	testtree.Write(t, dir, map[string]string{"q.sql": "DELETE FROM t_order WHERE 1 = 1;\n"})
	out, stderr, code := guard(t, "lint", "--baseline", "b.json", "q.sql")
	if code != exitFindings || !strings.Contains(out, "q.sql:1:1: GQ001") {
		t.Errorf("changed statement: exit %d, stdout %q; want it reported as new", code, out)
	}
	for _, want := range []string{"hid 0 finding(s)", "2 baseline entries no longer occur", "q.sql:1: GQ001", "q.sql:2: GQ003"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
}

// TestBaselineInputErrors: a baseline that cannot be read, or flags that do
// not go together, are exit 2.
func TestBaselineInputErrors(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{"q.sql": "DELETE FROM t;\n", "bad.json": "{\"tool\": \"eslint\"}\n"})
	t.Chdir(dir)
	for _, args := range [][]string{
		{"lint", "--baseline", "missing.json", "q.sql"},
		{"lint", "--baseline", "bad.json", "q.sql"},
		{"lint", "--baseline", "bad.json", "--write-baseline", "b.json", "q.sql"},
	} {
		if _, stderr, code := guard(t, args...); code != exitInput || stderr == "" {
			t.Errorf("guard %v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// TestLintGitLabReport: the example shop's Code Quality report has one
// issue per finding, each its own fingerprint, the same on every run and
// after lines are inserted above every statement.
func TestLintGitLabReport(t *testing.T) {
	dir := t.TempDir()
	testtree.Copy(t, "../../examples/shop", dir)
	t.Chdir(dir)
	type issue struct {
		Fingerprint string `json:"fingerprint"`
		CheckName   string `json:"check_name"`
		Location    struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	report := func() []issue {
		out, stderr, code := guard(t, "lint", "--format", "gitlab", ".")
		var issues []issue
		if err := json.Unmarshal([]byte(out), &issues); err != nil || code != exitFindings {
			t.Fatalf("exit %d, %v: %s %s", code, err, out, stderr)
		}
		return issues
	}
	first := report()
	seen := map[string]bool{}
	for _, is := range first {
		if seen[is.Fingerprint] || is.Location.Path == "" || is.Location.Lines.Begin < 1 {
			t.Errorf("issue %+v: duplicate fingerprint or no location", is)
		}
		seen[is.Fingerprint] = true
	}
	shiftEveryFile(t, ".")
	second := report()
	if len(second) != len(first) {
		t.Fatalf("%d issues after shifting, want %d", len(second), len(first))
	}
	for i := range first {
		if first[i].Fingerprint != second[i].Fingerprint || second[i].Location.Lines.Begin != first[i].Location.Lines.Begin+3 {
			t.Errorf("issue %d: %+v became %+v; want the same fingerprint three lines down", i, first[i], second[i])
		}
	}
}
