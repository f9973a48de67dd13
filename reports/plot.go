package reports

import (
	"memsym/doc"
	"memsym/poly"
)

// plot is a figure laid out for drawing, in any format: its axes and its
// series as polylines of exact points (steps already expanded).
type plot struct {
	fig    *doc.Figure
	x, y   axis
	lines  [][]doc.XY
	legend bool
	// marks says where each of fig.Marks' labels goes.
	marks []placement
}

// palette colours the series, in order, as RGB: the Okabe–Ito colours,
// which readers with any common colour blindness tell apart. Each series
// also has its own dash pattern, so that the figure reads in grey too.
var palette = [][3]int{{0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167}, {230, 159, 0}, {86, 180, 233}, {0, 0, 0}}

func colour(i int) [3]int { return palette[i%len(palette)] }

// dashes are the series' dash patterns, in order, as lengths of dash and
// gap in points; none is a solid line.
var dashes = [][]float64{nil, {5, 2.5}, {1.2, 2}, {6, 2, 1.2, 2}, {9, 3}, {3, 1.5, 1.2, 1.5, 1.2, 1.5}}

func dash(i int) []float64 { return dashes[i%len(dashes)] }

// bandFill is the grey of every other band: light enough that the curve
// over it stays sharp.
var bandFill = [3]int{236, 236, 236}

// layout lays out f: a step series' last value holds for one unit of x, as
// an operation's live bytes hold for that operation.
func layout(f *doc.Figure) plot {
	p := plot{fig: f, legend: len(f.Series) > 1}
	xlo, xhi := f.XRange()
	ylo, yhi := f.YRange()
	for _, s := range f.Series {
		var line []doc.XY
		for i, pt := range s.Points {
			if s.Steps && i > 0 {
				line = append(line, doc.XY{X: pt.X, Y: s.Points[i-1].Y})
			}
			line = append(line, pt)
		}
		if s.Steps && len(s.Points) > 0 {
			last := s.Points[len(s.Points)-1]
			end := doc.XY{X: last.X.Add(poly.Int(1)), Y: last.Y}
			line = append(line, end)
			if end.X.Cmp(xhi) > 0 {
				xhi = end.X
			}
		}
		p.lines = append(p.lines, line)
	}
	for _, b := range f.Bands {
		if b.To.Cmp(xhi) > 0 {
			xhi = b.To
		}
	}
	if f.LogX {
		p.x = newLogAxis(xlo, xhi, false)
	} else {
		p.x = newAxis(xlo, xhi, false)
	}
	if f.LogY {
		p.y = newLogAxis(smallestPositiveY(f), yhi.Mul(poly.Int(2)), f.YBytes)
	} else {
		// A tenth more room on top, for the marks' labels above the
		// highest point.
		p.y = newAxis(ylo, yhi.Add(yhi.Sub(ylo).Quo(poly.Int(10))), f.YBytes)
	}
	p.placeMarks()
	return p
}

// smallestPositiveY is the least positive y of f's series and marks, 1
// when there is none.
func smallestPositiveY(f *doc.Figure) poly.Rat {
	var lo poly.Rat
	see := func(y poly.Rat) {
		if y.Sign() > 0 && (lo.IsZero() || y.Cmp(lo) < 0) {
			lo = y
		}
	}
	for _, s := range f.Series {
		for _, pt := range s.Points {
			see(pt.Y)
		}
	}
	for _, m := range f.Marks {
		see(m.At.Y)
	}
	if lo.IsZero() {
		return poly.Int(1)
	}
	return lo
}

// placement is where a mark's label goes beside it: to its left or right,
// above or below.
type placement struct{ left, below bool }

// The size of a label's box as fractions of the plot: a character's width
// and a line's height (the backends draw labels at about these sizes).
const (
	labelChar = 0.0125
	labelLine = 0.075
	labelGap  = 0.012
)

// placeMarks finds where each mark's label goes: of above-left,
// above-right, below-right and below-left, the first whose box stays in
// the plot and meets no earlier label and no point of any curve; else the
// first that meets no earlier label; else the first in the plot.
func (p *plot) placeMarks() {
	var boxes [][4]float64 // x0, y0, x1, y1
	var points [][2]float64
	for _, line := range p.lines {
		for j, pt := range line {
			points = append(points, [2]float64{p.x.frac(pt.X), p.y.frac(pt.Y)})
			if j > 0 {
				// The middle of each segment too, so that a long one counts.
				prev := line[j-1]
				points = append(points, [2]float64{(p.x.frac(prev.X) + p.x.frac(pt.X)) / 2, (p.y.frac(prev.Y) + p.y.frac(pt.Y)) / 2})
			}
		}
	}
	p.marks = nil
	for _, m := range p.fig.Marks {
		x, y := p.x.frac(m.At.X), p.y.frac(m.At.Y)
		w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
		box := func(pl placement) [4]float64 {
			b := [4]float64{x + labelGap, y + labelGap, x + labelGap + w, y + labelGap + labelLine}
			if pl.left {
				b[0], b[2] = x-labelGap-w, x-labelGap
			}
			if pl.below {
				b[1], b[3] = y-labelGap-labelLine, y-labelGap
			}
			return b
		}
		inside := func(b [4]float64) bool { return b[0] >= 0 && b[2] <= 1 && b[1] >= 0 && b[3] <= 1 }
		apart := func(b [4]float64) bool {
			for _, o := range boxes {
				if b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3] {
					return false
				}
			}
			for _, o := range p.fig.Marks {
				ox, oy := p.x.frac(o.At.X), p.y.frac(o.At.Y)
				if (ox != x || oy != y) && ox > b[0]-0.01 && ox < b[2]+0.01 && oy > b[1]-0.01 && oy < b[3]+0.01 {
					return false
				}
			}
			return true
		}
		offCurves := func(b [4]float64) bool {
			for _, pt := range points {
				if pt[0] > b[0] && pt[0] < b[2] && pt[1] > b[1] && pt[1] < b[3] {
					return false
				}
			}
			return true
		}
		// A mark with another close on one side has its label on the
		// other, so that each label reads as its own mark's.
		near := func(dir float64) bool {
			for _, o := range p.fig.Marks {
				if d := (p.x.frac(o.At.X) - x) * dir; d > 0 && d < 0.12 {
					return true
				}
			}
			return false
		}
		order := []placement{{true, false}, {false, false}, {false, true}, {true, true}}
		var side []placement
		switch right, left := near(1), near(-1); {
		case right && !left:
			side = []placement{{true, false}, {true, true}}
		case left && !right:
			side = []placement{{false, false}, {false, true}}
		}
		chosen, found := placement{}, false
		// On the side away from a close mark, clear of everything, else of
		// the other labels; then on any side, clear of everything, else of
		// the other labels, else in the plot.
		full := func(b [4]float64) bool { return inside(b) && apart(b) && offCurves(b) }
		labels := func(b [4]float64) bool { return inside(b) && apart(b) }
		for _, tier := range []struct {
			order []placement
			ok    func([4]float64) bool
		}{{side, full}, {side, labels}, {order, full}, {order, labels}, {order, inside}} {
			for _, pl := range tier.order {
				if tier.ok(box(pl)) {
					chosen, found = pl, true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			chosen = placement{left: x > 0.5, below: y > 0.5}
		}
		boxes = append(boxes, box(chosen))
		p.marks = append(p.marks, chosen)
	}
}

// inRange reports whether x lies on the x axis.
func (p plot) inRange(x poly.Rat) bool { return x.Cmp(p.x.lo) >= 0 && x.Cmp(p.x.hi) <= 0 }

// clampX returns x within the x axis.
func (p plot) clampX(x poly.Rat) poly.Rat {
	if x.Cmp(p.x.lo) < 0 {
		return p.x.lo
	}
	if x.Cmp(p.x.hi) > 0 {
		return p.x.hi
	}
	return x
}
