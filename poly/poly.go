package poly

import (
	"fmt"
	"slices"
	"sort"
)

// Term is one term: a coefficient times the variables raised to Exp (aligned
// with the polynomial's Vars()).
type Term struct {
	Coef Rat
	Exp  []int
}

// Poly is an immutable polynomial in named variables with rational
// coefficients. The zero value is 0 with no variables.
//
// A Poly is always in canonical form: no zero terms, no two terms with the
// same exponents, and terms ordered by total degree descending, then by
// exponent vector descending in the order of Vars. Equal polynomials over the
// same variable order therefore have identical terms and print identically.
type Poly struct {
	vars  []string // never modified once built; may be shared between Polys
	coefs []Rat    // nonzero, one per term
	exps  []int    // len(coefs)·len(vars), term i's exponents at [i·len(vars):]; shared like vars
}

// New returns the polynomial Σ terms over vars in canonical form: terms with
// equal exponents are merged, zero terms dropped, and the rest ordered. It
// copies its inputs. It panics on a programming error: an Exp whose length is
// not len(vars), a negative exponent, or a variable named twice.
func New(vars []string, terms []Term) Poly {
	checkVars(vars)
	n := len(vars)
	coefs := make([]Rat, 0, len(terms))
	exps := make([]int, 0, len(terms)*n)
	for i, t := range terms {
		if len(t.Exp) != n {
			panic(fmt.Sprintf("poly: term %d has %d exponents for %d variables", i, len(t.Exp), n))
		}
		for _, e := range t.Exp {
			if e < 0 {
				panic(fmt.Sprintf("poly: term %d has a negative exponent", i))
			}
		}
		if t.Coef.IsZero() {
			continue
		}
		coefs = append(coefs, t.Coef)
		exps = append(exps, t.Exp...)
	}
	return canonical(slices.Clone(vars), coefs, exps)
}

// Const returns the constant polynomial c, with no variables.
func Const(c Rat) Poly {
	if c.IsZero() {
		return Poly{}
	}
	return Poly{coefs: []Rat{c}}
}

// Var returns the polynomial name, of degree 1 in its one variable.
func Var(name string) Poly {
	return Poly{vars: []string{name}, coefs: []Rat{Int(1)}, exps: []int{1}}
}

// Vars returns the polynomial's variable order (a copy). It may name
// variables that appear in no term; Used names those that do.
func (p Poly) Vars() []string { return slices.Clone(p.vars) }

// Len returns the number of terms (0 for the zero polynomial).
func (p Poly) Len() int { return len(p.coefs) }

// Terms returns the terms in canonical order. The slice and the exponents
// are copies.
func (p Poly) Terms() []Term {
	if len(p.coefs) == 0 {
		return nil
	}
	n := len(p.vars)
	exps := slices.Clone(p.exps)
	ts := make([]Term, len(p.coefs))
	for i, c := range p.coefs {
		ts[i] = Term{Coef: c, Exp: exps[i*n : (i+1)*n : (i+1)*n]}
	}
	return ts
}

// Term returns term i (0 ≤ i < Len) in canonical order, as Terms would,
// without copying: its exponents are shared with p and must not be
// modified.
func (p Poly) Term(i int) (Rat, []int) { return p.coefs[i], p.row(i) }

// IsZero reports whether p is the zero polynomial.
func (p Poly) IsZero() bool { return len(p.coefs) == 0 }

// IsConst reports whether p has no variable with a positive exponent, and
// its value if so.
func (p Poly) IsConst() (Rat, bool) {
	switch {
	case len(p.coefs) == 0:
		return Rat{}, true
	case len(p.coefs) == 1 && isZeroRow(p.row(0)):
		return p.coefs[0], true
	}
	return Rat{}, false
}

// Equal reports whether p and q are the same polynomial. Variables that
// appear in no term do not matter, nor does the order of the variables.
func (p Poly) Equal(q Poly) bool {
	if len(p.coefs) != len(q.coefs) {
		return false
	}
	if !sameVars(p.vars, q.vars) {
		idx, ok := positions(q, p.vars)
		if !ok {
			return false
		}
		q = remap(q, p.vars, idx)
	}
	if !slices.Equal(p.exps, q.exps) {
		return false
	}
	for i, c := range p.coefs {
		if !c.Equal(q.coefs[i]) {
			return false
		}
	}
	return true
}

// Used returns the variables that appear with a positive exponent, in the
// order of Vars.
func (p Poly) Used() []string {
	var used []string
	for j, v := range p.vars {
		if p.column(j) > 0 {
			used = append(used, v)
		}
	}
	return used
}

// column returns the largest exponent of variable j.
func (p Poly) column(j int) int {
	n, m := len(p.vars), 0
	for i := j; i < len(p.exps); i += n {
		m = max(m, p.exps[i])
	}
	return m
}

// Degree returns the degree of p in the variable name (0 if p has no such
// variable).
func (p Poly) Degree(name string) int {
	j := slices.Index(p.vars, name)
	if j < 0 {
		return 0
	}
	return p.column(j)
}

// TotalDegree returns the largest total degree of p's terms (0 for a
// constant, and for the zero polynomial).
func (p Poly) TotalDegree() int {
	if len(p.coefs) == 0 {
		return 0
	}
	return sum(p.row(0)) // canonical order puts the highest degree first
}

// Coef returns the coefficient of the monomial whose exponents exp gives by
// variable name; variables exp leaves out have exponent 0.
func (p Poly) Coef(exp map[string]int) Rat {
	want := make([]int, len(p.vars))
	for name, e := range exp {
		if e == 0 {
			continue
		}
		j := slices.Index(p.vars, name)
		if j < 0 || e < 0 {
			return Rat{}
		}
		want[j] = e
	}
	i := sort.Search(len(p.coefs), func(i int) bool { return order(p.row(i), want) >= 0 })
	if i == len(p.coefs) || order(p.row(i), want) != 0 {
		return Rat{}
	}
	return p.coefs[i]
}

// Collect writes p as Σ_i c[i]·name^i and returns the c[i], polynomials in
// p's other variables (name is dropped from their Vars). Its length is
// Degree(name)+1: 1 for a polynomial without name.
func (p Poly) Collect(name string) []Poly {
	j := slices.Index(p.vars, name)
	if j < 0 {
		return []Poly{p}
	}
	n := len(p.vars)
	rest := slices.Delete(slices.Clone(p.vars), j, j+1)
	cs := make([]Poly, p.column(j)+1)
	for i := range cs {
		cs[i].vars = rest
	}
	// Dropping a column from the terms that share its exponent keeps their
	// relative order canonical, so each c[i] is built by appending.
	for i, c := range p.coefs {
		row := p.row(i)
		k := row[j]
		cs[k].coefs = append(cs[k].coefs, c)
		cs[k].exps = append(cs[k].exps, row[:j]...)
		cs[k].exps = append(cs[k].exps, row[j+1:n]...)
	}
	return cs
}

// Univariate returns p's coefficients as a polynomial in name alone,
// lowest power first (empty for the zero polynomial), and false when p
// uses another variable.
func (p Poly) Univariate(name string) ([]Rat, bool) {
	if p.IsZero() {
		return nil, true
	}
	j := slices.Index(p.vars, name)
	if j < 0 {
		c, ok := p.IsConst()
		if !ok {
			return nil, false
		}
		return []Rat{c}, true
	}
	cs := make([]Rat, p.column(j)+1)
	for i, c := range p.coefs {
		for v, e := range p.row(i) {
			if v != j && e != 0 {
				return nil, false
			}
		}
		cs[p.row(i)[j]] = c
	}
	return cs, true
}

// WithVars returns p over the variable order vars, which must name every
// variable p uses, each once; it panics otherwise, a programming error.
func WithVars(p Poly, vars []string) Poly {
	if sameVars(p.vars, vars) {
		return p
	}
	checkVars(vars)
	idx, ok := positions(p, vars)
	if !ok {
		panic(fmt.Sprintf("poly: WithVars(%v) leaves out a variable of %s", vars, p.ASCII()))
	}
	return remap(p, slices.Clone(vars), idx)
}

func (p Poly) row(i int) []int {
	n := len(p.vars)
	return p.exps[i*n : (i+1)*n : (i+1)*n]
}

// checkVars panics if a variable is named twice.
func checkVars(vars []string) {
	if len(vars) < 16 {
		for i, v := range vars {
			if slices.Contains(vars[:i], v) {
				panic(fmt.Sprintf("poly: variable %q named twice", v))
			}
		}
		return
	}
	seen := make(map[string]bool, len(vars))
	for _, v := range vars {
		if seen[v] {
			panic(fmt.Sprintf("poly: variable %q named twice", v))
		}
		seen[v] = true
	}
}

func sameVars(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

func sum(row []int) int {
	s := 0
	for _, e := range row {
		s += e
	}
	return s
}

func isZeroRow(row []int) bool {
	for _, e := range row {
		if e != 0 {
			return false
		}
	}
	return true
}
