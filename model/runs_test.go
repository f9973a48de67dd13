package model

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"memsym/poly"
)

// TestNonPositiveAgainstScan checks the runs of random polynomials of
// degree up to 5, many not monotone, against evaluating them at every
// integer up to past their roots' bound.
func TestNonPositiveAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		deg := rng.IntN(6)
		cs := make([]poly.Rat, deg+1)
		for i := range cs {
			cs[i] = poly.Frac(rng.Int64N(401)-200, rng.Int64N(3)+1)
		}
		// Roots near small integers make the cases that matter: a product
		// of (x − r) factors, sometimes.
		if trial%2 == 0 && deg > 0 {
			cs = []poly.Rat{poly.Int(rng.Int64N(5) - 2)}
			for k := 0; k < deg; k++ {
				r := poly.Frac(rng.Int64N(80), rng.Int64N(2)+1)
				next := make([]poly.Rat, len(cs)+1)
				for i := range next {
					next[i] = poly.Int(0)
				}
				for i, c := range cs {
					next[i+1] = next[i+1].Add(c)
					next[i] = next[i].Sub(c.Mul(r))
				}
				cs = next
			}
		}
		p := poly.IntPolyOf(cs)
		runs := nonPositive(p)
		bound := p.RootBound()
		if bound.Cmp(big.NewInt(3000)) > 0 {
			continue // too far to scan; the product cases below it cover roots
		}
		limit := bound.Int64() + 20
		for x := int64(1); x <= limit; x++ {
			v := evalRats(cs, x)
			want := v.Sign() <= 0
			if got := inRuns(runs, x); got != want {
				t.Fatalf("%v at %d: p = %s, in runs %v is %v", cs, x, v, runString(runs), got)
			}
		}
		if len(runs) > 0 && runs[len(runs)-1].To == nil && positive(p, big.NewInt(limit)) {
			t.Fatalf("%v: an endless run, yet positive at %d", cs, limit)
		}
	}
}

func evalRats(cs []poly.Rat, x int64) poly.Rat {
	v := poly.Int(0)
	for i := len(cs) - 1; i >= 0; i-- {
		v = v.Mul(poly.Int(x)).Add(cs[i])
	}
	return v
}

func inRuns(runs []Run, x int64) bool {
	for _, r := range runs {
		if r.From.Int64() <= x && (r.To == nil || x <= r.To.Int64()) {
			return true
		}
	}
	return false
}

func runString(runs []Run) string {
	s := ""
	for _, r := range runs {
		to := "∞"
		if r.To != nil {
			to = r.To.String()
		}
		s += "[" + r.From.String() + ", " + to + "] "
	}
	return s
}

func TestIntersectAndComplement(t *testing.T) {
	b := func(n int64) *big.Int { return big.NewInt(n) }
	a := []Run{{b(1), b(5)}, {b(9), nil}}
	c := []Run{{b(3), b(10)}, {b(12), b(12)}, {b(20), nil}}
	got := runString(intersect(a, c))
	if want := "[3, 5] [9, 10] [12, 12] [20, ∞] "; got != want {
		t.Errorf("intersect = %s, want %s", got, want)
	}
	got = runString(complementBelow(intersect(a, c), b(1), b(15)))
	if want := "[1, 2] [6, 8] [11, 11] [13, 15] "; got != want {
		t.Errorf("complementBelow = %s, want %s", got, want)
	}
}
