package interp

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"memsym/poly"
)

// Interpolate returns, for each value vector, the one polynomial of degree
// at most 2 in each of vars that takes the vector's values on the grid: the
// exact interpolation Build makes of each buffer's bytes, for values a user
// already has.
//
// grid[i] holds the three values of dimension vars[i], distinct and
// ascending. values[v] holds vector v's 3^k values, k = len(vars): entry p
// is the value at the point whose base-3 digits index each dimension's grid
// values, the first dimension's digit most significant. On the grid
// B ∈ {1, 2, 3}, T ∈ {128, 256, 384} a vector lists its values at
// (B, T) = (1, 128), (1, 256), (1, 384), (2, 128), ... (3, 384). The values
// may be any exact rationals; the polynomials' coefficients are exact.
func Interpolate(vars []string, grid [][3]int64, values [][]poly.Rat) ([]poly.Poly, error) {
	n, err := checkGrid(vars, grid)
	if err != nil {
		return nil, err
	}
	for v, vals := range values {
		if len(vals) != n {
			return nil, fmt.Errorf("vector %d has %d values: expected 3^%d = %d, one per grid point", v, len(vals), len(vars), n)
		}
	}
	sol := newSolver(grid)
	out := make([]poly.Poly, len(values))
	ints := make([]int64, n) // one vector's scaled values, then its coefficients
	var terms []poly.Term
	for v, vals := range values {
		if lcm, ok := scaleSmall(vals, ints); ok && sol.solveSmall(ints) {
			den := sol.det
			if lcm != 1 {
				den = new(big.Int).Mul(den, big.NewInt(lcm))
			}
			c := nums{small: ints}
			out[v], terms = c.toPolyIn(terms, vars, den)
			continue
		}
		scaled, lcm := scaleBig(vals)
		c := sol.solve(&nums{big: scaled})
		out[v], terms = c.toPolyIn(terms, vars, lcm.Mul(lcm, sol.det))
	}
	return out, nil
}

// checkGrid checks that vars are distinct and that grid gives each three
// distinct ascending values, and returns the grid's number of points.
func checkGrid(vars []string, grid [][3]int64) (int, error) {
	if len(grid) != len(vars) {
		return 0, fmt.Errorf("%d dimensions but %d rows of grid values: expected one row of three values per dimension", len(vars), len(grid))
	}
	for i, name := range vars {
		if slices.Contains(vars[:i], name) {
			return 0, fmt.Errorf("dimension %q is named twice: expected distinct names", name)
		}
	}
	n := 1
	for i, x := range grid {
		if !(x[0] < x[1] && x[1] < x[2]) {
			return 0, fmt.Errorf("dimension %s has the grid values %d, %d, %d: expected three distinct values in ascending order", vars[i], x[0], x[1], x[2])
		}
		if n > math.MaxInt32/3 {
			return 0, fmt.Errorf("%d dimensions: a grid of 3^%d points is too large to interpolate on", len(vars), len(vars))
		}
		n *= 3
	}
	return n, nil
}
