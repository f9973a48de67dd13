package poly

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestInt64Helpers checks the checked int64 arithmetic against math/big
// around the edges of int64: the result is right whenever it fits, and
// reported as not fitting otherwise.
func TestInt64Helpers(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, 7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 31, 1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000500, 1 << 62, -(1 << 62)}
	r := rand.New(rand.NewPCG(9, 10))
	pick := func() int64 {
		if r.IntN(3) == 0 {
			return r.Int64() - r.Int64()
		}
		return edges[r.IntN(len(edges))]
	}
	fits := func(x *big.Int) bool { return x.IsInt64() }
	check := func(name string, got int64, ok bool, want *big.Int) {
		t.Helper()
		if ok != fits(want) || ok && got != want.Int64() {
			t.Fatalf("%s = %d, %v; want %s (fits %v)", name, got, ok, want, fits(want))
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			A, B := big.NewInt(a), big.NewInt(b)
			s, ok := AddInt64(a, b)
			check("AddInt64", s, ok, new(big.Int).Add(A, B))
			d, ok := SubInt64(a, b)
			check("SubInt64", d, ok, new(big.Int).Sub(A, B))
			p, ok := MulInt64(a, b)
			check("MulInt64", p, ok, new(big.Int).Mul(A, B))
		}
	}
	for range 20000 {
		a, b := pick(), pick()
		A, B := big.NewInt(a), big.NewInt(b)
		s, ok := AddInt64(a, b)
		check("AddInt64", s, ok, new(big.Int).Add(A, B))
		d, ok := SubInt64(a, b)
		check("SubInt64", d, ok, new(big.Int).Sub(A, B))
		p, ok := MulInt64(a, b)
		check("MulInt64", p, ok, new(big.Int).Mul(A, B))
	}
	// -2^62 · 2 is MinInt64 exactly; 2^62 · 2 is not an int64.
	if p, ok := MulInt64(-(1 << 62), 2); !ok || p != math.MinInt64 {
		t.Errorf("-2^62 · 2 = %d, %v", p, ok)
	}
}

func TestHornerInt64(t *testing.T) {
	tests := []struct {
		cs   []int64
		x    int64
		want int64
		ok   bool
	}{
		{nil, 5, 0, true},
		{[]int64{7}, 1 << 40, 7, true},
		{[]int64{2, -3, 1}, 2, 0, true}, // (x − 1)(x − 2)
		{[]int64{2, -3, 1}, 10, 72, true},
		{[]int64{0, 0, 1}, 3037000499, 3037000499 * 3037000499, true},
		{[]int64{0, 0, 1}, 3037000500, 0, false},
		{[]int64{math.MinInt64, 0, 0}, 9, math.MinInt64, true},
		{[]int64{1, 1}, math.MaxInt64, 0, false},
	}
	for _, tt := range tests {
		got, ok := HornerInt64(tt.cs, tt.x)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("HornerInt64(%v, %d) = %d, %v; want %d, %v", tt.cs, tt.x, got, ok, tt.want, tt.ok)
		}
	}
	// Against math/big: whenever it says the value fits, the value is right.
	r := rand.New(rand.NewPCG(11, 12))
	for range 5000 {
		cs := make([]int64, r.IntN(5))
		for i := range cs {
			cs[i] = r.Int64N(1<<20) - 1<<19
		}
		x := r.Int64N(1<<16) - 1<<15
		got, ok := HornerInt64(cs, x)
		want := new(big.Int)
		for i := len(cs) - 1; i >= 0; i-- {
			want.Mul(want, big.NewInt(x)).Add(want, big.NewInt(cs[i]))
		}
		if ok && got != want.Int64() || !ok && want.IsInt64() && len(cs) < 4 {
			t.Fatalf("HornerInt64(%v, %d) = %d, %v; want %s", cs, x, got, ok, want)
		}
	}
}

// TestLineInt64 checks LineInt64 against the exact way, Subst of every
// other variable, Univariate and IntPolyOf: the same integers whenever it
// reports they fit, on random polynomials (fractions and values beyond
// int64 among their coefficients) and points, small and near overflow.
func TestLineInt64(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	fitted, tried := 0, 0
	for range 20000 {
		p := randPoly(r)
		vars := p.Vars()
		if len(vars) == 0 {
			continue
		}
		at := make([]int64, len(vars))
		for o := range at {
			switch r.IntN(4) {
			case 0:
				at[o] = 1 + r.Int64N(3)
			case 1:
				at[o] = 1 + r.Int64N(1<<20)
			case 2:
				at[o] = 3037000499 + r.Int64N(3)
			default:
				at[o] = 1 + r.Int64N(100)
			}
		}
		j := r.IntN(len(vars))
		tried++
		got, ok := p.LineInt64(j, at)
		if !ok {
			continue
		}
		fitted++
		m := p
		for o, v := range vars {
			if o != j {
				m = m.Subst(v, Int(at[o]))
			}
		}
		cs, _ := m.Univariate(vars[j])
		want := IntPolyOf(cs)
		if len(got) != len(want) {
			t.Fatalf("%s along %s through %v: %v, want %v", p.ASCII(), vars[j], at, got, want)
		}
		for k := range got {
			if !want[k].IsInt64() || want[k].Int64() != got[k] {
				t.Fatalf("%s along %s through %v: %v, want %v", p.ASCII(), vars[j], at, got, want)
			}
		}
	}
	if fitted < tried/3 || fitted == tried {
		t.Errorf("%d of %d lines fitted in int64: the test should see both", fitted, tried)
	}
}
