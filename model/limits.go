package model

import (
	"fmt"
	"slices"

	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// A bundled program runs only at some sizes: a dimension's largest value
// (gpt-depth's L ≤ 10000), a constraint (bert-encoder's T ≤ P). The model's
// polynomials answer anywhere; a fit whose answer lies past them says so
// (Beyond, PastBeyond), and ConfirmFit records nothing there.

// runsAt reports whether src's program runs at p (source.Limit).
func runsAt(src source.Source, p record.Point) bool { return source.Limit(src, p) == nil }

// RunsOnLine returns why src's program runs nowhere on the line along the
// dimension along, the others at fixed (a point Line accepts): it runs
// at none of the least value the model holds for and the grid's three
// values along it, and the first of those is named; nil when it runs at
// one of them, or src cannot say. A fit or crossovers on a line the
// program never runs on (strided-conv's N = 1, under its kernel's K = 3)
// would answer for polynomials that are not the program's anywhere.
func (m *Model) RunsOnLine(src source.Source, along string, fixed map[string]int64) error {
	p, err := m.Line(along, fixed)
	if err != nil {
		return err
	}
	i := slices.Index(m.Vars, along)
	values := append([]int64{m.Least(along)}, m.Grid[i]...)
	var first error
	for _, x := range values {
		p[i].Value = x
		err := source.NotRunning(src, p)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// Beyond says, for a fit whose answer lies where src's program does not
// run, so, and the last value along the dimension below the answer at
// which it runs, with whether that value fits (by fits: the needs, or a
// step's peak, at most the budget there); "" when the answer lies where
// the program runs, or src cannot say.
func (m *Model) Beyond(src source.Source, f *Fit, fits func(record.Point) (bool, error)) string {
	x, ok := f.answer()
	if !ok {
		return ""
	}
	err := source.NotRunning(src, f.Point(m, x))
	if err == nil {
		return ""
	}
	s := err.Error()
	// The values at which the program runs below x: their last one, found
	// by halving between one it runs at and x, and said as what it is, the
	// value it runs at with the next one it does not.
	lo, hi := f.Least, x
	if !runsAt(src, f.Point(m, lo)) {
		return s
	}
	lo = edge(lo, hi, func(x int64) bool { return runsAt(src, f.Point(m, x)) })
	s += fmt.Sprintf("; it runs at %s = %d but not at %s = %d", f.Along, lo, f.Along, lo+1)
	if f.Kind == FitsFrom && lo < f.From {
		return s + fmt.Sprintf(", below %d, where the values that fit start", f.From)
	}
	if ok, err := fits(f.Point(m, lo)); err == nil {
		if ok {
			s += fmt.Sprintf(", and %s = %d fits", f.Along, lo)
		} else {
			s += fmt.Sprintf(", and %s = %d does not fit", f.Along, lo)
		}
	}
	return s
}

// PastBeyond says, for a largest value the program runs at whose next it
// does not, that the next lies past the program's sizes, and was not
// recorded; "" otherwise.
func (m *Model) PastBeyond(src source.Source, f *Fit) string {
	if f.Kind != FitsUpTo || !runsAt(src, f.Point(m, f.Largest)) {
		return ""
	}
	err := source.NotRunning(src, f.Point(m, f.Largest+1))
	if err == nil {
		return ""
	}
	return fmt.Sprintf("%s = %d, one past the answer, lies past the sizes the program takes (%v), and is not recorded", f.Along, f.Largest+1, err)
}

// NeedsFit reports, for Beyond, whether the needs at p are at most budget.
func (m *Model) NeedsFit(budget poly.Rat) func(record.Point) (bool, error) {
	return func(p record.Point) (bool, error) {
		t, err := m.Eval(p)
		if err != nil {
			return false, err
		}
		return t.Needs.Cmp(budget) <= 0, nil
	}
}

// PeakFits reports, for Beyond, whether the step's peak at p is at most
// budget.
func (s *Step) PeakFits(budget poly.Rat) func(record.Point) (bool, error) {
	return func(p record.Point) (bool, error) {
		t, err := s.Eval(p)
		if err != nil {
			return false, err
		}
		return t.Peak.Bytes.Cmp(budget) <= 0, nil
	}
}

// Below says, for a fit whose answer (or, when nothing fits, the grid's
// least value along the line) lies where src's program runs, that
// the program does not run at the least values along the line: it sets
// f.RunsFrom to the least value at which it runs, keeps of f.Gaps only
// the values from it on (what is said of the values below the answer is
// said of the program's), and returns where it starts to run, in the
// program's words; "" when it runs from f.Least, or the answer lies where
// it does not run (Beyond says so), or src cannot say. The values at
// which a bundled program runs along a line are one span (a least value
// such as N ≥ K, a largest such as T ≤ P), which halving finds the start
// of. For a fit made from that start (FitFrom), it says so of the value
// before it.
func (m *Model) Below(src source.Source, f *Fit) string {
	x, ok := f.answer()
	if !ok {
		// No answer: the grid's least value along the line, which the
		// program was recorded at, stands for one it runs at.
		for i, v := range m.Vars {
			if v == f.Along {
				x = m.Grid[i][0]
			}
		}
	}
	if least := m.Least(f.Along); f.Least > least && runsAt(src, f.Point(m, f.Least)) && !runsAt(src, f.Point(m, f.Least-1)) {
		// A fit from the least value the program runs at (FitFrom).
		f.RunsFrom = f.Least
		return fmt.Sprintf("%v; it runs from %s = %d", source.NotRunning(src, f.Point(m, f.Least-1)), f.Along, f.Least)
	}
	if !runsAt(src, f.Point(m, x)) || runsAt(src, f.Point(m, f.Least)) {
		return ""
	}
	lo, hi := f.Least, x // not running at lo, running at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if runsAt(src, f.Point(m, mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	f.RunsFrom = hi
	var gaps []Span
	for _, g := range f.Gaps {
		if g.To < hi {
			continue
		}
		g.From = max(g.From, hi)
		gaps = append(gaps, g)
	}
	f.Gaps = gaps
	return fmt.Sprintf("%v; it runs from %s = %d", source.NotRunning(src, f.Point(m, lo)), f.Along, hi)
}

// answer returns the value a fit answers with: its largest value that
// fits, or the first of those that all fit; ok is false when none fits.
func (f *Fit) answer() (x int64, ok bool) {
	switch f.Kind {
	case FitsUpTo:
		return f.Largest, true
	case FitsFrom:
		return f.From, true
	}
	return 0, false
}

// Reach is where a bundled program runs along a line. Last is the last
// value it runs at, At the point of the next, where it does not, and Why
// why not there, in the program's words ("T = 201 is more than P = 200");
// First is the first value it runs at where that is above the least value
// the model holds for, Below the point of the one before and BelowWhy why
// not there ("K = 5 is more than N = 4"). Zero values say it runs up to the
// largest value a dimension may take (programs.MaxDim), or from the least,
// or that the source cannot say.
type Reach struct {
	Last     int64
	At       record.Point
	Why      string
	First    int64
	Below    record.Point
	BelowWhy string
}

// RunsTo returns where src's program runs along the dimension along, the
// other dimensions at base's values (the zero Reach where it runs at none
// of the least value and the grid's). A bundled program runs on one
// stretch of each line (its limits are bounds: T ≤ P, N ≥ K, L ≤ 10000),
// so each end is found by halving.
func (m *Model) RunsTo(src source.Source, along string, base record.Point) Reach {
	i := slices.Index(m.Vars, along)
	if i < 0 {
		return Reach{}
	}
	p := slices.Clone(base)
	at := func(x int64) record.Point { p[i].Value = x; return p }
	in := func(x int64) bool { return runsAt(src, at(x)) }
	least := m.Least(along)
	runs := int64(0) // the first of the least value and the grid's it runs at
	for _, x := range append([]int64{least}, m.Grid[i]...) {
		if in(x) {
			runs = x
			break
		}
	}
	if runs == 0 {
		return Reach{}
	}
	var r Reach
	if !in(programs.MaxDim) {
		last := edge(runs, programs.MaxDim, in)
		if why := source.Limit(src, at(last+1)); why != nil {
			r.Last, r.At, r.Why = last, slices.Clone(at(last+1)), why.Error()
		}
	}
	if runs > least { // it does not run at the least value
		below := edge(least, runs, in)
		if why := source.Limit(src, at(below)); why != nil {
			r.First, r.Below, r.BelowWhy = below+1, slices.Clone(at(below)), why.Error()
		}
	}
	return r
}

// edge returns, for in(lo) ≠ in(hi) with lo < hi, the last x from lo at
// which in(x) is in(lo)'s, in(x+1) being in(hi)'s, by halving: the edge of
// a stretch, such as the last value a program runs at.
func edge(lo, hi int64, in func(int64) bool) int64 {
	side := in(lo)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if in(mid) == side {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
