package dominance_test

import (
	"fmt"

	"memsym/dominance"
	"memsym/poly"
)

func parse(s string) poly.Poly {
	p, err := poly.Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// The attention's probabilities against its scores: neither dominates the
// other, and each refutation comes with a point where the other is larger.
// A one-variable difference is decided exactly at the integers: T² − 3·T + 2
// is negative at T = 3/2 but never at an integer.
func ExampleDominates() {
	scores := parse("48*B*T^2 + 12288*B*T + 8*T^2")
	probs := parse("144*B*T^2 + 6144*B*T + 8*T^2")
	fmt.Println(dominance.Dominates(probs, scores).Reason)
	fmt.Println(dominance.Dominates(scores, probs).Reason)
	a := dominance.Dominates(parse("T^2 + 2"), parse("3*T"))
	fmt.Println(a.Verdict, "—", a.Reason)
	// Output:
	// at B = 1, T = 1: q exceeds p by 6048
	// at B = 1, T = 65: q exceeds p by 6240
	// proven — one-variable test: p − q = T² − 3 · T + 2 ≥ 0 for integers T ≥ 1 (its real roots isolated exactly, its sign checked between them)
}

// The course GPT's three peak candidates along T, for every batch size B:
// the feed-forward's holds the peak up to T = 149, the attention's
// probabilities from T = 150 on.
func ExampleAlong() {
	cands := []dominance.Candidate{
		{Poly: parse("48*B*T^2 + 12288*B*T + 8*T^2"), Op: 23},
		{Poly: parse("144*B*T^2 + 6144*B*T + 8*T^2"), Op: 29},
		{Poly: parse("27648*B*T + 8*T^2"), Op: 43},
	}
	f := dominance.Prune(cands)
	c, err := dominance.Along(cands, f.Kept, "T", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("for all B:", c.ForAll)
	for _, s := range c.Segments {
		to := "∞"
		if s.To != 0 {
			to = fmt.Sprint(s.To)
		}
		fmt.Printf("T in [%d, %s]: %s, at operation %d\n", s.From, to, cands[s.Holder].Poly, cands[s.Holder].Op)
	}
	// Output:
	// for all B: true
	// T in [1, 149]: 27648 · B · T + 8 · T², at operation 43
	// T in [150, ∞]: 144 · B · T² + 6144 · B · T + 8 · T², at operation 29
}

// Three live sets at operations 1, 2 and 3. The first is pruned, the
// second exceeding it by (T − 5)², but at T = 5 they tie and the first,
// the earlier operation, is where a recording's peak is: AlongAll names
// it there, where Along, looking at the kept candidates alone, cannot.
func ExampleAlongAll() {
	cands := []dominance.Candidate{
		{Poly: parse("T^2 + 100"), Op: 1},
		{Poly: parse("2*T^2 - 10*T + 125"), Op: 2},
		{Poly: parse("2*T^2 - 20*T + 170"), Op: 3},
	}
	f := dominance.Prune(cands)
	c, err := dominance.AlongAll(cands, f, "T", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.Segments {
		to := "∞"
		if s.To != 0 {
			to = fmt.Sprint(s.To)
		}
		fmt.Printf("T in [%d, %s]: %s, at operation %d\n", s.From, to, cands[s.Holder].Poly, cands[s.Holder].Op)
	}
	// Output:
	// T in [1, 4]: 2 · T² − 20 · T + 170, at operation 3
	// T in [5, 5]: T² + 100, at operation 1
	// T in [6, ∞]: 2 · T² − 10 · T + 125, at operation 2
}

// Prune keeps the candidates no other is proven to dominate, and backs
// "none of which dominates another" with a witness for each ordered pair.
func ExamplePrune() {
	cands := []dominance.Candidate{
		{Poly: parse("27648*B*T")},
		{Poly: parse("48*B*T^2 + 12288*B*T + 8*T^2")},
		{Poly: parse("144*B*T^2 + 6144*B*T + 8*T^2")},
		{Poly: parse("27648*B*T + 8*T^2")},
		{Poly: parse("144*B*T^2 + 6144*B*T")},
	}
	f := dominance.Prune(cands)
	fmt.Println("kept:", f.Kept)
	fmt.Println("pruned:", f.PrunedBy)
	fmt.Println("undecided:", len(f.Undecided))
	w, _ := f.Witness(2, 3)
	fmt.Println("2 does not dominate 3 at", w)
	// Output:
	// kept: [1 2 3]
	// pruned: map[0:3 4:2]
	// undecided: 0
	// 2 does not dominate 3 at map[B:1 T:1]
}
