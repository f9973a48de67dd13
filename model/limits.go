package model

import (
	"fmt"

	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// A bundled program runs only at some sizes: a dimension's largest value
// (gpt-depth's L ≤ 10000), a constraint (bert-encoder's T ≤ P). The model's
// polynomials answer anywhere; a fit whose answer lies past them says so
// (Beyond, PastBeyond), and ConfirmFit records nothing there.

// runsAt reports whether src's program runs at p (source.Limit).
func runsAt(src source.Source, p record.Point) bool { return source.Limit(src, p) == nil }

// Beyond says, for a fit whose answer lies where src's program does not
// run, so, and the last value along the dimension below the answer at
// which it runs, with whether that value fits (by fits: the needs, or a
// step's peak, at most the budget there); "" when the answer lies where
// the program runs, or src cannot say.
func (m *Model) Beyond(src source.Source, f *Fit, fits func(record.Point) (bool, error)) string {
	var x int64
	switch f.Kind {
	case FitsUpTo:
		x = f.Largest
	case FitsFrom:
		x = f.From
	default:
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
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if runsAt(src, f.Point(m, mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
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
