package dominance

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"memsym/poly"
)

// ints returns coefficients, lowest power first, as Rats.
func ints(cs ...int64) []poly.Rat {
	out := make([]poly.Rat, len(cs))
	for i, c := range cs {
		out[i] = poly.Int(c)
	}
	return out
}

// times multiplies polynomials given by coefficients, lowest power first.
func times(ps ...[]int64) []int64 {
	out := []int64{1}
	for _, p := range ps {
		next := make([]int64, len(out)+len(p)-1)
		for i, a := range out {
			for j, b := range p {
				next[i+j] += a * b
			}
		}
		out = next
	}
	return out
}

func TestFirstNegative(t *testing.T) {
	tests := []struct {
		name string
		cs   []int64
		want int64 // 0: none
	}{
		{"(x−1)(x−2)", times([]int64{-1, 1}, []int64{-2, 1}), 0},
		{"(x−3)²", times([]int64{-3, 1}, []int64{-3, 1}), 0},
		{"(x−1)(x−2)(x−3)(x−4)", times([]int64{-1, 1}, []int64{-2, 1}, []int64{-3, 1}, []int64{-4, 1}), 0},
		{"(x−5)(x−6)(x−7)", times([]int64{-5, 1}, []int64{-6, 1}, []int64{-7, 1}), 1},
		{"(x−5)(x−6)(x−7)(x−8)", times([]int64{-5, 1}, []int64{-6, 1}, []int64{-7, 1}, []int64{-8, 1}), 0},
		{"(x−5)(x−7)(x−8)(x−9)", times([]int64{-5, 1}, []int64{-7, 1}, []int64{-8, 1}, []int64{-9, 1}), 6},
		{"(x−1)⁵", times([]int64{-1, 1}, []int64{-1, 1}, []int64{-1, 1}, []int64{-1, 1}, []int64{-1, 1}), 0},
		{"(x−2)³", times([]int64{-2, 1}, []int64{-2, 1}, []int64{-2, 1}), 1},
		{"(x−3)²(x−10)", times([]int64{-3, 1}, []int64{-3, 1}, []int64{-10, 1}), 1},
		{"(x−3)²(x−1)", times([]int64{-3, 1}, []int64{-3, 1}, []int64{-1, 1}), 0},
		{"(2x−21)² − 2", []int64{439, -84, 4}, 10},
		{"x² − 2: irrational root", []int64{-2, 0, 1}, 1},
		{"x² − 2x − 1: root 1 + √2", []int64{-1, -2, 1}, 1},
		{"−x² + 10¹⁵·x", []int64{0, 1_000_000_000_000_000, -1}, 1_000_000_000_000_001},
		{"x⁶ − 10¹²: root 100", []int64{-1_000_000_000_000, 0, 0, 0, 0, 0, 1}, 1},
		{"x⁶ + 1", []int64{1, 0, 0, 0, 0, 0, 1}, 0},
		{"0", nil, 0},
		{"−1", []int64{-1}, 1},
	}
	for _, tt := range tests {
		got := firstNegative(poly.IntPolyOf(ints(tt.cs...)))
		if tt.want == 0 && got != nil || tt.want != 0 && (got == nil || got.Cmp(big.NewInt(tt.want)) != 0) {
			t.Errorf("%s: first negative integer %v, want %d (0: none)", tt.name, got, tt.want)
		}
		if ok := nonnegAtIntegers(ints(tt.cs...)); ok != (tt.want == 0) {
			t.Errorf("%s: nonnegAtIntegers = %v", tt.name, ok)
		}
	}
}

func TestFirstNegativeFractions(t *testing.T) {
	// (x − 3/2)² − 1/5: negative only near 3/2, and at no integer.
	cs := []poly.Rat{poly.Frac(45, 20).Sub(poly.Frac(1, 5)), poly.Int(-3), poly.Int(1)}
	if got := firstNegative(poly.IntPolyOf(cs)); got != nil {
		t.Errorf("(x − 3/2)² − 1/5: negative at %v", got)
	}
	// (x − 3/2)² − 1/3: negative at 1 and 2.
	cs[0] = poly.Frac(9, 4).Sub(poly.Frac(1, 3))
	if got := firstNegative(poly.IntPolyOf(cs)); got == nil || got.Int64() != 1 {
		t.Errorf("(x − 3/2)² − 1/3: first negative %v, want 1", got)
	}
}

// bruteFirstNegative returns the first x in [1, n] where p(x) < 0, or 0.
func bruteFirstNegative(p poly.IntPoly, n int64) int64 {
	for x := int64(1); x <= n; x++ {
		if p.SignAt(big.NewInt(x)) < 0 {
			return x
		}
	}
	return 0
}

// checkAgainstIntegers compares the exact test with the integers from 1 to
// n, beyond every real root for coefficients below n − 1 in size (Cauchy).
func checkAgainstIntegers(t *testing.T, cs []int64, n int64) {
	t.Helper()
	p := poly.IntPolyOf(ints(cs...))
	want := bruteFirstNegative(p, n)
	got := firstNegative(p)
	if want == 0 && got != nil || want != 0 && (got == nil || got.Int64() != want) {
		t.Fatalf("%v: first negative %v, the integers say %d", cs, got, want)
	}
	if ok := nonnegAtIntegers(ints(cs...)); ok != (want == 0) {
		t.Fatalf("%v: nonnegAtIntegers = %v, the integers say first negative %d", cs, ok, want)
	}
}

func TestFirstNegativeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 1500 {
		var cs []int64
		if r.IntN(2) == 0 { // a product of factors with roots near the integers
			cs = []int64{int64(1 + r.IntN(3))}
			for range 1 + r.IntN(4) {
				a := int64(1 + r.IntN(3))
				cs = times(cs, []int64{-a * int64(r.IntN(9)), a})
			}
			cs[0] += int64(r.IntN(5) - 2)
		} else {
			for range 1 + r.IntN(6) {
				cs = append(cs, int64(r.IntN(41)-20))
			}
		}
		bound := int64(2)
		for _, c := range cs {
			bound += max(c, -c)
		}
		checkAgainstIntegers(t, cs, bound)
	}
}

// TestSmallNonneg checks the int64 fast path for quadratics against the
// exact test, large coefficients included.
func TestSmallNonneg(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 5000 {
		scale := []int64{10, 1000, 1 << 20, 1 << 40, 1 << 61}[r.IntN(5)]
		cs := ints(r.Int64N(2*scale)-scale, r.Int64N(2*scale)-scale, r.Int64N(2*scale)-scale/8)
		ok, decided := smallNonneg(cs)
		if !decided {
			continue
		}
		if want := firstNegative(poly.IntPolyOf(cs)) == nil; ok != want {
			t.Fatalf("%v: smallNonneg %v, exact test %v", cs, ok, want)
		}
	}
}

// TestSmallFirstNegative checks the int64 search for degree ≤ 2 against
// the test points, on lines and parabolas of every size, those whose first
// negative is far out among them.
func TestSmallFirstNegative(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	decided := 0
	for n := range 20000 {
		scale := []int64{10, 1000, 1 << 20, 1 << 40, 1 << 61}[r.IntN(5)]
		var cs []int64
		switch n % 4 {
		case 0: // a parabola opening up, its roots near the integers or not
			a := 1 + r.Int64N(min(scale, 1<<20))
			r1, r2 := r.Int64N(1000), r.Int64N(1_000_000)
			cs = []int64{a*r1*r2 + r.Int64N(3) - 1, -a * (r1 + r2), a}
		case 1: // falling far out: −x² + b·x + c, b large
			cs = []int64{r.Int64N(scale), r.Int64N(scale), -1 - r.Int64N(3)}
		case 2: // a line
			cs = []int64{r.Int64N(scale), r.Int64N(2*scale) - scale}
		default:
			cs = []int64{r.Int64N(2*scale) - scale, r.Int64N(2*scale) - scale, r.Int64N(2*scale) - scale}
		}
		p := poly.IntPolyOf(ints(cs...))
		x, ok := smallFirstNegative(p)
		if !ok {
			continue
		}
		decided++
		want := testFirstNegative(p)
		if x == 0 && want != nil || x != 0 && (want == nil || !want.IsInt64() || want.Int64() != x) {
			t.Fatalf("%v: smallFirstNegative %d, the test points %v", cs, x, want)
		}
	}
	if decided < 15000 {
		t.Errorf("the int64 search decided %d of 20000", decided)
	}
}

func FuzzFirstNegative(f *testing.F) {
	f.Add(int8(2), int8(-3), int8(1), int8(0), int8(0))
	f.Add(int8(9), int8(-6), int8(1), int8(0), int8(0))
	f.Add(int8(24), int8(-50), int8(35), int8(-10), int8(1))
	f.Add(int8(0), int8(100), int8(-1), int8(0), int8(0))
	f.Fuzz(func(t *testing.T, a0, a1, a2, a3, a4 int8) {
		checkAgainstIntegers(t, []int64{int64(a0), int64(a1), int64(a2), int64(a3), int64(a4)}, 200)
	})
}

// TestLineFirstNegative checks lineFirstNegative against the way by
// substitution it stands for, on random lines of random polynomials (their
// coefficients scaled by fractions and by large factors, so that both of
// its ways are taken): the same first negative integer, and the same
// constant lines.
func TestLineFirstNegative(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	scales := []poly.Rat{poly.Int(1), poly.Frac(1, 3), poly.Frac(7, 2), poly.Int(1 << 40), poly.Int(-1)}
	ways := map[bool]int{}
	for range 5000 {
		vars := randomVars(r)
		m := randomPoly(r, vars, 1+r.IntN(6)).Mul(poly.Const(scales[r.IntN(len(scales))]))
		at := make([]int64, len(vars))
		for o := range at {
			at[o] = 1 + r.Int64N([]int64{3, 1000, 1 << 22}[r.IntN(3)])
		}
		j := r.IntN(len(vars))
		_, fits := m.LineInt64(j, at)
		ways[fits]++
		got, gotConst := lineFirstNegative(m, vars, at, j)
		rs := lineThrough(m, vars, at, j)
		wantConst := len(rs) < 2
		var want *big.Int
		if !wantConst {
			want = firstNegative(poly.IntPolyOf(rs))
		}
		if gotConst != wantConst || (got == nil) != (want == nil) || got != nil && got.Cmp(want) != 0 {
			t.Fatalf("%s along %s through %v: %v (constant %v), want %v (constant %v)", m, vars[j], at, got, gotConst, want, wantConst)
		}
	}
	if ways[true] == 0 || ways[false] == 0 {
		t.Errorf("lines in int64 %d, beyond %d: the test should see both", ways[true], ways[false])
	}
}
