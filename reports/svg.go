package reports

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"memsym/explain"
)

// The SVG figures' size and plot area, in pixels.
const (
	svgW, svgH                 = 640.0, 360.0
	svgLeft, svgRight          = 76.0, 20.0
	svgTop, svgBottom          = 16.0, 52.0
	svgFont                    = `font-family="DejaVu Sans, Verdana, Arial, sans-serif"`
	svgPlotW, svgPlotH float64 = svgW - svgLeft - svgRight, svgH - svgTop - svgBottom
)

// figureSVG draws f as a standalone SVG image.
func figureSVG(f *explain.Figure) []byte {
	p := layout(f)
	var b bytes.Buffer
	px := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	X := func(pt explain.Point) float64 { return svgLeft + p.x.frac(pt.X)*svgPlotW }
	Y := func(pt explain.Point) float64 { return svgTop + (1-p.y.frac(pt.Y))*svgPlotH }
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" %s font-size="12">`+"\n",
		px(svgW), px(svgH), px(svgW), px(svgH), svgFont)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(explain.PlainText(f.Caption, explain.ThinSpace)))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="white"/>`+"\n", px(svgW), px(svgH))
	// Grid and ticks.
	for _, t := range p.y.ticks {
		y := svgTop + (1-p.y.frac(t.at))*svgPlotH
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", px(svgLeft), px(y), px(svgLeft+svgPlotW), px(y))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", px(svgLeft-6), px(y+4), esc(t.label))
	}
	for _, t := range p.x.ticks {
		x := svgLeft + p.x.frac(t.at)*svgPlotW
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`+"\n", px(x), px(svgTop+svgPlotH), px(x), px(svgTop+svgPlotH+4))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", px(x), px(svgTop+svgPlotH+18), esc(t.label))
	}
	fmt.Fprintf(&b, `<path d="M%s %sV%sH%s" fill="none" stroke="black"/>`+"\n", px(svgLeft), px(svgTop), px(svgTop+svgPlotH), px(svgLeft+svgPlotW))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", px(svgLeft+svgPlotW/2), px(svgH-10), esc(p.x.label(f.XLabel)))
	fmt.Fprintf(&b, `<text transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", px(svgTop+svgPlotH/2), esc(p.y.label(f.YLabel)))
	// Series.
	for i, line := range p.lines {
		c := colour(i)
		fmt.Fprintf(&b, `<polyline fill="none" stroke="rgb(%d,%d,%d)" stroke-width="1.8" points="`, c[0], c[1], c[2])
		for j, pt := range line {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(px(X(pt)) + "," + px(Y(pt)))
		}
		b.WriteString(`"/>` + "\n")
	}
	// Marks.
	for _, m := range f.Marks {
		x, y := X(m.At), Y(m.At)
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="4" fill="white" stroke="black" stroke-width="1.5"/>`+"\n", px(x), px(y))
		anchor, lx, ly := "end", x-8, y-8
		if p.labelRight(m) {
			anchor, lx = "start", x+8
		}
		if anchor == "start" && x > svgLeft+0.75*svgPlotW {
			anchor, lx = "end", x-8
		}
		if anchor == "end" && x < svgLeft+0.25*svgPlotW {
			anchor, lx = "start", x+8
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="%s" font-weight="bold">%s</text>`+"\n", px(lx), px(ly), anchor, esc(m.Label))
	}
	// Legend, top left inside the plot.
	if p.legend {
		for i, s := range f.Series {
			c := colour(i)
			y := svgTop + 16 + float64(i)*17
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="rgb(%d,%d,%d)" stroke-width="3"/>`+"\n",
				px(svgLeft+10), px(y-4), px(svgLeft+30), px(y-4), c[0], c[1], c[2])
			fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`+"\n", px(svgLeft+36), px(y), esc(legendText(s)))
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// legendText is a series' label with its formula: "the attention's
// probabilities: 144 · B · T² + …".
func legendText(s explain.Series) string {
	if s.Formula == nil {
		return s.Label
	}
	return s.Label + ": " + s.Formula.String()
}

// esc writes s as XML text: markup characters escaped, and characters XML
// does not allow replaced by a question mark.
func esc(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		if (r < ' ' && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s))
}
