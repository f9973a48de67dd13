package model

import (
	"fmt"
	"math/big"

	"memsym/poly"
)

// This file finds, exactly, the integers x ≥ 1 at which a polynomial in one
// variable is at most 0, for any degree, without assuming it monotone: a
// polynomial is monotone at the integers wherever its forward difference
// p(x+1) − p(x), of one degree less, keeps its sign, so the runs of the
// difference split the integers into stretches on each of which p crosses
// 0 at most once, found there by bisection.

// positive reports whether p(x) > 0.
func positive(p poly.IntPoly, x *big.Int) bool { return p.SignAt(x) > 0 }

// switches returns, ascending, the integers x in [lo, hi) at which
// p(x) > 0 and p(x+1) > 0 differ.
func switches(p poly.IntPoly, lo, hi *big.Int) []*big.Int {
	if len(p) < 2 || lo.Cmp(hi) >= 0 {
		return nil // a constant never switches
	}
	one := big.NewInt(1)
	last := new(big.Int).Sub(hi, one) // steps x → x+1 for x in [lo, last]
	// Stretches of x on which the difference keeps its class: p is
	// monotone on [a, b+1] for each.
	var out []*big.Int
	a := lo
	for _, w := range append(switches(p.Difference(), lo, last), last) {
		b := w
		from, to := a, new(big.Int).Add(b, one)
		if x := crossing(p, from, to); x != nil {
			out = append(out, x)
		}
		a = new(big.Int).Add(b, one)
		if a.Cmp(last) > 0 {
			break
		}
	}
	return out
}

// crossing returns the x in [from, to) at which p(x) > 0 and p(x+1) > 0
// differ, p being monotone on [from, to], or nil if there is none.
func crossing(p poly.IntPoly, from, to *big.Int) *big.Int {
	start := positive(p, from)
	if positive(p, to) == start {
		return nil
	}
	lo, hi := new(big.Int).Set(from), new(big.Int).Set(to) // class(lo) = start ≠ class(hi)
	one := big.NewInt(1)
	for new(big.Int).Sub(hi, lo).Cmp(one) > 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		if positive(p, mid) == start {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Run is a stretch of integers From to To, both included; To nil means
// without end.
type Run struct {
	From, To *big.Int
}

// nonPositive returns the runs of integers x ≥ 1 at which p(x) ≤ 0,
// ascending.
func nonPositive(p poly.IntPoly) []Run {
	one := big.NewInt(1)
	hi := p.RootBound() // at least 2
	var runs []Run
	in := !positive(p, one)
	if in {
		runs = append(runs, Run{From: one})
	}
	for _, x := range switches(p, one, hi) {
		next := new(big.Int).Add(x, one)
		if in {
			runs[len(runs)-1].To = x
		} else {
			runs = append(runs, Run{From: next})
		}
		in = !in
	}
	return runs
}

// intersect returns the integers in both a and b, as ascending runs.
func intersect(a, b []Run) []Run {
	var out []Run
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		from := maxInt(a[i].From, b[j].From)
		to := minEnd(a[i].To, b[j].To)
		if to == nil || from.Cmp(to) <= 0 {
			out = append(out, Run{From: from, To: to})
		}
		// Advance whichever run ends first.
		if endsBefore(a[i].To, b[j].To) {
			i++
		} else {
			j++
		}
	}
	return out
}

// complementBelow returns the integers in [from, top] that no run holds,
// the runs starting at from or later.
func complementBelow(runs []Run, from, top *big.Int) []Run {
	var out []Run
	next := new(big.Int).Set(from)
	one := big.NewInt(1)
	for _, r := range runs {
		if r.From.Cmp(top) > 0 {
			break
		}
		if r.From.Cmp(next) > 0 {
			out = append(out, Run{From: next, To: new(big.Int).Sub(r.From, one)})
		}
		if r.To == nil {
			return out
		}
		next = new(big.Int).Add(r.To, one)
	}
	if next.Cmp(top) <= 0 {
		out = append(out, Run{From: next, To: top})
	}
	return out
}

func maxInt(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// minEnd returns the earlier of two ends, nil being without end.
func minEnd(a, b *big.Int) *big.Int {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.Cmp(b) <= 0:
		return a
	}
	return b
}

// endsBefore reports whether end a comes before end b (nil: without end).
func endsBefore(a, b *big.Int) bool {
	if a == nil {
		return false
	}
	return b == nil || a.Cmp(b) < 0
}

// int64Of returns x as an int64, or an error saying that what it counts
// lies beyond int64.
func int64Of(x *big.Int, what string) (int64, error) {
	if !x.IsInt64() {
		return 0, fmt.Errorf("%s is %s, beyond the largest dimension memsym handles (%d)", what, x, int64(1<<63-1))
	}
	return x.Int64(), nil
}
