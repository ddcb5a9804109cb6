package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/browsertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Close()
	os.Exit(code)
}

// pageDOM is what pageScript reads of a page in the browser.
type pageDOM struct {
	Scripts int
	Text    string
	Charts  []struct {
		Class  string
		Series []string
	}
	// OversoldColor and NoteColor are the computed colours of the first
	// oversold cell and of the first oversold note of a chart.
	OversoldColor, NoteColor string
}

const pageScript = `(() => ({
	Scripts: document.querySelectorAll("script").length,
	Text: document.body.innerText,
	Charts: [...document.querySelectorAll("svg.chart")].map(s => ({
		Class: s.getAttribute("class"),
		Series: [...s.querySelectorAll("g.series")].map(g => g.dataset.series),
	})),
	OversoldColor: (e => e ? getComputedStyle(e).color : "")(document.querySelector("td.oversold")),
	NoteColor: (e => e ? getComputedStyle(e).fill : "")(document.querySelector("svg .note.bad")),
}))()`

// openPage writes page and reads it in the browser, failing t on any
// problem, request or script element.
func openPage(t *testing.T, page string) pageDOM {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	var d pageDOM
	browsertest.Open(t, path, pageScript, &d).Check(t)
	if d.Scripts != 0 {
		t.Errorf("%d script elements", d.Scripts)
	}
	return d
}

// red is the computed colour of --error.
const red = "rgb(180, 35, 24)"

// TestDrillPageInBrowser: a series per strategy in each chart, naive's
// oversold count in red in the table and in the chart.
func TestDrillPageInBrowser(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDrillHTML(&buf, sampleDrill(), Options{Version: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	d := openPage(t, buf.String())
	all := []string{"naive", "for-update", "conditional", "cas", "lock-cas"}
	want := map[string][]string{"chart throughput": all, "chart latency": all, "chart distribution": all, "chart locks": {"lock-cas"}}
	if len(d.Charts) != len(want) {
		t.Errorf("%d charts, want %d: %+v", len(d.Charts), len(want), d.Charts)
	}
	for _, c := range d.Charts {
		if !slices.Equal(c.Series, want[c.Class]) {
			t.Errorf("%s: series %v, want %v", c.Class, c.Series, want[c.Class])
		}
	}
	if d.OversoldColor != red || d.NoteColor != red {
		t.Errorf("oversold in %q (table) and %q (chart), want %s", d.OversoldColor, d.NoteColor, red)
	}
}

// TestHostilePagesInBrowser opens the pages of TestHTMLEscapesHostileInput's
// kind in the browser: the markup given is text on every page.
func TestHostilePagesInBrowser(t *testing.T) {
	res, opts := sampleFleet()
	res.Findings[0].Message = hostile
	res.Findings[0].SQL = hostile
	opts.Live.Failures[0].Error = hostile
	var pages []string
	var buf bytes.Buffer
	if err := Write(&buf, FormatHTML, res, opts); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, buf.String())
	dr := sampleDryRun()
	dr.Targets[0].Statements[0].Statement = hostile
	buf.Reset()
	if err := WriteDryRunHTML(&buf, dr, Options{}); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, buf.String())
	dd := sampleDrill()
	dd.Notes = []string{hostile}
	buf.Reset()
	if err := WriteDrillHTML(&buf, dd, Options{}); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, buf.String())
	for i, p := range pages {
		if d := openPage(t, p); !strings.Contains(d.Text, hostile) {
			t.Errorf("page %d does not show %s as text", i, hostile)
		}
	}
}
