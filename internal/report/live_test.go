package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/lint"
)

// TestLiveReport checks what a live report adds to each format: the failed
// targets (none included) and the Redis servers audited; guard lint's
// report, without Live, adds nothing.
func TestLiveReport(t *testing.T) {
	res := &lint.Result{}
	write := func(format string, opts Options) string {
		t.Helper()
		var b bytes.Buffer
		opts.Version = "1"
		if err := Write(&b, format, res, opts); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := "{\n  \"tool\": \"guard\",\n  \"version\": \"1\",\n  \"findings\": [],\n  \"summary\": {\n" +
		"    \"error\": 0,\n    \"warning\": 0,\n    \"info\": 0,\n    \"files\": 0,\n    \"statements\": 0,\n    \"tables\": 0\n  },\n" +
		"  \"failures\": []\n}\n"
	if d := cmp.Diff(want, write(FormatJSON, Options{Live: &Live{}})); d != "" {
		t.Errorf("json (-want +got):\n%s", d)
	}
	if out := write(FormatJSON, Options{}); strings.Contains(out, "failures") {
		t.Errorf("lint's json names failures:\n%s", out)
	}
	redis := []struct {
		Target string `json:"target"`
	}{{"redis://h:6379"}}
	if out := write(FormatJSON, Options{Live: &Live{Redis: redis}}); !strings.Contains(out, `"redis": [`) ||
		strings.Index(out, `"failures"`) > strings.Index(out, `"redis"`) {
		t.Errorf("json with redis:\n%s", out)
	}
	if out := write(FormatSARIF, Options{Live: &Live{}}); !strings.Contains(out, `"executionSuccessful": true`) ||
		strings.Contains(out, "toolExecutionNotifications") {
		t.Errorf("sarif without failures:\n%s", out)
	}
	failed := &Live{Failures: []Failure{{Target: "h:1/db", Error: "connect: 100%\nrefused"}}}
	if out := write(FormatSARIF, Options{Live: failed}); !strings.Contains(out, `"executionSuccessful": false`) ||
		!strings.Contains(out, "h:1/db: connect: 100%\\nrefused") {
		t.Errorf("sarif with a failure:\n%s", out)
	}
	if out, want := write(FormatGitHub, Options{Live: failed}), "::error title=guard audit::h:1/db: connect: 100%25%0Arefused\n"; out != want {
		t.Errorf("github = %q, want %q", out, want)
	}
	if out := write(FormatText, Options{Live: failed}); strings.Contains(out, "refused") {
		t.Errorf("text names the failure (stderr's job): %q", out)
	}
}
