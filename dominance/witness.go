package dominance

import (
	"math/big"
	"slices"
	"sync"

	"memsym/poly"
)

// gridValues are the values each variable takes in the witness search,
// most telling first; a search with fewer values per variable takes a
// prefix, in ascending order.
var gridValues = []int64{1, 1000, 2, 1_000_000, 10, 100, 3, 5}

// maxGrid caps the grid's points, reached from 4 variables on.
const maxGrid = 1024

// lineValues are the values of the other variables along the lines on
// which the exact one-variable test looks for a witness.
var lineValues = []int64{1, 2, 10, 1000}

// maxLines caps the lines tried per variable.
const maxLines = 64

// findWitness looks for an integer point, every coordinate ≥ 1, where
// d < 0, checked exactly, moved towards the origin when nearest. It
// returns the point over d's Vars (coordinates of variables d does not use
// are 1), or nil if it finds none — which proves nothing.
func findWitness(d poly.Poly, nearest bool) []int64 {
	r, idx := restrict(d)
	w := gridWitness(r)
	if w == nil {
		w = lineWitness(r)
	}
	if w == nil {
		w = descentWitness(r)
	}
	if w == nil {
		return nil
	}
	if nearest {
		w = shrink(r, w)
	}
	return spread(len(d.Vars()), idx, w)
}

// spread returns a point in n variables, those at idx at w's values and the
// others at 1.
func spread(n int, idx []int, w []int64) []int64 {
	out := make([]int64, n)
	for j := range out {
		out[j] = 1
	}
	for k, j := range idx {
		out[j] = w[k]
	}
	return out
}

// lineFirstNegative returns firstNegative of m along the line through at
// in the direction of variable j (at[j] aside), and whether m is constant
// along it (then x is nil). The line's coefficients are found in int64
// where they fit (poly.LineInt64), by substitution otherwise: the same
// integers either way, so the same answer. A wide frontier's pairs ask it
// of millions of lines.
func lineFirstNegative(m poly.Poly, vars []string, at []int64, j int) (x *big.Int, constant bool) {
	cs, ok := m.LineInt64(j, at)
	if !ok {
		rs := lineThrough(m, vars, at, j)
		if len(rs) < 2 {
			return nil, true
		}
		return firstNegative(poly.IntPolyOf(rs)), false
	}
	if len(cs) < 2 {
		return nil, true
	}
	if x, decided := smallFirstNegativeInt64(cs); decided {
		return found(x), false
	}
	p := make(poly.IntPoly, len(cs))
	for k, c := range cs {
		p[k] = big.NewInt(c)
	}
	return testFirstNegative(p), false
}

// lineThrough returns the coefficients, lowest power first, of m (over
// vars) as a polynomial in vars[j] alone, the other variables at their
// values in at.
func lineThrough(m poly.Poly, vars []string, at []int64, j int) []poly.Rat {
	for o, v := range vars {
		if o != j {
			m = m.Subst(v, poly.Int(at[o]))
		}
	}
	cs, _ := m.Univariate(vars[j])
	return cs
}

// gridWitness tries the points of a grid, nearest the origin first.
func gridWitness(m poly.Poly) []int64 {
	k := len(m.Vars())
	if k == 0 {
		if c, _ := m.IsConst(); c.Sign() < 0 {
			return []int64{}
		}
		return nil
	}
	pts := gridPoints(k)
	if pts == nil {
		return sparseWitness(m)
	}
	for _, at := range pts {
		if m.EvalInts(at).Sign() < 0 {
			return slices.Clone(at)
		}
	}
	return nil
}

// gridPoints returns the points of gridWitness's grid in k variables, in
// the order it tries them, or nil when the grid would be too large and
// sparseWitness's points are tried instead. The points are shared: not to
// be changed.
func gridPoints(k int) [][]int64 {
	s := len(gridValues)
	for s > 2 && power(s, k) > maxGrid {
		s--
	}
	if power(s, k) > maxGrid {
		return nil
	}
	gridMu.Lock()
	defer gridMu.Unlock()
	if pts, ok := pointCache[k]; ok {
		return pts
	}
	vals := slices.Clone(gridValues[:s])
	slices.Sort(vals)
	order := gridOrderLocked(s, k)
	pts := make([][]int64, len(order))
	for p, tuple := range order {
		pts[p] = make([]int64, k)
		for j, i := range tuple {
			pts[p][j] = vals[i]
		}
	}
	pointCache[k] = pts
	return pts
}

// sparseWitness tries, for many variables, all ones, all 1000, and each
// variable alone at 1000.
func sparseWitness(m poly.Poly) []int64 {
	k := len(m.Vars())
	try := func(f func(j int) int64) []int64 {
		at := make([]int64, k)
		for j := range at {
			at[j] = f(j)
		}
		if m.EvalInts(at).Sign() < 0 {
			return at
		}
		return nil
	}
	if w := try(func(int) int64 { return 1 }); w != nil {
		return w
	}
	if w := try(func(int) int64 { return 1000 }); w != nil {
		return w
	}
	for v := range k {
		alone := func(j int) int64 {
			if j == v {
				return 1000
			}
			return 1
		}
		if w := try(alone); w != nil {
			return w
		}
	}
	return nil
}

func power(b, e int) int {
	r := 1
	for range e {
		r *= b
		if r > 1<<30 {
			return r
		}
	}
	return r
}

var (
	gridMu     sync.Mutex
	gridCache  = map[[2]int][][]int{}
	pointCache = map[int][][]int64{} // gridPoints's, by k
)

// gridOrder returns every k-tuple of indices below s, ordered by their
// largest index, then their sum, then lexicographically: the points nearest
// the origin first, so that a witness found is a small one.
func gridOrder(s, k int) [][]int {
	gridMu.Lock()
	defer gridMu.Unlock()
	return gridOrderLocked(s, k)
}

// gridOrderLocked is gridOrder with gridMu held.
func gridOrderLocked(s, k int) [][]int {
	if g, ok := gridCache[[2]int{s, k}]; ok {
		return g
	}
	var all [][]int
	t := make([]int, k)
	for {
		all = append(all, slices.Clone(t))
		j := 0
		for j < k && t[j] == s-1 {
			t[j] = 0
			j++
		}
		if j == k {
			break
		}
		t[j]++
	}
	key := func(t []int) (int, int) {
		m, sum := 0, 0
		for _, i := range t {
			m = max(m, i)
			sum += i
		}
		return m, sum
	}
	slices.SortFunc(all, func(a, b []int) int {
		ma, sa := key(a)
		mb, sb := key(b)
		if ma != mb {
			return ma - mb
		}
		if sa != sb {
			return sa - sb
		}
		return slices.Compare(a, b)
	})
	gridCache[[2]int{s, k}] = all
	return all
}

// lineWitness runs the exact one-variable test along lines parallel to each
// axis, the other variables at lineValues: a negative integer found there is
// a witness.
func lineWitness(m poly.Poly) []int64 {
	vars := m.Vars()
	k := len(vars)
	if k < 2 {
		return nil
	}
	vals := lineValues
	if k-1 > 3 {
		vals = []int64{1, 1000}
	}
	for j := range k {
		others := make([]int64, k-1)
		for n, tuple := range gridOrder(len(vals), k-1) {
			if n == maxLines {
				break
			}
			for o := range others {
				others[o] = vals[tuple[o]]
			}
			x, constant := lineFirstNegative(m, vars, slices.Insert(slices.Clone(others), j, 1), j)
			if constant {
				continue // the grid has seen its constant value
			}
			if x == nil || !x.IsInt64() {
				continue
			}
			at := slices.Insert(slices.Clone(others), j, x.Int64())
			if m.EvalInts(at).Sign() < 0 { // checked again, on the whole polynomial
				return at
			}
		}
	}
	return nil
}

// shrink moves a witness of m < 0 towards the origin: each coordinate in
// turn to the smallest integer ≥ 1 at which m, the others held, is still
// negative (found by the exact one-variable test), so that a witness shows
// where the order turns.
func shrink(m poly.Poly, at []int64) []int64 {
	vars := m.Vars()
	at = slices.Clone(at)
	for j := range at {
		x, constant := lineFirstNegative(m, vars, at, j)
		if constant {
			continue
		}
		if x == nil || !x.IsInt64() {
			continue // cannot happen: at[j] itself is negative
		}
		prev := at[j]
		at[j] = x.Int64()
		if m.EvalInts(at).Sign() >= 0 { // checked again, on the whole polynomial
			at[j] = prev
		}
	}
	return at
}
