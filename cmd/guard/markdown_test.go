package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// mdTable returns the body rows of the markdown table under the heading
// (or, for "", the first table of the report), split in cells at the
// pipes no backslash escapes.
func mdTable(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	after := doc
	if heading != "" {
		var ok bool
		if _, after, ok = strings.Cut(doc, "\n#### "+heading+"\n\n"); !ok {
			t.Fatalf("no heading %q in:\n%s", heading, dbtest.Redact(doc))
		}
	} else {
		after = doc[strings.Index(doc, "\n|")+1:]
	}
	var rows [][]string
	for i, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if i < 2 {
			continue // the header and the alignment row
		}
		var cells []string
		var cur strings.Builder
		for j := 1; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
				cur.WriteByte(line[j])
			case '|':
				cells = append(cells, strings.TrimSpace(cur.String()))
				cur.Reset()
			default:
				cur.WriteByte(line[j])
			}
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestLintMarkdownShop is the golden of the example shop's markdown report;
// its count by code and severity is the JSON report's, finding for finding,
// and its table lists every finding, errors first, at the line JSON gives.
func TestLintMarkdownShop(t *testing.T) {
	t.Chdir("../..")
	out, stderr, code := guard(t, "lint", "--format", "markdown", "examples/shop")
	if code != exitFindings {
		t.Errorf("exit = %d, want %d; stderr: %s", code, exitFindings, stderr)
	}
	golden(t, "shop.md", out)

	js, _, _ := guard(t, "lint", "--format", "json", "examples/shop")
	var doc struct {
		Findings []struct {
			Code, Severity, File string
			Line                 int
		}
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	places := map[string]bool{}
	for _, f := range doc.Findings {
		want[f.Code+" "+f.Severity]++
		places[f.File+":"+strconv.Itoa(f.Line)+" "+f.Code] = true
	}
	got := map[string]int{}
	codes := mdTable(t, out, "")
	for _, row := range codes[:len(codes)-1] {
		for i, sev := range []string{"error", "warning", "info"} {
			if n, _ := strconv.Atoi(row[2+i]); n > 0 {
				got[row[0]+" "+sev] = n
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("counts by code and severity %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d in the markdown, %d in the JSON", k, got[k], n)
		}
	}
	rows := mdTable(t, out, "Findings, most severe first")
	if len(rows) != len(doc.Findings) {
		t.Errorf("%d rows, want the %d findings", len(rows), len(doc.Findings))
	}
	rank := map[string]int{"error": 3, "warning": 2, "info": 1}
	for i, r := range rows {
		if !places[r[0]+" "+r[1]] {
			t.Errorf("row %q is no finding of the JSON at that file and line", r)
		}
		if i > 0 && rank[rows[i-1][2]] < rank[r[2]] {
			t.Errorf("row %d (%s) after a less severe one", i, r[2])
		}
	}
}

// TestAuditMarkdown audits a fleet of two databases and a server that is
// down in the markdown format: the failed target and why, each target's
// counts and the live findings by target, exit 3, and no password.
func TestAuditMarkdown(t *testing.T) {
	a, b := dbtest.MySQL(t), dbtest.MySQL(t)
	a.Exec(t, `CREATE TABLE t_nopk (name VARCHAR(8)) ENGINE=InnoDB`)
	b.Exec(t, "CREATE TABLE `t_stock|<b>` (id BIGINT PRIMARY KEY, stock INT NOT NULL, version INT NOT NULL DEFAULT 0, CHECK (stock >= -10)) ENGINE=InnoDB",
		"INSERT INTO `t_stock|<b>` VALUES (1, -2, 0), (2, 3, 0)")
	down := closedPort(t)
	targetA, targetB, targetDown := a.Addr+"/"+a.Name, b.Addr+"/"+b.Name, down+"/"+a.Name
	r := guardAudit(t, a.Password, "--format", "markdown", "--dsn", a.DSN, "--dsn", b.DSN,
		"--dsn", "mysql://"+a.User+":"+a.Password+"@"+down+"/"+a.Name)
	t.Logf("the report:\n%s", dbtest.Redact(r.out))
	if r.code != exitRuntime {
		t.Errorf("exit = %d, want %d; stderr:\n%s", r.code, exitRuntime, dbtest.Redact(r.errOut))
	}
	if !regexp.MustCompile(`^### guard audit: \d+ errors?, \d+ warnings?, \d+ infos?; 1 target not audited\n\nOn 2 targets audited \(0 statements, 2 tables\)\.\n`).MatchString(r.out) {
		t.Errorf("title and scope:\n%s", dbtest.Redact(r.out))
	}
	failed := mdTable(t, r.out, "Not audited")
	if len(failed) != 1 || failed[0][0] != targetDown || !strings.HasPrefix(failed[0][1], "connect: ") {
		t.Errorf("not audited: %q, want %s and its connect error", failed, targetDown)
	}
	byTarget := map[string][]string{}
	for _, row := range mdTable(t, r.out, "By target, most severe first") {
		byTarget[row[0]] = row[1:]
	}
	if len(byTarget) != 2 || byTarget[targetA] == nil || byTarget[targetB] == nil || byTarget[targetB][0] == "0" {
		t.Errorf("by target: %v, want %s and %s, errors on the second", byTarget, targetA, targetB)
	}
	var gs009, gs010 bool
	for _, row := range mdTable(t, r.out, "Findings, most severe first") {
		switch {
		case row[0] == targetA && row[1] == "GS009":
			gs009 = true
		case row[0] == targetB && row[1] == "GS010" && row[2] == "error":
			// The table's name is escaped where it is quoted.
			gs010 = strings.Contains(row[3], "t_stock|&lt;b&gt;")
		}
	}
	if !gs009 || !gs010 {
		t.Errorf("findings table lacks GS009 on %s or GS010 on %s quoting the escaped table name:\n%s", targetA, targetB, dbtest.Redact(r.out))
	}
	if strings.Contains(r.out, "<b>") {
		t.Errorf("the table name's HTML is in the report:\n%s", dbtest.Redact(r.out))
	}
}
