package dominance

import (
	"testing"

	"memsym/poly"
)

// TestDescentFindsBowlWitness: a pair whose difference is negative only near
// the bottom of a bowl, away from every round value, is refuted with a
// witness there, checked exactly.
func TestDescentFindsBowlWitness(t *testing.T) {
	for _, tt := range []struct{ p, q string }{
		{"11*B*H*T + 10*B^2 + 10*T^2 - 65*B - 480*T + 5843", "11*B*H*T - 5*B - 5"},
		{"10*B^2 + 10*T^2 - 60*B - 480*T + 5848", "0"}, // 10(B−3)² + 10(T−24)² − 2
		{"T^2 - 2*T*B + B^2 + 1", "1"},                 // p − q = (T − B)² ≥ 0: must not be refuted
	} {
		p, q := mustParse(t, tt.p), mustParse(t, tt.q)
		a := Dominates(p, q)
		if a.Verdict == Refuted {
			pv, _ := p.EvalInt(a.Witness)
			qv, _ := q.EvalInt(a.Witness)
			if qv.Cmp(pv) <= 0 {
				t.Errorf("Dominates(%s, %s): witness %v does not refute: p = %s, q = %s", p, q, a.Witness, pv, qv)
			}
		}
		if tt.q == "1" {
			if a.Verdict == Refuted {
				t.Errorf("Dominates(%s, %s) = Refuted, but p ≥ q at every integer point", p, q)
			}
			continue
		}
		if a.Verdict != Refuted {
			t.Errorf("Dominates(%s, %s) = %v (%s), want Refuted", p, q, a.Verdict, a.Reason)
		}
	}
}

func TestLowestInteger(t *testing.T) {
	for _, tt := range []struct {
		c    []int64
		want int64
		ok   bool
	}{
		{[]int64{5848, -480, 10}, 24, true}, // vertex at 24
		{[]int64{0, -7, 2}, 2, true},        // vertex 1.75: 2 is lower than 1
		{[]int64{0, -5, 2}, 1, true},        // vertex 1.25: 1 (−3) is lower than 2 (−2)
		{[]int64{0, 3, 1}, 1, true},         // vertex below 1
		{[]int64{4, 1}, 1, true},            // rising line
		{[]int64{4, -1}, 0, false},          // falling line: no least value
		{[]int64{0, 0, -1}, 0, false},       // opening downwards
		{[]int64{1, 0, 0, 1}, 0, false},     // cubic
	} {
		cs := make([]poly.Rat, len(tt.c))
		for i, x := range tt.c {
			cs[i] = poly.Int(x)
		}
		got, ok := lowestInteger(cs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("lowestInteger(%v) = %d, %v; want %d, %v", tt.c, got, ok, tt.want, tt.ok)
		}
	}
}
