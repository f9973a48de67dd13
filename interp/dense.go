package interp

import (
	"encoding/binary"
	"math/big"
	"slices"
	"sync"

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

// equal reports whether v and w, of one length, hold the same values.
func (v *nums) equal(w *nums) bool {
	if v.big == nil && w.big == nil {
		return slices.Equal(v.small, w.small)
	}
	var a, b big.Int
	for i := range v.len() {
		if v.entry(i, &a).Cmp(w.entry(i, &b)) != 0 {
			return false
		}
	}
	return true
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
	if v.big == nil && w.big == nil {
		if v.addSmall(w.small, neg) {
			return
		}
	}
	v.promote()
	var tmp big.Int
	for i := range v.big {
		x := w.entry(i, &tmp)
		if neg {
			v.big[i].Sub(v.big[i], x)
		} else {
			v.big[i].Add(v.big[i], x)
		}
	}
}

// addSmall adds ws to v's int64s, or subtracts them when neg is set, and
// reports whether every entry fits; when one does not, it leaves v as it
// was. The sums wrap around, and a sign that turns the wrong way in any of
// them says so, which costs no branch an entry.
func (v *nums) addSmall(ws []int64, neg bool) bool {
	vs := v.small[:len(ws)]
	var over int64
	if neg {
		for i, b := range ws {
			a := vs[i]
			s := a - b
			over |= (a ^ b) & (a ^ s)
			vs[i] = s
		}
	} else {
		for i, b := range ws {
			a := vs[i]
			s := a + b
			over |= (a ^ s) & (b ^ s)
			vs[i] = s
		}
	}
	if over >= 0 {
		return true
	}
	for i, b := range ws { // wrapped sums undo exactly
		if neg {
			vs[i] += b
		} else {
			vs[i] -= b
		}
	}
	return false
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
	p, _ := v.toPolyIn(nil, vars, den)
	return p
}

// toPolyIn is toPoly building the terms in scratch, which it returns for
// the next call: poly.New copies them. It gives poly.New its terms already
// in canonical order, with int64 coefficients while they fit.
func (v *nums) toPolyIn(scratch []poly.Term, vars []string, den *big.Int) (poly.Poly, []poly.Term) {
	k := len(vars)
	m := monomialsOf(k)
	terms := scratch[:0]
	if cap(terms) < v.len() {
		terms = make([]poly.Term, 0, v.len())
	}
	d, smallDen := den.Int64(), den.IsInt64()
	var tmp big.Int
	for i, a := range m.index {
		var coef poly.Rat
		switch {
		case v.big == nil && v.small[a] == 0:
			continue
		case v.big == nil && smallDen:
			coef = poly.Frac(v.small[a], d)
		default:
			x := v.entry(a, &tmp)
			if x.Sign() == 0 {
				continue
			}
			if x.IsInt64() && smallDen {
				coef = poly.Frac(x.Int64(), d)
			} else {
				coef = poly.FromBig(new(big.Rat).SetFrac(x, den))
			}
		}
		terms = append(terms, poly.Term{Coef: coef, Exp: m.exps[i*k : (i+1)*k : (i+1)*k]})
	}
	return poly.New(vars, terms), terms
}

// monomials lists the 3^k monomials of degree at most 2 in each of k
// variables in poly's canonical order: total degree descending, then the
// exponents descending, the first variable's first. The i-th has the
// exponents exps[i·k:(i+1)·k] and is entry index[i] of a nums, whose
// base-3 digits those exponents are.
type monomials struct {
	index []int
	exps  []int
}

// maxCachedK bounds the k whose monomials are kept once made: 3^8 of them,
// about 470 KB in all.
const maxCachedK = 8

var monomialCache [maxCachedK + 1]struct {
	once sync.Once
	m    *monomials
}

// monomialsOf returns the monomials of k variables. They are shared: do not
// change them.
func monomialsOf(k int) *monomials {
	if k > maxCachedK {
		return makeMonomials(k)
	}
	c := &monomialCache[k]
	c.once.Do(func() { c.m = makeMonomials(k) })
	return c.m
}

// makeMonomials lists the monomials of each total degree from 2k down to 0,
// choosing each variable's exponent from the largest the degree allows.
func makeMonomials(k int) *monomials {
	n := 1
	for range k {
		n *= 3
	}
	m := &monomials{index: make([]int, 0, n), exps: make([]int, 0, n*k)}
	e := make([]int, k)
	var fill func(i, rest, a int)
	fill = func(i, rest, a int) {
		if i == k {
			m.index = append(m.index, a)
			m.exps = append(m.exps, e...)
			return
		}
		room := 2 * (k - i - 1) // the most the later variables can take
		for x := min(2, rest); x >= max(0, rest-room); x-- {
			e[i] = x
			fill(i+1, rest-x, 3*a+x)
		}
	}
	for deg := 2 * k; deg >= 0; deg-- {
		fill(0, deg, 0)
	}
	return m
}

// addSub returns a + b, or a − b when neg is set, and whether it fits in
// an int64.
func addSub(a, b int64, neg bool) (int64, bool) {
	if neg {
		return poly.SubInt64(a, b)
	}
	return poly.AddInt64(a, b)
}

func absInt(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
