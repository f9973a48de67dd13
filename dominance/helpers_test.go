package dominance

import (
	"math/rand/v2"
	"testing"

	"memsym/poly"
)

// mustParse parses a polynomial written in a test.
func mustParse(t testing.TB, s string) poly.Poly {
	t.Helper()
	p, err := poly.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return p
}

// exact returns p at the point, exactly.
func exact(t testing.TB, p poly.Poly, at map[string]int64) poly.Rat {
	t.Helper()
	v, err := p.EvalInt(at)
	if err != nil {
		t.Fatalf("eval %s at %v: %v", p, at, err)
	}
	return v
}

// checkWitness fails unless w is a point, every variable of p and q at a
// value ≥ 1, where q > p exactly.
func checkWitness(t testing.TB, p, q poly.Poly, w map[string]int64) {
	t.Helper()
	for _, v := range append(p.Used(), q.Used()...) {
		x, ok := w[v]
		if !ok || x < 1 {
			t.Fatalf("witness %v for %s ≥ %s: %s missing or < 1", w, p, q, v)
		}
	}
	if exact(t, q, w).Cmp(exact(t, p, w)) <= 0 {
		t.Fatalf("false witness %v: %s does not exceed %s there", w, q, p)
	}
}

// randomPoly returns a polynomial in some of vars, degree ≤ 2 in each,
// with small integer coefficients, mostly positive.
func randomPoly(r *rand.Rand, vars []string, terms int) poly.Poly {
	var ts []poly.Term
	for range terms {
		exp := make([]int, len(vars))
		for j := range exp {
			exp[j] = r.IntN(3)
		}
		ts = append(ts, poly.Term{Coef: poly.Int(int64(r.IntN(25) - 6)), Exp: exp})
	}
	return poly.New(vars, ts)
}

// randomVars returns 1 to 3 of B, T, H.
func randomVars(r *rand.Rand) []string {
	all := []string{"B", "T", "H"}
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:1+r.IntN(3)]
}

// randomPoint returns a point with every variable in [1, hi].
func randomPoint(r *rand.Rand, vars []string, hi int64) map[string]int64 {
	at := map[string]int64{}
	for _, v := range vars {
		at[v] = 1 + r.Int64N(hi)
	}
	return at
}
