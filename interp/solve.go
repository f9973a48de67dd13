package interp

import "math/big"

// axis is one dimension's three grid values x_0 < x_1 < x_2 as the
// adjugate of their Vandermonde matrix V, whose row r is (1, x_r, x_r²).
// The polynomial c_0 + c_1·x + c_2·x² with values v_r at the x_r has
// c = adj·v / det V.
type axis struct {
	adj   [3][3]*big.Int // adj[e][r]: x^e's share of the value at x_r
	small [3][3]int64    // adj as int64s, when fits
	fits  bool
	det   *big.Int // (x_1 − x_0)(x_2 − x_0)(x_2 − x_1), positive
}

// newAxis returns the axis of three distinct ascending values.
//
// Column r of adj holds the coefficients of w_r · Π_{s≠r} (x − x_s), the
// Lagrange polynomial of x_r times det V, where w_r = det V / Π_{s≠r}
// (x_r − x_s) is x_2 − x_1, x_0 − x_2 and x_1 − x_0 for r = 0, 1, 2.
func newAxis(x [3]int64) axis {
	var b [3]*big.Int
	for r := range b {
		b[r] = big.NewInt(x[r])
	}
	sub := func(p, q int) *big.Int { return new(big.Int).Sub(b[p], b[q]) }
	w := [3]*big.Int{sub(2, 1), sub(0, 2), sub(1, 0)}
	var a axis
	a.det = new(big.Int).Mul(sub(1, 0), sub(2, 0))
	a.det.Mul(a.det, sub(2, 1))
	a.fits = true
	for r := range 3 {
		s, t := b[(r+1)%3], b[(r+2)%3]
		a.adj[0][r] = new(big.Int).Mul(w[r], new(big.Int).Mul(s, t))
		a.adj[1][r] = new(big.Int).Neg(new(big.Int).Mul(w[r], new(big.Int).Add(s, t)))
		a.adj[2][r] = new(big.Int).Set(w[r])
		for e := range 3 {
			if a.adj[e][r].IsInt64() {
				a.small[e][r] = a.adj[e][r].Int64()
			} else {
				a.fits = false
			}
		}
	}
	return a
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
	s := &solver{n: 1, det: big.NewInt(1)}
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
// v is garbage when it did.
func (s *solver) solveSmall(v []int64) bool {
	for i := range s.axes {
		a := &s.axes[i]
		if !a.fits {
			return false
		}
		ok := true
		s.fibers(i, func(j, stride int) {
			x := [3]int64{v[j], v[j+stride], v[j+2*stride]}
			for e := range 3 {
				var acc int64
				for r := range 3 {
					var fine bool
					if acc, fine = mulAdd(acc, a.small[e][r], x[r]); !fine {
						ok = false
					}
				}
				v[j+e*stride] = acc
			}
		})
		if !ok {
			return false
		}
	}
	return true
}

// solveBig transforms v in place.
func (s *solver) solveBig(v []*big.Int) {
	var x [3]big.Int
	var t big.Int
	for i := range s.axes {
		a := &s.axes[i]
		s.fibers(i, func(j, stride int) {
			for r := range 3 {
				x[r].Set(v[j+r*stride])
			}
			for e := range 3 {
				acc := v[j+e*stride].SetInt64(0)
				for r := range 3 {
					acc.Add(acc, t.Mul(a.adj[e][r], &x[r]))
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
