// Package svg draws the few charts guard's html reports hold — horizontal
// bars on a linear or logarithmic axis, and lines over shared categories —
// as inline SVG markup that refers to nothing outside itself: no script, no
// font, no image, no link. Every text it is given (names, labels, titles)
// is escaped, so the markup it returns may be put in a page as it is.
//
// Colours are the page's: a row or series carries the class its caller
// gives it (s0, s1, …), and the marks inside carry fixed classes (bar,
// bar-0…, line, dot, tick, grid, marker, band, note) for the page's CSS.
package svg

import (
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// writer accumulates the markup of one chart.
type writer struct{ b strings.Builder }

// open writes a start tag; attrs are name, value pairs, the values
// escaped.
func (w *writer) open(tag string, attrs ...string) {
	w.tag(tag, attrs)
	w.b.WriteByte('>')
}

// empty writes an element without content.
func (w *writer) empty(tag string, attrs ...string) {
	w.tag(tag, attrs)
	w.b.WriteString("/>")
}

func (w *writer) tag(tag string, attrs []string) {
	w.b.WriteByte('<')
	w.b.WriteString(tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.b.WriteByte(' ')
		w.b.WriteString(attrs[i])
		w.b.WriteString(`="`)
		w.b.WriteString(html.EscapeString(attrs[i+1]))
		w.b.WriteByte('"')
	}
}

func (w *writer) close(tag string) {
	w.b.WriteString("</" + tag + ">")
}

// elem writes an element holding text, escaped.
func (w *writer) elem(tag, text string, attrs ...string) {
	w.open(tag, attrs...)
	w.b.WriteString(html.EscapeString(text))
	w.close(tag)
}

// start opens the svg element of a chart of width by height, described by
// title for assistive technology.
func (w *writer) start(class, title string, width, height float64) {
	w.open("svg", "class", strings.TrimSpace("chart "+class), "viewBox", "0 0 "+num(width)+" "+num(height),
		"width", num(width), "height", num(height), "role", "img", "aria-label", title)
	w.elem("title", title)
}

// markup returns what was written as markup for html/template: every text
// in it went through html.EscapeString.
func (w *writer) markup() template.HTML {
	return template.HTML(w.b.String())
}

// num prints a coordinate with at most one decimal.
func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// scale maps values to x coordinates from x0 to x1, linearly from 0 to hi
// or logarithmically from lo to hi.
type scale struct {
	lo, hi, x0, x1 float64
	log            bool
	// step is the distance between the ticks of a linear scale.
	step float64
}

// at is the coordinate of v, clamped to the scale's ends.
func (s scale) at(v float64) float64 {
	var f float64
	if s.log {
		if v <= s.lo {
			return s.x0
		}
		f = (math.Log10(v) - math.Log10(s.lo)) / (math.Log10(s.hi) - math.Log10(s.lo))
	} else {
		f = (v - s.lo) / (s.hi - s.lo)
	}
	return s.x0 + math.Max(0, math.Min(1, f))*(s.x1-s.x0)
}

// ticks are the values an axis marks: powers of ten on a log scale, round
// steps (1, 2 or 5 times a power of ten) from zero on a linear one.
func (s scale) ticks() []float64 {
	var out []float64
	if s.log {
		for e := math.Round(math.Log10(s.lo)); e <= math.Round(math.Log10(s.hi)); e++ {
			out = append(out, math.Pow(10, e))
		}
		return out
	}
	for i := 0.0; i*s.step <= s.hi*1.0001; i++ {
		out = append(out, i*s.step)
	}
	return out
}

// linearScale runs from 0 to the first round step at or above max, in
// about six steps.
func linearScale(max, x0, x1 float64) scale {
	if max <= 0 {
		max = 1
	}
	step := niceStep(max / 6)
	return scale{lo: 0, hi: math.Ceil(max/step-1e-9) * step, x0: x0, x1: x1, step: step}
}

// logScale runs over whole powers of ten around the positive values
// between min and max.
func logScale(min, max, x0, x1 float64) scale {
	if max <= 0 {
		max = 1
	}
	if min <= 0 || min > max {
		min = max
	}
	lo := math.Pow(10, math.Floor(math.Log10(min)))
	hi := math.Pow(10, math.Ceil(math.Log10(max)))
	if hi <= lo {
		hi = lo * 10
	}
	return scale{lo: lo, hi: hi, x0: x0, x1: x1, log: true}
}

// niceStep is the round step (1, 2 or 5 times a power of ten) at or above
// raw.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p*1.0000001 {
			return m * p
		}
	}
	return 10 * p
}

// legend draws a swatch and a name for each entry, from x, y rightwards;
// classes are the swatches' classes, as the marks they stand for.
func (w *writer) legend(x, y float64, names, classes []string) {
	w.open("g", "class", "legend")
	for i, name := range names {
		w.empty("rect", "class", classes[i], "x", num(x), "y", num(y-9), "width", "10", "height", "10")
		w.elem("text", name, "x", num(x+14), "y", num(y))
		x += 24 + textWidth(name)
	}
	w.close("g")
}

// textWidth is about how wide s prints at the charts' font size.
func textWidth(s string) float64 { return 6.5 * float64(len([]rune(s))) }
