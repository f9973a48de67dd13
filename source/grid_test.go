package source

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"memsym/interp"
	"memsym/record"
)

// Every default check point is off the grid in every coordinate, apart
// from the grid's values modulo every prime dividing its grid's step (its
// distance from them shares no divisor with the step), and odd where the
// step is odd; the two differ in every coordinate.
func TestDefaultChecks(t *testing.T) {
	vars := []string{"B", "T"}
	for _, g := range [][2][3]int64{
		{{16, 32, 48}, {256, 512, 768}},
		{{1, 2, 3}, {64, 128, 192}},
		{{2, 4, 6}, {3, 9, 15}},
		{{1, 3, 4}, {7, 8, 100}},
		// An odd grid of step 2: the checks are even, where a stride of 2
		// shows (strided-conv's ⌊(N − 3)/2⌋ + 1 is (N − 1)/2 at every odd N).
		{{9, 11, 13}, {3, 9, 15}},
		// At the largest integers both points fall below the grid, and
		// are two.
		{{math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}, {math.MaxInt64 - 4, math.MaxInt64 - 2, math.MaxInt64}},
	} {
		values := [][3]int64{g[0], g[1]}
		points, err := DefaultChecks(values, vars, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(points) != 2 {
			t.Fatalf("%v: %d points, want 2", values, len(points))
		}
		for _, p := range points {
			for d, dim := range p {
				v, grid := dim.Value, values[d]
				step := gcd(grid[1]-grid[0], grid[2]-grid[1])
				d := v - grid[0]
				if d < 0 {
					d = -d
				}
				if v == grid[0] || v == grid[1] || v == grid[2] || gcd(d, step) != 1 || step%2 == 1 && v%2 == 0 {
					t.Errorf("grid %v: check %s = %d is on the grid, shares a residue with it modulo a divisor of the step %d, or is even for an odd step", grid, dim.Name, v, step)
				}
			}
		}
		for d := range vars {
			if points[0][d].Value == points[1][d].Value {
				t.Errorf("grid %v: both check points have %s = %d", values, vars[d], points[0][d].Value)
			}
		}
	}
}

// Padding to a multiple of 64 fits a polynomial on a grid of multiples of
// 64 and at any further multiple: the default check points catch it.
func TestDefaultChecksCatchPadding(t *testing.T) {
	padded := func(x int64) int64 { return (x + 63) / 64 * 64 }
	grid := [][3]int64{{64, 128, 192}}
	points, err := DefaultChecks(grid, []string{"T"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range points {
		x := p[0].Value
		if padded(x) == x { // 64·T, the polynomial the grid gives
			t.Errorf("the check point T = %d does not tell ceil(T/64)·64 from 64·T", x)
		}
	}
}

// --check adds to the default check points; it takes their place only
// with NoDefaultChecks.
func TestChecksAddToDefaults(t *testing.T) {
	src, err := NewProgram("gpt-course", nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := src.Plan(Spec{Checks: []record.Point{{{Name: "T", Value: 1000}, {Name: "B", Value: 50}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range pl.Checks {
		got = append(got, c.Key())
	}
	if want := "B=64,T=1024 B=115,T=1795 B=50,T=1000"; strings.Join(got, " ") != want {
		t.Errorf("checks %v, want %s", got, want)
	}
	// One of the defaults given too is the user's, not memsym's own; with
	// NoDefaultChecks only the given ones are left.
	for _, c := range []struct {
		spec     Spec
		want     string
		defaults int
	}{
		{Spec{Checks: []record.Point{{{Name: "B", Value: 115}, {Name: "T", Value: 1795}}}}, "B=64,T=1024 B=115,T=1795", 1},
		{Spec{Checks: []record.Point{{{Name: "B", Value: 64}, {Name: "T", Value: 1024}}}}, "B=115,T=1795 B=64,T=1024", 1},
		{Spec{Checks: []record.Point{{{Name: "B", Value: 50}, {Name: "T", Value: 1000}}}, NoDefaultChecks: true}, "B=50,T=1000", 0},
		{Spec{NoDefaultChecks: true}, "", 0},
	} {
		pl, err := src.Plan(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pl.Checks {
			got = append(got, p.Key())
		}
		if strings.Join(got, " ") != c.want || pl.Defaults != c.defaults {
			t.Errorf("%+v: checks %v, %d of memsym's own; want %s, %d", c.spec, got, pl.Defaults, c.want, c.defaults)
		}
	}
	if _, err := src.Plan(Spec{Checks: []record.Point{{{Name: "B", Value: 5}}}}); err == nil || !strings.Contains(err.Error(), "no value for T") {
		t.Errorf("a check without T: %v", err)
	}
	if _, err := src.Plan(Spec{Grid: []GridDim{{Name: "Q", Values: [3]int64{1, 2, 3}}}}); err == nil || !strings.Contains(err.Error(), "no dimension Q") {
		t.Errorf("a grid for Q: %v", err)
	}
}

// The strided convolution's output length is not a polynomial, but fits
// one at every even N: checked at B = 5, N = 14 alone it was modelled. The
// default check points, added to that one, refuse it.
func TestStridedConvRefused(t *testing.T) {
	src, err := NewProgram("strided-conv", nil)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := src.Recordings(context.Background(), Spec{Checks: []record.Point{{{Name: "B", Value: 5}, {Name: "N", Value: 14}}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = interp.Build(recs.Grid, recs.Checks)
	if err == nil || !strings.Contains(err.Error(), "not a polynomial of degree ≤ 2") {
		t.Errorf("strided-conv checked at the default points and B = 5, N = 14: %v; want it refused", err)
	}
}

// OffGrid's points are off the grid, and not below it by more than its
// first gap: a grid B ∈ {2, 3, 4} is never checked at B = 1.
func TestOffGrid(t *testing.T) {
	values := [][3]int64{{2, 3, 4}, {16, 32, 48}}
	points := OffGrid(values, []string{"B", "T"}, 9, 1, nil)
	for _, p := range points {
		for d, dim := range p {
			g := values[d]
			if dim.Value == g[0] || dim.Value == g[1] || dim.Value == g[2] {
				t.Errorf("%s is on the grid", p)
			}
			if dim.Value < g[0]-(g[1]-g[0])+1 {
				t.Errorf("%s: %s = %d is further below the grid than its first gap", p, dim.Name, dim.Value)
			}
		}
	}
	if again := OffGrid(values, []string{"B", "T"}, 9, 1, nil); fmt.Sprint(again) != fmt.Sprint(points) {
		t.Errorf("OffGrid is not deterministic")
	}
}

// A grid given in the program's place that holds a value of the program's
// own check point gets the default check points instead: the program's
// B = 64 would be on the grid B ∈ {2, 3, 64}.
func TestOwnCheckOffTheGivenGrid(t *testing.T) {
	src, err := NewProgram("gpt-course", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		grid []GridDim
		want string
	}{
		{nil, "B=64,T=1024 B=115,T=1795"},
		{[]GridDim{{Name: "B", Values: [3]int64{64, 2, 3}}}, "B=67,T=1025 B=133,T=1795"},
		{[]GridDim{{Name: "T", Values: [3]int64{8, 1024, 16}}}, "B=65,T=1033 B=115,T=2059"},
		{[]GridDim{{Name: "B", Values: [3]int64{4, 5, 6}}}, "B=64,T=1024 B=17,T=1795"},
	} {
		pl, err := src.Plan(Spec{Grid: c.grid})
		if err != nil {
			t.Fatalf("grid %v: %v", c.grid, err)
		}
		var got []string
		for _, p := range pl.Checks {
			got = append(got, p.Key())
			if onGrid(p, pl.Values) {
				t.Errorf("grid %v: the check point %s is on it", c.grid, p)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("grid %v: checks %v, want %s", c.grid, got, c.want)
		}
	}
}

// OffGrid's points are distinct and none is a point to avoid, even where
// the ranges are small and many points are asked for; where fewer exist,
// it returns fewer.
func TestOffGridDistinct(t *testing.T) {
	values := [][3]int64{{4, 5, 6}, {1, 2, 3}}
	avoid := []record.Point{{{Name: "B", Value: 7}, {Name: "L", Value: 5}}}
	for _, n := range []int{3, 10, 40} {
		points := OffGrid(values, []string{"B", "L"}, n, 1, nil, avoid...)
		if n <= 10 && len(points) != n {
			t.Errorf("%d points asked for, %d given: %v", n, len(points), points)
		}
		if len(points) > n || len(points) == 0 {
			t.Errorf("%d points asked for, %d given", n, len(points))
		}
		seen := map[string]bool{}
		for _, p := range points {
			if seen[p.Key()] || p.Equal(avoid[0]) || onGrid(p, values) {
				t.Errorf("%d points: %s repeated, avoided or on the grid: %v", n, p, points)
			}
			seen[p.Key()] = true
		}
	}
}

// Limit says, in the program's words, why a bundled program does not run
// at a point, and NotRunning as a sentence; a source that cannot say, and
// a point the program runs at, give nil.
func TestLimit(t *testing.T) {
	src, err := NewProgram("bert-encoder", nil)
	if err != nil {
		t.Fatal(err)
	}
	at := record.Point{{Name: "B", Value: 1}, {Name: "T", Value: 513}}
	if err := Limit(src, at); err == nil || err.Error() != "T = 513 is more than P = 512" {
		t.Errorf("Limit at T = 513: %v", err)
	}
	if err := NotRunning(src, at); err == nil || err.Error() != "bert-encoder does not run at B = 1, T = 513: T = 513 is more than P = 512" {
		t.Errorf("NotRunning at T = 513: %v", err)
	}
	if err := Limit(src, record.Point{{Name: "B", Value: 1}, {Name: "T", Value: 512}}); err != nil {
		t.Errorf("Limit at T = 512: %v", err)
	}
	if err := NotRunning(&Files{}, at); err != nil {
		t.Errorf("files say %v", err)
	}
}

// TestDefaultChecksNearTheLargestInteger: past a grid that ends near
// 2^63−1 no check point fits; DefaultChecks takes values between the
// grid's values, or below them, rather than wrapping around to negative
// ones, two where there are two, and refuses a grid that leaves none.
func TestDefaultChecksNearTheLargestInteger(t *testing.T) {
	const most = math.MaxInt64
	for _, c := range []struct {
		grid [3]int64
		want [2]int64
	}{
		{[3]int64{most - 2, most - 1, most}, [2]int64{1, 3}},                  // below the grid, two values
		{[3]int64{most - 40, most - 20, most}, [2]int64{most - 9, most - 29}}, // from the gaps' middles, apart from the (odd) grid modulo 2 and 5
		{[3]int64{1, 2, most}, [2]int64{most/2 + 2, most/2 + 4}},              // past the middle of the upper gap, odd, two values; the lower gap has none
	} {
		points, err := DefaultChecks([][3]int64{c.grid}, []string{"T"}, 2)
		if err != nil {
			t.Fatalf("%v: %v", c.grid, err)
		}
		if got := [2]int64{points[0][0].Value, points[1][0].Value}; got != c.want {
			t.Errorf("%v: check points at T = %v, want %v", c.grid, got, c.want)
		}
	}
	if _, err := DefaultChecks([][3]int64{{1, 2, 3}, {most - 2, most - 1, most}}, []string{"B", "T"}, 2); err != nil {
		t.Errorf("a grid from 1 to 3 beside one near the largest integer: %v", err)
	}
}

// OffGrid takes no point where the program does not run: bert-encoder with
// P = 200 on its grid T ∈ {64, 128, 192} is checked at T ≤ 200 only, at as
// many points as asked for, and its model at each of them (before, verify
// recorded it at T = 300 and said the model was wrong).
func TestOffGridWhereTheProgramRuns(t *testing.T) {
	src, pl, runs := bertPlan(t, map[string]int64{"P": 200})
	all := OffGrid(pl.Values, pl.Vars, 9, 1, nil)
	if !slices.ContainsFunc(all, func(p record.Point) bool { return !runs(p) }) {
		t.Fatalf("no point past T = 200 among %v: the test shows nothing", all)
	}
	points := OffGrid(pl.Values, pl.Vars, 9, 1, runs)
	if len(points) != 9 {
		t.Errorf("%d points, want 9: %v", len(points), points)
	}
	for _, p := range points {
		if err := Limit(src, p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// OffGrid's points reach far past the grid: with three, the third is in
// every coordinate past twice the grid's largest value and at most
// FarFactor times it; with many, at least a quarter are, spread
// log-uniformly (about as many past the range's geometric middle as below
// it, where the range is wide enough that the points do not fill its
// smaller values), and none is past FarFactor times the largest value.
func TestOffGridFarPastTheGrid(t *testing.T) {
	for _, values := range [][][3]int64{{{4, 8, 12}}, {{16, 32, 48}, {256, 512, 768}}, {{1, 2, 3}, {2, 3, 4}}} {
		vars := []string{"B", "T"}[:len(values)]
		three := OffGrid(values, vars, 3, 1, nil)
		for d, dim := range three[2] {
			if g := values[d]; dim.Value <= 2*g[2] || dim.Value > FarFactor*g[2] {
				t.Errorf("%v: the third point %s is not far past the grid", values, three[2])
			}
		}
		points := OffGrid(values, vars, 400, 1, nil)
		if len(points) != 400 {
			t.Errorf("%v: %d points of 400", values, len(points))
		}
		for d := range vars {
			g := values[d]
			lo, hi := 2*g[2]+1, FarFactor*g[2]
			middle := int64(math.Sqrt(float64(lo) * float64(hi)))
			var far, high int
			for _, p := range points {
				x := p[d].Value
				if x > hi || x < 1 || slices.Contains(g[:], x) {
					t.Errorf("%v: %s is on the grid or out of range", values, p)
				}
				if x >= lo {
					far++
					if x > middle {
						high++
					}
				}
			}
			if far < 90 || g[2] >= 48 && (high < far*4/10 || high > far*6/10) {
				t.Errorf("%v, %s: %d of 400 points far past the grid, %d of them past %d", values, vars[d], far, high, middle)
			}
		}
	}
}

// A far point where the program does not run is drawn again nearer the
// grid: bert-encoder on its grid T ∈ {64, 128, 192}, which takes
// T ≤ P = 512, gets its third point between 384 and 512, not one of the
// near range in its place.
func TestOffGridFarWhereTheProgramRuns(t *testing.T) {
	_, pl, runs := bertPlan(t, nil)
	for seed := uint64(0); seed < 10; seed++ {
		points := OffGrid(pl.Values, pl.Vars, 3, seed, runs, pl.Checks...)
		if len(points) != 3 {
			t.Fatalf("seed %d: %v", seed, points)
		}
		if T, _ := points[2].Value("T"); T <= 384 || T > 512 {
			t.Errorf("seed %d: the far point %s is not at 384 < T ≤ 512", seed, points[2])
		}
	}
}

// Near the largest integer OffGrid neither wraps around nor loops: its
// points are positive and off the grid, and where its ranges hold none
// (T ∈ {2^63−3, 2^63−2, 2^63−1}, whose first gap below it is on it), it
// gives none, for model.FreshPoints to search further below.
func TestOffGridNearTheLargestInteger(t *testing.T) {
	const most = math.MaxInt64
	for _, g := range [][3]int64{{most - 2, most - 1, most}, {1 << 59, 1 << 60, 3 << 59}, {1, 2, most / 3}} {
		points := OffGrid([][3]int64{g}, []string{"T"}, 8, 1, nil)
		if len(points) == 0 && g[2] != most {
			t.Errorf("%v: no point", g)
		}
		for _, p := range points {
			if x := p[0].Value; x < 1 || slices.Contains(g[:], x) {
				t.Errorf("%v: %s", g, p)
			}
		}
	}
}

// bertPlan returns bert-encoder with consts, its default plan, and where
// it runs.
func bertPlan(t *testing.T, consts map[string]int64) (*Program, *Plan, func(record.Point) bool) {
	t.Helper()
	src, err := NewProgram("bert-encoder", consts)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := src.Plan(Spec{})
	if err != nil {
		t.Fatal(err)
	}
	return src, pl, func(p record.Point) bool { return Limit(src, p) == nil }
}
