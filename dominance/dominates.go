package dominance

import (
	"fmt"
	"slices"
	"strings"

	"memsym/poly"
)

// Verdict is the outcome of asking whether one candidate dominates another.
type Verdict int

const (
	// Undecided: neither a proof nor a witness was found. It claims
	// nothing either way.
	Undecided Verdict = iota
	// Proven: p ≥ q at every integer point with all variables ≥ 1.
	Proven
	// Refuted: q > p at the integer point in Answer.Witness.
	Refuted
)

// String returns "proven", "refuted" or "undecided".
func (v Verdict) String() string {
	switch v {
	case Proven:
		return "proven"
	case Refuted:
		return "refuted"
	case Undecided:
		return "undecided"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Answer is the outcome of Dominates with its evidence.
type Answer struct {
	Verdict Verdict
	// Reason says why, in words: for Proven the certificate, for Refuted
	// the point and by how much q exceeds p there.
	Reason string
	// Witness, for Refuted, is an integer point, every coordinate ≥ 1, where
	// q > p exactly. It gives a value to every variable p or q uses.
	Witness map[string]int64
}

// decision is the outcome of deciding d ≥ 0, over d's Vars.
type decision struct {
	verdict Verdict
	cert    *cert   // for Proven
	witness []int64 // for Refuted: d < 0 there
	beyond  string  // for Undecided: a negative point too large for int64, if any
}

// Dominates reports whether p ≥ q at every integer point with all
// variables ≥ 1. A Proven answer rests on a certificate that holds at every
// such point; a Refuted one on a point where q > p, checked exactly. It
// never guesses: what it can neither prove nor refute is Undecided. It
// always returns, in time bounded by the polynomials' size.
func Dominates(p, q poly.Poly) Answer {
	vars := unionUsed(p, q)
	d := poly.WithVars(p, vars).Sub(poly.WithVars(q, vars))
	dec := decide(d)
	switch dec.verdict {
	case Proven:
		return Answer{Verdict: Proven, Reason: proofReason(dec.cert, d)}
	case Refuted:
		w := make(map[string]int64, len(vars))
		for j, v := range vars {
			w[v] = dec.witness[j]
		}
		excess := d.EvalInts(dec.witness).Neg()
		return Answer{Verdict: Refuted, Reason: fmt.Sprintf("at %s: q exceeds p by %s", pointString(vars, dec.witness), excess), Witness: w}
	}
	if dec.beyond != "" {
		return Answer{Verdict: Undecided, Reason: fmt.Sprintf("p − q = %s is negative only at %s, beyond int64", d, dec.beyond)}
	}
	return Answer{Verdict: Undecided, Reason: fmt.Sprintf("neither a proof nor a witness found for p − q = %s", d)}
}

// decide decides d ≥ 0 at the integer points ≥ 1: exactly when d uses at
// most one variable, and otherwise by looking for a witness, then for a
// certificate.
func decide(d poly.Poly) decision { return decideWith(d, nil, true) }

// decideWith is decide given, if not nil, the answer to its first test:
// whether every coefficient of d is ≥ 0 once each variable x is 1 + x. A
// pruner has each candidate's shifted coefficients at hand (shiftGE).
// With nearest, a witness of several variables is moved towards the
// origin (shrink), as an answer shown to a reader wants; a pruner, which
// keeps its witnesses only as evidence, takes the first it finds.
func decideWith(d poly.Poly, shiftedNonneg func() bool, nearest bool) decision {
	r, idx := restrict(d)
	rvars := r.Vars()
	n := len(d.Vars())
	if shiftedNonneg == nil {
		shiftedNonneg = func() bool { return allNonneg(r.Shift(poly.Int(1))) }
	}
	if len(rvars) > 0 && shiftedNonneg() {
		return decision{verdict: Proven, cert: &cert{kind: certShift}}
	}
	switch len(rvars) {
	case 0:
		switch c, _ := r.IsConst(); {
		case c.Sign() < 0:
			return decision{verdict: Refuted, witness: spread(n, idx, nil)}
		case c.IsZero():
			return decision{verdict: Proven, cert: &cert{kind: certZero}}
		}
		return decision{verdict: Proven, cert: &cert{kind: certConst}}
	case 1:
		cs, _ := r.Univariate(rvars[0])
		x := firstNegative(poly.IntPolyOf(cs))
		switch {
		case x == nil:
			return decision{verdict: Proven, cert: &cert{kind: certUnivar, v: rvars[0]}}
		case x.IsInt64():
			return decision{verdict: Refuted, witness: spread(n, idx, []int64{x.Int64()})}
		}
		return decision{verdict: Undecided, beyond: fmt.Sprintf("%s = %s", rvars[0], x)}
	}
	if w := findWitness(r, nearest); w != nil {
		return decision{verdict: Refuted, witness: spread(n, idx, w)}
	}
	if c := (&prover{budget: proofBudget}).nonneg(r); c != nil {
		return decision{verdict: Proven, cert: c}
	}
	return decision{verdict: Undecided}
}

// proofReason puts a certificate for d = p − q in words.
func proofReason(c *cert, d poly.Poly) string {
	switch c.kind {
	case certZero:
		return "p and q are equal"
	case certConst:
		return fmt.Sprintf("p − q is the constant %s", d)
	case certShift:
		return "every coefficient of p − q is ≥ 0 after x = 1 + y for every variable x"
	case certUnivar:
		return fmt.Sprintf("one-variable test: p − q = %s ≥ 0 for integers %s ≥ 1 (its real roots isolated exactly, its sign checked between them)", d, c.v)
	}
	return fmt.Sprintf("p − q = %s ≥ 0 for dimensions ≥ 1: %s", d, c)
}

// unionUsed returns the variables p or q uses, sorted.
func unionUsed(p, q poly.Poly) []string {
	vars := append(p.Used(), q.Used()...)
	slices.Sort(vars)
	return slices.Compact(vars)
}

// pointString writes a point as "B = 1, T = 2".
func pointString(vars []string, at []int64) string {
	parts := make([]string, len(vars))
	for j, v := range vars {
		parts[j] = fmt.Sprintf("%s = %d", v, at[j])
	}
	if len(parts) == 0 {
		return "every point"
	}
	return strings.Join(parts, ", ")
}
