package count

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"memsym/poly"
	"memsym/programs"
	"memsym/record"
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
func names(rec *record.Recording, at []int) []string {
	var out []string
	for _, i := range at {
		out = append(out, rec.Buffers.Name(i))
	}
	return out
}

// TestAtMLP checks the counts of record/testdata/mlp.jsonl, the format's
// example, against numbers worked out by hand (see docs/recording-format.md):
// the live bytes at operation 7 are x1 2048 + keep 5/2 + h 8192 + g 8192 +
// y 2048 + workspace 4096.
func TestAtMLP(t *testing.T) {
	rec, err := record.ReadFile("../record/testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := At(rec)
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
		{record.MustDType("f32"), big.NewInt(3776), poly.Int(15104)},
		{record.MustDType("i4"), big.NewInt(2048), poly.Int(1024)},
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

// TestAtCourseGPT checks the seed's numbers for the course GPT at D = 64,
// H = 2, L = 2, B = 2, T = 16: the bundled gpt-course at its defaults.
func TestAtCourseGPT(t *testing.T) {
	rec := courseGPT(t, 2)
	c := At(rec)
	got := fmt.Sprintf("%d ops, %d launches, params %s (%s elements), inputs %s, peak %s at %d, outputs %s, needs %s, placed %s",
		c.Ops, c.Launches, c.Params, c.ParamElements, c.Inputs, c.Peak, c.PeakOp, c.Outputs, c.Needs, c.Placed)
	want := "45 ops, 45 launches, params 903168 (112896 elements), inputs 903424, peak 149504 at 19, outputs 23552, needs 1052928, placed 149504"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if op := rec.Ops.At(c.PeakOp - 1); op.Label != "Linear.apply/%5" || op.Path != "blocks[0].ff.up" {
		t.Errorf("peak at %s in %s", op.Label, op.Path)
	}
	// The mask, the residual stream after attention, and the up
	// projection's product and its biased sum.
	if got, want := names(rec, c.AtPeak), []string{"mask", "x", "up xW", "up"}; !reflect.DeepEqual(got, want) {
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

func TestAtEdgeCases(t *testing.T) {
	read := func(body string) *record.Recording {
		t.Helper()
		rec, err := record.Read(strings.NewReader(hdr+body), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	t.Run("no operations", func(t *testing.T) {
		c := At(read(`{"buffer": 1, "bytes": 8, "role": "input"}` + "\n" + `{"result": [1]}` + "\n"))
		if c.PeakOp != 0 || !c.Peak.IsZero() || len(c.Live) != 0 || len(c.AtPeak) != 0 || !c.Outputs.Equal(poly.Int(8)) || !c.Needs.Equal(poly.Int(8)) {
			t.Errorf("%+v", c)
		}
		if len(c.Calls) != 1 || c.Calls[0].Ops != 0 {
			t.Errorf("calls %+v: want the entry's own row alone", c.Calls)
		}
	})
	t.Run("operations without temps", func(t *testing.T) {
		c := At(read(`{"buffer": 1, "bytes": 8, "role": "param"}` + "\n" + `{"op": "f", "reads": [1], "writes": [1]}` + "\n" + `{"op": "g", "reads": [1]}` + "\n" + `{"result": [1]}` + "\n"))
		if c.PeakOp != 1 || !c.Peak.IsZero() || !c.Placed.IsZero() || !c.Inputs.Equal(poly.Int(8)) {
			t.Errorf("peak %s at %d, placed %s, inputs %s: want 0 at 1, 0, 8 (a written parameter is no temp)", c.Peak, c.PeakOp, c.Placed, c.Inputs)
		}
		want := []TypeCount{{record.DType{}, big.NewInt(0), poly.Int(8)}}
		if fmt.Sprint(c.ParamsByDType) != fmt.Sprint(want) || c.ParamElements.Sign() != 0 {
			t.Errorf("parameters by type %+v, elements %s", c.ParamsByDType, c.ParamElements)
		}
	})
	t.Run("written never read", func(t *testing.T) {
		c := At(read(`{"buffer": 1, "bytes": 100}` + "\n" + `{"buffer": 2, "bytes": 1}` + "\n" +
			`{"op": "f", "writes": [1]}` + "\n" + `{"op": "g", "writes": [2]}` + "\n" + `{"op": "h", "reads": [2], "writes": [2]}` + "\n" + `{"result": []}` + "\n"))
		if want := rats(t, "100", "1", "1"); fmt.Sprint(c.Live) != fmt.Sprint(want) {
			t.Errorf("live %v, want %v", c.Live, want)
		}
	})
	t.Run("outputs: each base once, inputs among them", func(t *testing.T) {
		c := At(read(`{"buffer": 1, "bytes": 8, "role": "input"}` + "\n" + `{"buffer": 2, "bytes": 5}` + "\n" + `{"view": 3, "of": 2}` + "\n" +
			`{"op": "f", "reads": [1], "writes": [3]}` + "\n" + `{"op": "g", "reads": [1]}` + "\n" + `{"result": [1, 2, 3, 2]}` + "\n"))
		if !c.Outputs.Equal(poly.Int(13)) {
			t.Errorf("outputs %s, want 13", c.Outputs)
		}
		if want := rats(t, "5", "5"); fmt.Sprint(c.Live) != fmt.Sprint(want) {
			t.Errorf("live %v, want %v: the result lives to the end", c.Live, want)
		}
	})
}

// hdr is the header of the recordings written out in the tests.
const hdr = `{"memsym": 1, "dims": {"B": 2}}` + "\n"

// courseGPT records the bundled gpt-course, the seed's course GPT, at
// D = 64, H = 2, B = 2, T = 16 with the given number of blocks.
func courseGPT(t testing.TB, blocks int64) *record.Recording {
	t.Helper()
	return recordCourseGPT(t, blocks, false)
}

// courseGPTStep records a training step of the course GPT, as courseGPT
// its forward pass.
func courseGPTStep(t testing.TB, blocks int64) *record.Recording {
	t.Helper()
	return recordCourseGPT(t, blocks, true)
}

func recordCourseGPT(t testing.TB, blocks int64, step bool) *record.Recording {
	t.Helper()
	p, err := programs.Lookup("gpt-course")
	if err == nil && step {
		p, err = p.Step(programs.StepOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	rec, err := p.Record(map[string]int64{"B": 2, "T": 16}, map[string]int64{"D": 64, "H": 2, "L": blocks})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
