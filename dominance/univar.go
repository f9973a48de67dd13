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
	if x, decided := smallFirstNegative(p); decided {
		return found(x)
	}
	return testFirstNegative(p)
}

// found is a first negative integer decided in int64 as firstNegative
// returns it: nil for 0, none.
func found(x int64) *big.Int {
	if x == 0 {
		return nil
	}
	return big.NewInt(x)
}

// testFirstNegative is firstNegative by the test points alone.
func testFirstNegative(p poly.IntPoly) *big.Int {
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

// smallFirstNegative is firstNegative for degree ≤ 2 in int64, when no
// value it takes overflows: x is 0 for none. Past its vertex (or from 1,
// for a line) a polynomial of degree ≤ 2 is monotone over the integers, so
// the first negative is found by a search, each step evaluated exactly:
// a parabola a·x² + b·x + c with a > 0 is non-increasing on [1, v], v =
// ⌊−b/2a⌋, and least over the integers at v or v + 1; one with a < 0, or a
// falling line, is non-decreasing up to its vertex and decreasing after
// it, so its first negative lies past ⌊−b/2a⌋ (past 1 for a line). On
// these sizes it is a hundred times cheaper than the root isolation, and
// a step's pruning decides hundreds of thousands of them.
func smallFirstNegative(p poly.IntPoly) (x int64, decided bool) {
	var k [3]int64
	for i, c := range p {
		if c.Sign() == 0 {
			continue
		}
		if i > 2 || !c.IsInt64() {
			return 0, false
		}
		k[i] = c.Int64()
	}
	return smallFirstNegativeInt64(k[:min(len(p), len(k))])
}

// smallFirstNegativeInt64 is smallFirstNegative of the polynomial with
// the coefficients p, lowest power first.
func smallFirstNegativeInt64(p []int64) (x int64, decided bool) {
	var k [3]int64
	deg := -1
	for i, c := range p {
		if c == 0 {
			continue
		}
		if i > 2 {
			return 0, false
		}
		k[i], deg = c, i
	}
	cs := k[:deg+1]
	neg := func(x int64) (bool, bool) {
		y, fits := poly.HornerInt64(cs, x)
		return y < 0, fits
	}
	switch n, fits := neg(1); {
	case !fits:
		return 0, false
	case n:
		return 1, true
	}
	b, a := k[1], k[2]
	var lo int64 // p(lo) ≥ 0, and p(x) < 0 for an x > lo is monotone in x
	switch {
	case deg <= 0, deg == 1 && b >= 0:
		return 0, true // constant, or rising from p(1) ≥ 0
	case deg == 1:
		lo = 1
	case a > 0:
		if a > 1<<61 || b == math.MinInt64 {
			return 0, false
		}
		v := floorDiv(-b, 2*a)
		if v < 1 {
			return 0, true // rising from 1 on
		}
		nv, fits := neg(v)
		if !fits {
			return 0, false
		}
		if !nv {
			nv1, fits := neg(v + 1)
			switch {
			case !fits:
				return 0, false
			case nv1:
				return v + 1, true
			}
			return 0, true // its least value over the integers is ≥ 0
		}
		// p(1) ≥ 0 > p(v), non-increasing between: the first negative
		// is in (1, v].
		return firstIn(1, v, neg)
	default: // a < 0: p(x) ≥ p(1) ≥ 0 up to the vertex
		if a < -(1<<61) || b == math.MinInt64 {
			return 0, false
		}
		lo = max(1, floorDiv(b, -2*a))
	}
	// p(lo) ≥ 0 and p falls from lo on, below 0 in the end: double a step
	// until p is negative, then search between.
	step := int64(1)
	for {
		hi, fits := poly.AddInt64(lo, step)
		if !fits {
			return 0, false
		}
		n, fits := neg(hi)
		if !fits {
			return 0, false
		}
		if n {
			return firstIn(lo, hi, neg)
		}
		lo = hi
		if step > math.MaxInt64/2 {
			return 0, false
		}
		step *= 2
	}
}

// firstIn returns the least x in (lo, hi] where neg(x), given not neg(lo),
// neg(hi), and neg monotone between; decided is false when a value
// overflows.
func firstIn(lo, hi int64, neg func(int64) (bool, bool)) (x int64, decided bool) {
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		n, fits := neg(mid)
		if !fits {
			return 0, false
		}
		if n {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}
