package main

import (
	"fmt"
	"io"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// A bundled program runs only at some sizes: a dimension's limit (gpt-depth's
// L ≤ 10000), a constraint (bert-encoder's T ≤ P). Its model's polynomials
// answer anywhere; eval refuses a point the program does not run at, and
// fit says when its answer lies past them.

// limited is a source that says where its program runs (source.Program).
type limited interface {
	Allows(record.Point) error
}

// notRunning returns why src's program does not run at p, or nil where it
// does or src cannot say.
func notRunning(src source.Source, p record.Point) error {
	l, ok := src.(limited)
	if !ok {
		return nil
	}
	err := l.Allows(p)
	if err == nil {
		return nil
	}
	why := strings.TrimPrefix(err.Error(), "program "+src.Name()+": ")
	return fmt.Errorf("%s does not run at %s: %s", src.Name(), p, why)
}

// fitLimits says, for a fit whose answer lies where src's program does not
// run, so, and the last value along the dimension below the answer at
// which it runs, with whether that value fits (by fits: the needs, or a
// step's peak, at most the budget there); "" when the answer lies where
// the program runs, or src cannot say.
func fitLimits(m *model.Model, src source.Source, f *model.Fit, fits func(record.Point) (bool, error)) string {
	var x int64
	switch f.Kind {
	case model.FitsUpTo:
		x = f.Largest
	case model.FitsFrom:
		x = f.From
	default:
		return ""
	}
	err := notRunning(src, f.Point(m, x))
	if err == nil {
		return ""
	}
	s := err.Error()
	// The values at which the program runs below x: their last one, found
	// by halving between one it runs at and x, and said as what it is, the
	// value it runs at with the next one it does not.
	lo, hi := f.Least, x
	if notRunning(src, f.Point(m, lo)) != nil {
		return s
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if notRunning(src, f.Point(m, mid)) == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	s += fmt.Sprintf("; it runs at %s = %d but not at %s = %d", f.Along, lo, f.Along, lo+1)
	if f.Kind == model.FitsFrom && lo < f.From {
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

// pastLimit says, for a largest value the program runs at whose next it
// does not, that the next lies past the program's sizes, and was not
// recorded; "" otherwise.
func pastLimit(m *model.Model, src source.Source, f *model.Fit) string {
	if f.Kind != model.FitsUpTo || notRunning(src, f.Point(m, f.Largest)) != nil {
		return ""
	}
	err := notRunning(src, f.Point(m, f.Largest+1))
	if err == nil {
		return ""
	}
	return fmt.Sprintf("%s = %d, one past the answer, lies past the sizes the program takes (%v), and is not recorded", f.Along, f.Largest+1, err)
}

// writePastLimits writes pastLimit's note for each budget that has one.
func writePastLimits(w io.Writer, pasts []string, budgets []poly.Rat) {
	for i, l := range pasts {
		if l == "" {
			continue
		}
		if len(budgets) > 1 {
			l = "under " + doc.Decimal(budgets[i]) + " bytes, " + l
		}
		fmt.Fprintf(w, "note: %s\n", l)
	}
}

// writeLimits writes a note for each budget whose answer lies past the
// program's sizes, fitLimits' words.
func writeLimits(w io.Writer, limits []string, budgets []poly.Rat, confirm bool) {
	for i, l := range limits {
		if l == "" {
			continue
		}
		if len(budgets) > 1 {
			l = "under " + doc.Decimal(budgets[i]) + " bytes, " + l
		}
		if confirm {
			l += "; not confirmed: the program cannot be recorded there"
		}
		fmt.Fprintf(w, "note: %s\n", l)
	}
}

// needsFit reports whether the needs at p are at most budget.
func needsFit(m *model.Model, budget poly.Rat) func(record.Point) (bool, error) {
	return func(p record.Point) (bool, error) {
		t, err := m.Eval(p)
		if err != nil {
			return false, err
		}
		return t.Needs.Cmp(budget) <= 0, nil
	}
}

// stepFits reports whether the step's peak at p is at most budget.
func stepFits(st *model.Step, budget poly.Rat) func(record.Point) (bool, error) {
	return func(p record.Point) (bool, error) {
		t, err := st.Eval(p)
		if err != nil {
			return false, err
		}
		return t.Peak.Bytes.Cmp(budget) <= 0, nil
	}
}
