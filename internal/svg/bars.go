package svg

import (
	"html/template"
	"math"
	"strconv"
)

// Bars is a chart of horizontal bars on one axis: a row per name (a drill
// strategy), each with one bar or a few side by side (p50, p99 and max).
type Bars struct {
	// Title describes the chart to assistive technology (its <title>).
	Title string
	// Class is added to the svg element's class "chart".
	Class string
	// Log puts the axis on a logarithmic scale, for values that span
	// decades, as latencies do.
	Log bool
	// Format prints a value on the axis and by its bar; nil prints it
	// with up to two decimals.
	Format func(float64) string
	// Ticks prints a value on the axis; nil uses Format.
	Ticks func(float64) string
	// Kinds names the bars of each row when there are several, for the
	// legend and the bars' titles.
	Kinds []string
	Rows  []Row
	// Markers are vertical lines across the rows (a lock's TTL); Bands
	// are shaded ranges (the TTLs advised).
	Markers []Marker
	Bands   []Band
}

// Row is one name's bars. Its group carries the classes "series" and
// Class, and the attribute data-series with its name.
type Row struct {
	Name, Class string
	Values      []float64
	// Note is printed after the bars in the class NoteClass: an oversold
	// count, in "bad".
	Note, NoteClass string
}

// Marker is a vertical line at a value, labelled above the rows.
type Marker struct {
	At    float64
	Label string
}

// Band is a shaded range of values, labelled inside at the top.
type Band struct {
	From, To float64
	Label    string
}

// Layout of a bars chart, in user units.
const (
	barsWidth  = 720
	barHeight  = 12
	barGap     = 3
	rowPadding = 10
	axisHeight = 24
	valueRoom  = 64  // right of the plot: the value of a full bar
	noteRoom   = 110 // right of that: the row's note
)

// SVG draws the chart.
func (c Bars) SVG() template.HTML {
	format := c.Format
	if format == nil {
		format = func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	}
	nameRoom := 60.0
	for _, r := range c.Rows {
		nameRoom = math.Max(nameRoom, math.Min(textWidth(r.Name)+16, 180))
	}
	x0, x1 := nameRoom, float64(barsWidth-valueRoom-noteRoom)
	top := 8.0
	if len(c.Kinds) > 1 {
		top += 18
	}
	if len(c.Markers)+len(c.Bands) > 0 {
		top += 16
	}
	rowHeight := func(r Row) float64 {
		return float64(max(len(r.Values), 1))*(barHeight+barGap) - barGap + rowPadding
	}
	bottom := top
	for _, r := range c.Rows {
		bottom += rowHeight(r)
	}
	sc := c.scale(x0, x1)

	var w writer
	w.start(c.Class, c.Title, barsWidth, bottom+axisHeight)
	if len(c.Kinds) > 1 {
		classes := make([]string, len(c.Kinds))
		for i := range c.Kinds {
			classes[i] = "swatch bar-" + strconv.Itoa(i)
		}
		w.legend(x0, 16, c.Kinds, classes)
	}
	ticks := c.Ticks
	if ticks == nil {
		ticks = format
	}
	w.axis(sc, top, bottom, ticks)
	for _, b := range c.Bands {
		from, to := sc.at(b.From), sc.at(b.To)
		w.empty("rect", "class", "band", "x", num(from), "y", num(top), "width", num(math.Max(to-from, 1)), "height", num(bottom-top))
		w.elem("text", b.Label, "class", "band-label", "x", num(from+3), "y", num(top-4))
	}
	for _, m := range c.Markers {
		x := sc.at(m.At)
		w.empty("line", "class", "marker", "x1", num(x), "y1", num(top-2), "x2", num(x), "y2", num(bottom))
		w.elem("text", m.Label, "class", "marker-label", "x", num(x), "y", num(top-4), "text-anchor", "end")
	}
	y := top
	for _, r := range c.Rows {
		w.open("g", "class", "series "+r.Class, "data-series", r.Name)
		h := rowHeight(r)
		w.elem("text", r.Name, "class", "name", "x", num(x0-8), "y", num(y+h/2+4), "text-anchor", "end")
		by := y + rowPadding/2
		for i, v := range r.Values {
			end := sc.at(v)
			width := end - x0
			if v > 0 {
				width = math.Max(width, 1)
			}
			label := format(v)
			title := r.Name + ": " + label
			if i < len(c.Kinds) {
				title = r.Name + " " + c.Kinds[i] + ": " + label
			}
			w.open("rect", "class", "bar bar-"+strconv.Itoa(i), "x", num(x0), "y", num(by), "width", num(width), "height", num(barHeight))
			w.elem("title", title)
			w.close("rect")
			w.elem("text", label, "class", "value", "x", num(x0+width+4), "y", num(by+barHeight-2))
			by += barHeight + barGap
		}
		if r.Note != "" {
			w.elem("text", r.Note, "class", "note "+r.NoteClass, "x", num(x1+valueRoom), "y", num(y+h/2+4))
		}
		w.close("g")
		y += h
	}
	w.close("svg")
	return w.markup()
}

// scale spans every value, marker and band of the chart.
func (c Bars) scale(x0, x1 float64) scale {
	lo, hi := math.Inf(1), 0.0
	see := func(v float64) {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, r := range c.Rows {
		for _, v := range r.Values {
			see(v)
		}
	}
	for _, m := range c.Markers {
		see(m.At)
	}
	for _, b := range c.Bands {
		see(b.From)
		see(b.To)
	}
	if c.Log {
		return logScale(lo, hi, x0, x1)
	}
	return linearScale(hi, x0, x1)
}

// axis draws the grid lines from top to bottom and the ticks' values
// below.
func (w *writer) axis(sc scale, top, bottom float64, format func(float64) string) {
	w.open("g", "class", "axis")
	for _, t := range sc.ticks() {
		x := sc.at(t)
		w.empty("line", "class", "grid", "x1", num(x), "y1", num(top), "x2", num(x), "y2", num(bottom))
		w.elem("text", format(t), "class", "tick", "x", num(x), "y", num(bottom+16), "text-anchor", "middle")
	}
	w.close("g")
}
