package poly

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// ip returns the IntPoly with coefficients cs, lowest power first, as given
// (not trimmed).
func ip(cs ...int64) IntPoly {
	out := make(IntPoly, len(cs))
	for i, c := range cs {
		out[i] = big.NewInt(c)
	}
	return out
}

// int64s returns p's coefficients as int64s.
func int64s(p IntPoly) []int64 {
	out := make([]int64, len(p))
	for i, c := range p {
		out[i] = c.Int64()
	}
	return out
}

func TestIntPolyOf(t *testing.T) {
	tests := []struct {
		cs   []Rat
		want []int64
	}{
		{nil, []int64{}},
		{[]Rat{Int(0), Int(0)}, []int64{}},
		{[]Rat{Int(3), Int(-2), Int(0)}, []int64{3, -2}},
		// x²/2 − x/3 + 1/4 times 12.
		{[]Rat{Frac(1, 4), Frac(-1, 3), Frac(1, 2)}, []int64{3, -4, 6}},
		// The lcm of 4 and 6 is 12, not 24.
		{[]Rat{Frac(1, 4), Frac(1, 6)}, []int64{3, 2}},
		{[]Rat{Frac(-5, 7), Int(0), Int(0)}, []int64{-5}},
	}
	for _, tt := range tests {
		if got := int64s(IntPolyOf(tt.cs)); !slices.Equal(got, tt.want) {
			t.Errorf("IntPolyOf(%v) = %v, want %v", tt.cs, got, tt.want)
		}
	}
}

func TestIntPolyTrimAndNeg(t *testing.T) {
	if got := int64s(ip(1, 0, 2, 0, 0).Trim()); !slices.Equal(got, []int64{1, 0, 2}) {
		t.Errorf("Trim = %v", got)
	}
	if got := ip(0, 0).Trim(); len(got) != 0 {
		t.Errorf("Trim of zero = %v, want empty", got)
	}
	p := ip(1, -2, 3)
	if got := int64s(p.Neg()); !slices.Equal(got, []int64{-1, 2, -3}) {
		t.Errorf("Neg = %v", got)
	}
	if got := int64s(p); !slices.Equal(got, []int64{1, -2, 3}) {
		t.Errorf("Neg changed its receiver to %v", got)
	}
}

func TestIntPolyDerivativeDifferencePrimitive(t *testing.T) {
	// p = 3x³ − 2x + 7.
	p := ip(7, -2, 0, 3)
	if got := int64s(p.Derivative()); !slices.Equal(got, []int64{-2, 0, 9}) {
		t.Errorf("Derivative = %v, want 9x² − 2", got)
	}
	// p(x+1) − p(x) = 9x² + 9x + 1.
	if got := int64s(p.Difference()); !slices.Equal(got, []int64{1, 9, 9}) {
		t.Errorf("Difference = %v, want 9x² + 9x + 1", got)
	}
	if got := ip(5).Derivative(); got != nil {
		t.Errorf("Derivative of a constant = %v", got)
	}
	if got := ip(5).Difference(); len(got) != 0 {
		t.Errorf("Difference of a constant = %v", got)
	}
	if got := int64s(ip(-6, 12, 18).Primitive()); !slices.Equal(got, []int64{-1, 2, 3}) {
		t.Errorf("Primitive = %v, want 3x² + 2x − 1", got)
	}
	if got := int64s(ip(-4, -6).Primitive()); !slices.Equal(got, []int64{-2, -3}) {
		t.Errorf("Primitive = %v: the divisor must be positive", got)
	}
}

// TestIntPolyAgainstRats checks At, SignAt and Difference of random
// polynomials with rational coefficients against evaluating the rationals,
// and RootBound against a scan: the sign at every integer from the bound to
// past it is the leading coefficient's, and so is the sign at minus it.
func TestIntPolyAgainstRats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	eval := func(cs []Rat, x int64) Rat {
		v := Int(0)
		for i := len(cs) - 1; i >= 0; i-- {
			v = v.Mul(Int(x)).Add(cs[i])
		}
		return v
	}
	for range 2000 {
		cs := make([]Rat, 1+r.IntN(6))
		for i := range cs {
			cs[i] = Frac(r.Int64N(61)-30, 1+r.Int64N(4))
		}
		p := IntPolyOf(cs)
		for x := int64(-5); x <= 5; x++ {
			want := eval(cs, x).Sign()
			if got := p.SignAt(big.NewInt(x)); got != want {
				t.Fatalf("%v at %d: sign %d, want %d", cs, x, got, want)
			}
			// The forward difference at x is p(x+1) − p(x).
			diff := p.Difference().At(big.NewInt(x))
			wantDiff := new(big.Int).Sub(p.At(big.NewInt(x+1)), p.At(big.NewInt(x)))
			if diff.Cmp(wantDiff) != 0 {
				t.Fatalf("%v at %d: difference %s, want %s", cs, x, diff, wantDiff)
			}
		}
		b := p.RootBound()
		if b.Cmp(big.NewInt(2)) < 0 {
			t.Fatalf("%v: root bound %s below 2", cs, b)
		}
		if len(p) < 2 {
			continue
		}
		lead := p[len(p)-1].Sign()
		for k := int64(0); k < 40; k++ {
			x := new(big.Int).Add(b, big.NewInt(k))
			if s := p.SignAt(x); s != lead {
				t.Fatalf("%v: sign %d at %s, at or beyond the root bound %s", cs, s, x, b)
			}
			odd := 1
			if len(p)%2 == 0 {
				odd = -1 // odd degree
			}
			if s := p.SignAt(x.Neg(x)); s != lead*odd {
				t.Fatalf("%v: sign %d at %s, at or beyond minus the root bound %s", cs, s, x, b)
			}
		}
	}
}
