package dominance

import (
	"slices"

	"memsym/poly"
)

// mpoly is the working form of a polynomial here: exact coefficients over a
// fixed, sorted list of variables, terms in descending order of their
// exponents (compareRows), no zero coefficients. Two equal polynomials over the
// same variables have identical mpolys.
type mpoly struct {
	vars  []string
	coefs []poly.Rat
	exps  []int // term i's exponents at [i·len(vars) : (i+1)·len(vars)]
}

// fromPoly returns p over vars, which must name every variable p uses.
func fromPoly(p poly.Poly, vars []string) mpoly { return (*arena)(nil).fromPoly(p, vars) }

// arena hands out the slices of many mpolys from a few large blocks; a nil
// arena allocates each one.
type arena struct {
	rats []poly.Rat
	ints []int
}

const arenaBlock = 1 << 14

func (a *arena) ratSlice(n int) []poly.Rat {
	if a == nil || n > arenaBlock {
		return make([]poly.Rat, n)
	}
	if len(a.rats)+n > cap(a.rats) {
		a.rats = make([]poly.Rat, 0, arenaBlock)
	}
	k := len(a.rats)
	a.rats = a.rats[:k+n]
	return a.rats[k : k+n : k+n]
}

func (a *arena) intSlice(n int) []int {
	if a == nil || n > arenaBlock {
		return make([]int, n)
	}
	if len(a.ints)+n > cap(a.ints) {
		a.ints = make([]int, 0, arenaBlock)
	}
	k := len(a.ints)
	a.ints = a.ints[:k+n]
	return a.ints[k : k+n : k+n]
}

// fromPoly returns p over vars, which must name every variable p uses.
func (a *arena) fromPoly(p poly.Poly, vars []string) mpoly {
	pv := p.Vars()
	n := len(vars)
	terms := p.Terms()
	coefs := a.ratSlice(len(terms))
	exps := a.intSlice(len(terms) * n)
	for j, v := range pv {
		to := slices.Index(vars, v)
		for i, t := range terms {
			if e := t.Exp[j]; e != 0 {
				if to < 0 {
					panic("dominance: fromPoly without the variable " + v) // a programming error
				}
				exps[i*n+to] = e
			}
		}
	}
	for i, t := range terms {
		coefs[i] = t.Coef
	}
	return normalize(vars, coefs, exps)
}

// toPoly returns m as a poly.Poly.
func (m mpoly) toPoly() poly.Poly {
	terms := make([]poly.Term, len(m.coefs))
	for i, c := range m.coefs {
		terms[i] = poly.Term{Coef: c, Exp: m.row(i)}
	}
	return poly.New(m.vars, terms)
}

// normalize sorts the terms, merges equal exponents and drops zero terms,
// taking ownership of its arguments.
func normalize(vars []string, coefs []poly.Rat, exps []int) mpoly {
	n := len(vars)
	row := func(i int) []int { return exps[i*n : (i+1)*n] }
	sorted := true
	for i := range coefs {
		if coefs[i].IsZero() || i > 0 && compareRows(row(i-1), row(i)) <= 0 {
			sorted = false
			break
		}
	}
	if sorted {
		return mpoly{vars: vars, coefs: coefs, exps: exps}
	}
	// Insertion sort, descending: the terms are few.
	tmp := make([]int, n)
	for i := 1; i < len(coefs); i++ {
		c := coefs[i]
		copy(tmp, row(i))
		k := i
		for ; k > 0 && compareRows(row(k-1), tmp) < 0; k-- {
			coefs[k] = coefs[k-1]
			copy(row(k), row(k-1))
		}
		coefs[k] = c
		copy(row(k), tmp)
	}
	// Merge equal exponents and drop zeros, in place.
	w := 0
	for i := 0; i < len(coefs); {
		c := coefs[i]
		k := i + 1
		for ; k < len(coefs) && compareRows(row(k), row(i)) == 0; k++ {
			c = c.Add(coefs[k])
		}
		if !c.IsZero() {
			coefs[w] = c
			copy(row(w), row(i))
			w++
		}
		i = k
	}
	return mpoly{vars: vars, coefs: coefs[:w], exps: exps[:w*n]}
}

// compareRows orders exponent rows by total degree, then lexicographically,
// as poly orders terms: a Poly over the same variables needs no sorting.
func compareRows(a, b []int) int {
	sa, sb := 0, 0
	for i := range a {
		sa += a[i]
		sb += b[i]
	}
	if sa != sb {
		return sa - sb
	}
	return slices.Compare(a, b)
}

func (m mpoly) row(i int) []int {
	n := len(m.vars)
	return m.exps[i*n : (i+1)*n : (i+1)*n]
}

func (m mpoly) isZero() bool { return len(m.coefs) == 0 }

// degree returns the largest exponent of variable j.
func (m mpoly) degree(j int) int {
	d := 0
	for i := range m.coefs {
		d = max(d, m.exps[i*len(m.vars)+j])
	}
	return d
}

// used returns the indices of the variables m uses.
func (m mpoly) used() []int {
	var u []int
	for j := range m.vars {
		if m.degree(j) > 0 {
			u = append(u, j)
		}
	}
	return u
}

// restrict returns m over the variables it uses only, and their indices in
// m.vars.
func (m mpoly) restrict() (mpoly, []int) {
	u := m.used()
	if len(u) == len(m.vars) {
		return m, u
	}
	vars := make([]string, len(u))
	for k, j := range u {
		vars[k] = m.vars[j]
	}
	return m.columns(vars, u), u
}

// allNonneg reports whether every coefficient is ≥ 0.
func (m mpoly) allNonneg() bool {
	for _, c := range m.coefs {
		if c.Sign() < 0 {
			return false
		}
	}
	return true
}

// univariate returns the coefficients, lowest power first, of m in its one
// variable j (m must use no other).
func (m mpoly) univariate(j int) []poly.Rat {
	cs := make([]poly.Rat, m.degree(j)+1)
	for i, c := range m.coefs {
		cs[m.row(i)[j]] = c
	}
	return cs
}

// constant returns m's value when it uses no variable.
func (m mpoly) constant() poly.Rat {
	for i, c := range m.coefs {
		if slices.ContainsFunc(m.row(i), func(e int) bool { return e != 0 }) {
			continue
		}
		return c
	}
	return poly.Rat{}
}

// columns returns m over vars, the variables at the indices keep of
// m.vars, which must hold every variable m uses.
func (m mpoly) columns(vars []string, keep []int) mpoly {
	out := mpoly{vars: vars, coefs: m.coefs, exps: make([]int, 0, len(m.coefs)*len(keep))}
	for i := range m.coefs {
		r := m.row(i)
		for _, j := range keep {
			out.exps = append(out.exps, r[j])
		}
	}
	return out // dropping all-zero columns keeps the order
}

// equal reports whether a and b, over the same variables, are equal.
func (m mpoly) equal(b mpoly) bool {
	if len(m.coefs) != len(b.coefs) || !slices.Equal(m.exps, b.exps) {
		return false
	}
	for i, c := range m.coefs {
		if !c.Equal(b.coefs[i]) {
			return false
		}
	}
	return true
}

// hash returns a hash of m (FNV-1a) that equal mpolys over the same
// variables share.
func (m mpoly) hash() uint64 {
	h := uint64(14695981039346656037)
	put := func(x uint64) {
		for range 8 {
			h ^= x & 0xff
			h *= 1099511628211
			x >>= 8
		}
	}
	for i, c := range m.coefs {
		if n, d, ok := c.Small(); ok {
			put(uint64(n))
			put(uint64(d))
		} else {
			for _, b := range []byte(c.String()) {
				put(uint64(b))
			}
		}
		for _, e := range m.row(i) {
			put(uint64(e))
		}
	}
	return h
}
