package interp

import (
	"math/big"

	"memsym/poly"
)

// axis is one dimension's three grid values x_0 < x_1 < x_2 as the
// adjugate of their Vandermonde matrix V, whose row r is (1, x_r, x_r²).
// The polynomial c_0 + c_1·x + c_2·x² with values v_r at the x_r has
// c = adj·v / det V.
type axis struct {
	x     [3]int64
	small [3][3]int64 // adj[e][r]: x^e's share of the value at x_r, when fits
	fits  bool
	adj   [3][3]*big.Int // adj on big.Ints, made when first needed
	det   *big.Int       // (x_1 − x_0)(x_2 − x_0)(x_2 − x_1), positive
}

// newAxis returns the axis of three distinct ascending values.
func newAxis(x [3]int64) axis {
	a := axis{x: x}
	var det int64
	if a.small, det, a.fits = smallAdjugate(x); a.fits {
		a.det = big.NewInt(det)
	} else {
		a.adj, a.det = bigAdjugate(x)
	}
	return a
}

// bigAdj returns adj on big.Ints.
func (a *axis) bigAdj() *[3][3]*big.Int {
	if a.adj[0][0] == nil {
		a.adj, _ = bigAdjugate(a.x)
	}
	return &a.adj
}

// bigAdjugate returns the adjugate and the determinant of the Vandermonde
// matrix of x.
//
// Column r of adj holds the coefficients of w_r · Π_{s≠r} (x − x_s), the
// Lagrange polynomial of x_r times det V, where w_r = det V / Π_{s≠r}
// (x_r − x_s) is x_2 − x_1, x_0 − x_2 and x_1 − x_0 for r = 0, 1, 2.
func bigAdjugate(x [3]int64) (adj [3][3]*big.Int, det *big.Int) {
	var b [3]*big.Int
	for r := range b {
		b[r] = big.NewInt(x[r])
	}
	sub := func(p, q int) *big.Int { return new(big.Int).Sub(b[p], b[q]) }
	w := [3]*big.Int{sub(2, 1), sub(0, 2), sub(1, 0)}
	det = new(big.Int).Mul(sub(1, 0), sub(2, 0))
	det.Mul(det, sub(2, 1))
	for r := range 3 {
		s, t := b[(r+1)%3], b[(r+2)%3]
		adj[0][r] = new(big.Int).Mul(w[r], new(big.Int).Mul(s, t))
		adj[1][r] = new(big.Int).Neg(new(big.Int).Mul(w[r], new(big.Int).Add(s, t)))
		adj[2][r] = new(big.Int).Set(w[r])
	}
	return adj, det
}

// smallAdjugate is bigAdjugate on int64s, for x ascending, and whether
// nothing overflowed.
func smallAdjugate(x [3]int64) (adj [3][3]int64, det int64, fits bool) {
	fits = true
	check := func(v int64, ok bool) int64 {
		fits = fits && ok
		return v
	}
	d10 := check(addSub(x[1], x[0], true))
	d20 := check(addSub(x[2], x[0], true))
	d21 := check(addSub(x[2], x[1], true))
	w := [3]int64{d21, -d20, d10} // −d20 fits: d20 > 0 when it does
	det = check(poly.MulInt64(check(poly.MulInt64(d10, d20)), d21))
	for r := range 3 {
		s, t := x[(r+1)%3], x[(r+2)%3]
		adj[0][r] = check(poly.MulInt64(w[r], check(poly.MulInt64(s, t))))
		adj[1][r] = check(poly.MulInt64(-w[r], check(addSub(s, t, false))))
		adj[2][r] = w[r]
	}
	return adj, det, fits
}

// solver interpolates value vectors on one tensor grid of three values per
// dimension. A vector holds the values at the grid's 3^k points, point p's
// base-3 digits indexing each dimension's values, the first dimension's
// digit most significant; the result holds coefficients the same way, the
// digits being the exponents.
type solver struct {
	axes []axis
	n    int      // 3^k
	det  *big.Int // Π det V over the axes: the denominator of solve's result
}

// newSolver returns the solver for the grid whose dimension i takes the
// three ascending values grid[i].
func newSolver(grid [][3]int64) *solver {
	s := &solver{axes: make([]axis, 0, len(grid)), n: 1, det: big.NewInt(1)}
	for _, x := range grid {
		a := newAxis(x)
		s.axes = append(s.axes, a)
		s.det.Mul(s.det, a.det)
		s.n *= 3
	}
	return s
}

// solve returns the numerators, over s.det, of the coefficients of the
// polynomial of degree at most 2 in each dimension whose values on the grid
// are the integers vals: one 3-point step per axis, k·3^(k−1) in all, in
// int64 arithmetic unless a step overflows.
func (s *solver) solve(vals *nums) nums {
	if vals.big == nil {
		out := append([]int64(nil), vals.small...)
		if s.solveSmall(out) {
			return nums{small: out}
		}
	}
	out := vals.clone()
	out.promote()
	s.solveBig(out.big)
	out.shrink()
	return out
}

// solveSmall transforms v in place and reports whether nothing overflowed;
// v is garbage when it did. It walks the lines as fibers does, unrolled.
func (s *solver) solveSmall(v []int64) bool {
	stride := s.n
	for i := range s.axes {
		a := &s.axes[i]
		if !a.fits {
			return false
		}
		stride /= 3
		for hi := 0; hi < s.n; hi += 3 * stride {
			for j := hi; j < hi+stride; j++ {
				x0, x1, x2 := v[j], v[j+stride], v[j+2*stride]
				for e := range 3 {
					acc, ok := dot3(&a.small[e], x0, x1, x2)
					if !ok {
						return false
					}
					v[j+e*stride] = acc
				}
			}
		}
	}
	return true
}

// dot3 returns row·(x0, x1, x2) and whether nothing overflowed: no
// product, and no sum, whose operands of one sign give one of the other.
func dot3(row *[3]int64, x0, x1, x2 int64) (int64, bool) {
	p0, ok0 := poly.MulInt64(row[0], x0)
	p1, ok1 := poly.MulInt64(row[1], x1)
	p2, ok2 := poly.MulInt64(row[2], x2)
	s1 := p0 + p1
	s2 := s1 + p2
	return s2, ok0 && ok1 && ok2 && (p0^s1)&(p1^s1) >= 0 && (s1^s2)&(p2^s2) >= 0
}

// solveBig transforms v in place.
func (s *solver) solveBig(v []*big.Int) {
	var x [3]big.Int
	var t big.Int
	for i := range s.axes {
		adj := s.axes[i].bigAdj()
		s.fibers(i, func(j, stride int) {
			for r := range 3 {
				x[r].Set(v[j+r*stride])
			}
			for e := range 3 {
				acc := v[j+e*stride].SetInt64(0)
				for r := range 3 {
					acc.Add(acc, t.Mul(adj[e][r], &x[r]))
				}
			}
		})
	}
}

// fibers calls f for each line of three entries along axis i: the entries
// j, j+stride and j+2·stride.
func (s *solver) fibers(i int, f func(j, stride int)) {
	stride := s.n
	for range i + 1 {
		stride /= 3
	}
	for hi := 0; hi < s.n; hi += 3 * stride {
		for lo := range stride {
			f(hi+lo, stride)
		}
	}
}
