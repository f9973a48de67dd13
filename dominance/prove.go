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
func (pr *prover) nonneg(m mpoly) *cert {
	if pr.budget <= 0 {
		return nil
	}
	pr.budget--
	m, _ = m.restrict()
	switch {
	case m.isZero():
		return &cert{kind: certZero}
	case len(m.vars) == 0:
		if m.constant().Sign() >= 0 {
			return &cert{kind: certConst}
		}
		return nil
	}
	if m.shiftAll().allNonneg() {
		return &cert{kind: certShift}
	}
	if len(m.vars) == 1 {
		if nonnegAtIntegers(m.univariate(0)) {
			return &cert{kind: certUnivar, v: m.vars[0]}
		}
		return nil
	}
	for j := range m.vars {
		if c := pr.collected(m, j); c != nil {
			return c
		}
	}
	for j := range m.vars {
		if c := pr.quadratic(m, j); c != nil {
			return c
		}
	}
	return nil
}

// collected tries x_j = 1 + y: m = Σ c_i·y^i with y ≥ 0 at the integers
// x_j ≥ 1, so m ≥ 0 wherever every c_i ≥ 0.
func (pr *prover) collected(m mpoly, j int) *cert {
	cs := m.shiftVar(j).collect(j)
	// Refuse cheaply first: a coefficient that is a negative constant.
	for _, c := range cs {
		if r, _ := c.restrict(); len(r.vars) == 0 && r.constant().Sign() < 0 {
			return nil
		}
	}
	out := &cert{kind: certCollect, v: m.vars[j]}
	for _, c := range cs {
		sub := pr.nonneg(c)
		if sub == nil {
			return nil
		}
		out.subs = append(out.subs, sub)
	}
	return out
}

// quadratic tries m = a·x² + b·x + c in x = x_j: where a > 0, m =
// a·(x + b/2a)² + (4ac − b²)/4a ≥ 0; where a = 0, 4ac − b² ≥ 0 forces b = 0
// and m = c ≥ 0. So a ≥ 0, c ≥ 0 and 4ac − b² ≥ 0 prove m ≥ 0 for every
// real x.
func (pr *prover) quadratic(m mpoly, j int) *cert {
	cs := m.collect(j)
	if len(cs) != 3 {
		return nil
	}
	a, b, c := cs[2], cs[1], cs[0]
	disc := sub(mul(a, c).scale(poly.Int(4)), mul(b, b))
	out := &cert{kind: certQuadratic, v: m.vars[j]}
	for _, q := range []mpoly{a, c, disc} {
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
