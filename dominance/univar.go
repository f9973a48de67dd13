package dominance

import (
	"math"
	"math/big"
	"slices"

	"memsym/poly"
)

// testPoints returns the integers ≥ 1 at which the sign of p at the
// integers ≥ 1 can change, or begin: 1, each root cell's h and h + 1, and
// a point beyond every root. Ascending, without repeats.
func testPoints(p poly.IntPoly) []*big.Int {
	pts := []*big.Int{big.NewInt(1)}
	if len(p) < 2 {
		return pts
	}
	cells, beyond := rootCells(p)
	for _, h := range cells {
		pts = append(pts, h, new(big.Int).Add(h, big.NewInt(1)))
	}
	pts = append(pts, beyond)
	slices.SortFunc(pts, func(a, b *big.Int) int { return a.Cmp(b) })
	return slices.CompactFunc(pts, func(a, b *big.Int) bool { return a.Cmp(b) == 0 })
}

// firstNegative decides exactly whether p(x) ≥ 0 at every integer x ≥ 1.
// It returns nil if so, and otherwise the smallest integer x ≥ 1 where
// p(x) < 0.
//
// Why the test points suffice: if p(x) < 0 at an integer x ≥ 1, let (a, b)
// be the largest open interval around x on which p < 0. Either a < 1, and
// then p(1) < 0, or a ≥ 1 is a root, in a cell (h−1, h], and then the
// smallest integer above a, which is h or h + 1 and at most x, lies in
// (a, b) too. So the smallest negative integer is a test point.
func firstNegative(p poly.IntPoly) *big.Int {
	for _, x := range testPoints(p) {
		if p.SignAt(x) < 0 {
			return x
		}
	}
	return nil
}

// nonnegAtIntegers reports whether the polynomial with coefficients cs
// (lowest power first) is ≥ 0 at every integer ≥ 1: by firstNegative, or
// first, for degree ≤ 2 with int64 coefficients, at its minimum over the
// integers directly.
func nonnegAtIntegers(cs []poly.Rat) bool {
	if ok, decided := smallNonneg(cs); decided {
		return ok
	}
	return firstNegative(poly.IntPolyOf(cs)) == nil
}

// smallNonneg decides degree ≤ 2 in int64, when nothing overflows: a
// parabola a·x² + b·x + c with a > 0 is least over the integers ≥ 1 at 1
// or at an integer next to its vertex −b/2a; one with a < 0, or a line
// falling, is eventually negative.
func smallNonneg(cs []poly.Rat) (ok, decided bool) {
	var k [3]int64
	deg := -1
	for i, c := range cs {
		if c.IsZero() {
			continue
		}
		n, isInt := c.Int64()
		if !isInt || i > 2 {
			return false, false
		}
		k[i], deg = n, i
	}
	c, b, a := k[0], k[1], k[2]
	switch deg {
	case -1:
		return true, true
	case 0:
		return c >= 0, true
	case 1:
		if b < 0 {
			return false, true
		}
		s, fits := poly.AddInt64(b, c)
		return s >= 0, fits
	}
	if a < 0 {
		return false, true
	}
	if a > 1<<61 || b == math.MinInt64 {
		return false, false
	}
	v := floorDiv(-b, 2*a)
	for _, x := range []int64{1, v, v + 1} {
		if x < 1 {
			continue
		}
		y, fits := poly.HornerInt64([]int64{c, b, a}, x)
		if !fits {
			return false, false
		}
		if y < 0 {
			return false, true
		}
	}
	return true, true
}

// floorDiv returns ⌊n/d⌋ for d > 0.
func floorDiv(n, d int64) int64 {
	q := n / d
	if n%d != 0 && n < 0 {
		q--
	}
	return q
}
