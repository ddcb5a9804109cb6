package svg

import (
	"html/template"
	"math"
	"strconv"
)

// Lines is a chart of one line per series over shared categories on the
// horizontal axis (latency ranges), the values on the vertical one.
type Lines struct {
	// Title describes the chart to assistive technology (its <title>).
	Title string
	// Class is added to the svg element's class "chart".
	Class      string
	Categories []string
	// Format prints a value on the axis and in a point's title; nil
	// prints it with up to two decimals.
	Format func(float64) string
	Series []Series
}

// Series is one line. Its group carries the classes "series" and Class,
// and the attribute data-series with its name.
type Series struct {
	Name, Class string
	// Values has one value per category.
	Values []float64
	// Notes, when given, add to each point's title (a count).
	Notes []string
}

// Layout of a lines chart, in user units.
const (
	linesWidth  = 720
	linesHeight = 280
	linesLeft   = 56
	linesRight  = 12
	linesTop    = 30
	linesBottom = 60
)

// SVG draws the chart.
func (c Lines) SVG() template.HTML {
	format := c.Format
	if format == nil {
		format = func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	}
	x0, x1 := float64(linesLeft), float64(linesWidth-linesRight)
	yBottom, yTop := float64(linesHeight-linesBottom), float64(linesTop)
	hi := 0.0
	for _, s := range c.Series {
		for _, v := range s.Values {
			hi = math.Max(hi, v)
		}
	}
	// The vertical scale: x0 and x1 of scale are the bottom and the top.
	ys := linearScale(hi, yBottom, yTop)
	n := max(len(c.Categories), 1)
	step := (x1 - x0) / float64(n)
	xAt := func(i int) float64 { return x0 + (float64(i)+0.5)*step }

	var w writer
	w.start(c.Class, c.Title, linesWidth, linesHeight)
	names, classes := make([]string, len(c.Series)), make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i], classes[i] = s.Name, "swatch "+s.Class
	}
	w.legend(x0, 16, names, classes)
	w.open("g", "class", "axis")
	for _, t := range ys.ticks() {
		y := ys.at(t)
		w.empty("line", "class", "grid", "x1", num(x0), "y1", num(y), "x2", num(x1), "y2", num(y))
		w.elem("text", format(t), "class", "tick", "x", num(x0-6), "y", num(y+4), "text-anchor", "end")
	}
	for i, cat := range c.Categories {
		x, y := xAt(i), yBottom+14
		w.elem("text", cat, "class", "tick", "x", num(x), "y", num(y), "text-anchor", "end",
			"transform", "rotate(-40 "+num(x)+" "+num(y)+")")
	}
	w.close("g")
	for _, s := range c.Series {
		w.open("g", "class", "series "+s.Class, "data-series", s.Name)
		points := ""
		for i, v := range s.Values {
			if i > 0 {
				points += " "
			}
			points += num(xAt(i)) + "," + num(ys.at(v))
		}
		w.empty("polyline", "class", "line", "points", points)
		for i, v := range s.Values {
			if v == 0 {
				continue
			}
			title := s.Name + ": " + format(v)
			if i < len(c.Categories) {
				title = s.Name + " " + c.Categories[i] + ": " + format(v)
			}
			if i < len(s.Notes) && s.Notes[i] != "" {
				title += " (" + s.Notes[i] + ")"
			}
			w.open("circle", "class", "dot", "cx", num(xAt(i)), "cy", num(ys.at(v)), "r", "3")
			w.elem("title", title)
			w.close("circle")
		}
		w.close("g")
	}
	w.close("svg")
	return w.markup()
}
