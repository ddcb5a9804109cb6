package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

func write(t *testing.T, html string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenSeesWhatAPageDoes is the harness's own check: a page that logs an
// error, throws, fetches an image from elsewhere and runs a script its
// policy forbids is seen doing each, and a quiet page is seen doing
// nothing but load itself.
func TestOpenSeesWhatAPageDoes(t *testing.T) {
	loud := write(t, `<!DOCTYPE html><html><head><title>loud</title></head><body>
<img src="http://127.0.0.1:9/pixel.png" alt="">
<script>console.error("boom"); console.log("fine"); null.x;</script>
<p id="p">text</p></body></html>`)
	var text string
	p := Open(t, loud, `document.getElementById("p").textContent`, &text)
	if text != "text" {
		t.Errorf("read %q, want text", text)
	}
	all := strings.Join(p.Problems, "\n")
	for _, want := range []string{"console.error: boom", "exception:"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "fine") {
		t.Errorf("a console.log counted as a problem:\n%s", all)
	}
	if !strings.Contains(strings.Join(p.Requests, "\n"), "http://127.0.0.1:9/pixel.png") {
		t.Errorf("requests %q lack the image", p.Requests)
	}

	csp := write(t, `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>csp</title></head><body><script>document.title = "ran"</script></body></html>`)
	var title string
	p = Open(t, csp, `document.title`, &title)
	if title != "csp" {
		t.Errorf("the forbidden script ran: title %q", title)
	}
	if len(p.Problems) == 0 {
		t.Error("the refused script was not reported")
	}

	quiet := write(t, `<!DOCTYPE html><html><head><title>q</title></head><body><p>ok</p></body></html>`)
	p = Open(t, quiet, "", nil)
	if len(p.Problems) != 0 || len(p.Requests) != 1 || p.Requests[0] != p.URL {
		t.Errorf("a quiet page: problems %q, requests %q (want only %s)", p.Problems, p.Requests, p.URL)
	}
}
