package dominance

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"memsym/poly"
)

func TestAlong(t *testing.T) {
	tests := []struct {
		name   string
		cands  []string
		kept   []int
		dim    string
		fixed  map[string]int64
		forAll bool
		want   []Segment
	}{
		{
			name: "gpt at the course constants, for all B", cands: gpt, kept: []int{0, 1, 2}, dim: "T", forAll: true,
			want: []Segment{{From: 1, To: 149, Holder: 2}, {From: 150, Holder: 1}},
		},
		{
			name: "gpt at B = 16", cands: gpt, kept: []int{0, 1, 2}, dim: "T", fixed: map[string]int64{"B": 16},
			want: []Segment{{From: 1, To: 149, Holder: 2}, {From: 150, Holder: 1}},
		},
		{
			name: "D = 64: the feed-forward until the attention takes over at T = 75", dim: "T", forAll: true,
			cands: []string{"4608*B*T + 8*T^2", "48*B*T^2 + 1024*B*T + 8*T^2"}, kept: []int{0, 1},
			want: []Segment{{From: 1, To: 74, Holder: 0}, {From: 75, Holder: 1}},
		},
		{
			name: "a tie at an integer holds for the lower index", dim: "T",
			cands: []string{"T^2", "10*T - 16"}, kept: []int{1, 0}, // equal at T = 2 and T = 8
			want: []Segment{{From: 1, To: 2, Holder: 0}, {From: 3, To: 7, Holder: 1}, {From: 8, Holder: 0}},
		},
		{
			name: "a crossover between integers", dim: "T",
			cands: []string{"T^2", "3*T + 1"}, kept: []int{0, 1}, // T² = 3T + 1 at 3.30…
			want: []Segment{{From: 1, To: 3, Holder: 1}, {From: 4, Holder: 0}},
		},
		{
			name: "one candidate", dim: "B", cands: []string{"B*T"}, kept: []int{0}, forAll: true,
			want: []Segment{{From: 1, Holder: 0}},
		},
		{
			name: "a dimension no candidate uses", dim: "L", cands: gpt, kept: []int{0, 1, 2}, fixed: map[string]int64{"B": 1, "T": 100},
			want: []Segment{{From: 1, Holder: 2}},
		},
		{
			name: "a sign held by a free factor of negative sign", dim: "T", forAll: true,
			cands: []string{"B*T^2 + 100", "2*B*T^2 + 100 - 10*B*T"}, kept: []int{0, 1}, // difference −B·T·(T − 10)
			want: []Segment{{From: 1, To: 10, Holder: 0}, {From: 11, Holder: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := candidates(t, tt.cands...)
			got, err := Along(cands, tt.kept, tt.dim, tt.fixed)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Segments, tt.want) || got.ForAll != tt.forAll || got.Dim != tt.dim {
				t.Fatalf("Along = %+v, want segments %v, for all %v", got, tt.want, tt.forAll)
			}
			checkSegments(t, cands, tt.kept, got, 3)
		})
	}
}

// checkSegments checks the holders against exact values: at each segment's
// ends and around them, the other dimensions free ones at a few values.
func checkSegments(t *testing.T, cands []Candidate, kept []int, got *Crossovers, free int64) {
	t.Helper()
	var others []string
	for _, i := range kept {
		for _, v := range cands[i].Poly.Used() {
			if _, ok := got.Fixed[v]; !ok && v != got.Dim {
				others = append(others, v)
			}
		}
	}
	for _, s := range got.Segments {
		xs := []int64{s.From, s.From + 1, s.From + 1000}
		if s.To != 0 {
			xs = []int64{s.From, (s.From + s.To) / 2, s.To}
		}
		for _, x := range xs {
			for f := int64(1); f <= free; f++ {
				at := map[string]int64{got.Dim: x}
				for v, y := range got.Fixed {
					at[v] = y
				}
				for _, v := range others {
					at[v] = f * f * 7
				}
				if h := holder(t, cands, kept, at); h != s.Holder {
					t.Fatalf("at %v candidate %d holds the peak, not %d (segment %+v)", at, h, s.Holder, s)
				}
			}
		}
	}
}

// holder returns the kept candidate largest at the point, the lowest index
// of those tied, exactly.
func holder(t *testing.T, cands []Candidate, kept []int, at map[string]int64) int {
	best := -1
	var bestV poly.Rat
	for _, i := range slices.Sorted(slices.Values(kept)) {
		if v := exact(t, cands[i].Poly, at); best < 0 || v.Cmp(bestV) > 0 {
			best, bestV = i, v
		}
	}
	return best
}

func TestAlongErrors(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		kept  []int
		dim   string
		fixed map[string]int64
		want  string
		vars  []string // for a *DependsError
	}{
		{name: "the decoder block needs B", cands: llama, kept: []int{0, 1, 2, 3}, dim: "T",
			want: "along T the candidate holding the peak may depend on B: give a value for B", vars: []string{"B"}},
		{name: "two free dimensions", cands: []string{"B*T + H", "2*T"}, kept: []int{0, 1}, dim: "T",
			want: "may depend on B, H", vars: []string{"B", "H"}},
		{name: "a factor that vanishes", cands: []string{"B*T", "2*T"}, kept: []int{0, 1}, dim: "T",
			want: "may depend on B", vars: []string{"B"}},
		// The difference (B − 1)·(T − 10) is ≥ 0 for B ≥ 1 but 0 at B = 1:
		// a tie for every T there, T² + … ahead from T = 11 otherwise.
		{name: "a factor ≥ 0 but not > 0", cands: []string{"T^2", "T^2 + B*T - 10*B - T + 10"}, kept: []int{0, 1}, dim: "T",
			want: "may depend on B", vars: []string{"B"}},
		{name: "fixing the walked dimension", cands: gpt, kept: []int{0}, dim: "T", fixed: map[string]int64{"T": 3},
			want: "T is the dimension walked along, so it cannot be fixed too"},
		{name: "a dimension below 1", cands: gpt, kept: []int{0}, dim: "T", fixed: map[string]int64{"B": 0},
			want: "B = 0, but dimensions are integers ≥ 1"},
		{name: "no candidates", cands: gpt, dim: "T", want: "no candidates"},
		// T² overtakes 2^64·T only past 2^64: a change of holder beyond int64.
		{name: "a change of holder past int64", cands: []string{"T^2", "18446744073709551616*T"}, kept: []int{0, 1}, dim: "T",
			want: "the peak changes holder beyond 9223372036854775807"},
		{name: "an index out of range", cands: gpt, kept: []int{3}, dim: "T", want: "candidate 3 does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Along(candidates(t, tt.cands...), tt.kept, tt.dim, tt.fixed)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			var dep *DependsError
			if errors.As(err, &dep) != (tt.vars != nil) || tt.vars != nil && !slices.Equal(dep.Vars, tt.vars) {
				t.Errorf("error %#v, want a DependsError on %v", err, tt.vars)
			}
		})
	}
}

// TestAlongCrossingPastInt64: two candidates that cross only past int64
// (T² + 2^62 and 2^64·T, near T = 2^64) stop nothing where neither holds
// the peak there: 2^64·T holds it up to 2^64/3, and 3·T² from there on,
// ahead of both for ever.
func TestAlongCrossingPastInt64(t *testing.T) {
	c, err := Along(candidates(t, "3*T^2", "T^2 + 4611686018427387904", "18446744073709551616*T"), []int{0, 1, 2}, "T", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{{From: 1, To: 6148914691236517205, Holder: 2}, {From: 6148914691236517206, Holder: 0}}
	if !slices.Equal(c.Segments, want) {
		t.Errorf("segments %+v, want %+v", c.Segments, want)
	}
}

// TestAlongRandom checks Along on random candidates against the integers:
// each T from 1 to 120 (beyond every crossover: the differences'
// coefficients are at most 108 in size) lies in the segment of the candidate holding the peak there. Half
// the sets are p_i(T)·(B + 2·H) + c(B, T, H), whose holders along T are the
// same for every B and H, as Along must prove.
func TestAlongRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	factor := mustParse(t, "B + 2*H")
	for trial := range 200 {
		n := 1 + r.IntN(5)
		cands := make([]Candidate, n)
		kept := make([]int, n)
		common := randomPoly(r, []string{"B", "T", "H"}, 3)
		for i := range cands {
			p := randomPoly(r, []string{"T"}, 1+r.IntN(3))
			if trial%2 == 1 {
				p = p.Mul(factor).Add(common)
			}
			cands[i] = Candidate{Poly: p}
			kept[i] = i
		}
		r.Shuffle(n, func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
		got, err := Along(cands, kept, "T", nil)
		if err != nil {
			t.Fatal(err)
		}
		segs := got.Segments
		if segs[0].From != 1 || segs[len(segs)-1].To != 0 {
			t.Fatalf("segments %v do not cover T ≥ 1", segs)
		}
		for _, at := range []map[string]int64{{"B": 1, "H": 1}, {"B": 5, "H": 1}, {"B": 1, "H": 9}, {"B": 300, "H": 77}} {
			k := 0
			for x := int64(1); x <= 120; x++ {
				for segs[k].To != 0 && x > segs[k].To {
					k++
					if segs[k].From != segs[k-1].To+1 || segs[k].Holder == segs[k-1].Holder {
						t.Fatalf("segments %v: not consecutive or not merged", segs)
					}
				}
				at["T"] = x
				if h := holder(t, cands, kept, at); h != segs[k].Holder {
					var ps []string
					for _, c := range cands {
						ps = append(ps, c.Poly.String())
					}
					t.Fatalf("candidates %q: at %v candidate %d holds the peak, segments say %v", ps, at, h, segs)
				}
			}
		}
	}
}

// TestAlongAllTiePastInt64: a pruned candidate that ties its root only past
// int64, where neither holds the peak, stops nothing: 2^130 ties
// 2^130 + (T − 2^64)² at T = 2^64, but 2^127·T² holds the peak from T = 4
// on. Where the root holds the peak past int64 and the pruned candidate
// comes first, the tie would change the holder there: refused.
func TestAlongAllTiePastInt64(t *testing.T) {
	// 2^130, and 2^130 + (T − 2^64)² expanded.
	cands := []Candidate{
		{Poly: candidates(t, "1361129467683753853853498429727072845824")[0].Poly, Op: 1},
		{Poly: candidates(t, "T^2 - 36893488147419103232*T + 1701411834604692317316873037158841057280")[0].Poly, Op: 2},
		{Poly: candidates(t, "170141183460469231731687303715884105728*T^2")[0].Poly, Op: 4},
	}
	f := Prune(cands)
	c, err := AlongAll(cands, f, "T", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{{From: 1, To: 3, Holder: 1}, {From: 4, Holder: 2}}
	if !slices.Equal(c.Segments, want) {
		t.Errorf("segments %+v, want %+v", c.Segments, want)
	}
	// Without the third, the second holds the peak past int64, and the
	// first, at an earlier operation, ties it at 2^64.
	two := cands[:2]
	if _, err := AlongAll(two, Prune(two), "T", nil); err == nil || !strings.Contains(err.Error(), "the peak changes holder beyond 9223372036854775807") {
		t.Errorf("a tie past int64 where the root holds the peak: %v", err)
	}
}
