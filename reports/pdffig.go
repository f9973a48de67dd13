package reports

import (
	"fmt"

	"memsym/explain"
)

// A figure's size and its plot area's insets, in millimetres.
const (
	figH                  = 78.0
	figLeft, figBottom    = 20.0, 13.0
	figTopInset, figRight = 3.0, 4.0
	figPt                 = 8.0
)

// figure draws f as vector lines: axes with ticks, each series, the marks
// and a legend, and its caption below.
func (d *pdfDoc) figure(f *explain.Figure) {
	d.figures++
	p := layout(f)
	small := font{sans, "", figPt}
	d.room(figH + 14)
	x0, y0 := pdfMargin+figLeft, d.y+figTopInset
	w, h := d.textWidth()-figLeft-figRight, figH-figTopInset-figBottom
	X := func(pt explain.Point) float64 { return x0 + p.x.frac(pt.X)*w }
	Y := func(pt explain.Point) float64 { return y0 + (1-p.y.frac(pt.Y))*h }

	d.f.SetLineWidth(0.15)
	d.f.SetDrawColor(215, 215, 215)
	d.f.SetFont(sans, "", figPt)
	for _, t := range p.y.ticks {
		y := Y(explain.Point{Y: t.at})
		d.f.Line(x0, y, x0+w, y)
		d.f.Text(x0-1.5-d.f.GetStringWidth(t.label), y+1, t.label)
	}
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetLineWidth(0.25)
	for _, t := range p.x.ticks {
		x := X(explain.Point{X: t.at})
		d.f.Line(x, y0+h, x, y0+h+1.2)
		d.f.Text(x-d.f.GetStringWidth(t.label)/2, y0+h+4.5, t.label)
	}
	d.f.Line(x0, y0, x0, y0+h)
	d.f.Line(x0, y0+h, x0+w, y0+h)
	xl := pdfSafe(p.x.label(f.XLabel))
	d.f.Text(x0+w/2-d.f.GetStringWidth(xl)/2, y0+h+10, xl)
	yl := pdfSafe(p.y.label(f.YLabel))
	yx, yy := pdfMargin+3, y0+h/2+d.f.GetStringWidth(yl)/2
	d.f.TransformBegin()
	d.f.TransformRotate(90, yx, yy)
	d.f.Text(yx, yy, yl)
	d.f.TransformEnd()

	for i, line := range p.lines {
		c := colour(i)
		d.f.SetDrawColor(c[0], c[1], c[2])
		d.f.SetLineWidth(0.45)
		for j, pt := range line {
			if j == 0 {
				d.f.MoveTo(X(pt), Y(pt))
			} else {
				d.f.LineTo(X(pt), Y(pt))
			}
		}
		d.f.DrawPath("D")
	}
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetFillColor(255, 255, 255)
	d.f.SetLineWidth(0.3)
	bold := font{sans, "B", figPt}
	for _, m := range f.Marks {
		x, y := X(m.At), Y(m.At)
		d.f.Circle(x, y, 0.9, "FD")
		label := pdfSafe(m.Label)
		lw := d.width(label, bold)
		lx, ly := x-2-lw, y-2
		if p.labelRight(m) {
			lx = x + 2
		}
		if lx+lw > x0+w {
			lx = x - 2 - lw
		}
		if lx < x0+1 {
			lx = x + 2
		}
		d.f.SetFont(sans, "B", figPt)
		d.f.Text(lx, ly, label)
	}
	if p.legend {
		lh := lineHeight(small)
		for i, s := range f.Series {
			c := colour(i)
			y := y0 + 2 + float64(i)*lh
			d.f.SetDrawColor(c[0], c[1], c[2])
			d.f.SetLineWidth(0.9)
			d.f.Line(x0+3, y+lh/2, x0+9, y+lh/2)
			label := []explain.Inline{explain.Text(s.Label)}
			if s.Formula != nil {
				label = append(label, explain.Text(": "), explain.Formula{Poly: *s.Formula})
			}
			d.drawLine(words(label, small, true), x0+11, y+lh*0.75, small)
		}
		d.f.SetDrawColor(0, 0, 0)
	}
	d.f.SetLineWidth(0.2)
	d.y += figH
	caption := append([]explain.Inline{explain.Text(fmt.Sprintf("Figure %d. ", d.figures))}, f.Caption...)
	d.paragraph(caption, font{sans, "", 9}, 0)
}
