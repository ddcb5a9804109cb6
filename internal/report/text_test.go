package report

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

func TestTextFinding(t *testing.T) {
	tests := []struct {
		name string
		f    lint.Finding
		want string
	}{
		{
			name: "file position, fix and sql",
			f: lint.Finding{Code: "GQ002", Severity: policy.SevError, File: "a.sql", Line: 3, Column: 7,
				Message: "m", Fix: "f", SQL: "UPDATE t\n  SET c = c - 1"},
			want: "a.sql:3:7: GQ002 error: m\n    fix: f\n    sql: UPDATE t SET c = c - 1\n",
		},
		{
			name: "no column",
			f:    lint.Finding{Code: "GQ009", Severity: policy.SevInfo, File: "a.go", Line: 3, Message: "m"},
			want: "a.go:3: GQ009 info: m\n",
		},
		{
			name: "no position",
			f:    lint.Finding{Code: "GS009", Severity: policy.SevWarning, File: "dump.sql", Message: "m"},
			want: "dump.sql: GS009 warning: m\n",
		},
		{
			name: "live finding names the target",
			f:    lint.Finding{Code: "GS010", Severity: policy.SevError, Target: "h:3306/db", Table: "t", Message: "m"},
			want: "h:3306/db: GS010 error: m\n",
		},
		{
			name: "no file nor target names the table",
			f:    lint.Finding{Code: "GS009", Severity: policy.SevError, Table: "t_x", Message: "m"},
			want: "t_x: GS009 error: m\n",
		},
		{
			name: "multi-line message and fix stay indented",
			f:    lint.Finding{Code: "GQ001", Severity: policy.SevError, File: "a.sql", Line: 1, Column: 1, Message: "one\ntwo\n", Fix: "x\ny"},
			want: "a.sql:1:1: GQ001 error: one\n    two\n    fix: x\n         y\n",
		},
		{
			name: "escape sequences are neutralised",
			f:    lint.Finding{Code: "GQ001", Severity: policy.SevError, File: "a\x1b.sql", Line: 1, Column: 1, Message: "m\x1b[2J", SQL: "SELECT '\u009b31m' '\x9b'"},
			want: "a\\x1b.sql:1:1: GQ001 error: m\\x1b[2J\n    sql: SELECT '\\u009b31m' '\\x9b'\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			streamText(&buf, &lint.Result{Findings: []lint.Finding{tt.f}}, Options{})
			got, _, _ := strings.Cut(buf.String(), "\n\n") // drop the summary line
			got += "\n"
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTextColor(t *testing.T) {
	tests := []struct {
		sev  policy.Severity
		want string
	}{
		{policy.SevError, "f.sql:1:1: \x1b[1mGQ001\x1b[0m \x1b[31merror\x1b[0m: m\n"},
		{policy.SevWarning, "f.sql:1:1: \x1b[1mGQ001\x1b[0m \x1b[33mwarning\x1b[0m: m\n"},
		{policy.SevInfo, "f.sql:1:1: \x1b[1mGQ001\x1b[0m \x1b[34minfo\x1b[0m: m\n"},
	}
	for _, tt := range tests {
		t.Run(string(tt.sev), func(t *testing.T) {
			var buf bytes.Buffer
			f := lint.Finding{Code: "GQ001", Severity: tt.sev, File: "f.sql", Line: 1, Column: 1, Message: "m"}
			streamText(&buf, &lint.Result{Findings: []lint.Finding{f}}, Options{Color: true})
			got, _, _ := strings.Cut(buf.String(), "\n\n")
			got += "\n"
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("coloured text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaryLine(t *testing.T) {
	one := []lint.Finding{{Code: "GQ001"}}
	tests := []struct {
		name string
		res  lint.Result
		live *Live
		want string
	}{
		{"nothing", lint.Result{}, nil, "no findings in 0 files (0 statements, 0 tables)"},
		{"singular scope", lint.Result{Summary: lint.Summary{Files: 1, Statements: 1, Tables: 1}}, nil, "no findings in 1 file (1 statement, 1 table)"},
		{"singular counts", lint.Result{Findings: one, Summary: lint.Summary{Error: 1, Warning: 1, Info: 1, Files: 1, Statements: 2, Tables: 3}}, nil,
			"1 error, 1 warning, 1 info in 1 file (2 statements, 3 tables)"},
		{"plural counts", lint.Result{Findings: one, Summary: lint.Summary{Error: 2, Warning: 0, Info: 5, Files: 3, Statements: 17, Tables: 5}}, nil,
			"2 errors, 0 warnings, 5 infos in 3 files (17 statements, 5 tables)"},
		{"live", lint.Result{Findings: one, Summary: lint.Summary{Error: 3, Tables: 1}}, &Live{Audited: 1},
			"3 errors, 0 warnings, 0 infos on 1 target (0 statements, 1 table)"},
		{"live, one of two failed", lint.Result{Findings: one, Summary: lint.Summary{Error: 3, Tables: 1}}, &Live{Audited: 1, Failures: []Failure{{}}},
			"3 errors, 0 warnings, 0 infos on 1 target (0 statements, 1 table); 1 target not audited (see stderr)"},
		{"live, clean but one failed", lint.Result{Summary: lint.Summary{Tables: 4}}, &Live{Audited: 2, Failures: []Failure{{}}},
			"no findings on 2 targets (0 statements, 4 tables); 1 target not audited (see stderr)"},
		{"live, every target failed", lint.Result{}, &Live{Failures: []Failure{{}, {}}}, "nothing audited: 2 targets failed (see stderr)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summaryLine(&tt.res, tt.live); got != tt.want {
				t.Errorf("summaryLine() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "abcd…"},
		{"库存库存库存", 4, "库存库…"},
		{strings.Repeat("x", 300), 200, strings.Repeat("x", 199) + "…"},
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ünïcødé 库存\tand\nlines", "plain ünïcødé 库存\tand\nlines"},
		{"esc\x1b[31m", `esc\x1b[31m`},
		{"cr\r\n", "cr\\r\n"},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"csi\u009b", `csi\u009b`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"real \ufffd stays", "real \ufffd stays"},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTextOfManyFindings checks that a report printed on several cores at
// once holds every finding's block in order, as printed one after another.
func TestTextOfManyFindings(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var fs []lint.Finding
	for i := range 3*textPart + 7 {
		fs = append(fs, lint.Finding{Code: "GQ002", Severity: policy.SevError, File: "q.sql", Line: i + 1, Column: 1,
			Message: fmt.Sprintf("finding %d", i), Fix: "fix\nit", SQL: "UPDATE t  SET q = q - 1"})
	}
	res := &lint.Result{Findings: fs, Summary: lint.Summary{Error: len(fs), Files: 1, Statements: len(fs)}}
	var want bytes.Buffer
	for _, f := range fs {
		writeFindingsText(&want, []lint.Finding{f}, Options{})
	}
	want.WriteString("\n" + summaryLine(res, nil) + "\n")
	var got bytes.Buffer
	streamText(&got, res, Options{})
	if got.String() != want.String() {
		t.Errorf("report of %d findings differs from their blocks in order (-want +got):\n%s", len(fs), cmp.Diff(want.String(), got.String()))
	}
}

// TestPlainASCII8 checks the eight-byte test of printable against a byte
// by byte one, on every byte value in every position.
func TestPlainASCII8(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			want := true
			for _, x := range b {
				if x < 0x20 || x >= 0x7f {
					want = false
				}
			}
			if got := plainASCII8(string(b)); got != want {
				t.Errorf("plainASCII8(%q) = %v, want %v", b, got, want)
			}
		}
	}
}

// FuzzPrintable checks that printable keeps a text exactly when no rune of
// it needs escaping and it is valid UTF-8.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "plain text", "tab\tand\nnewline", "bell\a", "del\x7f", "c1 \u009b", "é…—", "\xff bad", "0123456789abcdef\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := utf8.ValidString(s)
		for _, r := range s {
			if needsEscape(r) {
				clean = false
			}
		}
		if got := printable(s); (got == s) != clean {
			t.Errorf("printable(%q) = %q; the text is clean: %v", s, got, clean)
		}
	})
}

// fullAfter is a writer that takes n writes, then fails every one.
type fullAfter struct{ n, writes int }

func (w *fullAfter) Write(b []byte) (int, error) {
	if w.writes++; w.writes > w.n {
		return 0, fmt.Errorf("disk full")
	}
	return len(b), nil
}

// TestTextWriteFails checks that a text report whose writer fails midway
// returns the error once every part is printed, and writes nothing more
// (not even the summary line): no worker is left waiting for a buffer.
func TestTextWriteFails(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var fs []lint.Finding
	for i := range 20 * textPart {
		fs = append(fs, lint.Finding{Code: "GQ002", Severity: policy.SevError, File: "q.sql", Line: i + 1, Column: 1, Message: "m"})
	}
	w := &fullAfter{n: 1}
	err := streamText(w, &lint.Result{Findings: fs}, Options{})
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("streamText() error = %v, want the writer's", err)
	}
	if w.writes != 2 {
		t.Errorf("the writer was called %d times, want 2 (one part, then the failure)", w.writes)
	}
}

// FuzzTextBlock checks the shortcut of textBlock and plainLine against the
// whole way a message or fix is printed.
func FuzzTextBlock(f *testing.F) {
	for _, s := range []string{"", "one plain line of twenty-nine", "two\nlines", "crlf\r\nend\n", "tab\there", "bell\a", "del\x7f", "é…", "\xff", "exactly8", "~ tilde and space "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := textBlock(s, "    "), indentLines(printable(unixLines(s)), "    "); got != want {
			t.Errorf("textBlock(%q) = %q, want %q", s, got, want)
		}
		plain := true
		for i := 0; i < len(s); i++ {
			plain = plain && s[i] >= ' ' && s[i] <= '~'
		}
		if plainLine(s) != plain {
			t.Errorf("plainLine(%q) = %v, want %v", s, !plain, plain)
		}
	})
}
