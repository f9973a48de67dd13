package dominance

import (
	"math/big"
	"slices"

	"memsym/poly"
)

// pseudoRem returns a positive multiple of the remainder of a divided by b
// (b nonzero): lead(b)^2k·a is reduced by b in integers, k chosen so that
// the multiplier is a square and signs are kept.
func pseudoRem(a, b poly.IntPoly) poly.IntPoly {
	r := slices.Clone(a)
	for i := range r {
		r[i] = new(big.Int).Set(r[i])
	}
	lb := b[len(b)-1]
	for len(r) >= len(b) {
		lr := r[len(r)-1]
		shift := len(r) - len(b)
		// r ← lb²·r − lb·lr·x^shift·b: lb² > 0 keeps the sign of the
		// multiple, and the leading term cancels.
		f := new(big.Int).Mul(lb, lr)
		lb2 := new(big.Int).Mul(lb, lb)
		for i := range r {
			r[i].Mul(r[i], lb2)
		}
		for i, c := range b {
			r[i+shift].Sub(r[i+shift], new(big.Int).Mul(f, c))
		}
		r = r[:len(r)-1].Trim().Primitive()
	}
	return r.Trim()
}

// gcdPoly returns a greatest common divisor of a and b (up to a constant).
func gcdPoly(a, b poly.IntPoly) poly.IntPoly {
	for len(b) > 0 {
		a, b = b, pseudoRem(a, b)
	}
	return a.Primitive()
}

// divExact returns a/b when b divides a: a positive multiple of the
// quotient, primitive.
func divExact(a, b poly.IntPoly) poly.IntPoly {
	r := make([]*big.Rat, len(a))
	for i, c := range a {
		r[i] = new(big.Rat).SetInt(c)
	}
	lb := new(big.Rat).SetInt(b[len(b)-1])
	q := make([]*big.Rat, len(a)-len(b)+1)
	for k := len(q) - 1; k >= 0; k-- {
		f := new(big.Rat).Quo(r[k+len(b)-1], lb)
		q[k] = f
		for i, c := range b {
			r[k+i].Sub(r[k+i], new(big.Rat).Mul(f, new(big.Rat).SetInt(c)))
		}
	}
	// Clear the denominators by a positive factor.
	l := big.NewInt(1)
	for _, c := range q {
		d := c.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	out := make(poly.IntPoly, len(q))
	for i, c := range q {
		out[i] = new(big.Int).Mul(c.Num(), new(big.Int).Quo(l, c.Denom()))
	}
	return out.Trim().Primitive()
}

// sturm returns the Sturm sequence of a squarefree p of degree ≥ 1, each
// member scaled by a positive number.
func sturm(p poly.IntPoly) []poly.IntPoly {
	seq := []poly.IntPoly{p, p.Derivative().Primitive()}
	for {
		r := pseudoRem(seq[len(seq)-2], seq[len(seq)-1])
		if len(r) == 0 {
			return seq
		}
		for i := range r {
			r[i].Neg(r[i])
		}
		seq = append(seq, r)
	}
}

// variations counts the sign changes of the sequence at x, zeros skipped.
func variations(seq []poly.IntPoly, x *big.Int) int {
	n, last := 0, 0
	for _, p := range seq {
		s := p.SignAt(x)
		if s == 0 {
			continue
		}
		if last != 0 && s != last {
			n++
		}
		last = s
	}
	return n
}

// rootCells returns, for p of degree ≥ 1, the integers h such that p has a
// real root in (h−1, h], ascending, for the roots > 0, and an integer
// beyond every real root. Between consecutive cells the sign of p at the
// integers is constant.
func rootCells(p poly.IntPoly) (cells []*big.Int, beyond *big.Int) {
	sf := p.Primitive()
	if g := gcdPoly(sf, sf.Derivative()); len(g) > 1 {
		sf = divExact(sf, g)
	}
	bound := sf.RootBound()
	if len(sf) < 2 {
		return nil, bound
	}
	seq := sturm(sf)
	// Sturm's theorem for a squarefree polynomial: the distinct real roots
	// in (lo, hi] number V(lo) − V(hi), endpoints roots or not.
	var walk func(lo, hi *big.Int, vlo, vhi int)
	walk = func(lo, hi *big.Int, vlo, vhi int) {
		if vlo <= vhi {
			return
		}
		width := new(big.Int).Sub(hi, lo)
		if width.Cmp(big.NewInt(1)) == 0 {
			cells = append(cells, hi)
			return
		}
		mid := width.Rsh(width, 1)
		mid.Add(mid, lo)
		vmid := variations(seq, mid)
		walk(lo, mid, vlo, vmid)
		walk(mid, hi, vmid, vhi)
	}
	zero := new(big.Int)
	walk(zero, bound, variations(seq, zero), variations(seq, bound))
	return cells, bound
}
