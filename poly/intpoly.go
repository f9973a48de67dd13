package poly

import "math/big"

// IntPoly is a polynomial in one variable with integer coefficients, lowest
// power first. The methods that build one return it without trailing zero
// coefficients, so that the zero polynomial is empty and the last
// coefficient is the leading one.
//
// memsym decides signs with it: where a difference of two memory
// polynomials along one dimension is positive, zero or negative.
type IntPoly []*big.Int

// IntPolyOf returns cs (lowest power first) times the least common multiple
// of their denominators: a positive multiple of the polynomial, so of the
// same sign at every point, with integer coefficients.
func IntPolyOf(cs []Rat) IntPoly {
	l := big.NewInt(1)
	for _, c := range cs {
		if !c.IsInt() {
			d := c.Den()
			g := new(big.Int).GCD(nil, nil, l, d)
			l.Mul(l, d.Quo(d, g))
		}
	}
	out := make(IntPoly, len(cs))
	for i, c := range cs {
		n := c.Num()
		out[i] = n.Mul(n, l).Quo(n, c.Den())
	}
	return out.Trim()
}

// Trim returns p without its trailing zero coefficients, sharing p's
// backing array.
func (p IntPoly) Trim() IntPoly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	return p
}

// At returns p(x), a new big.Int.
func (p IntPoly) At(x *big.Int) *big.Int {
	v := new(big.Int)
	for i := len(p) - 1; i >= 0; i-- {
		v.Mul(v, x).Add(v, p[i])
	}
	return v
}

// SignAt returns the sign of p(x): −1, 0 or +1.
func (p IntPoly) SignAt(x *big.Int) int { return p.At(x).Sign() }

// Neg returns −p.
func (p IntPoly) Neg() IntPoly {
	out := make(IntPoly, len(p))
	for i, c := range p {
		out[i] = new(big.Int).Neg(c)
	}
	return out
}

// Derivative returns p′ (nil for a constant).
func (p IntPoly) Derivative() IntPoly {
	if len(p) <= 1 {
		return nil
	}
	d := make(IntPoly, len(p)-1)
	for i := 1; i < len(p); i++ {
		d[i-1] = new(big.Int).Mul(p[i], big.NewInt(int64(i)))
	}
	return d
}

// Difference returns the forward difference p(x+1) − p(x), of one degree
// less than p (nil for a constant).
func (p IntPoly) Difference() IntPoly {
	if len(p) == 0 {
		return nil
	}
	out := make(IntPoly, len(p)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
	// (x+1)^k − x^k = Σ_{j<k} C(k, j) x^j.
	for k := 1; k < len(p); k++ {
		binom := big.NewInt(1)
		for j := 0; j < k; j++ {
			out[j].Add(out[j], new(big.Int).Mul(p[k], binom))
			binom.Mul(binom, big.NewInt(int64(k-j))).Quo(binom, big.NewInt(int64(j+1)))
		}
	}
	return out.Trim()
}

// Primitive returns p divided by the greatest common divisor of its
// coefficients (a positive number), so of the same sign everywhere; p
// itself when that divisor is 1 or p is zero.
func (p IntPoly) Primitive() IntPoly {
	g := new(big.Int)
	for _, c := range p {
		g.GCD(nil, nil, g, new(big.Int).Abs(c))
	}
	if g.Sign() == 0 || g.Cmp(big.NewInt(1)) == 0 {
		return p
	}
	out := make(IntPoly, len(p))
	for i, c := range p {
		out[i] = new(big.Int).Quo(c, g)
	}
	return out
}

// RootBound returns an integer, at least 2, greater than the absolute value
// of every real root of p: Cauchy's bound 1 + max |a_i / a_n|, rounded up
// past it (⌊max |a_i / a_n|⌋ + 2). At every x at or beyond it, p has the
// sign of its leading coefficient. For a constant or zero p it is 2.
func (p IntPoly) RootBound() *big.Int {
	m := new(big.Int)
	if len(p) < 2 {
		return m.SetInt64(2)
	}
	lead := new(big.Int).Abs(p[len(p)-1])
	for _, c := range p[:len(p)-1] {
		q := new(big.Int).Abs(c)
		q.Quo(q, lead)
		if q.Cmp(m) > 0 {
			m = q
		}
	}
	return m.Add(m, big.NewInt(2))
}
