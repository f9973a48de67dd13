package source

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"memsym/record"
)

// Plan is the points a model is built from: the grid, three values per
// dimension, and the check points off it.
type Plan struct {
	Vars   []string
	Values [][3]int64 // per dimension, its grid values ascending
	Checks []record.Point
	// Defaults counts the check points of memsym's own choosing, the
	// first of Checks; the others were given.
	Defaults int
}

// Points returns the grid's 3^k points, the first dimension's value
// changing slowest.
func (p *Plan) Points() []record.Point {
	points := []record.Point{nil}
	for i, v := range p.Vars {
		var next []record.Point
		for _, q := range points {
			for _, x := range p.Values[i] {
				next = append(next, q.With(v, x))
			}
		}
		points = next
	}
	return points
}

// plan builds the grid and check points for the dimensions vars from the
// defaults (three values per dimension, or none) and spec, whose grid
// overrides them. The check points are two by default, own (a point the
// source itself proposes, or nil) and those of DefaultChecks, and spec's
// checks are added to them: a check point given adds to what is checked,
// and takes the defaults' place only where spec.NoDefaultChecks says so.
func plan(vars []string, defGrid map[string][3]int64, own record.Point, spec Spec) (*Plan, error) {
	values := make(map[string][3]int64)
	for k, v := range defGrid {
		values[k] = v
	}
	for _, g := range spec.Grid {
		if !contains(vars, g.Name) {
			return nil, usagef("--grid %s: no dimension %s (the dimensions are %s)", g.Name, g.Name, strings.Join(vars, ", "))
		}
		v := g.Values
		sortThree(&v)
		values[g.Name] = v
	}
	p := &Plan{Vars: vars}
	for _, v := range vars {
		g, ok := values[v]
		if !ok {
			return nil, usagef("--grid %s: give three values, as --grid %s=16,32,48", v, v)
		}
		p.Values = append(p.Values, g)
	}
	var defaults []record.Point
	if !spec.NoDefaultChecks {
		var err error
		if defaults, err = DefaultChecks(p.Values, vars, 2); err != nil {
			return nil, err
		}
	}
	if own != nil && !onGrid(own, p.Values) && !spec.NoDefaultChecks {
		// The source's own point first, then the one further out; but
		// not where a grid given in its place has one of its values (a
		// check point must be off the grid in every dimension).
		defaults[0] = own
	}
	p.Checks, p.Defaults = defaults, len(defaults)
	for _, c := range spec.Checks {
		pt, err := align(c, vars)
		if err != nil {
			return nil, err
		}
		// Refused here, before anything is recorded, as the reading of
		// the grid would refuse them after.
		for d, dim := range pt {
			if dim.Value < 1 {
				return nil, usagef("--check %s: %s = %d: dimensions are integers of at least 1", c.Key(), dim.Name, dim.Value)
			}
			if slices.Contains(p.Values[d][:], dim.Value) {
				return nil, usagef("--check %s: %s = %d is a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value", c.Key(), dim.Name, dim.Value)
			}
		}
		// One of memsym's own, given too, is the user's: a failure there
		// is not said to be at a point memsym chose.
		if i := slices.IndexFunc(p.Checks[:p.Defaults], pt.Equal); i >= 0 {
			p.Checks = slices.Delete(p.Checks, i, i+1)
			p.Defaults--
		}
		if !slices.ContainsFunc(p.Checks, pt.Equal) {
			p.Checks = append(p.Checks, pt)
		}
	}
	return p, nil
}

// align orders c's values as vars, refusing a missing or unknown dimension.
func align(c record.Point, vars []string) (record.Point, error) {
	var pt record.Point
	for _, v := range vars {
		x, ok := c.Value(v)
		if !ok {
			return nil, usagef("--check %s: no value for %s", c.Key(), v)
		}
		pt = append(pt, record.Dim{Name: v, Value: x})
	}
	for _, d := range c {
		if !contains(vars, d.Name) {
			return nil, usagef("--check %s: no dimension %s (the dimensions are %s)", c.Key(), d.Name, strings.Join(vars, ", "))
		}
	}
	return pt, nil
}

// DefaultChecks returns n check points off the grid in every coordinate,
// chosen so that a model agreeing with them cannot owe it to a shared
// divisor: each value lies off the grid's values modulo every prime that
// divides its grid's step (the greatest common divisor of the grid's
// gaps), its distance from the grid's values sharing no divisor with the
// step, and is odd where the step is odd; so padding to a multiple of the
// step, or a stride that divides it, shows up whatever residue the grid
// has (N ∈ {9, 11, 13}, all odd, is checked at an even N). The first point lies
// just past the grid, the second further out; where that would pass the
// largest integer, a value between the grid's values, or below them, is
// taken instead, and where there is none, DefaultChecks refuses.
func DefaultChecks(values [][3]int64, vars []string, n int) ([]record.Point, error) {
	var out []record.Point
	for i := 0; i < n; i++ {
		var pt record.Point
		for d, v := range vars {
			x, ok := checkValue(values[d], i)
			if !ok {
				return nil, usagef("--grid %s: no value off the grid %d, %d, %d suits a check point (off the grid's values modulo each prime dividing its step, within 1 to 2^63−1): give --check", v, values[d][0], values[d][1], values[d][2])
			}
			pt = append(pt, record.Dim{Name: v, Value: x})
		}
		out = append(out, pt)
	}
	return out, nil
}

// checkValue returns the i-th check point's value for a dimension whose
// grid is g, as DefaultChecks says; ok is false when there is none.
func checkValue(g [3]int64, i int) (int64, bool) {
	step := gcd(g[1]-g[0], g[2]-g[1])
	// The second point is not the first, however each is taken: two
	// check points where there are values for two.
	first := int64(0)
	if i%2 == 1 {
		first, _ = checkValue(g, 0)
	}
	// x − g[0] shares no prime with the step: x lies off the grid's
	// values modulo each prime that divides it (an odd x for the even
	// grid N ∈ {8, 10, 12}, an even one for N ∈ {9, 11, 13}).
	apart := x0Apart(g[0], step)
	suits := func(x int64) bool {
		return apart(x) && (step%2 == 0 || x%2 != 0) && x != g[0] && x != g[1] && x != g[2] && x != first
	}
	// The first value from x on that suits, below limit.
	from := func(x, limit int64) (int64, bool) {
		for ; x >= 1 && x < limit; x++ {
			if suits(x) {
				return x, true
			}
		}
		return 0, false
	}
	const most = math.MaxInt64
	var x int64
	var ok bool
	if i == 0 && g[2] <= most-step-1 {
		x, ok = from(g[2]+step+1, most)
	} else if i == 1 && g[2] <= (most-step-3)/2 {
		x, ok = from(2*g[2]+step+3, most)
	}
	if ok {
		return x, true
	}
	i %= 2
	// Past the largest integer: between the grid's values, the upper gap
	// for the first point and the lower for the second, else below them.
	gaps := [][2]int64{{g[1], g[2]}, {g[0], g[1]}}
	if i > 0 {
		gaps[0], gaps[1] = gaps[1], gaps[0]
	}
	for _, gap := range gaps {
		if x, ok := from(gap[0]+(gap[1]-gap[0])/2, gap[1]); ok {
			return x, true
		}
		if x, ok := from(gap[0]+1, gap[1]); ok {
			return x, true
		}
	}
	return from(1, g[0])
}

// x0Apart returns whether x − g0 shares no divisor with step, without
// overflow.
func x0Apart(g0, step int64) func(int64) bool {
	return func(x int64) bool {
		d := x - g0 // both in 1 to 2^63−1: no overflow
		if d < 0 {
			d = -d
		}
		return gcd(d, step) == 1
	}
}

// innerCheck returns a check point between the grid's values, as
// DefaultChecks takes one where the values past the grid run out: for a
// program that does not run past its grid.
func innerCheck(vars []string, values [][3]int64) (record.Point, bool) {
	var pt record.Point
	for d, v := range vars {
		x, ok := checkValue(values[d], 2)
		if !ok {
			return nil, false
		}
		pt = append(pt, record.Dim{Name: v, Value: x})
	}
	return pt, true
}

// onGrid reports whether some coordinate of p is a value of its
// dimension's grid.
func onGrid(p record.Point, values [][3]int64) bool {
	for d, dim := range p {
		if d < len(values) && slices.Contains(values[d][:], dim.Value) {
			return true
		}
	}
	return false
}

// FarFactor bounds the fresh points: OffGrid and the wider search of
// model.FreshPoints go up to FarFactor times the grid's largest value in
// each dimension (T up to 768 on T ∈ {4, 8, 12}, 49152 on
// T ∈ {256, 512, 768}), past the check points, for a program whose bytes
// change well past its grid. Bundled programs and PyTorch functions are
// recorded without running them (the meta device), so a large value costs
// no more than a small one; a recorder command is run at such values.
// `memsym verify -h` and docs/errors.md say 64.
const FarFactor = 64

// OffGridRanges returns, for a dimension whose grid is g, the least and
// largest values OffGrid draws from: from one grid gap below the grid (but
// not below 1) to FarFactor times its largest value (but not past the
// largest integer).
func OffGridRanges(g [3]int64) (lo, hi int64) {
	return max(1, g[0]-(g[1]-g[0])+1), times(g[2], FarFactor)
}

// times returns x·k, or the largest integer where that is larger.
func times(x, k int64) int64 {
	if x > math.MaxInt64/k {
		return math.MaxInt64
	}
	return x * k
}

// OffGrid chooses n distinct points, deterministically from seed, off every
// grid value in every coordinate and spread from small to large, from one
// grid gap below the grid to FarFactor times its largest value, drawing
// every coordinate of a point from one of four ranges in turn: below the
// middle grid value (but not more than the first gap below the grid),
// between the outer ones, far past the grid (from twice its largest value
// to FarFactor times it, log-uniformly, so that each factor of 2 is as
// likely as the next), and just past it (to twice its largest value); then
// again. With three points, the default of `memsym verify`, one is far
// past the grid. None is one of avoid (the points a model was already
// checked at), and each is one where runs, when not nil, says the program
// runs: a program that takes T ≤ P is not checked at T > P (a far point
// where it does not run is drawn again nearer the grid, below the value
// tried). Where the ranges hold fewer than n such points, it returns as
// many as it finds.
// They are the points `memsym verify` records afresh. They need not follow
// the residue rules of the check points (DefaultChecks): those two points
// are chosen against a shared divisor, while the fresh points are many and
// random, odd and even.
func OffGrid(values [][3]int64, vars []string, n int, seed uint64, runs func(record.Point) bool, avoid ...record.Point) []record.Point {
	return offGrid([]int{0, 1, 2, 3}, values, vars, n, seed, runs, avoid...)
}

// OffGridNear is OffGrid without the far range: its points lie from one
// grid gap below the grid to twice its largest value, where a recorder
// that really runs the program runs as it does on the grid. They are the
// points `memsym explain` records afresh (--verify).
func OffGridNear(values [][3]int64, vars []string, n int, seed uint64, runs func(record.Point) bool, avoid ...record.Point) []record.Point {
	return offGrid([]int{0, 1, 3}, values, vars, n, seed, runs, avoid...)
}

// offGrid is OffGrid drawing from the ranges given, in turn: 0 below the
// middle grid value, 1 between the outer ones, 2 far past the grid, 3
// just past it.
func offGrid(ranges []int, values [][3]int64, vars []string, n int, seed uint64, runs func(record.Point) bool, avoid ...record.Point) []record.Point {
	rng := rand.New(rand.NewPCG(seed, 0x6d656d73796d))
	taken := func(p record.Point, points []record.Point) bool {
		return slices.ContainsFunc(points, p.Equal) || slices.ContainsFunc(avoid, p.Equal)
	}
	var points []record.Point
	far := make([]int64, len(vars)) // the far range's top, lowered where the program does not run
	for i := 0; len(points) < n && i < len(ranges)*n+48; i++ {
		r := ranges[i%len(ranges)]
		for d := range vars {
			_, far[d] = OffGridRanges(values[d])
		}
		// A point already taken is drawn again, from the same range, so
		// that small grids still end.
		for try := 0; try < 8; try++ {
			var p record.Point
			for d, v := range vars {
				g := values[d]
				// Not below the grid by more than its first gap: a grid
				// that starts above 1 may do so because the program
				// changes its operations there (PyTorch turns copies
				// into views at B = 1).
				low, _ := OffGridRanges(g)
				twice := times(g[2], 2)
				var x int64
				switch r {
				case 0:
					x = pickOff(rng, low, g[1]-1, g)
				case 1:
					x = pickOff(rng, g[0]+1, g[2]-1, g)
				case 2:
					x = pickFar(rng, twice+1, far[d], g)
				default:
					x = pickOff(rng, g[2]+1, twice, g)
				}
				if x == 0 && g[2] < math.MaxInt64 {
					x = pickOff(rng, g[2]+1, min(twice, math.MaxInt64-2)+2, g)
				}
				if x == 0 {
					break // no value: a grid that ends at the largest integer
				}
				p = append(p, record.Dim{Name: v, Value: x})
			}
			if len(p) < len(vars) || taken(p, points) {
				continue
			}
			if runs == nil || runs(p) {
				points = append(points, p)
				break
			}
			if r == 2 {
				// Nearer the grid: below the values it does not run at.
				for d := range far {
					far[d] = max(times(values[d][2], 2)+1, p[d].Value-1)
				}
			}
		}
	}
	return points
}

// pickFar picks a value in [lo, hi] that is no grid value, log-uniformly:
// each factor of 2 from lo on is as likely as the next. It is 0 if there is
// none.
func pickFar(rng *rand.Rand, lo, hi int64, grid [3]int64) int64 {
	if lo < 1 {
		lo = 1
	}
	if lo > hi {
		return 0
	}
	a, b := math.Log(float64(lo)), math.Log(float64(hi)+1)
	f := math.Exp(a + rng.Float64()*(b-a))
	x := hi
	if f < float64(hi) {
		x = max(lo, min(hi, int64(f)))
	}
	if x != grid[0] && x != grid[1] && x != grid[2] {
		return x
	}
	return pickOff(rng, lo, hi, grid)
}

// pickOff picks a value in [lo, hi] that is no grid value, or 0 if there is
// none.
func pickOff(rng *rand.Rand, lo, hi int64, grid [3]int64) int64 {
	if lo < 1 {
		lo = 1
	}
	for try := 0; try < 16 && lo <= hi; try++ {
		x := lo + rng.Int64N(hi-lo+1)
		if x != grid[0] && x != grid[1] && x != grid[2] {
			return x
		}
	}
	for x := lo; x <= hi; x++ {
		if x != grid[0] && x != grid[1] && x != grid[2] {
			return x
		}
	}
	return 0
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func sortThree(v *[3]int64) {
	for i := 1; i < 3; i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
