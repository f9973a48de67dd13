package reports

import (
	"fmt"

	"codeberg.org/go-pdf/fpdf"

	"memsym/doc"
)

// A figure's size and its plot area's insets, in millimetres.
const (
	figH                  = 78.0
	figLeft, figBottom    = 20.0, 13.0
	figTopInset, figRight = 3.0, 4.0
	figPt                 = 8.0
)

// figure draws f as vector lines: the calls' bands, axes with ticks, the
// guides, each series in its colour and dash, the marks labelled on the
// side with room, the legend below the plot where it hides nothing, and
// its caption below, kept on the figure's page, which the above
// millimetres of headings above it are kept on too.
func (d *pdfDoc) figure(f *doc.Figure, above float64) {
	if f.Boxes != nil {
		d.boxesFigure(f, above)
		return
	}
	capFont, capLines := d.figureCaption(f)
	d.room(d.figureHeight(f, above))
	d.figures++
	p := layout(f)
	small := font{sans, "", figPt}
	slh := lineHeight(small)
	legendH := d.legendHeight(f)
	x0, y0 := pdfMargin+figLeft, d.y+figTopInset
	w, h := d.textWidth()-figLeft-figRight, figH-figTopInset-figBottom
	X := func(pt doc.XY) float64 { return x0 + p.x.frac(pt.X)*w }
	Y := func(pt doc.XY) float64 { return y0 + (1-p.y.frac(pt.Y))*h }

	for i, band := range f.Bands {
		bx0, bx1 := X(doc.XY{X: p.clampX(band.From)}), X(doc.XY{X: p.clampX(band.To)})
		if i%2 == 0 {
			d.f.SetFillColor(bandFill[0], bandFill[1], bandFill[2])
			d.f.Rect(bx0, y0, bx1-bx0, h, "F")
		}
		// Named in the band where the layout found it fits; else in the
		// key below.
		label := pdfSafe(band.Label)
		if lw := d.width(label, font{sans, "", 6.5}); p.bandLabels[i] {
			d.f.SetTextColor(85, 85, 85)
			d.f.Text((bx0+bx1)/2-lw/2, y0+3, label)
			d.f.SetTextColor(0, 0, 0)
		}
	}
	d.f.SetLineWidth(0.15)
	d.f.SetDrawColor(215, 215, 215)
	d.f.SetFont(sans, "", figPt)
	for _, t := range p.y.ticks {
		y := Y(doc.XY{Y: t.at})
		d.f.Line(x0, y, x0+w, y)
		label := pdfSafe(t.label())
		d.f.Text(x0-1.5-d.f.GetStringWidth(label), y+1, label)
	}
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetLineWidth(0.25)
	for _, t := range p.x.ticks {
		x := X(doc.XY{X: t.at})
		label := pdfSafe(t.label())
		d.f.Line(x, y0+h, x, y0+h+1.2)
		d.f.Text(x-d.f.GetStringWidth(label)/2, y0+h+4.5, label)
	}
	d.f.SetDrawColor(120, 120, 120)
	d.f.SetLineWidth(0.2)
	d.f.SetDashPattern([]float64{0.4, 0.9}, 0)
	for i, g := range f.Guides {
		if !p.inRange(g.X) {
			continue
		}
		x := X(doc.XY{X: g.X})
		d.f.Line(x, y0, x, y0+h)
		if len(g.Label) > 0 {
			d.f.SetTextColor(85, 85, 85)
			d.drawLine(words(g.Label, font{sans, "", 6.5}, true), x+0.8, y0+(1-p.guideLabels[i])*h-1.2, font{sans, "", 6.5})
			d.f.SetTextColor(0, 0, 0)
		}
	}
	d.f.SetDashPattern(nil, 0)
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetLineWidth(0.25)
	d.f.Line(x0, y0, x0, y0+h)
	d.f.Line(x0, y0+h, x0+w, y0+h)
	xl := axisLabel(p.x, f.XLabel)
	d.drawLine(words(xl, small, true), x0+w/2-lineWidth(d, words(xl, small, true), small)/2, y0+h+10, small)
	yl := pdfSafe(doc.PlainText(axisLabel(p.y, f.YLabel), doc.ThinSpace))
	d.f.SetFont(sans, "", figPt)
	yx, yy := pdfMargin+3, y0+h/2+d.f.GetStringWidth(yl)/2
	d.f.TransformBegin()
	d.f.TransformRotate(90, yx, yy)
	d.f.Text(yx, yy, yl)
	d.f.TransformEnd()

	// Each mark's label is set on white, as the TikZ has it, so that a
	// band, a guide or the grid under it does not run through its
	// letters; the white goes under the curves and the label over them,
	// so that a label where no placement is clear of the curves hides
	// none of them.
	bold := font{sans, "B", figPt}
	labelAt := func(k int) (ws []word, lx, ly, lw float64) {
		x, y := X(f.Marks[k].At), Y(f.Marks[k].At)
		ws = words(f.Marks[k].Label, bold, true)
		lw = lineWidth(d, ws, bold)
		pl := p.marks[k]
		lx, ly = x+2, y-2
		if pl.left {
			lx = x - 2 - lw
		}
		if pl.below {
			ly = y + 4
		}
		return ws, lx, ly - pl.rise()*h, lw
	}
	d.f.SetFillColor(255, 255, 255)
	d.f.SetAlpha(0.8, "Normal")
	for k := range f.Marks {
		_, lx, ly, lw := labelAt(k)
		size := bold.size * 25.4 / 72
		d.f.Rect(lx-0.6, ly-0.8*size, lw+1.2, 1.05*size, "F")
	}
	d.f.SetAlpha(1, "Normal")
	for i, line := range p.lines {
		c := colour(i)
		d.f.SetDrawColor(c[0], c[1], c[2])
		d.f.SetLineWidth(0.45)
		d.setDash(i)
		for j, pt := range line {
			if j == 0 {
				d.f.MoveTo(X(pt), Y(pt))
			} else {
				d.f.LineTo(X(pt), Y(pt))
			}
		}
		d.f.DrawPath("D")
		if p.legend {
			for _, j := range p.symbols[i] {
				d.symbol(i, X(line[j]), Y(line[j]))
			}
		}
	}
	d.f.SetDashPattern(nil, 0)
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetFillColor(255, 255, 255)
	d.f.SetLineWidth(0.3)
	for k, m := range f.Marks {
		if rise := p.marks[k].rise(); rise != 0 {
			// A label moved from its mark, tied to it by a thin line to
			// its box's near corner.
			_, lx, ly, lw := labelAt(k)
			size := bold.size * 25.4 / 72
			cx, cy := lx-0.6, ly+0.25*size
			if p.marks[k].left {
				cx = lx + lw + 0.6
			}
			if p.marks[k].below {
				cy = ly - 0.8*size
			}
			d.f.SetDrawColor(110, 110, 110)
			d.f.SetLineWidth(0.12)
			d.f.Line(X(m.At), Y(m.At), cx, cy)
			d.f.SetDrawColor(0, 0, 0)
			d.f.SetLineWidth(0.3)
		}
		d.f.Circle(X(m.At), Y(m.At), 0.9, "FD")
		ws, lx, ly, _ := labelAt(k)
		d.drawLine(ws, lx, ly, bold)
	}
	if p.legend {
		ly := y0 + h + 13
		for i, s := range f.Series {
			c := colour(i)
			y := ly + float64(i)*slh
			d.f.SetDrawColor(c[0], c[1], c[2])
			d.f.SetLineWidth(0.6)
			d.setDash(i)
			d.f.Line(x0, y+slh/2, x0+9, y+slh/2)
			d.symbol(i, x0+4.5, y+slh/2)
			label := []doc.Inline{doc.Text(s.Label)}
			if s.Formula != nil {
				label = append(label, doc.Text(", "), doc.Formula{Poly: *s.Formula})
			}
			d.drawLine(words(label, small, true), x0+11, y+slh*0.75, small)
		}
		d.f.SetDrawColor(0, 0, 0)
	}
	if key := d.bandKeyLines(p); key != nil {
		y := y0 + h + 13 + legendH
		for _, l := range key {
			d.drawLine(l, x0, y+slh*0.75, small)
			y += slh
		}
	}
	d.f.SetLineWidth(0.2)
	d.y += figH + legendH + d.bandKeyHeight(p)
	for _, l := range capLines {
		d.drawLine(l, pdfMargin, d.y+lineHeight(capFont)*0.75, capFont)
		d.y += lineHeight(capFont)
	}
	d.y += lineHeight(capFont) * 0.7
}

// figureCaption is figure f's caption, numbered as the next figure, in
// its font and broken into lines.
func (d *pdfDoc) figureCaption(f *doc.Figure) (font, [][]word) {
	capFont := font{sans, "", 9}
	caption := append([]doc.Inline{doc.Text(fmt.Sprintf("Figure %s. ", numbered(d.chapter, d.figures+1)))}, f.Caption...)
	return capFont, textLines(d, words(caption, capFont, false), d.textWidth(), capFont)
}

// legendHeight is the height of a plot's legend below it: none for a
// single series.
func (d *pdfDoc) legendHeight(f *doc.Figure) float64 {
	if !hasLegend(f) {
		return 0
	}
	return float64(len(f.Series))*lineHeight(font{sans, "", figPt}) + 2
}

// bandKeyLines is the key of plot p's bands unnamed in the plot, broken
// into lines the plot's width: nil when there is none.
func (d *pdfDoc) bandKeyLines(p plot) [][]word {
	key := p.bandKey()
	if key == nil {
		return nil
	}
	small := font{sans, "", figPt}
	return textLines(d, words(key, small, false), d.textWidth()-figLeft-figRight, small)
}

// bandKeyHeight is the height of plot p's bands' key below it and its
// legend.
func (d *pdfDoc) bandKeyHeight(p plot) float64 {
	n := len(d.bandKeyLines(p))
	if n == 0 {
		return 0
	}
	return float64(n)*lineHeight(font{sans, "", figPt}) + 2
}

// figureHeight is the height figure f takes on its page, which it is
// kept whole on, below above millimetres of headings: the drawing, its
// legend and its caption.
func (d *pdfDoc) figureHeight(f *doc.Figure, above float64) float64 {
	capFont, capLines := d.figureCaption(f)
	h := figH + d.legendHeight(f)
	if f.Boxes == nil && len(f.Bands) > 0 {
		h += d.bandKeyHeight(layout(f))
	}
	if f.Boxes != nil {
		h = d.boxesScale(f, above)*float64(f.Boxes.Height) + 4
	}
	return h + float64(len(capLines))*lineHeight(capFont) + 2
}

// pdfSymbolRadius is a series' symbol's radius, in millimetres.
const pdfSymbolRadius = 0.9

// symbol draws series i's symbol centred at (x, y), solid: it leaves the
// colours and the line's width as it found them, and the dash unset.
func (d *pdfDoc) symbol(i int, x, y float64) {
	sym := symbolOf(i)
	c := colour(i)
	fr, fg, fb := d.f.GetFillColor()
	dr, dg, db := d.f.GetDrawColor()
	lw := d.f.GetLineWidth()
	defer func() {
		d.f.SetFillColor(fr, fg, fb)
		d.f.SetDrawColor(dr, dg, db)
		d.f.SetLineWidth(lw)
	}()
	d.f.SetDashPattern(nil, 0)
	d.f.SetLineWidth(0.25)
	d.f.SetDrawColor(c[0], c[1], c[2])
	if sym.open {
		d.f.SetFillColor(255, 255, 255)
	} else {
		d.f.SetFillColor(c[0], c[1], c[2])
	}
	pts := sym.outline()
	at := func(k int) (float64, float64) {
		return x + pts[k][0]*pdfSymbolRadius, y - pts[k][1]*pdfSymbolRadius
	}
	switch {
	case pts == nil:
		d.f.Circle(x, y, pdfSymbolRadius, "FD")
	case sym.stroked():
		for k := 0; k < len(pts); k += 2 {
			ax, ay := at(k)
			bx, by := at(k + 1)
			d.f.Line(ax, ay, bx, by)
		}
	default:
		var poly []fpdf.PointType
		for k := range pts {
			px, py := at(k)
			poly = append(poly, fpdf.PointType{X: px, Y: py})
		}
		d.f.Polygon(poly, "FD")
	}
}

// setDash sets series i's dash pattern, in millimetres.
func (d *pdfDoc) setDash(i int) {
	pattern := dash(i)
	if pattern == nil {
		d.f.SetDashPattern(nil, 0)
		return
	}
	mm := make([]float64, len(pattern))
	for k, v := range pattern {
		mm[k] = v * ptToMM * 1.4
	}
	d.f.SetDashPattern(mm, 0)
}

// axisLabel is an axis' label, with the unit its ticks count in.
func axisLabel(a axis, label []doc.Inline) []doc.Inline {
	if a.unit == "" || a.unit == "bytes" {
		return label
	}
	return append(append([]doc.Inline(nil), label...), doc.Text(" ("+a.unit+")"))
}
