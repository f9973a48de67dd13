package dominance

import (
	"fmt"
	"strings"

	"memsym/poly"
)

// proofBudget bounds the certificates tried for one difference, so that
// every decision takes bounded time.
const proofBudget = 200

// certKind is the kind of argument a certificate makes.
type certKind int

const (
	certZero      certKind = iota // the polynomial is 0
	certConst                     // a constant ≥ 0
	certShift                     // every coefficient ≥ 0 after x = 1 + y for every variable
	certUnivar                    // one variable: exact test at the integers
	certCollect                   // x = 1 + y for one variable; each coefficient in y proven
	certQuadratic                 // a·x² + b·x + c with a, c and 4ac − b² proven ≥ 0
)

// cert is a proof that a polynomial is ≥ 0 at every integer point with all
// variables ≥ 1.
type cert struct {
	kind certKind
	v    string  // the variable, for certUnivar, certCollect, certQuadratic
	subs []*cert // the proofs of the coefficients (certCollect: c0, c1, ...; certQuadratic: a, c, 4ac − b²)
}

// prover searches for certificates within a budget.
type prover struct{ budget int }

// nonneg returns a proof that m ≥ 0 at every integer point ≥ 1, or nil.
// Every certificate it returns is sound; failing to find one proves
// nothing.
func (pr *prover) nonneg(m poly.Poly) *cert {
	if pr.budget <= 0 {
		return nil
	}
	pr.budget--
	m, _ = restrict(m)
	vars := m.Vars()
	switch {
	case m.IsZero():
		return &cert{kind: certZero}
	case len(vars) == 0:
		if c, _ := m.IsConst(); c.Sign() >= 0 {
			return &cert{kind: certConst}
		}
		return nil
	}
	if allNonneg(m.Shift(poly.Int(1))) {
		return &cert{kind: certShift}
	}
	if len(vars) == 1 {
		if cs, _ := m.Univariate(vars[0]); nonnegAtIntegers(cs) {
			return &cert{kind: certUnivar, v: vars[0]}
		}
		return nil
	}
	for _, v := range vars {
		if c := pr.collected(m, v); c != nil {
			return c
		}
	}
	for _, v := range vars {
		if c := pr.quadratic(m, v); c != nil {
			return c
		}
	}
	return nil
}

// collected tries x = 1 + y: m = Σ c_i·y^i with y ≥ 0 at the integers
// x ≥ 1, so m ≥ 0 wherever every c_i ≥ 0.
func (pr *prover) collected(m poly.Poly, x string) *cert {
	cs := m.ShiftVar(x, poly.Int(1)).Collect(x)
	// Refuse cheaply first: a coefficient that is a negative constant.
	for _, c := range cs {
		if k, ok := c.IsConst(); ok && k.Sign() < 0 {
			return nil
		}
	}
	out := &cert{kind: certCollect, v: x}
	for _, c := range cs {
		sub := pr.nonneg(c)
		if sub == nil {
			return nil
		}
		out.subs = append(out.subs, sub)
	}
	return out
}

// quadratic tries m = a·x² + b·x + c in x: where a > 0, m =
// a·(x + b/2a)² + (4ac − b²)/4a ≥ 0; where a = 0, 4ac − b² ≥ 0 forces b = 0
// and m = c ≥ 0. So a ≥ 0, c ≥ 0 and 4ac − b² ≥ 0 prove m ≥ 0 for every
// real x.
func (pr *prover) quadratic(m poly.Poly, x string) *cert {
	cs := m.Collect(x)
	if len(cs) != 3 {
		return nil
	}
	a, b, c := cs[2], cs[1], cs[0]
	disc := a.Mul(c).Scale(poly.Int(4)).Sub(b.Mul(b))
	out := &cert{kind: certQuadratic, v: x}
	for _, q := range []poly.Poly{a, c, disc} {
		sub := pr.nonneg(q)
		if sub == nil {
			return nil
		}
		out.subs = append(out.subs, sub)
	}
	return out
}

// String describes the proof in words.
func (c *cert) String() string {
	switch c.kind {
	case certZero:
		return "it is 0"
	case certConst:
		return "it is a constant ≥ 0"
	case certShift:
		return "every coefficient is ≥ 0 after x = 1 + y for every variable x"
	case certUnivar:
		return fmt.Sprintf("one-variable test: ≥ 0 at every integer %s ≥ 1 (real roots isolated exactly)", c.v)
	case certCollect:
		parts := make([]string, len(c.subs))
		for i, s := range c.subs {
			parts[i] = fmt.Sprintf("c%d: %s", i, s)
		}
		return fmt.Sprintf("with %s = 1 + y, it is Σ cᵢ·yⁱ with every cᵢ ≥ 0 (%s)", c.v, strings.Join(parts, "; "))
	case certQuadratic:
		return fmt.Sprintf("as a·%s² + b·%s + c: a ≥ 0 (%s); c ≥ 0 (%s); 4ac − b² ≥ 0 (%s)",
			c.v, c.v, c.subs[0], c.subs[1], c.subs[2])
	}
	return "?"
}

// restrict returns m over the variables it uses only, and their positions
// in m's Vars.
func restrict(m poly.Poly) (poly.Poly, []int) {
	vars, used := m.Vars(), m.Used()
	idx := make([]int, 0, len(used))
	for j, v := range vars {
		if len(idx) < len(used) && used[len(idx)] == v {
			idx = append(idx, j)
		}
	}
	if len(used) == len(vars) {
		return m, idx
	}
	return poly.WithVars(m, used), idx
}

// allNonneg reports whether every coefficient of m is ≥ 0.
func allNonneg(m poly.Poly) bool {
	for i := range m.Len() {
		if c, _ := m.Term(i); c.Sign() < 0 {
			return false
		}
	}
	return true
}
