package dominance

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"memsym/poly"
)

// gpt are the course GPT's three peak candidates (the seed's), in B and T.
var gpt = []string{
	"48*B*T^2 + 12288*B*T + 8*T^2",
	"144*B*T^2 + 6144*B*T + 8*T^2",
	"27648*B*T + 8*T^2",
}

// llama are the decoder block's four (the reference programs').
var llama = []string{
	"81920*B*T + 4*T^2 + 16384*T",
	"128*B*T^2 + 65536*B*T + 4*T^2",
	"256*B*T^2 + 32768*B*T + 4*T^2",
	"148480*B*T",
}

func candidates(t testing.TB, ss ...string) []Candidate {
	cs := make([]Candidate, len(ss))
	for i, s := range ss {
		cs[i] = Candidate{Poly: mustParse(t, s), Op: i}
	}
	return cs
}

// checkFrontier checks the claims a Frontier makes: each pruning has a
// proof, each kept pair a witness (checked exactly) or an undecided entry.
func checkFrontier(t *testing.T, cands []Candidate, f *Frontier) {
	t.Helper()
	if len(f.Kept)+len(f.PrunedBy) != len(cands) {
		t.Fatalf("%d kept and %d pruned of %d candidates", len(f.Kept), len(f.PrunedBy), len(cands))
	}
	if !slices.IsSorted(f.Kept) {
		t.Errorf("kept %v not ascending", f.Kept)
	}
	for i, by := range f.PrunedBy {
		if slices.Contains(f.Kept, i) {
			t.Errorf("candidate %d both kept and pruned", i)
		}
		if a := Dominates(cands[by].Poly, cands[i].Poly); a.Verdict != Proven {
			t.Errorf("candidate %d pruned by %d, but Dominates says %v: %s", i, by, a.Verdict, a.Reason)
		}
	}
	undecided := map[[2]int]bool{}
	for _, u := range f.Undecided {
		undecided[u] = true
	}
	for _, i := range f.Kept {
		for _, j := range f.Kept {
			if i == j || undecided[[2]int{min(i, j), max(i, j)}] {
				continue
			}
			w, ok := f.Witness(i, j)
			if !ok {
				t.Errorf("kept %d and %d: no witness that %d does not dominate %d", i, j, i, j)
				continue
			}
			checkWitness(t, cands[i].Poly, cands[j].Poly, w)
		}
	}
}

func TestPruneSeed(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		kept  []int
	}{
		{"gpt", gpt, []int{0, 1, 2}},
		{"llama", llama, []int{0, 1, 2, 3}},
		{"gpt with dominated live sets and duplicates", []string{
			"27648*B*T", gpt[0], "27648*B*T + 8*T^2 - 1", gpt[1], gpt[2], gpt[1],
			"144*B*T^2 + 6144*B*T", "40*B*T^2 + 12288*B*T + 8*T^2", "96*B*T^2 + 8*T^2 + 1",
		}, []int{1, 3, 4}},
		{"equal candidates keep the first", []string{"B*T", "2*B", "B*T", "B*T - 1"}, []int{0, 1}},
		{"(T−1)(T−2): needs the one-variable test", []string{"3*T", "T^2 + 2", "B"}, []int{1, 2}},
		{"empty", nil, nil},
		{
			// f − j = (B − 2T − 2)² + B·(T − 1)·(T − 2) is beyond the
			// certificates, but f − k and k − j are not: j is pruned by k.
			"a pruned candidate dominates a frontier member",
			[]string{"B*T", chainK, chainF}, []int{2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := candidates(t, tt.cands...)
			f := Prune(cands)
			if !slices.Equal(f.Kept, tt.kept) {
				t.Errorf("kept %v, want %v", f.Kept, tt.kept)
			}
			if len(f.Undecided) > 0 {
				t.Errorf("undecided %v, want none", f.Undecided)
			}
			checkFrontier(t, cands, f)
		})
	}
}

// chainK and chainF are B·T plus B·(T − 1)·(T − 2), and plus (B − 2T − 2)²
// besides.
const (
	chainK = "B*T + B*T^2 - 3*B*T + 2*B"
	chainF = chainK + " + B^2 - 4*B*T + 4*T^2 - 4*B + 8*T + 4"
)

func TestPruneChain(t *testing.T) {
	j, k, f := mustParse(t, "B*T"), mustParse(t, chainK), mustParse(t, chainF)
	if a := Dominates(f, j); a.Verdict != Undecided {
		t.Fatalf("Dominates(f, j) = %v: the test no longer needs the recheck", a.Verdict)
	}
	if Dominates(f, k).Verdict != Proven || Dominates(k, j).Verdict != Proven {
		t.Fatal("f ≥ k ≥ j is no longer proven link by link")
	}
	fr := Prune(candidates(t, "B*T", chainK, chainF))
	if by, ok := fr.PrunedBy[0]; !ok || by != 1 {
		t.Errorf("pruned by %v, want candidate 0 pruned by 1", fr.PrunedBy)
	}
}

// TestPruneWideFrontier prunes a frontier as wide as a training step's,
// whose pairs are decided on several cores at once: 80 candidates k·B·T +
// (80 − k)·T², none dominating another, among 80 that each is proven to
// dominate (k·B·T + (80 − k)·T − 1, smaller at every point).
func TestPruneWideFrontier(t *testing.T) {
	const n = 80
	var ss []string
	for k := 1; k <= n; k++ {
		ss = append(ss, fmt.Sprintf("%d*B*T + %d*T^2", k, n+1-k))
	}
	for k := 1; k <= n; k++ {
		ss = append(ss, fmt.Sprintf("%d*B*T + %d*T - 1", k, n+1-k))
	}
	cands := candidates(t, ss...)
	f := Prune(cands)
	checkFrontier(t, cands, f)
	if len(f.Kept) != n || f.Kept[0] != 0 || f.Kept[n-1] != n-1 {
		t.Fatalf("kept %d candidates (%v…), want the %d of the frontier", len(f.Kept), f.Kept[:min(4, len(f.Kept))], n)
	}
	if w := witnessCount(f); len(f.Undecided) != 0 || w != n*(n-1) {
		t.Errorf("%d undecided pairs and %d witnesses, want 0 and %d", len(f.Undecided), w, n*(n-1))
	}
}

// TestPruneWideFrontierLarge is TestPruneWideFrontier where half the
// members' shifted coefficients overflow int64 and half do not, so that
// the cores deciding the pairs compare dense and exact forms together.
func TestPruneWideFrontierLarge(t *testing.T) {
	const n = 40
	var ss []string
	for k := 1; k <= n; k++ {
		// Shifted, the constant passes 2^63 − 1: no dense form.
		ss = append(ss, fmt.Sprintf("%d*B*T + %d*T^2 + 9223372036854775800", k, n+1-k))
		ss = append(ss, fmt.Sprintf("%d*B^2*T + %d*B*T^2", k, n+1-k))
	}
	cands := candidates(t, ss...)
	f := Prune(cands)
	checkFrontier(t, cands, f)
	if len(f.Kept) != 2*n {
		t.Errorf("kept %d candidates, want all %d: none dominates another", len(f.Kept), 2*n)
	}
}

// TestPruneUndecidedOneWay: a pair is undecided when either direction is,
// here f ≥ j (beyond the certificates) while j ≥ f is refuted.
func TestPruneUndecidedOneWay(t *testing.T) {
	j, f := mustParse(t, "B*T"), mustParse(t, chainF)
	if Dominates(f, j).Verdict != Undecided || Dominates(j, f).Verdict != Refuted {
		t.Fatal("f ≥ j is no longer undecided, or j ≥ f no longer refuted: the test needs another pair")
	}
	cands := candidates(t, "B*T", chainF)
	fr := Prune(cands)
	if !slices.Equal(fr.Kept, []int{0, 1}) || !slices.Equal(fr.Undecided, [][2]int{{0, 1}}) {
		t.Fatalf("kept %v, undecided %v; want both kept and the pair undecided", fr.Kept, fr.Undecided)
	}
	if _, ok := fr.Witness(1, 0); ok || witnessCount(fr) != 1 {
		t.Errorf("%d witnesses, want one, for (0, 1) only", witnessCount(fr))
	}
	if _, ok := fr.Witness(0, 1); !ok {
		t.Error("no witness for (0, 1)")
	}
	checkFrontier(t, cands, fr)
}

// naiveKept is the reference: every pair compared with Dominates; a
// candidate is kept unless another is proven to dominate it (of equal
// ones, the first is kept).
func naiveKept(cands []Candidate) []int {
	var kept []int
	for j := range cands {
		pruned := false
		for i := range cands {
			if i == j {
				continue
			}
			if Dominates(cands[i].Poly, cands[j].Poly).Verdict == Proven {
				if i < j || !cands[i].Poly.Equal(cands[j].Poly) {
					pruned = true
					break
				}
			}
		}
		if !pruned {
			kept = append(kept, j)
		}
	}
	return kept
}

// randomCandidates returns n candidates in 1 to 3 variables: a few random
// ones, the rest each a random one minus or plus small terms, some copies.
func randomCandidates(r *rand.Rand, n int) []Candidate {
	vars := randomVars(r)
	var cs []Candidate
	for len(cs) < n {
		var p poly.Poly
		switch k := r.IntN(10); {
		case len(cs) < 3 || k < 3:
			p = randomPoly(r, vars, 1+r.IntN(5))
		case k < 8:
			p = cs[r.IntN(len(cs))].Poly.Sub(randomPoly(r, vars, 1+r.IntN(3)))
		default:
			p = cs[r.IntN(len(cs))].Poly
		}
		cs = append(cs, Candidate{Poly: p, Op: len(cs)})
	}
	return cs
}

// TestPruneProperty checks Prune on random candidate sets against the
// naive reference and against the integers: no pruned candidate exceeds
// every kept one at any of many random points.
func TestPruneProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sets, points := 40, 10000 // 10⁴ points for the first few sets, 500 for the rest
	if testing.Short() {
		sets, points = 10, 1000
	}
	for s := range sets {
		if s == 4 {
			points = 500
		}
		cands := randomCandidates(r, 5+r.IntN(20))
		f := Prune(cands)
		checkFrontier(t, cands, f)
		if want := naiveKept(cands); !slices.Equal(f.Kept, want) {
			t.Fatalf("set %d: kept %v, the naive reference keeps %v", s, f.Kept, want)
		}
		var vars []string
		for _, c := range cands {
			vars = append(vars, c.Poly.Used()...)
		}
		for range points {
			at := randomPoint(r, vars, []int64{3, 30, 1000}[r.IntN(3)])
			var best poly.Rat
			for k, i := range f.Kept {
				if v := exact(t, cands[i].Poly, at); k == 0 || v.Cmp(best) > 0 {
					best = v
				}
			}
			for i := range f.PrunedBy {
				if v := exact(t, cands[i].Poly, at); v.Cmp(best) > 0 {
					t.Fatalf("set %d: pruned candidate %d (%s) exceeds every kept one at %v", s, i, cands[i].Poly, at)
				}
			}
		}
	}
}

// benchCandidates returns n candidates like a long program's live sets in B
// and T: a frontier of a dozen that do not dominate one another (16·k·B·T²
// + 4096·(13 − k)·B·T + 8·T², which cross at T = 256) and the GPT's, and
// the rest each one of these less some buffers, some in ways only the
// one-variable test proves.
func benchCandidates(b testing.TB, n int) []Candidate {
	r := rand.New(rand.NewPCG(5, 6))
	var frontier []string
	for k := 1; k <= 12; k++ {
		frontier = append(frontier, fmt.Sprintf("%d*B*T^2 + %d*B*T + 8*T^2", 16*k, 4096*(13-k)))
	}
	base := candidates(b, append(frontier, gpt...)...)
	monos := candidates(b, "B*T^2", "B*T", "T^2", "T", "B", "1", "B*T^2 - 3*B*T + 2*B", "T^2 - 3*T + 2")
	cs := make([]Candidate, 0, n)
	cs = append(cs, base...)
	for len(cs) < n {
		p := base[r.IntN(len(base))].Poly
		for range 1 + r.IntN(3) {
			m := monos[r.IntN(len(monos))].Poly
			p = p.Sub(m.Scale(poly.Int(1 + r.Int64N(64))))
		}
		cs = append(cs, Candidate{Poly: p, Op: len(cs)})
	}
	r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	return cs
}

func BenchmarkPrune(b *testing.B) {
	cands := benchCandidates(b, 100_000)
	b.ResetTimer()
	for b.Loop() {
		f := Prune(cands)
		if len(f.Kept) == 0 || len(f.Kept) > 20 {
			b.Fatalf("kept %d", len(f.Kept))
		}
	}
}

// witnessCount counts the frontier's witnesses.
func witnessCount(f *Frontier) int {
	n := 0
	for range f.Witnesses() {
		n++
	}
	return n
}

// TestFrontierWitnesses checks the frontier's witnesses as a caller reads
// them: one per ordered pair of Kept, each a point where the second is the
// larger, none for other pairs, and moved with the caller's domain.
func TestFrontierWitnesses(t *testing.T) {
	cands := candidates(t, "2*B", "3*T", "B + T + 100000")
	f := Prune(cands)
	if !slices.Equal(f.Kept, []int{0, 1, 2}) || len(f.Undecided) != 0 {
		t.Fatalf("kept %v, undecided %v", f.Kept, f.Undecided)
	}
	var pairs [][2]int
	for pair, w := range f.Witnesses() {
		pairs = append(pairs, pair)
		checkWitness(t, cands[pair[0]].Poly, cands[pair[1]].Poly, w)
		if got, ok := f.Witness(pair[0], pair[1]); !ok || !maps.Equal(got, w) {
			t.Errorf("Witness%v = %v, %v; Witnesses gave %v", pair, got, ok, w)
		}
	}
	want := [][2]int{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}
	if !slices.Equal(pairs, want) {
		t.Errorf("pairs %v, want %v", pairs, want)
	}
	for range f.Witnesses() {
		break // stopping early must not panic
	}
	for _, pair := range [][2]int{{0, 0}, {0, 3}, {7, 1}} {
		if w, ok := f.Witness(pair[0], pair[1]); ok {
			t.Errorf("Witness%v = %v for a pair that is not of Kept", pair, w)
		}
	}
	before, _ := f.Witness(1, 0)
	f.MoveWitnesses(map[string]int64{"B": 5})
	after, _ := f.Witness(1, 0)
	if after["B"] != before["B"]+5 || after["T"] != before["T"] {
		t.Errorf("moved by B + 5: %v became %v", before, after)
	}
}

// TestFrontierWitnessesOwnKept checks that a frontier's witnesses follow
// Kept as Prune made it, whatever a caller does to Kept afterwards, and
// that a Frontier made by hand has none.
func TestFrontierWitnessesOwnKept(t *testing.T) {
	f := Prune(candidates(t, "2*B", "3*T", "B + T + 100000"))
	before := witnessCount(f)
	f.Kept = f.Kept[:1]
	if n := witnessCount(f); n != before || before != 6 {
		t.Errorf("%d witnesses after Kept was cut, %d before; want 6", n, before)
	}
	for _, g := range []*Frontier{{}, {Kept: []int{0, 1, 2}}} {
		if n := witnessCount(g); n != 0 {
			t.Errorf("a Frontier made by hand has %d witnesses", n)
		}
		if w, ok := g.Witness(0, 1); ok {
			t.Errorf("a Frontier made by hand has a witness %v", w)
		}
		g.MoveWitnesses(map[string]int64{"B": 1}) // nothing to move, and no panic
	}
}
