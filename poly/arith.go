package poly

import (
	"fmt"
	"slices"
)

// Add returns p + q.
func (p Poly) Add(q Poly) Poly { return merge(p, q, false) }

// Sub returns p − q.
func (p Poly) Sub(q Poly) Poly { return merge(p, q, true) }

// Neg returns −p.
func (p Poly) Neg() Poly { return p.Scale(Int(-1)) }

// Scale returns c·p.
func (p Poly) Scale(c Rat) Poly {
	if c.IsZero() || p.IsZero() {
		return Poly{vars: p.vars}
	}
	coefs := make([]Rat, len(p.coefs))
	for i, a := range p.coefs {
		coefs[i] = a.Mul(c)
	}
	return Poly{vars: p.vars, coefs: coefs, exps: p.exps} // exps are never modified, so shared
}

// merge returns p + q, or p − q when negate, by merging the sorted terms.
func merge(p, q Poly, negate bool) Poly {
	p, q = align(p, q)
	if q.IsZero() {
		return p
	}
	if p.IsZero() {
		if negate {
			return q.Neg()
		}
		return q
	}
	n := len(p.vars)
	lp, lq := len(p.coefs), len(q.coefs)
	size := mergedLen(p, q)
	coefs := make([]Rat, 0, size)
	exps := make([]int, 0, size*n)
	qc := func(j int) Rat {
		if negate {
			return q.coefs[j].Neg()
		}
		return q.coefs[j]
	}
	i, j := 0, 0
	for i < lp && j < lq {
		switch o := order(p.row(i), q.row(j)); {
		case o < 0:
			coefs = append(coefs, p.coefs[i])
			exps = append(exps, p.row(i)...)
			i++
		case o > 0:
			coefs = append(coefs, qc(j))
			exps = append(exps, q.row(j)...)
			j++
		default:
			var c Rat
			if negate {
				c = p.coefs[i].Sub(q.coefs[j])
			} else {
				c = p.coefs[i].Add(q.coefs[j])
			}
			if !c.IsZero() {
				coefs = append(coefs, c)
				exps = append(exps, p.row(i)...)
			}
			i++
			j++
		}
	}
	for ; i < lp; i++ {
		coefs = append(coefs, p.coefs[i])
		exps = append(exps, p.row(i)...)
	}
	for ; j < lq; j++ {
		coefs = append(coefs, qc(j))
		exps = append(exps, q.row(j)...)
	}
	if len(coefs) == 0 {
		return Poly{vars: p.vars}
	}
	return Poly{vars: p.vars, coefs: coefs, exps: exps}
}

// mergedLen returns the number of distinct exponents among p's and q's
// terms, so that merge allocates once and no more than it needs.
func mergedLen(p, q Poly) int {
	lp, lq := len(p.coefs), len(q.coefs)
	size, i, j := 0, 0, 0
	for i < lp && j < lq {
		switch o := order(p.row(i), q.row(j)); {
		case o < 0:
			i++
		case o > 0:
			j++
		default:
			i++
			j++
		}
		size++
	}
	return size + lp - i + lq - j
}

// Mul returns p·q.
func (p Poly) Mul(q Poly) Poly {
	p, q = align(p, q)
	if p.IsZero() || q.IsZero() {
		return Poly{vars: p.vars}
	}
	if c, ok := q.IsConst(); ok {
		return p.Scale(c)
	}
	if c, ok := p.IsConst(); ok {
		return q.Scale(c)
	}
	n := len(p.vars)
	lp, lq := len(p.coefs), len(q.coefs)
	coefs := make([]Rat, 0, lp*lq)
	exps := make([]int, lp*lq*n)
	for i, a := range p.coefs {
		pr := p.row(i)
		for j, b := range q.coefs {
			k := len(coefs)
			coefs = append(coefs, a.Mul(b))
			dst := exps[k*n : (k+1)*n]
			for v, e := range q.row(j) {
				dst[v] = pr[v] + e
			}
		}
	}
	if lq == 1 {
		// Multiplying by a monomial keeps the order, and no products merge.
		return Poly{vars: p.vars, coefs: coefs, exps: exps}
	}
	return canonical(p.vars, coefs, exps)
}

// Pow returns p^k. It panics if k is negative.
func (p Poly) Pow(k int) Poly {
	if k < 0 {
		panic(fmt.Sprintf("poly: Pow(%d)", k))
	}
	result := Poly{vars: p.vars, coefs: []Rat{Int(1)}, exps: make([]int, len(p.vars))}
	for base := p; k > 0; k >>= 1 {
		if k&1 == 1 {
			result = result.Mul(base)
		}
		if k > 1 {
			base = base.Mul(base)
		}
	}
	return result
}

// Shift returns p with every variable x replaced by by + x. With by = 1: if
// p.Shift(Int(1)) has no negative coefficient, p ≥ 0 wherever every
// variable is at least 1.
func (p Poly) Shift(by Rat) Poly {
	if by.IsZero() || p.IsZero() {
		return p
	}
	top := 0
	for j := range p.vars {
		top = max(top, p.column(j))
	}
	if top == 0 {
		return p
	}
	taylor := taylorTable(top, by)
	// One variable at a time, merging terms in between, keeps the work near
	// the size of the result.
	for j := range p.vars {
		if p.column(j) > 0 {
			p = p.shiftVar(j, taylor)
		}
	}
	return p
}

// ShiftVar returns p with the variable name replaced by by + name, the
// others left as they are; p itself when p does not use name.
func (p Poly) ShiftVar(name string, by Rat) Poly {
	j := slices.Index(p.vars, name)
	if j < 0 || by.IsZero() {
		return p
	}
	top := p.column(j)
	if top == 0 {
		return p
	}
	return p.shiftVar(j, taylorTable(top, by))
}

// shiftVar substitutes by + x for variable j, given shift's taylor table.
func (p Poly) shiftVar(j int, taylor [][]Rat) Poly {
	size := 0
	for i := range p.coefs {
		size += p.row(i)[j] + 1
	}
	coefs := make([]Rat, 0, size)
	exps := make([]int, 0, size*len(p.vars))
	for i, c := range p.coefs {
		row := p.row(i)
		e := row[j]
		for k := e; k >= 0; k-- {
			coefs = append(coefs, c.Mul(taylor[e][k]))
			at := len(exps)
			exps = append(exps, row...)
			exps[at+j] = k
		}
	}
	return canonical(p.vars, coefs, exps)
}

// taylorTable returns taylor[e][k] = C(e, k)·by^(e−k) for k ≤ e ≤ top: the
// coefficient of x^k in (by + x)^e.
func taylorTable(top int, by Rat) [][]Rat {
	if by.Equal(Int(1)) && top < len(smallPascal) {
		return smallPascal // by^(e−k) = 1; shared, never written
	}
	taylor := pascal(top)
	pow := Int(1) // by^i
	for i := 0; i <= top; i++ {
		for e := i; e <= top; e++ {
			taylor[e][e-i] = taylor[e][e-i].Mul(pow)
		}
		pow = pow.Mul(by)
	}
	return taylor
}

// smallPascal is the taylor table of the shift by 1 for the degrees most
// polynomials have.
var smallPascal = pascal(15)

// pascal returns the binomial coefficients C(n, k) for n ≤ top.
func pascal(top int) [][]Rat {
	rows := make([][]Rat, top+1)
	for n := range rows {
		rows[n] = make([]Rat, n+1)
		rows[n][0], rows[n][n] = Int(1), Int(1)
		for k := 1; k < n; k++ {
			rows[n][k] = rows[n-1][k-1].Add(rows[n-1][k])
		}
	}
	return rows
}
