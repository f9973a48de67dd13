package dominance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"memsym/poly"
)

// opCands returns candidates with the given polynomials and operations.
func opCands(t testing.TB, polys []string, ops []int) []Candidate {
	cs := candidates(t, polys...)
	for i := range cs {
		cs[i].Op = ops[i]
	}
	return cs
}

func TestAlongAll(t *testing.T) {
	tests := []struct {
		name   string
		cands  []string
		ops    []int
		fixed  map[string]int64
		forAll bool
		want   []Segment
	}{
		{
			// Operation 1 is pruned by operation 2, (T − 5)² ≥ 0, but ties
			// it at T = 5, where it is the first to reach the peak.
			name:  "a pruned candidate ties the holder at an earlier operation",
			cands: []string{"T^2 + 100", "2*T^2 - 10*T + 125", "2*T^2 - 20*T + 170"}, ops: []int{1, 2, 3},
			want: []Segment{{From: 1, To: 4, Holder: 2}, {From: 5, To: 5, Holder: 0}, {From: 6, Holder: 1}},
		},
		{
			name:  "the same for every B",
			cands: []string{"B*T^2 + 100*B", "2*B*T^2 - 10*B*T + 125*B", "2*B*T^2 - 20*B*T + 170*B"}, ops: []int{1, 2, 3},
			forAll: true,
			want:   []Segment{{From: 1, To: 4, Holder: 2}, {From: 5, To: 5, Holder: 0}, {From: 6, Holder: 1}},
		},
		{
			name:  "the same at B = 7",
			cands: []string{"B*T^2 + 100*B", "2*B*T^2 - 10*B*T + 125*B", "2*B*T^2 - 20*B*T + 170*B"}, ops: []int{1, 2, 3},
			fixed: map[string]int64{"B": 7},
			want:  []Segment{{From: 1, To: 4, Holder: 2}, {From: 5, To: 5, Holder: 0}, {From: 6, Holder: 1}},
		},
		{
			name:  "a tie with a later pruned candidate changes nothing",
			cands: []string{"T^2 + 100", "2*T^2 - 10*T + 125", "2*T^2 - 20*T + 170"}, ops: []int{9, 2, 3},
			want: []Segment{{From: 1, To: 4, Holder: 2}, {From: 5, Holder: 1}},
		},
		{
			// Prune keeps the first of two equal candidates, index 0; the
			// other is at an earlier operation and holds wherever they do.
			// T² ties 3·T at T = 3, where operation 1 is the earliest.
			name:  "equal candidates: the earlier operation holds",
			cands: []string{"3*T", "T^2", "3*T"}, ops: []int{5, 2, 1},
			want: []Segment{{From: 1, To: 3, Holder: 2}, {From: 4, Holder: 1}},
		},
		{
			name:  "kept candidates tied: the earlier operation, not the lower index",
			cands: []string{"T^2", "10*T - 16"}, ops: []int{7, 3}, // equal at T = 2 and T = 8
			want: []Segment{{From: 1, To: 1, Holder: 0}, {From: 2, To: 8, Holder: 1}, {From: 9, Holder: 0}},
		},
		{
			// Operation 1 is below operation 2 by B·T + T − 1 ≥ 1, which is
			// no product g·h: never a tie, for every B. Operations 2 and 3
			// tie at T = 51.
			name:  "a pruned candidate that never ties, its gap not separable",
			cands: []string{"B*T^2 - B*T - T + 1", "B*T^2", "51*B*T"}, ops: []int{1, 2, 3},
			forAll: true,
			want:   []Segment{{From: 1, To: 50, Holder: 2}, {From: 51, Holder: 1}},
		},
		{
			name:  "a dimension no candidate uses",
			cands: []string{"T^2 + 100", "2*T^2 - 10*T + 125", "2*T^2 - 20*T + 170"}, ops: []int{1, 2, 3},
			fixed: map[string]int64{"B": 3},
			want:  []Segment{{From: 1, To: 4, Holder: 2}, {From: 5, To: 5, Holder: 0}, {From: 6, Holder: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := opCands(t, tt.cands, tt.ops)
			got, err := AlongAll(cands, Prune(cands), "T", tt.fixed)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if !slices.Equal(got.Segments, want) || got.ForAll != tt.forAll || got.Dim != "T" {
				t.Fatalf("AlongAll = %+v, want segments %v, for all %v", got, want, tt.forAll)
			}
			free := []map[string]int64{tt.fixed}
			if tt.forAll {
				free = []map[string]int64{{"B": 1}, {"B": 2}, {"B": 1000}}
			}
			for _, at := range free {
				checkAll(t, cands, got.Segments, "T", at, 300)
			}
		})
	}
}

// TestAlongAllDepends: where a pruned candidate ties the largest for some
// values of a free dimension only, AlongAll asks for a value.
func TestAlongAllDepends(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		ops   []int
		vars  []string
	}{
		{
			// T² + 100·B − (B − 1)·(T − 5)² ties T² + 100·B at every T
			// when B = 1, and at T = 5 otherwise.
			name:  "a tie everywhere at B = 1 only",
			cands: []string{"T^2 + 100*B - B*T^2 + 10*B*T - 25*B + T^2 - 10*T + 25", "T^2 + 100*B"}, ops: []int{1, 2},
			vars: []string{"B"},
		},
		{
			name:  "T² + (B − 1)(T − 10) against T², both kept",
			cands: []string{"T^2", "T^2 + B*T - 10*B - T + 10"}, ops: []int{1, 2},
			vars: []string{"B"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := opCands(t, tt.cands, tt.ops)
			front := Prune(cands)
			_, err := AlongAll(cands, front, "T", nil)
			var dep *DependsError
			if !errors.As(err, &dep) || !slices.Equal(dep.Vars, tt.vars) || dep.Dim != "T" {
				t.Fatalf("kept %v: error %v, want a DependsError on %v", front.Kept, err, tt.vars)
			}
			// At a value of B the answer is exact.
			for _, b := range []int64{1, 2, 5} {
				fixed := map[string]int64{"B": b}
				got, err := AlongAll(cands, front, "T", fixed)
				if err != nil {
					t.Fatalf("B = %d: %v", b, err)
				}
				checkAll(t, cands, got.Segments, "T", fixed, 300)
			}
		})
	}
}

func TestAlongAllErrors(t *testing.T) {
	cands := candidates(t, gpt...)
	for _, tt := range []struct {
		front *Frontier
		fixed map[string]int64
		want  string
	}{
		{nil, nil, "along T: no frontier"},
		{&Frontier{}, nil, "along T: no candidates"},
		{&Frontier{Kept: []int{0, 3}}, nil, "along T: candidate 3 does not exist (there are 3)"},
		{&Frontier{Kept: []int{0, 0}}, nil, "along T: candidate 0 is kept twice"},
		{&Frontier{Kept: []int{0}}, map[string]int64{"T": 2}, "along T: T is the dimension walked along, so it cannot be fixed too"},
		{&Frontier{Kept: []int{0}}, map[string]int64{"B": 0}, "along T: B = 0, but dimensions are integers ≥ 1"},
		{&Frontier{Kept: []int{0}, PrunedBy: map[int]int{1: 0}}, nil, "along T: candidate 2 is neither kept nor pruned by a chain to a kept one"},
		{&Frontier{Kept: []int{0}, PrunedBy: map[int]int{1: 2, 2: 1}}, nil, "along T: candidate 1 is neither kept nor pruned by a chain to a kept one"},
	} {
		if _, err := AlongAll(cands, tt.front, "T", tt.fixed); err == nil || err.Error() != tt.want {
			t.Errorf("AlongAll(%+v, %v): error %v, want %q", tt.front, tt.fixed, err, tt.want)
		}
	}
}

// bruteHolder returns the candidate holding the peak at the point, by
// evaluating all of them: the largest, of those tied the earliest
// operation, of those the lowest index.
func bruteHolder(t testing.TB, cands []Candidate, at map[string]int64) int {
	best := -1
	var bestV poly.Rat
	for i, c := range cands {
		v := exact(t, c.Poly, at)
		if best < 0 {
			best, bestV = i, v
			continue
		}
		switch s := v.Cmp(bestV); {
		case s > 0, s == 0 && c.Op < cands[best].Op:
			best, bestV = i, v
		}
	}
	return best
}

// checkAll checks every integer of dim from 1 to n against bruteHolder, the
// other dimensions at at (which it does not keep).
func checkAll(t testing.TB, cands []Candidate, segs []Segment, dim string, at map[string]int64, n int64) {
	t.Helper()
	if len(segs) == 0 || segs[0].From != 1 || segs[len(segs)-1].To != 0 {
		t.Fatalf("segments %v do not cover %s ≥ 1", segs, dim)
	}
	for k := 1; k < len(segs); k++ {
		if segs[k].From != segs[k-1].To+1 || segs[k].Holder == segs[k-1].Holder || segs[k-1].To < segs[k-1].From {
			t.Fatalf("segments %v: not consecutive or not merged", segs)
		}
	}
	pt := map[string]int64{}
	for v, y := range at {
		pt[v] = y
	}
	k := 0
	for x := int64(1); x <= n; x++ {
		for segs[k].To != 0 && x > segs[k].To {
			k++
		}
		pt[dim] = x
		if h := bruteHolder(t, cands, pt); h != segs[k].Holder {
			var ps []string
			for _, c := range cands {
				ps = append(ps, fmt.Sprintf("%s (op %d)", c.Poly, c.Op))
			}
			t.Fatalf("candidates %q: at %v candidate %d holds the peak, the segments %v say %d", ps, pt, h, segs, segs[k].Holder)
		}
	}
}

// TestAlongAllRandom compares AlongAll with the brute force at every T from
// 1 to 200, on random small sets with many ties: pruned candidates that
// touch a kept one at integers ((T − a)², (T − a)(T − a − 1)), copies,
// kept ones that cross at integers, all at shuffled operations. Half the
// sets are p_i(T)·(B + 2·H) + c(B, T, H), checked at several B and H.
func TestAlongAllRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	factor := mustParse(t, "B + 2*H")
	tt := mustParse(t, "T")
	sets := 300
	if testing.Short() {
		sets = 60
	}
	for trial := range sets {
		var ps []poly.Poly
		for range 1 + r.IntN(3) {
			ps = append(ps, randomPoly(r, []string{"T"}, 1+r.IntN(3)))
		}
		for range r.IntN(6) {
			base := ps[r.IntN(len(ps))]
			a := poly.Const(poly.Int(1 + r.Int64N(20)))
			c := poly.Int(1 + r.Int64N(3))
			var p poly.Poly
			switch r.IntN(5) {
			case 0: // touches base at T = a
				p = base.Sub(tt.Sub(a).Pow(2).Scale(c))
			case 1: // touches base at T = a and a + 1
				p = base.Sub(tt.Sub(a).Mul(tt.Sub(a).Sub(poly.Const(poly.Int(1)))).Scale(c))
			case 2: // crosses base at T = a and b
				b := poly.Const(poly.Int(1 + r.Int64N(20)))
				p = base.Add(tt.Sub(a).Mul(tt.Sub(b)).Scale(c))
			case 3:
				p = base
			default:
				p = base.Sub(poly.Const(c))
			}
			ps = append(ps, p)
		}
		forAll := trial%2 == 1
		common := randomPoly(r, []string{"B", "T", "H"}, 3)
		ops := r.Perm(len(ps))
		cands := make([]Candidate, len(ps))
		for i, p := range ps {
			if forAll {
				p = p.Mul(factor).Add(common)
			}
			cands[i] = Candidate{Poly: p, Op: 10 * ops[i]}
		}
		got, err := AlongAll(cands, Prune(cands), "T", nil)
		if err != nil {
			t.Fatalf("set %d: %v", trial, err)
		}
		points := []map[string]int64{{}}
		if forAll {
			points = []map[string]int64{{"B": 1, "H": 1}, {"B": 5, "H": 1}, {"B": 1, "H": 9}, {"B": 300, "H": 77}}
		}
		if got.ForAll && !forAll {
			t.Fatalf("set %d: ForAll without a free dimension", trial)
		}
		for _, at := range points {
			checkAll(t, cands, got.Segments, "T", at, 200)
		}
	}
}
