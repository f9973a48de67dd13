package interp

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"memsym/poly"
)

// gridValues returns the values of the polynomial of coefficients coefs at
// the grid's points, in Interpolate's order.
func gridValues(grid [][3]int64, coefs []*big.Rat) []poly.Rat {
	k := len(grid)
	vals := make([]poly.Rat, len(coefs))
	x := make([]int64, k)
	for p := range vals {
		for i, q := k-1, p; i >= 0; i, q = i-1, q/3 {
			x[i] = grid[i][q%3]
		}
		vals[p] = poly.FromBig(evalDense(coefs, x))
	}
	return vals
}

// TestInterpolateRecoversRandomPolynomials interpolates random polynomials
// of degree at most 2 in each of up to 4 variables, with zero, small,
// fractional and beyond-2^63 coefficients, several vectors a call, and
// compares each answer with the polynomial its values came from.
func TestInterpolateRecoversRandomPolynomials(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tops := []int64{5, 1000, 1 << 20, 1_000_000_000}
	names := []string{"B", "T", "D", "H"}
	for trial := range 150 {
		k := r.IntN(5)
		top := tops[r.IntN(len(tops))]
		grid := make([][3]int64, k)
		for i := range grid {
			grid[i] = randAxis(r, top)
			if r.IntN(4) == 0 { // the grid may hold 0 and negative values
				grid[i] = [3]int64{grid[i][0] - top, grid[i][1] - top/2, grid[i][2]}
			}
		}
		n := 1
		for range k {
			n *= 3
		}
		var want []poly.Poly
		var values [][]poly.Rat
		for range 1 + r.IntN(4) {
			coefs := make([]*big.Rat, n)
			for a := range coefs {
				coefs[a] = randCoef(r)
			}
			want = append(want, densePoly(names[:k], coefs))
			values = append(values, gridValues(grid, coefs))
		}
		got, err := Interpolate(names[:k], grid, values)
		if err != nil {
			t.Fatalf("trial %d, grid %v: %v", trial, grid, err)
		}
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d polynomials for %d vectors", trial, len(got), len(want))
		}
		for v := range want {
			if !got[v].Equal(want[v]) {
				t.Fatalf("trial %d, grid %v, vector %d: %s, want %s", trial, grid, v, got[v], want[v])
			}
		}
	}
}

func TestInterpolate(t *testing.T) {
	bt := [][3]int64{{1, 2, 3}, {128, 256, 384}}
	at := func(f func(b, t int64) poly.Rat) []poly.Rat {
		var vs []poly.Rat
		for _, b := range bt[0] {
			for _, t := range bt[1] {
				vs = append(vs, f(b, t))
			}
		}
		return vs
	}
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	tests := []struct {
		name   string
		vars   []string
		grid   [][3]int64
		values []poly.Rat
		want   string
	}{
		{"bytes", []string{"B", "T"}, bt, at(func(b, t int64) poly.Rat { return poly.Int(2*b*b*t*t + 3*b*t + 7) }), "2 · B² · T² + 3 · B · T + 7"},
		{"zero", []string{"B", "T"}, bt, at(func(b, t int64) poly.Rat { return poly.Int(0) }), "0"},
		{"fractions", []string{"B", "T"}, bt, at(func(b, t int64) poly.Rat { return poly.Frac(b*t, 3) }), "1/3 · B · T"},
		{"near 2^63", []string{"B", "T"}, bt, at(func(b, t int64) poly.Rat { return poly.Int(math.MaxInt64 / 2 / 3 * b) }), "1537228672809129301 · B"},
		{"beyond 2^63", []string{"B"}, [][3]int64{{1, 2, 3}}, []poly.Rat{
			poly.FromBigInt(huge), poly.FromBigInt(new(big.Int).Mul(huge, big.NewInt(4))), poly.FromBigInt(new(big.Int).Mul(huge, big.NewInt(9))),
		}, "123456789012345678901234567890 · B²"},
		{"no dimensions", nil, nil, []poly.Rat{poly.Frac(-5, 2)}, "−5/2"},
		{"negative grid", []string{"x"}, [][3]int64{{-1, 0, 1}}, []poly.Rat{poly.Int(2), poly.Int(1), poly.Int(2)}, "x² + 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Interpolate(tt.vars, tt.grid, [][]poly.Rat{tt.values})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].String() != tt.want {
				t.Fatalf("got %v, want %s", got, tt.want)
			}
			if !slices.Equal(got[0].Vars(), tt.vars) {
				t.Errorf("variables %v, want %v", got[0].Vars(), tt.vars)
			}
		})
	}
}

func TestInterpolateErrors(t *testing.T) {
	nine := make([]poly.Rat, 9)
	bt := [][3]int64{{1, 2, 3}, {128, 256, 384}}
	tests := []struct {
		name   string
		vars   []string
		grid   [][3]int64
		values [][]poly.Rat
		want   string
	}{
		{"rows", []string{"B", "T"}, bt[:1], nil, "2 dimensions but 1 rows of grid values: expected one row of three values per dimension"},
		{"twice", []string{"B", "B"}, bt, nil, `dimension "B" is named twice: expected distinct names`},
		{"equal", []string{"B", "T"}, [][3]int64{{1, 2, 3}, {128, 128, 384}}, nil, "dimension T has the grid values 128, 128, 384: expected three distinct values in ascending order"},
		{"descending", []string{"B"}, [][3]int64{{3, 2, 1}}, nil, "dimension B has the grid values 3, 2, 1: expected three distinct values in ascending order"},
		{"short", []string{"B", "T"}, bt, [][]poly.Rat{nine, nine[:8]}, "vector 1 has 8 values: expected 3^2 = 9, one per grid point"},
		{"long", []string{"B"}, bt[:1], [][]poly.Rat{nine[:4]}, "vector 0 has 4 values: expected 3^1 = 3, one per grid point"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Interpolate(tt.vars, tt.grid, tt.values)
			if err == nil {
				t.Fatalf("no error; got %v", got)
			}
			if err.Error() != tt.want {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
	vars := make([]string, 30)
	grid := make([][3]int64, 30)
	for i := range vars {
		vars[i], grid[i] = fmt.Sprintf("x%d", i), [3]int64{1, 2, 3}
	}
	if _, err := Interpolate(vars, grid, nil); err == nil || err.Error() != "30 dimensions: a grid of 3^30 points is too large to interpolate on" {
		t.Errorf("30 dimensions: error %v", err)
	}
}

// TestMonomialsCanonical checks that toPoly hands poly.New its terms in
// poly's own canonical order, each at its place in a nums.
func TestMonomialsCanonical(t *testing.T) {
	for k := range 6 {
		vars := []string{"a", "b", "c", "d", "e"}[:k]
		m := monomialsOf(k)
		n := len(m.index)
		if n != int(math.Pow(3, float64(k))) {
			t.Fatalf("k = %d: %d monomials", k, n)
		}
		terms := make([]poly.Term, n)
		for i, a := range m.index {
			exp := m.exps[i*k : (i+1)*k]
			for j, q := k-1, a; j >= 0; j, q = j-1, q/3 {
				if exp[j] != q%3 {
					t.Fatalf("k = %d: monomial %d is entry %d but has the exponents %v", k, i, a, exp)
				}
			}
			terms[n-1-i] = poly.Term{Coef: poly.Int(int64(i + 1)), Exp: exp}
		}
		p := poly.New(vars, terms) // reversed: New must sort them back
		for i, term := range p.Terms() {
			if !slices.Equal(term.Exp, m.exps[i*k:(i+1)*k]) {
				t.Fatalf("k = %d: term %d of the canonical form has the exponents %v, monomial %d has %v", k, i, term.Exp, i, m.exps[i*k:(i+1)*k])
			}
		}
	}
}

// TestScaleSmall checks the int64 path of scaling values to integers
// against the big.Int path.
func TestScaleSmall(t *testing.T) {
	huge := poly.FromBig(new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(3)))
	tests := []struct {
		name string
		rs   []poly.Rat
		ok   bool
	}{
		{"integers", []poly.Rat{poly.Int(3), {}, poly.Int(-7)}, true},
		{"fractions", []poly.Rat{poly.Frac(1, 2), poly.Frac(1, 3), poly.Int(5), poly.Frac(-5, 4)}, true},
		{"big", []poly.Rat{poly.Int(1), huge}, false},
		{"lcm overflows", []poly.Rat{poly.Frac(1, math.MaxInt64), poly.Frac(1, math.MaxInt64-1)}, false},
		{"product overflows", []poly.Rat{poly.Int(math.MaxInt64), poly.Frac(1, 2)}, false},
		{"MinInt64", []poly.Rat{poly.Int(math.MinInt64), poly.Int(1)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := make([]int64, len(tt.rs))
			lcm, ok := scaleSmall(tt.rs, out)
			wantInts, wantLCM := scaleBig(tt.rs)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if big.NewInt(lcm).Cmp(wantLCM) != 0 {
				t.Errorf("multiple %d, want %s", lcm, wantLCM)
			}
			for i := range out {
				if big.NewInt(out[i]).Cmp(wantInts[i]) != 0 {
					t.Errorf("value %d scaled to %d, want %s", i, out[i], wantInts[i])
				}
			}
		})
	}
}

// TestSmallAdjugate checks the int64 adjugate against the big.Int one,
// and that it says when it does not fit.
func TestSmallAdjugate(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	axes := [][3]int64{{1, 2, 3}, {-1, 0, 1}, {128, 256, 384}, {1, 1 << 21, 1 << 42}, {math.MinInt64, 0, math.MaxInt64}}
	for range 500 {
		axes = append(axes, randAxis(r, []int64{10, 1 << 20, 1 << 40, math.MaxInt64 / 2}[r.IntN(4)]))
	}
	fit := 0
	for _, x := range axes {
		small, det, ok := smallAdjugate(x)
		adj, bigDet := bigAdjugate(x)
		fits := bigDet.IsInt64()
		for e := range 3 {
			for c := range 3 {
				fits = fits && adj[e][c].IsInt64()
			}
		}
		if ok != fits {
			t.Fatalf("%v: fits = %v, want %v", x, ok, fits)
		}
		if !ok {
			continue
		}
		fit++
		if det != bigDet.Int64() {
			t.Errorf("%v: det %d, want %s", x, det, bigDet)
		}
		for e := range 3 {
			for c := range 3 {
				if small[e][c] != adj[e][c].Int64() {
					t.Errorf("%v: adj[%d][%d] = %d, want %s", x, e, c, small[e][c], adj[e][c])
				}
			}
		}
	}
	if fit < 100 || fit == len(axes) {
		t.Errorf("%d of %d axes fit: the test should see both", fit, len(axes))
	}
}
