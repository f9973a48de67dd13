package interp

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"

	"memsym/poly"
)

// nums is a vector of exact integers: the numerators of a polynomial's
// coefficients over the grid's common denominator, one per monomial x^a,
// a ∈ {0,1,2}^k. It holds int64s while every entry fits and big.Ints once
// one does not; the zero nums of a length is all zeros.
type nums struct {
	small []int64
	big   []*big.Int // when non-nil, the values; small is then nil
}

func zeroNums(n int) nums { return nums{small: make([]int64, n)} }

func (v *nums) len() int {
	if v.big != nil {
		return len(v.big)
	}
	return len(v.small)
}

// at returns entry i as a new big.Int.
func (v *nums) at(i int) *big.Int {
	if v.big != nil {
		return new(big.Int).Set(v.big[i])
	}
	return big.NewInt(v.small[i])
}

// clone returns a copy that shares nothing with v.
func (v *nums) clone() nums {
	if v.big == nil {
		return nums{small: append([]int64(nil), v.small...)}
	}
	c := make([]*big.Int, len(v.big))
	for i, x := range v.big {
		c[i] = new(big.Int).Set(x)
	}
	return nums{big: c}
}

// promote moves v to big.Ints.
func (v *nums) promote() {
	if v.big != nil {
		return
	}
	v.big = make([]*big.Int, len(v.small))
	for i, x := range v.small {
		v.big[i] = big.NewInt(x)
	}
	v.small = nil
}

// shrink moves v back to int64s when every entry fits.
func (v *nums) shrink() {
	if v.big == nil {
		return
	}
	for _, x := range v.big {
		if !x.IsInt64() {
			return
		}
	}
	v.small = make([]int64, len(v.big))
	for i, x := range v.big {
		v.small[i] = x.Int64()
	}
	v.big = nil
}

// add adds w to v, or subtracts it when neg is set, moving v to big.Ints
// if an entry overflows.
func (v *nums) add(w *nums, neg bool) {
	i := 0
	if v.big == nil && w.big == nil {
		for ; i < len(w.small); i++ {
			s, ok := addSub(v.small[i], w.small[i], neg)
			if !ok {
				break
			}
			v.small[i] = s
		}
		if i == len(w.small) {
			return
		}
	}
	v.promote() // entries before i are done
	var tmp big.Int
	for ; i < len(v.big); i++ {
		x := w.entry(i, &tmp)
		if neg {
			v.big[i].Sub(v.big[i], x)
		} else {
			v.big[i].Add(v.big[i], x)
		}
	}
}

// entry returns entry i, using tmp when v holds int64s.
func (v *nums) entry(i int, tmp *big.Int) *big.Int {
	if v.big != nil {
		return v.big[i]
	}
	return tmp.SetInt64(v.small[i])
}

// appendKey appends an encoding of v's values to b that is the same whether
// v holds int64s or big.Ints, so that equal vectors have equal keys.
func (v *nums) appendKey(b []byte) []byte {
	if v.big == nil {
		for _, x := range v.small {
			b = append(b, 0)
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		return b
	}
	for _, x := range v.big {
		if x.IsInt64() {
			b = append(b, 0)
			b = binary.LittleEndian.AppendUint64(b, uint64(x.Int64()))
			continue
		}
		b = append(b, 1, byte(x.Sign()+1))
		abs := x.Bytes()
		b = binary.AppendUvarint(b, uint64(len(abs)))
		b = append(b, abs...)
	}
	return b
}

// toPoly returns the polynomial Σ_a v[a]/den · Π_i vars[i]^a_i, where a's
// digits in base 3 are the exponents, the first variable's most significant.
func (v *nums) toPoly(vars []string, den *big.Int) poly.Poly {
	k := len(vars)
	var terms []poly.Term
	var tmp big.Int
	for a := 0; a < v.len(); a++ {
		x := v.entry(a, &tmp)
		if x.Sign() == 0 {
			continue
		}
		exp := make([]int, k)
		for i, r := k-1, a; i >= 0; i, r = i-1, r/3 {
			exp[i] = r % 3
		}
		coef := poly.FromBig(new(big.Rat).SetFrac(x, den))
		terms = append(terms, poly.Term{Coef: coef, Exp: exp})
	}
	return poly.New(vars, terms)
}

// addSub returns a+b (a−b when neg) and whether it did not overflow.
func addSub(a, b int64, neg bool) (int64, bool) {
	if neg {
		s := a - b
		return s, (a >= 0) == (b >= 0) || (s >= 0) == (a >= 0)
	}
	s := a + b
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}

// mulAdd returns acc + a·b and whether it did not overflow.
func mulAdd(acc, a, b int64) (int64, bool) {
	p, ok := mul(a, b)
	if !ok {
		return 0, false
	}
	return addSub(acc, p, false)
}

// mul returns a·b and whether it did not overflow.
func mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(uint64(absInt(a)), uint64(absInt(b)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

func absInt(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
