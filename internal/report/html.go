package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FormatHTML is one self-contained page: its CSS and charts inline, no
// script, no font, image or link to fetch, readable offline and from a CI
// artifact.
const FormatHTML = "html"

//go:embed html/*.tmpl
var htmlFS embed.FS

// htmlPages holds the pages (findings, drill, dryrun) and the parts they
// share (head, foot, css, spans). html/template escapes every value it
// prints by where it stands: SQL, file names, messages of servers are
// text, never markup; only the charts of internal/svg, which escape their
// own texts, are inserted as markup. They are parsed on first use: a run
// that writes no html report does not pay for them.
var htmlPages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"spans":    codeSpans,
		"plural":   plural,
		"sevClass": sevClass,
		"ms":       htmlMS,
	}).ParseFS(htmlFS, "html/*.tmpl"))
})

// htmlPage is what every page's head and foot print.
type htmlPage struct {
	// Title is the page's title and first heading.
	Title string
	// Version is guard's; Generated when the report was made, "" for a
	// report that must be the same on every run (lint).
	Version, Generated string
}

func newHTMLPage(title string, opts Options) htmlPage {
	p := htmlPage{Title: title, Version: opts.Version}
	if !opts.Generated.IsZero() {
		p.Generated = opts.Generated.UTC().Format(time.RFC3339)
	}
	return p
}

// renderHTML executes the page template name with data, whole into memory
// before anything reaches w, as Write does for every format.
func renderHTML(w io.Writer, name string, data any) error {
	var buf bytes.Buffer
	if err := htmlPages().ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// span is a piece of a rule's text: plain, or code between backticks.
type htmlSpan struct {
	Text string
	Code bool
}

// codeSpans cuts s at its backticks: the catalogue writes SQL as `code`.
// An unpaired backtick stays as it is.
func codeSpans(s string) []htmlSpan {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		// An odd number of backticks: the last one opens nothing.
		last := len(parts) - 1
		parts[last-1] += "`" + parts[last]
		parts = parts[:last]
	}
	var out []htmlSpan
	for i, p := range parts {
		if p != "" {
			out = append(out, htmlSpan{Text: p, Code: i%2 == 1})
		}
	}
	return out
}

// sevClass is the CSS class of a severity: sev-error, sev-warning,
// sev-info, else sev-other.
func sevClass(s any) string {
	switch v := fmt.Sprint(s); v {
	case "error", "warning", "info":
		return "sev-" + v
	}
	return "sev-other"
}

// htmlMS prints a duration in milliseconds as the drill's text does,
// three significant digits or so.
func htmlMS(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
}
