package interp

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// randCoef returns a coefficient: zero, small, a fraction, or an integer
// well beyond 2^63, either sign.
func randCoef(r *rand.Rand) *big.Rat {
	c := new(big.Rat)
	switch r.IntN(5) {
	case 0:
	case 1:
		c.SetInt64(r.Int64N(2001) - 1000)
	case 2:
		dens := []int64{2, 3, 7, 8, 16}
		c.SetFrac64(r.Int64N(2001)-1000, dens[r.IntN(len(dens))])
	case 3:
		n := new(big.Int).Lsh(big.NewInt(r.Int64N(1<<40)+1), uint(63+r.IntN(40)))
		if r.IntN(2) == 0 {
			n.Neg(n)
		}
		c.SetInt(n)
	case 4:
		c.SetInt64(r.Int64N(1 << 20))
	}
	return c
}

// randAxis returns three distinct ascending values up to about top.
func randAxis(r *rand.Rand, top int64) [3]int64 {
	for {
		x := [3]int64{r.Int64N(top) + 1, r.Int64N(top) + 1, r.Int64N(top) + 1}
		if x[0] < x[1] && x[1] < x[2] {
			return x
		}
		if x[0] != x[1] && x[1] != x[2] && x[0] != x[2] {
			lo, hi := min(x[0], x[1], x[2]), max(x[0], x[1], x[2])
			return [3]int64{lo, x[0] + x[1] + x[2] - lo - hi, hi}
		}
	}
}

// evalDense evaluates the polynomial with coefficients c (indexed as the
// solver indexes them) at point x.
func evalDense(c []*big.Rat, x []int64) *big.Rat {
	sum := new(big.Rat)
	for a, coef := range c {
		t := new(big.Rat).Set(coef)
		for i, r := len(x)-1, a; i >= 0; i, r = i-1, r/3 {
			for range r % 3 {
				t.Mul(t, new(big.Rat).SetInt64(x[i]))
			}
		}
		sum.Add(sum, t)
	}
	return sum
}

// TestSolveRecoversRandomPolynomials interpolates random polynomials of
// degree at most 2 in each of up to 4 variables from their values on random
// grids and compares the coefficients with the originals.
func TestSolveRecoversRandomPolynomials(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tops := []int64{5, 1000, 1 << 20, 1_000_000_000}
	for trial := range 300 {
		k := r.IntN(5)
		top := tops[r.IntN(len(tops))]
		grid := make([][3]int64, k)
		for i := range grid {
			grid[i] = randAxis(r, top)
		}
		s := newSolver(grid)
		coefs := make([]*big.Rat, s.n)
		for a := range coefs {
			coefs[a] = randCoef(r)
		}
		// The values on the grid, over one common denominator.
		vals := make([]*big.Rat, s.n)
		lcm := big.NewInt(1)
		for p := range vals {
			x := make([]int64, k)
			for i, q := k-1, p; i >= 0; i, q = i-1, q/3 {
				x[i] = grid[i][q%3]
			}
			vals[p] = evalDense(coefs, x)
			d := vals[p].Denom()
			lcm.Mul(lcm, new(big.Int).Quo(d, new(big.Int).GCD(nil, nil, lcm, d)))
		}
		in := nums{big: make([]*big.Int, s.n)}
		for p, v := range vals {
			in.big[p] = new(big.Int).Quo(new(big.Int).Mul(v.Num(), lcm), v.Denom())
		}
		in.shrink()
		out := s.solve(&in)
		den := new(big.Int).Mul(s.det, lcm)
		for a := range coefs {
			got := new(big.Rat).SetFrac(out.at(a), den)
			if got.Cmp(coefs[a]) != 0 {
				t.Fatalf("trial %d, grid %v: coefficient %d is %s, want %s", trial, grid, a, got.RatString(), coefs[a].RatString())
			}
		}
	}
}

// TestSolveSmallAndBigAgree checks the int64 path against the big.Int path.
func TestSolveSmallAndBigAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		k := 1 + r.IntN(3)
		grid := make([][3]int64, k)
		for i := range grid {
			grid[i] = randAxis(r, 16)
		}
		s := newSolver(grid)
		in := nums{small: make([]int64, s.n)}
		for p := range in.small {
			in.small[p] = r.Int64N(1<<10) - 1<<9
		}
		small := append([]int64(nil), in.small...)
		if !s.solveSmall(small) {
			t.Fatalf("grid %v: small values overflowed", grid)
		}
		bigIn := in.clone()
		bigIn.promote()
		s.solveBig(bigIn.big)
		for a := range small {
			if bigIn.big[a].Cmp(big.NewInt(small[a])) != 0 {
				t.Fatalf("grid %v: entry %d is %d on int64s but %s on big.Ints", grid, a, small[a], bigIn.big[a])
			}
		}
	}
}

func TestNumsAddOverflowsToBig(t *testing.T) {
	v := nums{small: []int64{1, math.MaxInt64 - 1, -5}}
	w := nums{small: []int64{2, 3, math.MinInt64 + 5}}
	before := v.appendKey(nil)
	v.add(&w, false)
	if v.big == nil {
		t.Fatalf("adding past MaxInt64 stayed on int64s: %v", v.small)
	}
	want := []string{"3", "9223372036854775809", "-9223372036854775808"}
	for i, s := range want {
		if v.big[i].String() != s {
			t.Errorf("entry %d = %s, want %s", i, v.big[i], s)
		}
	}
	v.add(&w, true)
	v.shrink()
	if v.big != nil {
		t.Fatalf("subtracting back did not return to int64s: %v", v.big)
	}
	if !bytes.Equal(v.appendKey(nil), before) {
		t.Errorf("key after the round trip differs")
	}
	p := v.clone()
	p.promote()
	if !bytes.Equal(p.appendKey(nil), before) {
		t.Errorf("the key of the same values on big.Ints differs")
	}
	neg := nums{small: []int64{0, 0, math.MinInt64}}
	v.add(&neg, true) // −5 − MinInt64 still fits
	if v.big != nil || v.small[2] != math.MaxInt64-4 {
		t.Fatalf("subtracting MinInt64 from −5: got %v %v", v.small, v.big)
	}
	v.add(&neg, true) // MaxInt64 − 4 − MinInt64 does not
	if v.big == nil || v.big[2].String() != "18446744073709551611" {
		t.Errorf("subtracting MinInt64 again: got %v %v", v.small, v.big)
	}
}

// TestNumsAddAgreesWithBig adds and subtracts random vectors, many of them
// near the ends of int64, on nums and on big.Ints.
func TestNumsAddAgreesWithBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	edge := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return math.MaxInt64 - rng.Int64N(4)
		case 1:
			return math.MinInt64 + rng.Int64N(4)
		case 2:
			return rng.Int64N(7) - 3
		}
		return rng.Int64() - rng.Int64()/2
	}
	for range 5000 {
		n := 1 + rng.IntN(9)
		v, w := zeroNums(n), zeroNums(n)
		want := make([]*big.Int, n)
		for i := range n {
			v.small[i], w.small[i] = edge(), edge()
			want[i] = big.NewInt(v.small[i])
		}
		for range 3 {
			neg := rng.IntN(2) == 0
			v.add(&w, neg)
			for i := range n {
				if neg {
					want[i].Sub(want[i], big.NewInt(w.small[i]))
				} else {
					want[i].Add(want[i], big.NewInt(w.small[i]))
				}
			}
			for i := range n {
				var tmp big.Int
				if got := v.entry(i, &tmp); got.Cmp(want[i]) != 0 {
					t.Fatalf("entry %d = %s, want %s", i, got, want[i])
				}
			}
			v.shrink()
		}
	}
}

func TestAddSub(t *testing.T) {
	tests := []struct {
		a, b int64
		neg  bool
		want int64
		ok   bool
	}{
		{1, 2, false, 3, true},
		{1, 2, true, -1, true},
		{math.MaxInt64, 1, false, 0, false},
		{math.MinInt64, 1, true, 0, false},
		{math.MinInt64, -1, true, math.MinInt64 + 1, true},
		{-1, math.MinInt64, true, math.MaxInt64, true},
		{0, math.MinInt64, true, 0, false},
		{math.MaxInt64, math.MinInt64, false, -1, true},
	}
	for _, tt := range tests {
		got, ok := addSub(tt.a, tt.b, tt.neg)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("addSub(%d, %d, %v) = %d, %v; want %d, %v", tt.a, tt.b, tt.neg, got, ok, tt.want, tt.ok)
		}
	}
}
