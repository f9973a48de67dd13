package dominance

import (
	"slices"

	"memsym/poly"
)

// sub returns a − b; both must be over the same variables.
func sub(a, b mpoly) mpoly { return merge(a, b, true) }

func merge(a, b mpoly, negate bool) mpoly {
	out := mpoly{vars: a.vars}
	i, j := 0, 0
	neg := func(c poly.Rat) poly.Rat {
		if negate {
			return c.Neg()
		}
		return c
	}
	for i < len(a.coefs) || j < len(b.coefs) {
		var o int
		switch {
		case i == len(a.coefs):
			o = -1
		case j == len(b.coefs):
			o = 1
		default:
			o = compareRows(a.row(i), b.row(j))
		}
		switch {
		case o > 0:
			out.coefs = append(out.coefs, a.coefs[i])
			out.exps = append(out.exps, a.row(i)...)
			i++
		case o < 0:
			out.coefs = append(out.coefs, neg(b.coefs[j]))
			out.exps = append(out.exps, b.row(j)...)
			j++
		default:
			if c := a.coefs[i].Add(neg(b.coefs[j])); !c.IsZero() {
				out.coefs = append(out.coefs, c)
				out.exps = append(out.exps, a.row(i)...)
			}
			i++
			j++
		}
	}
	return out
}

// scale returns c·m.
func (m mpoly) scale(c poly.Rat) mpoly {
	if c.IsZero() {
		return mpoly{vars: m.vars}
	}
	out := mpoly{vars: m.vars, coefs: make([]poly.Rat, len(m.coefs)), exps: m.exps}
	for i, a := range m.coefs {
		out.coefs[i] = a.Mul(c)
	}
	return out
}

// mul returns a·b; both must be over the same variables.
func mul(a, b mpoly) mpoly {
	n := len(a.vars)
	coefs := make([]poly.Rat, 0, len(a.coefs)*len(b.coefs))
	exps := make([]int, 0, len(a.coefs)*len(b.coefs)*n)
	for i, x := range a.coefs {
		for j, y := range b.coefs {
			coefs = append(coefs, x.Mul(y))
			ra, rb := a.row(i), b.row(j)
			for v := range n {
				exps = append(exps, ra[v]+rb[v])
			}
		}
	}
	return normalize(a.vars, coefs, exps)
}

// shiftVar returns m with variable j replaced by 1 + j.
func (m mpoly) shiftVar(j int) mpoly {
	var coefs []poly.Rat
	var exps []int
	for i, c := range m.coefs {
		r := m.row(i)
		e := r[j]
		binom := int64(1) // C(e, k), exact in int64 for the degrees met here
		for k := 0; k <= e; k++ {
			coefs = append(coefs, c.Mul(binomial(e, k, binom)))
			exps = append(exps, r...)
			exps[len(exps)-len(r)+j] = k
			if k < e {
				binom = nextBinom(binom, e, k)
			}
		}
	}
	return normalize(m.vars, coefs, exps)
}

// binomial returns C(e, k) as a Rat; b is its int64 value, or 0 when it did
// not fit, in which case it is computed exactly.
func binomial(e, k int, b int64) poly.Rat {
	if b > 0 {
		return poly.Int(b)
	}
	r := poly.Int(1)
	for i := 1; i <= k; i++ {
		r = r.Mul(poly.Int(int64(e - k + i))).Quo(poly.Int(int64(i)))
	}
	return r
}

// nextBinom returns C(e, k+1) from b = C(e, k), or 0 once it leaves int64.
func nextBinom(b int64, e, k int) int64 {
	if b == 0 || b > (1<<62)/int64(e+1) {
		return 0
	}
	return b * int64(e-k) / int64(k+1)
}

// shiftAll returns m with every variable x replaced by 1 + x.
func (m mpoly) shiftAll() mpoly {
	for j := range m.vars {
		if m.degree(j) > 0 {
			m = m.shiftVar(j)
		}
	}
	return m
}

// without returns vars with index j left out.
func without(vars []string, j int) []string {
	return slices.Delete(slices.Clone(vars), j, j+1)
}

// collect writes m as Σ_i c[i]·x_j^i and returns the c[i], over the other
// variables.
func (m mpoly) collect(j int) []mpoly {
	rest := without(m.vars, j)
	cs := make([]mpoly, m.degree(j)+1)
	for i := range cs {
		cs[i].vars = rest
	}
	for i, c := range m.coefs {
		r := m.row(i)
		k := r[j]
		cs[k].coefs = append(cs[k].coefs, c)
		cs[k].exps = append(cs[k].exps, r[:j]...)
		cs[k].exps = append(cs[k].exps, r[j+1:]...)
	}
	// Dropping a column keeps the order among terms of equal exponent there.
	return cs
}

// subst returns m with variable j set to x, over the other variables.
func (m mpoly) subst(j int, x poly.Rat) mpoly {
	rest := without(m.vars, j)
	coefs := make([]poly.Rat, len(m.coefs))
	exps := make([]int, 0, len(m.coefs)*len(rest))
	for i, c := range m.coefs {
		r := m.row(i)
		coefs[i] = c.Mul(pow(x, r[j]))
		exps = append(exps, r[:j]...)
		exps = append(exps, r[j+1:]...)
	}
	return normalize(rest, coefs, exps)
}

// pow returns x^e for e ≥ 0.
func pow(x poly.Rat, e int) poly.Rat {
	r := poly.Int(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r.Mul(x)
		}
		if e > 1 {
			x = x.Mul(x)
		}
	}
	return r
}

// eval returns m's exact value with variable j at at[j].
func (m mpoly) eval(at []int64) poly.Rat {
	var total poly.Rat
	for i, c := range m.coefs {
		t := c
		for j, e := range m.row(i) {
			if e != 0 {
				t = t.Mul(pow(poly.Int(at[j]), e))
			}
		}
		total = total.Add(t)
	}
	return total
}
