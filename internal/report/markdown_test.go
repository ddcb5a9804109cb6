package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// markdown writes res in the markdown format.
func markdown(t *testing.T, res *lint.Result, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, FormatMarkdown, res, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// utf16Len is the length GitHub counts, computed another way than mdLen.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// cells splits a table row as GitHub Flavored Markdown does: a backslash
// escapes the next character, an unescaped | ends a cell. It returns nil
// for a line that is not one row (no leading and trailing pipe).
func cells(row string) []string {
	if !strings.HasPrefix(row, "|") || !strings.HasSuffix(row, "|") {
		return nil
	}
	var out []string
	var cur strings.Builder
	for i := 1; i < len(row); i++ {
		switch c := row[i]; {
		case c == '\\' && i+1 < len(row):
			cur.WriteByte(c)
			cur.WriteByte(row[i+1])
			i++
		case c == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return out
}

// tableRows returns the body rows of the table under the heading, split in
// cells, and the text that follows the table up to the next heading.
func tableRows(t *testing.T, doc, heading string) ([][]string, string) {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n#### "+heading+"\n\n")
	if !ok {
		t.Fatalf("no heading %q in:\n%s", heading, doc)
	}
	after, _, _ = strings.Cut(after, "\n#### ")
	lines := strings.Split(after, "\n")
	var rows [][]string
	i := 0
	for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		if i >= 2 { // the header and the alignment row
			rows = append(rows, cells(lines[i]))
		}
	}
	return rows, strings.Join(lines[i:], "\n")
}

// TestMarkdownFleet is the golden of a fleet's audit: a target not audited
// (its error quoting the server), the counts of each target, and live
// findings placed by target.
func TestMarkdownFleet(t *testing.T) {
	res := sampleResult()
	res.Findings = append(res.Findings, lint.Finding{
		Code: "GS011", Rule: "commit-durability", Severity: policy.SevWarning, Target: "db2.example.com:3306",
		Message: "innodb_flush_log_at_trx_commit = 2", Databases: 3,
	})
	res.Summary.Warning++
	opts := sampleOptions()
	opts.Live = &Live{Audited: 3, Failures: []Failure{{Target: "db3.example.com:3306/shop", Error: "connect: Error 1045 (28000): Access denied for user 'auditor'@'10.0.0.7'"}}}
	got := markdown(t, res, opts)
	golden := filepath.Join("testdata", "fleet.markdown.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-golden +got):\n%s", golden, d)
	}
	rows, _ := tableRows(t, got, "By target, most severe first")
	var order []string
	for _, r := range rows {
		order = append(order, r[0])
	}
	if want := []string{"db.example.com:3306/shop", "db2.example.com:3306"}; !cmp.Equal(want, order) {
		t.Errorf("targets %v, want %v (most errors first)", order, want)
	}
	if !strings.HasPrefix(got, "### guard audit: 3 errors, 4 warnings, 1 info; 1 target not audited\n") {
		t.Errorf("title of a fleet with a failure:\n%s", got)
	}
}

// TestMarkdownNothingAudited: a report of targets that all failed says so
// rather than "no findings".
func TestMarkdownNothingAudited(t *testing.T) {
	got := markdown(t, &lint.Result{}, Options{Live: &Live{Failures: []Failure{{Target: "h:1/db", Error: "connect: refused"}}}})
	if !strings.HasPrefix(got, "### guard audit: nothing audited, 1 target failed\n") || strings.Contains(got, "no findings") {
		t.Errorf("nothing audited:\n%s", got)
	}
	if rows, _ := tableRows(t, got, "Not audited"); len(rows) != 1 || rows[0][0] != "h:1/db" || rows[0][1] != "connect: refused" {
		t.Errorf("not audited rows %q", rows)
	}
}

// TestMarkdownHostileCells puts text in every cell that would break out of
// it: each row keeps its four cells, nothing opens HTML, code, a link or a
// mention, and what was escaped still reads as it was written.
func TestMarkdownHostileCells(t *testing.T) {
	hostile := "a|b `x` <script>alert(1)</script> [click](javascript:alert(1)) **bold** ~~s~~ $x$ \\| @admin &amp;\nsecond\r\nthird\x1b[2J \u202eevil"
	res := &lint.Result{
		Findings: []lint.Finding{
			{Code: "GQ001", Rule: "write-without-where", Severity: policy.SevError, File: "sql/" + hostile + ".sql", Line: 7, Message: hostile},
			{Code: "GS001", Rule: "strict-sql-mode", Severity: policy.SevWarning, Target: "h:3306/" + hostile, Message: hostile},
		},
		Summary: lint.Summary{Error: 1, Warning: 1},
	}
	got := markdown(t, res, Options{Live: &Live{Audited: 1, Failures: []Failure{{Target: "x:1/" + hostile, Error: hostile}}}})
	for _, bad := range []string{"<script", "<img", "\x1b", "\r", "\u202e", "@admin"} {
		if strings.Contains(got, bad) {
			t.Errorf("the report holds %q:\n%s", bad, got)
		}
	}
	for heading, width := range map[string]int{"Findings, most severe first": 4, "Not audited": 2, "By target, most severe first": 4} {
		rows, _ := tableRows(t, got, heading)
		if len(rows) == 0 {
			t.Errorf("%s: no rows", heading)
		}
		for _, r := range rows {
			if len(r) != width {
				t.Errorf("%s: row of %d cells, want %d: %q", heading, len(r), width, r)
			}
			for _, c := range r {
				if unescaped(c, '`') || unescaped(c, '*') || unescaped(c, '[') || unescaped(c, '_') || unescaped(c, '$') {
					t.Errorf("%s: cell %q holds markup", heading, c)
				}
			}
		}
	}
	// What a reader sees, once the escapes are undone.
	want := `a|b ` + "`x`" + ` <script>alert(1)</script> [click](javascript:alert(1)) **bold** ~~s~~ $x$ \| @admin &amp;<br>second<br>third\x1b[2J \u202eevil`
	rows, _ := tableRows(t, got, "Findings, most severe first")
	if shown := unescape(rows[0][3]); shown != want {
		t.Errorf("message reads\n%q, want\n%q", shown, want)
	}
	if shown := unescape(rows[0][0]); shown != "sql/"+want+".sql:7" {
		t.Errorf("file reads %q", shown)
	}
}

// unescaped reports whether c appears in cell without a backslash before it.
func unescaped(cell string, c byte) bool {
	for i := 0; i < len(cell); i++ {
		switch cell[i] {
		case '\\':
			i++
		case c:
			return true
		}
	}
	return false
}

// unescape undoes the escapes of mdCell as a Markdown renderer shows them:
// backslash escapes, the entities, and the word joiner after @. A <br> is
// left as it is: it is the line break.
func unescape(cell string) string {
	var sb strings.Builder
	for i := 0; i < len(cell); i++ {
		if cell[i] == '\\' && i+1 < len(cell) {
			i++
		}
		sb.WriteByte(cell[i])
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "@\u2060", "@").Replace(sb.String())
}

// TestMarkdownEscapesEveryCharacter checks mdCell character by character:
// each markup character comes out escaped, the others as they are.
func TestMarkdownEscapesEveryCharacter(t *testing.T) {
	for c := rune(0x20); c < 0x7f; c++ {
		got := mdCell(string(c))
		var want string
		switch c {
		case '\\', '`', '*', '_', '[', ']', '|', '~', '$':
			want = `\` + string(c)
		case '&':
			want = "&amp;"
		case '<':
			want = "&lt;"
		case '>':
			want = "&gt;"
		case '@':
			want = "@\u2060"
		default:
			want = string(c)
		}
		if got != want {
			t.Errorf("mdCell(%q) = %q, want %q", c, got, want)
		}
	}
}

// manyFindings is n findings of every severity in turn, each message of
// size characters (r repeated).
func manyFindings(n, size int, r rune) *lint.Result {
	res := &lint.Result{}
	sevs := []policy.Severity{policy.SevError, policy.SevWarning, policy.SevInfo}
	for i := range n {
		sev := sevs[i%3]
		res.Findings = append(res.Findings, lint.Finding{
			Code: fmt.Sprintf("GQ%03d", 1+i%11), Rule: "r", Severity: sev, File: fmt.Sprintf("f%04d.go", i), Line: i + 1,
			Message: strconv.Itoa(i) + " " + strings.Repeat(string(r), size),
		})
		switch sev {
		case policy.SevError:
			res.Summary.Error++
		case policy.SevWarning:
			res.Summary.Warning++
		default:
			res.Summary.Info++
		}
	}
	return res
}

var leftOutRE = regexp.MustCompile(`\n(\d+) more (?:finding|findings|target|targets) not shown(?: \(([^)]*)\))?[;.]`)

// TestMarkdownTruncation: a report too long for a comment stops at the
// limit, counting the findings it left out by severity; the count of every
// code is still whole. Messages of characters outside the BMP count twice,
// as GitHub counts them.
func TestMarkdownTruncation(t *testing.T) {
	for _, tt := range []struct {
		name       string
		n, size    int
		r          rune
		byLimit    bool // cut by the size, not by the number of rows
		wantLeft   int
		wantLeftBy string
	}{
		{name: "rows", n: 150, size: 10, r: 'x', wantLeft: 50, wantLeftBy: "50 infos"},
		{name: "two-byte characters count once", n: 90, size: 2000, r: 'é'},
		{name: "size, astral characters", n: 3000, size: 2000, r: '😀', byLimit: true},
		{name: "size, characters to escape", n: 3000, size: 2000, r: '<', byLimit: true},
		{name: "exactly the rows", n: markdownRows, size: 10, r: 'x'},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := manyFindings(tt.n, tt.size, tt.r)
			got := markdown(t, res, Options{})
			if n := utf16Len(got); n > MarkdownLimit {
				t.Fatalf("%d characters, over the limit %d", n, MarkdownLimit)
			}
			if mdLen(got) != utf16Len(got) {
				t.Errorf("mdLen %d, UTF-16 length %d", mdLen(got), utf16Len(got))
			}
			rows, after := tableRows(t, got, "Findings, most severe first")
			m := leftOutRE.FindStringSubmatch(after)
			left := 0
			if m != nil {
				left, _ = strconv.Atoi(m[1])
			}
			if len(rows)+left != tt.n {
				t.Errorf("%d rows shown and %d counted as left out, want %d in all:\n%s", len(rows), left, tt.n, after)
			}
			if tt.byLimit && (len(rows) >= markdownRows || len(rows) == 0 || utf16Len(got) < MarkdownLimit*9/10) {
				t.Errorf("%d rows in %d characters: want the table cut near the limit", len(rows), utf16Len(got))
			}
			if tt.wantLeft > 0 && (left != tt.wantLeft || m[2] != tt.wantLeftBy) {
				t.Errorf("left out %d (%s), want %d (%s)", left, m[2], tt.wantLeft, tt.wantLeftBy)
			}
			if left == 0 && m != nil {
				t.Errorf("a count of nothing left out: %q", m[0])
			}
			if left > 0 && !strings.Contains(after, "`guard lint` lists every one") {
				t.Errorf("the count does not say where the full list is: %q", after)
			}
			// The rows shown are the most severe.
			for i := 1; i < len(rows); i++ {
				if policy.Severity(rows[i-1][2]).Rank() < policy.Severity(rows[i][2]).Rank() {
					t.Fatalf("row %d (%s) before a more severe one (%s)", i-1, rows[i-1][2], rows[i][2])
				}
			}
			// The count by code is whole whatever was cut.
			codes, _ := tableRows(t, "\n#### codes\n\n"+strings.SplitN(got, "\n\n", 3)[2], "codes")
			total := 0
			for _, c := range codes[:len(codes)-1] {
				for _, n := range c[2:] {
					k, _ := strconv.Atoi(n)
					total += k
				}
			}
			if total != tt.n || len(codes) != 12 {
				t.Errorf("the count by code sums to %d over %d rows, want %d over 11 codes and the total", total, len(codes), tt.n)
			}
		})
	}
}

// TestMarkdownFleetTruncation: a fleet whose failures and targets alone
// would pass the limit keeps every table within it, each with its count,
// and the findings still get their heading and count.
func TestMarkdownFleetTruncation(t *testing.T) {
	res := &lint.Result{}
	live := &Live{Audited: 4000}
	for i := range 4000 {
		res.Findings = append(res.Findings, lint.Finding{Code: "GS001", Rule: "strict-sql-mode", Severity: policy.SevError,
			Target: fmt.Sprintf("shard%04d.example.com:3306/shop", i), Message: strings.Repeat("m", 300)})
		live.Failures = append(live.Failures, Failure{Target: fmt.Sprintf("down%04d.example.com:3306/shop", i), Error: strings.Repeat("e", 300)})
	}
	res.Summary.Error = len(res.Findings)
	got := markdown(t, res, Options{Live: live})
	if n := utf16Len(got); n > MarkdownLimit {
		t.Fatalf("%d characters, over the limit %d", n, MarkdownLimit)
	}
	for heading, n := range map[string]int{"Not audited": 4000, "By target, most severe first": 4000, "Findings, most severe first": 4000} {
		rows, after := tableRows(t, got, heading)
		m := leftOutRE.FindStringSubmatch(after)
		if m == nil {
			t.Errorf("%s: nothing counted as left out:\n%s", heading, after)
			continue
		}
		if left, _ := strconv.Atoi(m[1]); left+len(rows) != n {
			t.Errorf("%s: %d rows and %d left out, want %d", heading, len(rows), left, n)
		}
	}
	if !strings.Contains(got, "`guard audit` lists every one") {
		t.Error("the findings' count does not name guard audit")
	}
}

// FuzzMarkdownCell: whatever the text, its cell stays one cell of one line
// with no raw HTML, code span or unescaped markup.
func FuzzMarkdownCell(f *testing.F) {
	for _, s := range []string{"a|b", "`x`", "<b>", "\\|", "\\\\|", "@user", "\r\n", "\u202e", "\xff\x1b", "[a](b)", "&lt;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := mdCell(s)
		row := "| " + c + " | x |"
		if got := cells(row); len(got) != 2 || got[1] != "x" {
			t.Fatalf("mdCell(%q) = %q splits the row into %q", s, c, got)
		}
		if strings.ContainsAny(strings.ReplaceAll(c, "<br>", ""), "\n\r<>") {
			t.Fatalf("mdCell(%q) = %q holds a line break or an angle bracket", s, c)
		}
		for _, m := range []byte("`*_[]~$|") {
			if unescaped(c, m) {
				t.Fatalf("mdCell(%q) = %q holds an unescaped %c", s, c, m)
			}
		}
		if regexp.MustCompile(`@[A-Za-z0-9]`).MatchString(c) {
			t.Fatalf("mdCell(%q) = %q holds a mention", s, c)
		}
	})
}
