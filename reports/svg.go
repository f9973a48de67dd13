package reports

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"memsym/doc"
)

// The SVG figures' size and plot area, in pixels; the legend goes below
// the plot, one line a series, so that it never hides a curve.
const (
	svgW                         = 640.0
	svgPlotH                     = 292.0
	svgLeft, svgRight            = 76.0, 20.0
	svgTop, svgAxisBelow         = 16.0, 52.0
	svgLegendLine                = 17.0
	svgFont                      = `font-family="DejaVu Sans, Verdana, Arial, sans-serif"`
	svgPlotW             float64 = svgW - svgLeft - svgRight
)

// figureSVG draws f as a standalone SVG image.
func figureSVG(f *doc.Figure) []byte {
	if f.Boxes != nil {
		return boxesSVG(f)
	}
	p := layout(f)
	var b bytes.Buffer
	px := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	X := func(pt doc.XY) float64 { return svgLeft + p.x.frac(pt.X)*svgPlotW }
	Y := func(pt doc.XY) float64 { return svgTop + (1-p.y.frac(pt.Y))*svgPlotH }
	height := svgTop + svgPlotH + svgAxisBelow
	if p.legend {
		height += float64(len(f.Series))*svgLegendLine + 6
	}
	keyTop := height
	key := svgKeyLines(p.bandKey())
	height += float64(len(key)) * svgLegendLine
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" %s font-size="12">`+"\n",
		px(svgW), px(height), px(svgW), px(height), svgFont)
	fmt.Fprintf(&b, "<title>%s</title>\n<desc>%s</desc>\n", esc(doc.PlainText(f.Caption, doc.ThinSpace)), writtenBy)
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="white"/>`+"\n", px(svgW), px(height))
	bottom := svgTop + svgPlotH
	// Bands, every other one shaded, named at the top where the name fits
	// and no mark's label goes.
	for i, band := range f.Bands {
		x0, x1 := X(doc.XY{X: p.clampX(band.From)}), X(doc.XY{X: p.clampX(band.To)})
		if i%2 == 0 {
			c := bandFill
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="rgb(%d,%d,%d)"/>`+"\n", px(x0), px(svgTop), px(x1-x0), px(svgPlotH), c[0], c[1], c[2])
		}
		if p.bandLabels[i] {
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" font-size="10" fill="#555">%s</text>`+"\n", px((x0+x1)/2), px(svgTop+12), esc(band.Label))
		}
	}
	// Grid and ticks.
	for _, t := range p.y.ticks {
		y := Y(doc.XY{Y: t.at})
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", px(svgLeft), px(y), px(svgLeft+svgPlotW), px(y))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", px(svgLeft-6), px(y+4), esc(t.label()))
	}
	for _, t := range p.x.ticks {
		x := X(doc.XY{X: t.at})
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`+"\n", px(x), px(bottom), px(x), px(bottom+4))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", px(x), px(bottom+18), esc(t.label()))
	}
	// Guides, dotted, named where the layout puts their names.
	for i, g := range f.Guides {
		if !p.inRange(g.X) {
			continue
		}
		x := X(doc.XY{X: g.X})
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#777" stroke-dasharray="1.5 3"/>`+"\n", px(x), px(svgTop), px(x), px(bottom))
		if len(g.Label) > 0 {
			y := svgTop + (1-p.guideLabels[i])*svgPlotH - 5
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="start" font-size="10" fill="#555">%s</text>`+"\n", px(x+3), px(y), svgInlines(g.Label))
		}
	}
	fmt.Fprintf(&b, `<path d="M%s %sV%sH%s" fill="none" stroke="black"/>`+"\n", px(svgLeft), px(svgTop), px(bottom), px(svgLeft+svgPlotW))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", px(svgLeft+svgPlotW/2), px(bottom+38), svgAxisLabel(p.x, f.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", px(svgTop+svgPlotH/2), svgAxisLabel(p.y, f.YLabel))
	// Series.
	for i, line := range p.lines {
		c := colour(i)
		fmt.Fprintf(&b, `<polyline fill="none" stroke="rgb(%d,%d,%d)" stroke-width="1.8"%s points="`, c[0], c[1], c[2], svgDash(i))
		for j, pt := range line {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(px(X(pt)) + "," + px(Y(pt)))
		}
		b.WriteString(`"/>` + "\n")
		if p.legend {
			for _, j := range p.symbols[i] {
				b.WriteString(svgSymbol(i, X(line[j]), Y(line[j])))
			}
		}
	}
	// Marks, their labels on the side with room.
	for k, m := range f.Marks {
		x, y := X(m.At), Y(m.At)
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="4" fill="white" stroke="black" stroke-width="1.5"/>`+"\n", px(x), px(y))
		pl := p.marks[k]
		anchor, lx, ly := "start", x+8, y-8
		if pl.left {
			anchor, lx = "end", x-8
		}
		if pl.below {
			ly = y + 18
		}
		ly -= pl.rise() * svgPlotH
		if pl.rise() != 0 {
			// A label moved from its mark, tied to it by a thin line to
			// its near corner.
			cy := ly + 3
			if pl.below {
				cy = ly - 12
			}
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#666" stroke-width="0.6"/>`+"\n", px(x), px(y), px(lx), px(cy))
		}
		// A white halo, as the TikZ has a white box, so that a trace under
		// the label does not run through its letters.
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="%s" font-weight="bold" stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke">%s</text>`+"\n", px(lx), px(ly), anchor, svgInlines(m.Label))
	}
	// The legend, below the axis' label.
	if p.legend {
		for i, s := range f.Series {
			c := colour(i)
			y := bottom + svgAxisBelow + 6 + float64(i)*svgLegendLine
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="rgb(%d,%d,%d)" stroke-width="2.2"%s/>`+"\n",
				px(svgLeft), px(y-4), px(svgLeft+30), px(y-4), c[0], c[1], c[2], svgDash(i))
			b.WriteString(svgSymbol(i, svgLeft+15, y-4))
			fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`+"\n", px(svgLeft+36), px(y), esc(legendText(s)))
		}
	}
	// The bands unnamed in the plot, named below it.
	for i, l := range key {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="11">%s</text>`+"\n", px(svgLeft), px(keyTop+float64(i+1)*svgLegendLine-4), svgInlines(l))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// svgKeyLines breaks a key into lines the plot's width, at its text's
// spaces, by an estimate of its characters' width.
func svgKeyLines(key []doc.Inline) [][]doc.Inline {
	perLine := int(svgPlotW) * 10 / 62
	var out [][]doc.Inline
	var line []doc.Inline
	n := 0
	for _, in := range key {
		t, ok := in.(doc.Text)
		if !ok {
			line = append(line, in)
			n += utf8.RuneCountInString(doc.PlainText([]doc.Inline{in}, " "))
			continue
		}
		for k, w := range strings.SplitAfter(string(t), " ") {
			if w == "" {
				continue
			}
			if n+utf8.RuneCountInString(w) > perLine && n > 0 && k > 0 {
				out, line, n = append(out, line), nil, 0
			}
			line = append(line, doc.Text(w))
			n += utf8.RuneCountInString(w)
		}
	}
	if len(line) > 0 {
		out = append(out, line)
	}
	return out
}

// writtenBy marks every file memsym writes, for its reader. (A later run
// tells its own files from a user's by the list RemoveStale keeps, not by
// the mark: a user's copy of a file carries it too.)
const writtenBy = "Written by memsym explain"

// svgSymbolRadius is a series' symbol's radius, in pixels.
const svgSymbolRadius = 3.6

// svgSymbol draws series i's symbol centred at (x, y).
func svgSymbol(i int, x, y float64) string {
	sym := symbolOf(i)
	c := colour(i)
	stroke := fmt.Sprintf(`rgb(%d,%d,%d)`, c[0], c[1], c[2])
	fill := stroke
	if sym.open {
		fill = "white"
	}
	px := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	pts := sym.outline()
	at := func(k int) string {
		return px(x+pts[k][0]*svgSymbolRadius) + "," + px(y-pts[k][1]*svgSymbolRadius)
	}
	switch {
	case pts == nil:
		return fmt.Sprintf(`<circle class="symbol" cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="1.2"/>`+"\n", px(x), px(y), px(svgSymbolRadius), fill, stroke)
	case sym.stroked():
		return fmt.Sprintf(`<path class="symbol" d="M%sL%sM%sL%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", at(0), at(1), at(2), at(3), stroke)
	}
	var d []string
	for k := range pts {
		d = append(d, at(k))
	}
	return fmt.Sprintf(`<polygon class="symbol" points="%s" fill="%s" stroke="%s" stroke-width="1.2"/>`+"\n", strings.Join(d, " "), fill, stroke)
}

// svgDash is a series' stroke-dasharray attribute, "" for a solid line.
func svgDash(i int) string {
	d := dash(i)
	if d == nil {
		return ""
	}
	parts := make([]string, len(d))
	for k, v := range d {
		parts[k] = strconv.FormatFloat(v*1.6, 'f', 1, 64)
	}
	return ` stroke-dasharray="` + strings.Join(parts, " ") + `"`
}

// svgAxisLabel is an axis' label, with the unit its ticks count in.
func svgAxisLabel(a axis, label []doc.Inline) string { return svgInlines(axisLabel(a, label)) }

// svgInlines writes inline runs as SVG text, a Math's variables in italics.
func svgInlines(ins []doc.Inline) string {
	var b strings.Builder
	for _, in := range ins {
		if m, ok := in.(doc.Math); ok {
			for _, piece := range mathPieces(m, doc.ThinSpace) {
				if piece.variable {
					b.WriteString(`<tspan font-style="italic">` + esc(piece.text) + `</tspan>`)
				} else {
					b.WriteString(esc(piece.text))
				}
			}
			continue
		}
		b.WriteString(esc(doc.PlainText([]doc.Inline{in}, doc.ThinSpace)))
	}
	return b.String()
}

// mathPiece is a run of a Math's plain text: a variable or not.
type mathPiece struct {
	text     string
	variable bool
}

// mathPieces splits a Math's plain text into variables and the rest.
func mathPieces(m doc.Math, sep string) []mathPiece {
	var out []mathPiece
	for i := range m {
		text := doc.Math(m[i : i+1]).Plain(sep)
		out = append(out, mathPiece{text: text, variable: m[i].Var != ""})
	}
	return out
}

// legendText is a series' label with its formula, its coefficients'
// digits grouped by thin spaces as the prose's numbers are: "candidate 2:
// probabilities: 144 · B · T² + 12 288 · B · T + …".
func legendText(s doc.Series) string {
	if s.Formula == nil {
		return s.Label
	}
	return s.Label + ", " + doc.FormulaText(*s.Formula, doc.ThinSpace)
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
