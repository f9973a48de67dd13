package poly

import "slices"

// order compares two exponent rows over the same variables: negative when a
// comes first in canonical order (higher total degree, then the larger
// exponent in the first variable where they differ), zero when equal.
func order(a, b []int) int {
	if da, db := sum(a), sum(b); da != db {
		if da > db {
			return -1
		}
		return 1
	}
	for i, e := range a {
		if e != b[i] {
			if e > b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// canonical returns the polynomial Σ coefs[i]·x^row(i) over vars, taking
// ownership of all three slices: it sorts the terms, merges equal
// exponents and drops zero coefficients.
func canonical(vars []string, coefs []Rat, exps []int) Poly {
	n, m := len(vars), len(coefs)
	row := func(i int) []int { return exps[i*n : (i+1)*n : (i+1)*n] }
	if isCanonical(n, coefs, exps) {
		if m == 0 {
			return Poly{vars: vars}
		}
		return Poly{vars: vars, coefs: coefs, exps: exps}
	}
	perm := make([]int, m)
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(a, b int) int { return order(row(a), row(b)) })
	outC := make([]Rat, 0, m)
	outE := make([]int, 0, m*n)
	for k := 0; k < m; {
		i := perm[k]
		c := coefs[i]
		for k++; k < m && order(row(perm[k]), row(i)) == 0; k++ {
			c = c.Add(coefs[perm[k]])
		}
		if !c.IsZero() {
			outC = append(outC, c)
			outE = append(outE, row(i)...)
		}
	}
	if len(outC) == 0 {
		return Poly{vars: vars}
	}
	return Poly{vars: vars, coefs: outC, exps: outE}
}

// isCanonical reports whether the terms are already strictly ordered with
// no zero coefficient.
func isCanonical(n int, coefs []Rat, exps []int) bool {
	for i, c := range coefs {
		if c.IsZero() {
			return false
		}
		if i > 0 && order(exps[(i-1)*n:i*n], exps[i*n:(i+1)*n]) >= 0 {
			return false
		}
	}
	return true
}

// positions returns, for each of p's variables, its index in vars (-1 when
// absent), and false when a variable p uses is absent.
func positions(p Poly, vars []string) ([]int, bool) {
	idx := make([]int, len(p.vars))
	for j, v := range p.vars {
		idx[j] = slices.Index(vars, v)
		if idx[j] < 0 && p.column(j) > 0 {
			return nil, false
		}
	}
	return idx, true
}

// remap returns p over vars, where idx (from positions) places each of p's
// variables. vars is retained.
func remap(p Poly, vars []string, idx []int) Poly {
	if sameVars(p.vars, vars) {
		return p
	}
	n, w := len(p.vars), len(vars)
	exps := make([]int, len(p.coefs)*w)
	for i := range p.coefs {
		src, dst := p.row(i), exps[i*w:(i+1)*w]
		for j, e := range src {
			if e != 0 {
				dst[idx[j]] = e
			}
		}
	}
	// The order survives when the used variables keep their relative order.
	kept, last := true, -1
	for j := 0; j < n; j++ {
		if idx[j] < 0 || p.column(j) == 0 {
			continue
		}
		if idx[j] < last {
			kept = false
			break
		}
		last = idx[j]
	}
	if kept {
		if len(p.coefs) == 0 {
			return Poly{vars: vars}
		}
		return Poly{vars: vars, coefs: p.coefs, exps: exps}
	}
	return canonical(vars, slices.Clone(p.coefs), exps)
}

// union returns a's variables followed by those of b that a lacks; a itself
// when b adds none.
func union(a, b []string) []string {
	if sameVars(a, b) {
		return a
	}
	var u []string
	for _, v := range b {
		if !slices.Contains(a, v) {
			if u == nil {
				u = append(slices.Clip(slices.Clone(a)), v)
				continue
			}
			u = append(u, v)
		}
	}
	if u == nil {
		return a
	}
	return u
}

// align returns p and q over one variable order: p's variables followed by
// q's new ones.
func align(p, q Poly) (Poly, Poly) {
	if sameVars(p.vars, q.vars) {
		return p, q
	}
	vars := union(p.vars, q.vars)
	pi, _ := positions(p, vars)
	qi, _ := positions(q, vars)
	return remap(p, vars, pi), remap(q, vars, qi)
}
