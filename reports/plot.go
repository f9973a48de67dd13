package reports

import (
	"memsym/explain"
	"memsym/poly"
)

// plot is a figure laid out for drawing, in any format: its axes and its
// series as polylines of exact points (steps already expanded).
type plot struct {
	fig    *explain.Figure
	x, y   axis
	lines  [][]explain.Point
	legend bool
	top    poly.Rat // the highest y of the series and marks
}

// palette colours the series, in order, as RGB.
var palette = [][3]int{{31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {148, 103, 189}, {255, 127, 14}, {140, 86, 75}}

func colour(i int) [3]int { return palette[i%len(palette)] }

// layout lays out f: a step series' last value holds for one unit of x, as
// an operation's live bytes hold for that operation.
func layout(f *explain.Figure) plot {
	p := plot{fig: f, legend: len(f.Series) > 1}
	xlo, xhi := f.XRange()
	ylo, yhi := f.YRange()
	for _, s := range f.Series {
		var line []explain.Point
		for i, pt := range s.Points {
			if s.Steps && i > 0 {
				line = append(line, explain.Point{X: pt.X, Y: s.Points[i-1].Y})
			}
			line = append(line, pt)
		}
		if s.Steps && len(s.Points) > 0 {
			last := s.Points[len(s.Points)-1]
			end := explain.Point{X: last.X.Add(poly.Int(1)), Y: last.Y}
			line = append(line, end)
			if end.X.Cmp(xhi) > 0 {
				xhi = end.X
			}
		}
		p.lines = append(p.lines, line)
	}
	p.x = newAxis(xlo, xhi, false)
	// A tenth more room on top, for the marks' labels above the highest
	// point.
	p.y = newAxis(ylo, yhi.Add(yhi.Sub(ylo).Quo(poly.Int(10))), f.YBytes)
	p.top = yhi
	return p
}

// labelRight says whether m's label goes above and to the right of it:
// yes for the highest point (a peak, with nothing above it), no for any
// other (a crossover of rising curves, with free room above on its left).
func (p plot) labelRight(m explain.Mark) bool { return m.At.Y.Cmp(p.top) >= 0 }
