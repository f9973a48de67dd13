package doc

import "memsym/poly"

// Figure is a plot as data: series of exact points, marked points, axis
// labels and a caption; or, with Boxes, a drawing of nested boxes.
// Formats draw it each in their own way.
type Figure struct {
	// Name is a short file-name stem for the figure ("live", "candidates").
	Name string
	// Caption says what the figure shows.
	Caption []Inline
	// XLabel and YLabel name the axes ("operation", "live bytes", T).
	XLabel, YLabel []Inline
	// YBytes says that the y values count bytes, so formats may scale
	// the y axis' ticks to a decimal unit.
	YBytes bool
	// LogX and LogY draw an axis on a logarithmic scale; its values must
	// then be positive.
	LogX, LogY bool
	Series     []Series
	Marks      []Mark
	// Bands are stretches of x shaded and named, such as the operations
	// of each call.
	Bands []Band
	// Guides are x values marked across the plot, such as the grid's.
	Guides []Guide
	// Boxes, when set, makes the figure a drawing of nested boxes instead
	// of a plot: its axes, series, marks, bands and guides are then unused.
	Boxes *Boxes
}

// Band is a stretch of x, from From to To, that a figure shades and names:
// in the band where its name fits, else in a key below the plot, which
// says Where the band is ("operation 1", "operations 4–21") when set.
type Band struct {
	From, To poly.Rat
	Label    string
	Where    []Inline
}

// Guide is an x value a figure marks with a thin line across its plot;
// Label, if any, names it.
type Guide struct {
	X     poly.Rat
	Label []Inline
}

// Series is one line of a figure, its points in increasing x.
type Series struct {
	// Label names the series in a legend; Formula, when set, is the
	// polynomial the points were evaluated from.
	Label   string
	Formula *poly.Poly
	// Steps draws the series as a step function: each point's y holds
	// from its x to the next point's x, and the last point's for one unit
	// of x (an operation's live bytes hold through that operation).
	Steps  bool
	Points []XY
}

// XY is an exact point of a figure, x and y in the units of its axes.
type XY struct{ X, Y poly.Rat }

// Mark is a point a figure points out, such as the peak or a crossover.
type Mark struct {
	At    XY
	Label []Inline
}

// XRange returns the smallest and largest x of f's series and marks.
func (f *Figure) XRange() (lo, hi poly.Rat) { return f.span(func(p XY) poly.Rat { return p.X }) }

// YRange returns the smallest and largest y of f's series and marks.
func (f *Figure) YRange() (lo, hi poly.Rat) { return f.span(func(p XY) poly.Rat { return p.Y }) }

func (f *Figure) span(coord func(XY) poly.Rat) (lo, hi poly.Rat) {
	first := true
	see := func(p XY) {
		v := coord(p)
		if first || v.Cmp(lo) < 0 {
			lo = v
		}
		if first || v.Cmp(hi) > 0 {
			hi = v
		}
		first = false
	}
	for _, s := range f.Series {
		for _, p := range s.Points {
			see(p)
		}
	}
	for _, m := range f.Marks {
		see(m.At)
	}
	return lo, hi
}
