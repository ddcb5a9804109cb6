package svg

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const hostile = `<script>alert("x")</script> & 'q'`

// texts parses markup as XML, failing t on markup that is not well formed,
// and returns its text nodes and the data-series of its groups.
func texts(t *testing.T, markup string) (text, series []string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(markup))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return text, series
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, markup)
		}
		switch tok := tok.(type) {
		case xml.CharData:
			text = append(text, string(tok))
		case xml.StartElement:
			if tok.Name.Local == "script" {
				t.Fatalf("a script element:\n%s", markup)
			}
			for _, a := range tok.Attr {
				if a.Name.Local == "data-series" {
					series = append(series, a.Value)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestBarsEscapes draws bars named, labelled and noted with markup: the
// chart stays well formed, holds no element of it, and gives the texts
// back as they were.
func TestBarsEscapes(t *testing.T) {
	c := Bars{
		Title: hostile, Kinds: []string{"p50", hostile},
		Format: func(v float64) string { return hostile },
		Rows: []Row{
			{Name: hostile, Class: `s0" onload="x`, Values: []float64{1, 2}, Note: hostile, NoteClass: "bad"},
			{Name: "cas", Class: "s1", Values: []float64{3, 4}},
		},
		Markers: []Marker{{At: 5, Label: hostile}},
		Bands:   []Band{{From: 1, To: 2, Label: hostile}},
	}
	out := string(c.SVG())
	text, series := texts(t, out)
	if !contains(text, hostile) {
		t.Errorf("the hostile text is not among the chart's texts %q", text)
	}
	if diff := cmp.Diff([]string{hostile, "cas"}, series); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
	if strings.Contains(out, "onload=") && !strings.Contains(out, "onload=&#34;") {
		t.Errorf("a class broke out of its attribute:\n%s", out)
	}
}

// TestLinesEscapes is TestBarsEscapes for lines.
func TestLinesEscapes(t *testing.T) {
	c := Lines{
		Title: hostile, Categories: []string{hostile, "≤2ms"},
		Series: []Series{
			{Name: hostile, Class: "s0", Values: []float64{0.5, 0.5}, Notes: []string{hostile, ""}},
			{Name: "cas", Class: "s1", Values: []float64{0, 1}},
		},
	}
	out := string(c.SVG())
	text, series := texts(t, out)
	if !contains(text, hostile) {
		t.Errorf("the hostile text is not among the chart's texts %q", text)
	}
	if diff := cmp.Diff([]string{hostile, "cas"}, series); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
	// A point of value 0 is on the line but has no dot of its own.
	if n := strings.Count(out, "<circle"); n != 3 {
		t.Errorf("%d dots, want 3:\n%s", n, out)
	}
}

func TestScales(t *testing.T) {
	lin := linearScale(87, 0, 100)
	if diff := cmp.Diff([]float64{0, 20, 40, 60, 80, 100}, lin.ticks()); diff != "" {
		t.Errorf("linear ticks (-want +got):\n%s", diff)
	}
	if wide := linearScale(10370, 0, 100); wide.hi != 12000 || len(wide.ticks()) != 7 {
		t.Errorf("linear scale of 10370: up to %v in %d ticks, want 12000 in 7", wide.hi, len(wide.ticks()))
	}
	if got := lin.at(50); got != 50 {
		t.Errorf("linear at(50) = %v, want 50", got)
	}
	lg := logScale(0.2, 45, 0, 300)
	if diff := cmp.Diff([]float64{0.1, 1, 10, 100}, lg.ticks(), cmpApprox); diff != "" {
		t.Errorf("log ticks (-want +got):\n%s", diff)
	}
	for _, tt := range []struct{ v, want float64 }{{0.1, 0}, {1, 100}, {10, 200}, {100, 300}, {0, 0}, {1e9, 300}} {
		if got := lg.at(tt.v); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("log at(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	// Nothing to draw still gives a scale that draws.
	if s := logScale(0, 0, 0, 10); s.lo >= s.hi {
		t.Errorf("empty log scale %+v", s)
	}
	if s := linearScale(0, 0, 10); s.hi <= 0 {
		t.Errorf("empty linear scale %+v", s)
	}
}

var cmpApprox = cmp.Comparer(func(a, b float64) bool { return a/b > 0.999999 && a/b < 1.000001 })

func TestNiceStep(t *testing.T) {
	for raw, want := range map[float64]float64{0.3: 0.5, 1: 1, 1.1: 2, 17: 20, 400: 500, 0: 1, -3: 1} {
		if got := niceStep(raw); got < want*0.999999 || got > want*1.000001 {
			t.Errorf("niceStep(%v) = %v, want %v", raw, got, want)
		}
	}
}
