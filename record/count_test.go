package record

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"memsym/poly"
)

func rats(t *testing.T, ss ...string) []poly.Rat {
	t.Helper()
	out := make([]poly.Rat, len(ss))
	for i, s := range ss {
		r, err := poly.ParseRat(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = r
	}
	return out
}

func rat(t *testing.T, s string) poly.Rat { return rats(t, s)[0] }

// names returns the names of the buffers at the given positions.
func names(rec *Recording, at []int) []string {
	var out []string
	for _, i := range at {
		out = append(out, rec.Buffers[i].Name)
	}
	return out
}

// TestCountMLP checks the counts of testdata/mlp.jsonl, the format's
// example, against numbers worked out by hand (see docs/recording-format.md):
// the live bytes at operation 7 are x1 2048 + keep 5/2 + h 8192 + g 8192 +
// y 2048 + workspace 4096.
func TestCountMLP(t *testing.T) {
	rec, err := ReadFile("testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := Count(rec)
	if c.Ops != 11 || c.Launches != 10 {
		t.Errorf("%d operations, %d launches; want 11, 10", c.Ops, c.Launches)
	}
	check := func(what string, got poly.Rat, want string) {
		t.Helper()
		if !got.Equal(rat(t, want)) {
			t.Errorf("%s = %s, want %s", what, got, want)
		}
	}
	check("params", c.Params, "16128")
	check("inputs", c.Inputs, "16384")
	check("peak", c.Peak, "49157/2")
	check("outputs", c.Outputs, "2048")
	check("needs", c.Needs, "81925/2")
	check("placed", c.Placed, "49157/2")
	if c.ParamElements.Cmp(big.NewInt(5824)) != 0 {
		t.Errorf("%s parameter elements, want 5824", c.ParamElements)
	}
	wantTypes := []TypeCount{
		{MustDType("f32"), big.NewInt(3776), poly.Int(15104)},
		{MustDType("i4"), big.NewInt(2048), poly.Int(1024)},
	}
	if fmt.Sprint(c.ParamsByDType) != fmt.Sprint(wantTypes) {
		t.Errorf("parameters by type %+v, want %+v", c.ParamsByDType, wantTypes)
	}
	wantLive := rats(t, "2048", "4101/2", "20485/2", "36869/2", "40965/2", "45061/2", "49157/2", "49157/2", "24581/2", "12293/2", "4101/2")
	if fmt.Sprint(c.Live) != fmt.Sprint(wantLive) {
		t.Errorf("live %v, want %v", c.Live, wantLive)
	}
	if c.PeakOp != 7 {
		t.Errorf("peak at operation %d, want 7 (the first of 7 and 8)", c.PeakOp)
	}
	if got, want := names(rec, c.AtPeak), []string{"keep", "h", "g", "y", "x1", "workspace"}; !reflect.DeepEqual(got, want) {
		t.Errorf("live at the peak %v, want %v", got, want)
	}
	wantCalls := []Call{
		{Path: "", Depth: 0, Share: poly.Frac(5, 2), OwnPeak: poly.Frac(5, 2), Ops: 2},
		{Path: "embed", Depth: 1, OwnPeak: poly.Int(2048), Ops: 1},
		{Path: "layers", Iterations: 2, Depth: 1, Share: poly.Int(24576), OwnPeak: poly.Int(24576), Ops: 8},
		{Path: "layers.up", Depth: 2, Share: poly.Int(12288), OwnPeak: poly.Int(12288), Ops: 2},
		{Path: "layers.down", Depth: 2, Share: poly.Int(2048), OwnPeak: poly.Int(2048), Ops: 2},
	}
	if fmt.Sprintf("%+v", c.Calls) != fmt.Sprintf("%+v", wantCalls) { // poly.Rat's zero has two forms: compare as printed
		t.Errorf("calls\n%+v\nwant\n%+v", c.Calls, wantCalls)
	}
}

// TestCountCourseGPT checks the seed's numbers for the course GPT at D = 64,
// H = 2, L = 2, B = 2, T = 16.
func TestCountCourseGPT(t *testing.T) {
	rec := courseGPT(t, 2, 16, 64, 2, 2, 92)
	c := Count(rec)
	got := fmt.Sprintf("%d ops, %d launches, params %s (%s elements), inputs %s, peak %s at %d, outputs %s, needs %s, placed %s",
		c.Ops, c.Launches, c.Params, c.ParamElements, c.Inputs, c.Peak, c.PeakOp, c.Outputs, c.Needs, c.Placed)
	want := "45 ops, 45 launches, params 903168 (112896 elements), inputs 903424, peak 149504 at 19, outputs 23552, needs 1052928, placed 149504"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if op := rec.Ops[c.PeakOp-1]; op.Label != "Linear.apply/%5" || op.Path != "blocks[0].ff.up" {
		t.Errorf("peak at %s in %s", op.Label, op.Path)
	}
	if got, want := names(rec, c.AtPeak), []string{"mask", "x2", "%4", "%5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("live at the peak %v, want %v", got, want)
	}
	shares := map[string]string{}
	for _, call := range c.Calls {
		shares[call.Path] = call.Share.String()
	}
	if shares["blocks"] != "147456" || shares["blocks.ff.up"] != "131072" || shares[""] != "2048" {
		t.Errorf("shares %v: want blocks 147456, blocks.ff.up 131072, the entry's own 2048", shares)
	}
}

func TestCountEdgeCases(t *testing.T) {
	read := func(body string) *Recording {
		t.Helper()
		rec, err := Read(strings.NewReader(hdr+body), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	t.Run("no operations", func(t *testing.T) {
		c := Count(read(`{"buffer": 1, "bytes": 8, "role": "input"}` + "\n" + `{"result": [1]}` + "\n"))
		if c.PeakOp != 0 || !c.Peak.IsZero() || len(c.Live) != 0 || len(c.AtPeak) != 0 || !c.Outputs.Equal(poly.Int(8)) || !c.Needs.Equal(poly.Int(8)) {
			t.Errorf("%+v", c)
		}
		if len(c.Calls) != 1 || c.Calls[0].Ops != 0 {
			t.Errorf("calls %+v: want the entry's own row alone", c.Calls)
		}
	})
	t.Run("operations without temps", func(t *testing.T) {
		c := Count(read(`{"buffer": 1, "bytes": 8, "role": "param"}` + "\n" + `{"op": "f", "reads": [1], "writes": [1]}` + "\n" + `{"op": "g", "reads": [1]}` + "\n" + `{"result": [1]}` + "\n"))
		if c.PeakOp != 1 || !c.Peak.IsZero() || !c.Placed.IsZero() || !c.Inputs.Equal(poly.Int(8)) {
			t.Errorf("peak %s at %d, placed %s, inputs %s: want 0 at 1, 0, 8 (a written parameter is no temp)", c.Peak, c.PeakOp, c.Placed, c.Inputs)
		}
		want := []TypeCount{{DType{}, big.NewInt(0), poly.Int(8)}}
		if fmt.Sprint(c.ParamsByDType) != fmt.Sprint(want) || c.ParamElements.Sign() != 0 {
			t.Errorf("parameters by type %+v, elements %s", c.ParamsByDType, c.ParamElements)
		}
	})
	t.Run("written never read", func(t *testing.T) {
		c := Count(read(`{"buffer": 1, "bytes": 100}` + "\n" + `{"buffer": 2, "bytes": 1}` + "\n" +
			`{"op": "f", "writes": [1]}` + "\n" + `{"op": "g", "writes": [2]}` + "\n" + `{"op": "h", "reads": [2], "writes": [2]}` + "\n" + `{"result": []}` + "\n"))
		if want := rats(t, "100", "1", "1"); fmt.Sprint(c.Live) != fmt.Sprint(want) {
			t.Errorf("live %v, want %v", c.Live, want)
		}
	})
	t.Run("outputs: each base once, inputs among them", func(t *testing.T) {
		c := Count(read(`{"buffer": 1, "bytes": 8, "role": "input"}` + "\n" + `{"buffer": 2, "bytes": 5}` + "\n" + `{"view": 3, "of": 2}` + "\n" +
			`{"op": "f", "reads": [1], "writes": [3]}` + "\n" + `{"op": "g", "reads": [1]}` + "\n" + `{"result": [1, 2, 3, 2]}` + "\n"))
		if !c.Outputs.Equal(poly.Int(13)) {
			t.Errorf("outputs %s, want 13", c.Outputs)
		}
		if want := rats(t, "5", "5"); fmt.Sprint(c.Live) != fmt.Sprint(want) {
			t.Errorf("live %v, want %v: the result lives to the end", c.Live, want)
		}
	})
}

// randomRecording records a random program: buffers of random sizes made,
// read through views, written again, under nested folds.
func randomRecording(t testing.TB, rng *rand.Rand, nOps int) *Recording {
	r := NewRecorder("R.apply", []Dim{{"B", 1}}, nil, "")
	var held, made []int64
	for range 1 + rng.IntN(3) {
		held = append(held, r.Bytes(Param, "p", "", poly.Int(rng.Int64N(100))))
	}
	paths := []string{"", "a", "a.b", "c[0]", "c[1].d", "c[0].d", "c[1]", "e[0].f[1].g", "e[1].f[0]"}
	for n := range nOps {
		var reads, writes []int64
		for range rng.IntN(3) {
			if len(made) > 0 && rng.IntN(3) > 0 {
				reads = append(reads, made[rng.IntN(len(made))])
			} else {
				reads = append(reads, held[rng.IntN(len(held))])
			}
		}
		switch {
		case len(made) > 0 && rng.IntN(4) == 0:
			writes = append(writes, made[rng.IntN(len(made))]) // in place
		case len(made) > 0 && rng.IntN(4) == 0:
			v := r.View(made[rng.IntN(len(made))], "v", DType{})
			made = append(made, v)
			writes = append(writes, v)
		default:
			b := r.Bytes(Temp, fmt.Sprint("t", n), "", poly.Frac(rng.Int64N(1000), 1+rng.Int64N(2)))
			made = append(made, b)
			writes = append(writes, b)
		}
		r.Op(fmt.Sprint("op", n), paths[rng.IntN(len(paths))], reads, writes)
	}
	var result []int64
	for range rng.IntN(3) {
		if len(made) > 0 {
			result = append(result, made[rng.IntN(len(made))])
		}
	}
	r.Result(result...)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// naiveLife is a temp base's life by the format's rules, computed afresh
// from the operations, without Lifetimes.
func naiveLife(rec *Recording, pos int) (first, last int) {
	b := &rec.Buffers[pos]
	if b.IsView || b.Role.Held() {
		return 0, 0
	}
	for n, op := range rec.Ops {
		for _, id := range append(append([]int64{}, op.Writes...), op.Reads...) {
			if rec.Base(id) == b {
				if first == 0 {
					first = n + 1
				}
				last = n + 1
			}
		}
	}
	for _, id := range rec.Result {
		if rec.Base(id) == b && first != 0 {
			last = len(rec.Ops)
		}
	}
	return first, last
}

// TestCountAgainstNaive compares Count with a direct computation of each
// operation's live set on random recordings.
func TestCountAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		rec := randomRecording(t, rng, 1+rng.IntN(40))
		c := Count(rec)
		var peak poly.Rat
		peakOp := 0
		for op := 1; op <= len(rec.Ops); op++ {
			var live poly.Rat
			for i := range rec.Buffers {
				if f, l := naiveLife(rec, i); f != 0 && f <= op && op <= l {
					live = live.Add(rec.Buffers[i].Bytes)
				}
			}
			if !c.Live[op-1].Equal(live) {
				t.Fatalf("trial %d: live at %d is %s, want %s", trial, op, c.Live[op-1], live)
			}
			if peakOp == 0 || live.Cmp(peak) > 0 {
				peak, peakOp = live, op
			}
		}
		if !c.Peak.Equal(peak) || c.PeakOp != peakOp {
			t.Fatalf("trial %d: peak %s at %d, want %s at %d", trial, c.Peak, c.PeakOp, peak, peakOp)
		}
		if c.Placed.Cmp(c.Peak) < 0 {
			t.Fatalf("trial %d: placed %s below the peak %s", trial, c.Placed, c.Peak)
		}
		checkCalls(t, rec, c)
	}
}

// checkCalls checks the calls' table against its definition: the shares of
// the top-level calls and the entry's own sum to the peak, and each row's
// share and own peak are what a direct count gives.
func checkCalls(t *testing.T, rec *Recording, c *Counts) {
	t.Helper()
	under := func(path, call string) bool {
		grouped, _ := SplitPath(path)
		if call == "" {
			return grouped == ""
		}
		return grouped == call || strings.HasPrefix(grouped, call+".")
	}
	maker := func(i int) string {
		f, _ := naiveLife(rec, i)
		return rec.Ops[f-1].Path
	}
	madeUnderLiveAt := func(call string, op int) poly.Rat {
		var sum poly.Rat
		for i := range rec.Buffers {
			if f, l := naiveLife(rec, i); f != 0 && f <= op && op <= l && under(maker(i), call) {
				sum = sum.Add(rec.Buffers[i].Bytes)
			}
		}
		return sum
	}
	var total poly.Rat
	for _, call := range c.Calls {
		if call.Depth <= 1 {
			total = total.Add(call.Share)
		}
		var own poly.Rat
		ops := 0
		for n, op := range rec.Ops {
			if under(op.Path, call.Path) {
				ops++
				if s := madeUnderLiveAt(call.Path, n+1); s.Cmp(own) > 0 {
					own = s
				}
			}
		}
		var share poly.Rat
		if c.PeakOp > 0 {
			share = madeUnderLiveAt(call.Path, c.PeakOp)
		}
		if !call.Share.Equal(share) || !call.OwnPeak.Equal(own) || call.Ops != ops {
			t.Fatalf("call %q: share %s, own peak %s, %d ops; want %s, %s, %d", call.Path, call.Share, call.OwnPeak, call.Ops, share, own, ops)
		}
	}
	if !total.Equal(c.Peak) {
		t.Fatalf("the shares sum to %s, the peak is %s", total, c.Peak)
	}
}
