package dominance

import (
	"math/rand/v2"
	"strings"
	"testing"

	"memsym/poly"
)

// TestDominatesRandom checks every answer on random pairs: a Refuted one
// by its witness, a Proven one at random points, and a one-variable one
// against the integers themselves (where the test is exact, so it must be
// Proven or Refuted, and refuted at the smallest negative integer).
func TestDominatesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[Verdict]int{}
	for range 2000 {
		vars := randomVars(r)
		p, q := randomPoly(r, vars, 1+r.IntN(5)), randomPoly(r, vars, 1+r.IntN(5))
		if r.IntN(3) == 0 { // make domination likely
			q = p.Sub(randomPoly(r, vars, 1+r.IntN(3)))
		}
		got := Dominates(p, q)
		counts[got.Verdict]++
		switch got.Verdict {
		case Refuted:
			checkWitness(t, p, q, got.Witness)
		case Proven:
			for range 50 {
				at := randomPoint(r, vars, 40)
				if exact(t, p, at).Cmp(exact(t, q, at)) < 0 {
					t.Fatalf("Dominates(%s, %s) proven (%s), but %v refutes it", p, q, got.Reason, at)
				}
			}
		}
		if used := p.Sub(q).Used(); len(used) == 1 {
			checkOneVariable(t, p, q, used[0], got)
		}
	}
	if counts[Proven] == 0 || counts[Refuted] == 0 {
		t.Errorf("verdicts %v: the test does not exercise both outcomes", counts)
	}
}

// checkOneVariable compares a one-variable answer with the integers: the
// coefficients are below 40 in size, so every real root is below 41 and the
// sign from 1 to 200 decides.
func checkOneVariable(t *testing.T, p, q poly.Poly, v string, got Answer) {
	t.Helper()
	d := p.Sub(q)
	first := int64(0)
	for x := int64(1); x <= 200 && first == 0; x++ {
		if exact(t, d, map[string]int64{v: x}).Sign() < 0 {
			first = x
		}
	}
	switch {
	case first == 0 && got.Verdict != Proven:
		t.Errorf("Dominates(%s, %s) = %v, want proven: %s ≥ 0 at every integer", p, q, got.Verdict, d)
	case first > 0 && (got.Verdict != Refuted || got.Witness[v] != first):
		t.Errorf("Dominates(%s, %s) = %v at %v, want refuted at %s = %d", p, q, got.Verdict, got.Witness, v, first)
	}
}

// TestUndecidedNeverHangs: polynomials beyond the certificates end
// Undecided or Proven, never Refuted.
func TestUndecidedNeverHangs(t *testing.T) {
	for _, tt := range [][2]string{
		{"B^2 + T^2", "2*B*T"},
		{"B^2*T^4 + B^4*T^2 + 1", "3*B^2*T^2"},
		{"B^4 + T^4 + H^4 + 1", "4*B*T*H"},
		{"B^2*T^2 + T^2*H^2 + H^2*B^2", "B^2*T*H + B*T^2*H + B*T*H^2"},
	} {
		p, q := mustParse(t, tt[0]), mustParse(t, tt[1])
		if got := Dominates(p, q); got.Verdict == Refuted {
			t.Errorf("Dominates(%s, %s) refuted at %v: false witness", p, q, got.Witness)
		}
	}
}

func TestDominates(t *testing.T) {
	tests := []struct {
		p, q   string
		want   Verdict
		reason string           // a part of the reason
		at     map[string]int64 // for Refuted: the witness expected, when it is determined
		maybe  bool             // Undecided is acceptable too (never Refuted)
	}{
		{p: "48*B*T^2 + 12288*B*T + 8*T^2", q: "48*B*T^2 + 12288*B*T + 8*T^2", want: Proven, reason: "equal"},
		{p: "5", q: "3", want: Proven, reason: "constant 2"},
		{p: "3", q: "5", want: Refuted, at: map[string]int64{}},
		{p: "27648*B*T + 8*T^2", q: "27648*B*T", want: Proven, reason: "every coefficient"},
		{p: "B*T^2 + 1", q: "B*T + 1", want: Proven, reason: "every coefficient"},
		{p: "B*T", q: "B + T - 1", want: Proven, reason: "every coefficient"},
		{p: "T^2 + 2", q: "3*T", want: Proven, reason: "one-variable test"},                     // (T−1)(T−2)
		{p: "T^2 + 9", q: "6*T", want: Proven, reason: "one-variable test"},                     // (T−3)²
		{p: "4*T^2 + 9", q: "12*T + 1/10", want: Proven, reason: "one-variable test"},           // (2T−3)² − 1/10 < 0 at 3/2 only
		{p: "T^4 + 35*T^2 + 24", q: "10*T^3 + 50*T", want: Proven, reason: "one-variable test"}, // (T−1)(T−2)(T−3)(T−4)
		{p: "4*T^2 + 439", q: "84*T", want: Refuted, at: map[string]int64{"T": 10}},             // (2T − 21)² − 2
		{p: "1000000000000000*T", q: "T^2", want: Refuted, at: map[string]int64{"T": 1000000000000001}},
		{p: "T", q: "1000000000000000", want: Refuted, at: map[string]int64{"T": 1}},
		{p: "T^2", q: "T^2 + 1", want: Refuted, at: map[string]int64{"T": 1}},
		{p: "B*T^2 + 2*B", q: "3*B*T", want: Proven, reason: "with B = 1 + y"}, // B·(T−1)(T−2)
		{p: "B^2 + T^2", q: "2*B*T", want: Proven, reason: "a·B²"},             // (B − T)²
		{p: "B^2 + T^2 + H^2", q: "2*B*T", want: Proven},
		{p: "144*B*T^2 + 6144*B*T + 8*T^2", q: "48*B*T^2 + 12288*B*T + 8*T^2", want: Refuted, at: map[string]int64{"B": 1, "T": 1}},
		{p: "48*B*T^2 + 12288*B*T + 8*T^2", q: "144*B*T^2 + 6144*B*T + 8*T^2", want: Refuted, at: map[string]int64{"B": 1, "T": 65}},
		{p: "B*T^2 + 603729*B", q: "1554*B*T + 1", want: Refuted, at: map[string]int64{"B": 1, "T": 777}}, // B·(T − 777)² − 1: on a line only
		{p: "B^2*T^4 + B^4*T^2 + 1", q: "3*B^2*T^2", want: Proven, maybe: true},                           // Motzkin's, ≥ 0 everywhere
	}
	for _, tt := range tests {
		p, q := mustParse(t, tt.p), mustParse(t, tt.q)
		got := Dominates(p, q)
		if got.Verdict != tt.want {
			if !tt.maybe || got.Verdict != Undecided {
				t.Errorf("Dominates(%s, %s) = %v (%s), want %v", tt.p, tt.q, got.Verdict, got.Reason, tt.want)
			}
			continue
		}
		if !strings.Contains(got.Reason, tt.reason) {
			t.Errorf("Dominates(%s, %s): reason %q lacks %q", tt.p, tt.q, got.Reason, tt.reason)
		}
		if got.Verdict != Refuted {
			if got.Witness != nil {
				t.Errorf("Dominates(%s, %s) = %v with a witness %v", tt.p, tt.q, got.Verdict, got.Witness)
			}
			continue
		}
		checkWitness(t, p, q, got.Witness)
		for v, x := range tt.at {
			if got.Witness[v] != x {
				t.Errorf("Dominates(%s, %s): witness %v, want %v", tt.p, tt.q, got.Witness, tt.at)
				break
			}
		}
	}
}
