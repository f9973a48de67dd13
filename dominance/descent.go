package dominance

import (
	"math/big"
	"slices"

	"memsym/poly"
)

// descentStarts are the points coordinate descent starts from: every
// variable at the value.
var descentStarts = []int64{1, 10, 1000}

// maxDescentRounds bounds the rounds of one descent.
const maxDescentRounds = 32

// descentWitness walks downhill from a few starting points, one coordinate
// at a time: along each axis, the others held, it moves to the integer ≥ 1
// where the restriction of m, a polynomial of degree at most 2 there, is
// least, found exactly. It returns the first point where m < 0, checked
// exactly on the whole polynomial, or nil when every descent stops above 0
// within its rounds — which proves nothing. It finds witnesses at the
// bottom of a bowl, such as B = 3, T = 24 for 10·(B − 3)² + 10·(T − 24)² − 2,
// which no grid of round values reaches.
func descentWitness(m poly.Poly) []int64 {
	vars := m.Vars()
	k := len(vars)
	if k == 0 {
		return nil
	}
	for _, s := range descentStarts {
		at := make([]int64, k)
		for j := range at {
			at[j] = s
		}
		cur := m.EvalInts(at)
		for round := 0; round < maxDescentRounds && cur.Sign() >= 0; round++ {
			moved := false
			for j := range k {
				cs := lineThrough(m, vars, at, j)
				if len(cs) < 2 {
					continue
				}
				x, ok := lowestInteger(cs)
				if !ok || x == at[j] {
					continue
				}
				prev := at[j]
				at[j] = x
				if v := m.EvalInts(at); v.Cmp(cur) < 0 {
					cur, moved = v, true
				} else {
					at[j] = prev
				}
			}
			if !moved {
				break
			}
		}
		if cur.Sign() < 0 {
			return slices.Clone(at)
		}
	}
	return nil
}

// lowestInteger returns the integer x ≥ 1 at which c[0] + c[1]·x + c[2]·x²
// is least, for a quadratic opening upwards, or for a line or an
// upward-opening curve whose least value at x ≥ 1 is at 1; false for
// anything else (a higher degree, or a polynomial without a least value),
// or when x does not fit in an int64.
func lowestInteger(c []poly.Rat) (int64, bool) {
	for len(c) > 0 && c[len(c)-1].IsZero() {
		c = c[:len(c)-1]
	}
	switch {
	case len(c) == 2 && c[1].Sign() > 0:
		return 1, true
	case len(c) != 3 || c[2].Sign() <= 0:
		return 0, false
	}
	// The vertex −b/(2a); the least integer value is at its floor or ceiling.
	v := c[1].Neg().Quo(c[2].Add(c[2]))
	fl := new(big.Int).Div(v.Num(), v.Den()) // floor, the denominator being positive
	if !fl.IsInt64() || fl.Int64() > 1<<62 {
		return 0, false
	}
	lo := fl.Int64()
	if lo < 1 {
		return 1, true
	}
	at := func(x int64) poly.Rat {
		X := poly.Int(x)
		return c[0].Add(c[1].Mul(X)).Add(c[2].Mul(X).Mul(X))
	}
	if at(lo+1).Cmp(at(lo)) < 0 {
		return lo + 1, true
	}
	return lo, true
}
