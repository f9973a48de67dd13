package reports

import (
	"fmt"
	"math"

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
	// guideLabels says, for each of fig.Guides, how high its name's box
	// stands, its bottom as a fraction of the plot's height: 0 on the x
	// axis, where a guide is named unless a mark is there.
	guideLabels []float64
	// bandLabels says which of fig.Bands are named in the band, the same
	// in every format: those whose name fits in the band on the narrowest
	// axis a figure is drawn with and that no mark's label covers. The
	// others are named in the key (bandKey).
	bandLabels []bool
	// symbols lists, for each line of a figure with a legend, the points
	// that carry its series' symbol (symbolOf), by index.
	symbols [][]int
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

// symbol is the shape a series' line carries at a few of its points and
// in the legend: filled with the series' colour, or with white when open.
type symbol struct {
	shape string // circle, square, triangle, diamond, pentagon, plus or cross
	open  bool
}

// symbolShapes are the series' symbols, in order: with the colours and
// the dash patterns, ten series in one figure each look their own. None
// is an open circle, which marks a crossover or the counted point.
var symbolShapes = []symbol{
	{"circle", false}, {"square", true}, {"triangle", false}, {"diamond", true}, {"plus", false},
	{"cross", false}, {"pentagon", false}, {"square", false}, {"triangle", true}, {"diamond", false},
}

func symbolOf(i int) symbol { return symbolShapes[i%len(symbolShapes)] }

// outline is a symbol's outline as points around its centre, y up, for a
// symbol one unit in radius; a plus or a cross is two strokes, its
// points taken two at a time.
func (s symbol) outline() [][2]float64 {
	switch s.shape {
	case "square":
		return [][2]float64{{-0.85, -0.85}, {0.85, -0.85}, {0.85, 0.85}, {-0.85, 0.85}}
	case "triangle":
		return [][2]float64{{0, 1.15}, {-1, -0.6}, {1, -0.6}}
	case "diamond":
		return [][2]float64{{0, 1.2}, {0.85, 0}, {0, -1.2}, {-0.85, 0}}
	case "pentagon":
		return [][2]float64{{0, 1.05}, {1, 0.32}, {0.62, -0.85}, {-0.62, -0.85}, {-1, 0.32}}
	case "plus":
		return [][2]float64{{-1.1, 0}, {1.1, 0}, {0, -1.1}, {0, 1.1}}
	case "cross":
		return [][2]float64{{-0.85, -0.85}, {0.85, 0.85}, {-0.85, 0.85}, {0.85, -0.85}}
	}
	return nil // a circle
}

// stroked reports whether the symbol is strokes alone, with nothing to
// fill.
func (s symbol) stroked() bool { return s.shape == "plus" || s.shape == "cross" }

// bandFill is the grey of every other band: light enough that the curve
// over it stays sharp.
var bandFill = [3]int{236, 236, 236}

// hasLegend reports whether figure f has a legend: when it draws more than
// one series.
func hasLegend(f *doc.Figure) bool { return len(f.Series) > 1 }

// layout lays out f: a step series' last value holds for one unit of x, as
// an operation's live bytes hold for that operation.
func layout(f *doc.Figure) plot {
	p := plot{fig: f, legend: hasLegend(f)}
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
		// The x axis ends with the data, not at a round value past it.
		p.x = newAxis(xlo, xhi, false).endAt(xhi)
	}
	if f.LogY {
		p.y = newLogAxis(smallestPositiveY(f), yhi.Mul(poly.Int(2)), f.YBytes)
	} else {
		// A tenth more room on top, for the marks' labels above the
		// highest point.
		p.y = newAxis(ylo, yhi.Add(yhi.Sub(ylo).Quo(poly.Int(10))), f.YBytes)
	}
	p.placeGuides()
	p.placeMarks()
	if p.legend {
		p.placeSymbols()
	}
	return p
}

// symbolsPerLine is how many of its symbols a series' line carries, and
// symbolClear how far, as a fraction of the plot, each stays from a mark.
const (
	symbolsPerLine = 4
	symbolClear    = 0.04
)

// placeSymbols chooses the points of each line that carry its symbol:
// the points nearest to symbolsPerLine places evenly along the x axis,
// each series' places shifted from the one before's by a share of the
// space between them, so that lines that run together show their symbols
// side by side; a point by a mark (a crossover's circle) or under a
// mark's label, as wide as the widest backend draws it, is passed over,
// so that no symbol hides one or is drawn over its words.
func (p *plot) placeSymbols() {
	n := len(p.lines)
	p.symbols = make([][]int, n)
	var marks [][2]float64
	var labels []box
	for k, m := range p.fig.Marks {
		x, y := p.x.frac(m.At.X), p.y.frac(m.At.Y)
		marks = append(marks, [2]float64{x, y})
		w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
		labels = append(labels, markLabelBox(x, y, w*labelReach, p.marks[k]))
	}
	byMark := func(pt [2]float64) bool {
		for _, m := range marks {
			if math.Hypot(pt[0]-m[0], pt[1]-m[1]) < symbolClear {
				return true
			}
		}
		// A symbol's half width, about symbolClear/2 of the plot, off
		// every label.
		r := symbolClear / 2
		for _, b := range labels {
			if pt[0] > b[0]-r && pt[0] < b[2]+r && pt[1] > b[1]-r && pt[1] < b[3]+r {
				return true
			}
		}
		return false
	}
	for i, line := range p.lines {
		pts := make([][2]float64, len(line))
		for j, pt := range line {
			pts[j] = [2]float64{p.x.frac(pt.X), p.y.frac(pt.Y)}
		}
		for k := range symbolsPerLine {
			want := (float64(k) + (float64(i)+0.5)/float64(n)) / symbolsPerLine
			best := -1
			for j, pt := range pts {
				if !byMark(pt) && (best < 0 || math.Abs(pt[0]-want) < math.Abs(pts[best][0]-want)) {
					best = j
				}
			}
			if l := len(p.symbols[i]); best >= 0 && (l == 0 || p.symbols[i][l-1] != best) {
				p.symbols[i] = append(p.symbols[i], best)
			}
		}
	}
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
// above or below, and lift further from it, up when above and down when
// below, as a fraction of the plot's height, where another label is
// beside it.
type placement struct {
	left, below bool
	lift        float64
}

// rise is how far up a label placed at pl is moved from its usual place,
// as a fraction of the plot's height: down when negative.
func (pl placement) rise() float64 {
	if pl.below {
		return -pl.lift
	}
	return pl.lift
}

// The size of a label's box as fractions of the plot: a character's width
// and a line's height (the backends draw labels at about these sizes).
const (
	labelChar = 0.0125
	labelLine = 0.075
	labelGap  = 0.012
)

// The size of a guide's name's box as fractions of the plot: a
// character's width (the backends draw it smaller than a mark's label), a
// line's height and the gap from its guide; markRadius is a mark's
// circle's radius, with room around it.
const (
	guideChar  = 0.0105
	guideLine  = 0.065
	guideGap   = 0.006
	markRadius = 0.02
)

// bandLabelDepth is how far down from the plot's top a band's name
// reaches, as a fraction of the plot's height, in every backend: about
// 0.05 in the SVG and the PDF, 0.07 in TikZ in a two-column paper's
// column, its node's inner sep with it.
const bandLabelDepth = 0.09

// labelReach is how much wider than its estimate a mark's label may be
// drawn: TikZ's \scriptsize beside an axis a two-column paper's column
// wide takes about 1.4 times labelChar a character.
const labelReach = 1.5

// box is a rectangle in fractions of the plot: x0, y0, x1, y1, y up.
type box [4]float64

// meets reports whether b and o overlap.
func (b box) meets(o box) bool { return b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3] }

// bandLabelBox is where band i's name may go: its whole width at the
// plot's top, bandLabelDepth deep, whatever the backend fits in it; false
// for a band without a name or outside the axis.
func (p *plot) bandLabelBox(i int) (box, bool) {
	b := p.fig.Bands[i]
	x0, x1 := p.x.frac(p.clampX(b.From)), p.x.frac(p.clampX(b.To))
	if b.Label == "" || x1 <= x0 {
		return box{}, false
	}
	return box{x0, 1 - bandLabelDepth, x1, 1}, true
}

// markLabelBox is the box of a mark's label w wide at (x, y), placed at
// pl.
func markLabelBox(x, y, w float64, pl placement) box {
	b := box{x + labelGap, y + labelGap, x + labelGap + w, y + labelGap + labelLine}
	if pl.left {
		b[0], b[2] = x-labelGap-w, x-labelGap
	}
	if pl.below {
		b[1], b[3] = y-labelGap-labelLine, y-labelGap
	}
	b[1], b[3] = b[1]+pl.rise(), b[3]+pl.rise()
	return b
}

// guideLabelBox is the box of guide i's name, its bottom at lift, as wide
// as the widest backend draws it; false for a guide without a name or
// outside the axis.
func (p *plot) guideLabelBox(i int, lift float64) (box, bool) {
	g := p.fig.Guides[i]
	if len(g.Label) == 0 || !p.inRange(g.X) {
		return box{}, false
	}
	x := p.x.frac(g.X)
	w := guideChar * float64(len([]rune(doc.PlainText(g.Label, " ")))) * labelReach
	return box{x + guideGap, lift, x + guideGap + w, lift + guideLine}, true
}

// markBox is the box around mark k's circle, with room around it.
func (p *plot) markBox(k int) box {
	m := p.fig.Marks[k]
	x, y := p.x.frac(m.At.X), p.y.frac(m.At.Y)
	return box{x - markRadius, y - markRadius, x + markRadius, y + markRadius}
}

// placeGuides finds where each guide's name goes: on the x axis beside
// its guide; else at the plot's top; else as little above the axis as
// keeps it clear: clear of every mark's circle, of the names of guides
// before it and of the bands' names.
func (p *plot) placeGuides() {
	p.guideLabels = make([]float64, len(p.fig.Guides))
	var taken []box
	for k := range p.fig.Marks {
		taken = append(taken, p.markBox(k))
	}
	for i := range p.fig.Bands {
		if b, ok := p.bandLabelBox(i); ok {
			taken = append(taken, b)
		}
	}
	clear := func(b box) bool {
		for _, o := range taken {
			if b.meets(o) {
				return false
			}
		}
		return true
	}
	for i := range p.fig.Guides {
		if _, ok := p.guideLabelBox(i, 0); !ok {
			continue
		}
		for _, l := range guideLifts() {
			if b, _ := p.guideLabelBox(i, l); clear(b) {
				p.guideLabels[i] = l
				break
			}
		}
		b, _ := p.guideLabelBox(i, p.guideLabels[i])
		taken = append(taken, b)
	}
}

// guideLifts is each height a guide's name is tried at, in turn: on the
// x axis, at the plot's top, then up from the axis half a line at a time.
func guideLifts() []float64 {
	out := []float64{0, 1 - guideLine}
	for k := 1; float64(k)*guideLine/2 < 1-guideLine; k++ {
		out = append(out, float64(k)*guideLine/2)
	}
	return out
}

// namesBoxes is the boxes of the bands' names and of the guides' names,
// where the layout puts them.
func (p *plot) namesBoxes() []box {
	var out []box
	for i := range p.fig.Bands {
		if b, ok := p.bandLabelBox(i); ok {
			out = append(out, b)
		}
	}
	for i := range p.fig.Guides {
		if b, ok := p.guideLabelBox(i, p.guideLabels[i]); ok {
			out = append(out, b)
		}
	}
	return out
}

// pinReach is how far, as a fraction of the plot's height, a mark's
// label is moved from its mark, where the curves cross beside it, to be
// clear of them: the line that ties it to its mark stays short.
const pinReach = 0.3

// liftSteps is each lift a mark's label is tried at, when it is clear of
// the other labels nowhere beside its mark: a third of a line at a time,
// up to the plot's height.
func liftSteps() []float64 {
	var out []float64
	for k := 1; float64(k)*labelLine/3 < 1; k++ {
		out = append(out, float64(k)*labelLine/3)
	}
	return out
}

// lifted is each of order at each of liftSteps, the least lift first.
func lifted(order []placement) []placement {
	var out []placement
	for _, l := range liftSteps() {
		for _, pl := range order {
			pl.lift = l
			out = append(out, pl)
		}
	}
	return out
}

// placeMarks finds where each mark's label goes: of above-left,
// above-right, below-right and below-left, the first whose box stays in
// the plot, as wide as the widest backend draws it, and meets no earlier
// label, no band's or guide's name and no curve; else the first of them
// moved from its mark, no further than pinReach, that meets none of them
// (the formats tie it to its mark by a line); else the first that meets
// no earlier label and no name; else the first of them moved
// further from its mark, as little as it takes, that meets none (so that
// labels of marks close together stack); else the first in the plot clear
// of the names. A band whose name a mark's label would still cover, as
// drawn at its widest, is left unnamed.
func (p *plot) placeMarks() {
	var boxes []box
	p.marks = nil
	curves := p.curveFracs()
	names := p.namesBoxes()
	// reach is a label's box as wide as the widest backend draws it.
	reach := func(x, y, w float64, pl placement) box { return markLabelBox(x, y, w*labelReach, pl) }
	for _, m := range p.fig.Marks {
		x, y := p.x.frac(m.At.X), p.y.frac(m.At.Y)
		w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
		inside := func(b box) bool { return b[0] >= 0 && b[2] <= 1 && b[1] >= 0 && b[3] <= 1 }
		offNames := func(pl placement) bool {
			r := reach(x, y, w, pl)
			for _, o := range names {
				if r.meets(o) {
					return false
				}
			}
			return true
		}
		apart := func(b box) bool {
			for _, o := range boxes {
				if b.meets(o) {
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
		aboveLeft, aboveRight := placement{left: true}, placement{}
		belowLeft, belowRight := placement{left: true, below: true}, placement{below: true}
		order := []placement{aboveLeft, aboveRight, belowRight, belowLeft}
		var side []placement
		switch right, left := near(1), near(-1); {
		case right && !left:
			side = []placement{aboveLeft, belowLeft}
		case left && !right:
			side = []placement{aboveRight, belowRight}
		}
		chosen, found := placement{}, false
		// On the side away from a close mark, clear of everything, else of
		// the other labels; then on any side, clear of everything, else of
		// the other labels, else moved from its mark clear of them, else
		// in the plot; and always clear of the bands' and guides' names.
		// In the plot means as wide as the widest backend draws the
		// label, so that it never runs past the y axis into its
		// ticks' numbers.
		inPlot := func(pl placement) bool { return inside(reach(x, y, w, pl)) }
		// Clear of the curves means as wide as the widest backend draws
		// the label, so that no curve runs through it drawn at its widest.
		full := func(pl placement) bool {
			b := reach(x, y, w, pl)
			return inPlot(pl) && offNames(pl) && apart(b) && offCurves(b, curves)
		}
		// Moved from its mark, tied to it by a line, no further than
		// pinReach, where the lines cross close to a mark (a crossover).
		pinned := func(order []placement) []placement {
			var out []placement
			for _, pl := range lifted(order) {
				if pl.lift <= pinReach {
					out = append(out, pl)
				}
			}
			return out
		}
		labels := func(pl placement) bool {
			return inPlot(pl) && offNames(pl) && apart(reach(x, y, w, pl))
		}
		plotted := func(pl placement) bool { return inPlot(pl) && offNames(pl) }
		for _, tier := range []struct {
			order []placement
			ok    func(placement) bool
		}{{side, full}, {pinned(side), full}, {side, labels}, {order, full}, {pinned(order), full}, {order, labels}, {lifted(side), labels}, {lifted(order), labels}, {order, plotted}} {
			for _, pl := range tier.order {
				if tier.ok(pl) {
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
		boxes = append(boxes, reach(x, y, w, chosen))
		p.marks = append(p.marks, chosen)
	}
	p.bandLabels = make([]bool, len(p.fig.Bands))
	for i := range p.fig.Bands {
		b, ok := p.bandLabelBox(i)
		p.bandLabels[i] = ok && b[2]-b[0] >= bandNameShare(p.fig.Bands[i].Label)
		for k, m := range p.fig.Marks {
			w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
			if reach(p.x.frac(m.At.X), p.y.frac(m.At.Y), w, p.marks[k]).meets(b) {
				p.bandLabels[i] = false // only where no placement was clear
			}
		}
	}
}

// narrowestAxis is, in points, about the narrowest axis a figure is drawn
// with: a figure set in half of a page's text, as two side by side in a
// paper's figure are; bandNameChar is, in points, at least the width of a
// character of a band's name in TikZ's \tiny sans serif, the widest the
// formats draw it beside their axis' width.
const (
	narrowestAxis = 115.0
	bandNameChar  = 3.0
)

// bandNameShare is the least share of the axis' width in which a band's
// name fits on the narrowest axis, its node's inner sep of 1pt on each
// side with it.
func bandNameShare(name string) float64 {
	return (float64(len([]rune(name)))*bandNameChar + 2) / narrowestAxis
}

// bandKeyMost is the most bands a key names; it counts the rest.
const bandKeyMost = 12

// bandKey is the key below the plot that names the bands not named in
// them, each with where it is ("embed (operation 1)"), in order: nil when
// every band with a name is named in it. A band outside the axis is left
// out, and past bandKeyMost of them the rest are counted.
func (p *plot) bandKey() []doc.Inline {
	var out []doc.Inline
	n := 0
	for i, b := range p.fig.Bands {
		if _, ok := p.bandLabelBox(i); !ok || p.bandLabels[i] {
			continue
		}
		n++
		if n > bandKeyMost {
			continue
		}
		if n == 1 {
			out = append(out, doc.Text("Bands unnamed in the plot: "))
		} else {
			out = append(out, doc.Text(", "))
		}
		out = append(out, doc.Text(b.Label))
		if len(b.Where) > 0 {
			out = append(out, doc.Text(" ("))
			out = append(out, b.Where...)
			out = append(out, doc.Text(")"))
		}
	}
	if n == 0 {
		return nil
	}
	if n > bandKeyMost {
		out = append(out, doc.Text(fmt.Sprintf(" and %d more", n-bandKeyMost)))
	}
	return append(out, doc.Text("."))
}

// curveFracs is each line's points as fractions of the plot.
func (p *plot) curveFracs() [][][2]float64 {
	out := make([][][2]float64, len(p.lines))
	for i, line := range p.lines {
		for _, pt := range line {
			out[i] = append(out[i], [2]float64{p.x.frac(pt.X), p.y.frac(pt.Y)})
		}
	}
	return out
}

// offCurves reports whether no curve, each a polyline of points in
// fractions of the plot, passes through b.
func offCurves(b box, curves [][][2]float64) bool {
	for _, c := range curves {
		for j := range c {
			from := c[max(j-1, 0)]
			if segmentMeets(b, from, c[j]) {
				return false
			}
		}
	}
	return true
}

// segmentMeets reports whether the segment from a to c passes through b's
// inside (touching its edge is not meeting it): the segment is clipped to
// b's slab along each axis in turn (Liang and Barsky's clipping).
func segmentMeets(b box, a, c [2]float64) bool {
	lo, hi := 0.0, 1.0
	for k := range 2 {
		d := c[k] - a[k]
		from, to := b[k], b[k+2]
		if d == 0 {
			if a[k] <= from || a[k] >= to {
				return false
			}
			continue
		}
		t0, t1 := (from-a[k])/d, (to-a[k])/d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = math.Max(lo, t0), math.Min(hi, t1)
		if lo >= hi {
			return false
		}
	}
	return true
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
