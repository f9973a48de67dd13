package dominance

import (
	"math/big"
	"slices"

	"memsym/poly"
)

// separate writes d as g·h, h in the variable dim alone and g in the
// others, with g proven to keep one sign (never 0) at every integer point
// ≥ 1. It returns h, with its sign turned so that it has the sign of d
// everywhere; nil when d is 0.
func separate(d poly.Poly, dim string) (poly.IntPoly, bool) {
	cs := d.Collect(dim)
	t := slices.IndexFunc(cs, func(c poly.Poly) bool { return !c.IsZero() })
	if t < 0 {
		return nil, true // d = 0: a tie everywhere
	}
	g := cs[t]
	h := make([]poly.Rat, len(cs))
	for i, c := range cs {
		lambda, ok := ratio(c, g)
		if !ok {
			return nil, false
		}
		h[i] = lambda
	}
	switch gint := integerPoly(g); {
	case len(g.Used()) == 0:
		if c, _ := g.IsConst(); c.Sign() < 0 {
			return poly.IntPolyOf(h).Neg(), true
		}
	case atLeastOne(gint):
		// positive: h has d's sign
	case atLeastOne(gint.Neg()):
		return poly.IntPolyOf(h).Neg(), true
	default:
		return nil, false
	}
	return poly.IntPolyOf(h), true
}

// ratio returns λ with c = λ·g (g nonzero), if there is one.
func ratio(c, g poly.Poly) (poly.Rat, bool) {
	if c.IsZero() {
		return poly.Rat{}, true
	}
	if c.Len() != g.Len() {
		return poly.Rat{}, false
	}
	cc, _ := c.Term(0)
	gc, _ := g.Term(0)
	lambda := cc.Quo(gc)
	if !c.Equal(g.Scale(lambda)) {
		return poly.Rat{}, false
	}
	return lambda, true
}

// integerPoly returns a positive multiple of m with integer coefficients:
// m times the least common multiple of their denominators.
func integerPoly(m poly.Poly) poly.Poly {
	l := big.NewInt(1)
	for i := range m.Len() {
		if c, _ := m.Term(i); !c.IsInt() {
			d := c.Den()
			g := new(big.Int).GCD(nil, nil, l, d)
			l.Mul(l, d.Quo(d, g))
		}
	}
	return m.Scale(poly.FromBigInt(l))
}

// atLeastOne reports whether m, with integer coefficients, is proven ≥ 1 at
// every integer point ≥ 1, that is > 0.
func atLeastOne(m poly.Poly) bool {
	return (&prover{budget: proofBudget}).nonneg(m.Sub(poly.Const(poly.Int(1)))) != nil
}
