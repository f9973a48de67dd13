package explain_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"memsym/explain"
	"memsym/model"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

var both = []programs.StepOptions{{}, {Remat: programs.Recompute}}

// stepChapters caches the chapters with a step, by program and options.
var stepChapters sync.Map // string → *explain.Input

// stepInput runs a bundled program through the real pipeline as `memsym
// explain --program name --step` does, under opts, at its default
// constants (or consts) and point.
func stepInput(t testing.TB, name string, consts map[string]int64, opts []programs.StepOptions) *explain.Input {
	t.Helper()
	return stepInputAt(t, name, consts, nil, opts)
}

// stepInputAt is stepInput at the point at (nil: the program's default).
func stepInputAt(t testing.TB, name string, consts map[string]int64, at record.Point, opts []programs.StepOptions) *explain.Input {
	t.Helper()
	key := fmt.Sprint(name, consts, at, opts)
	if in, ok := stepChapters.Load(key); ok {
		return in.(*explain.Input)
	}
	src, err := source.NewProgram(name, consts)
	if err != nil {
		t.Fatal(err)
	}
	if at == nil {
		at = src.Default()
	}
	r := &explain.Request{Program: name, Source: src, At: at, Verify: 2, Confirm: true, Step: opts}
	c, err := explain.Gather(context.Background(), r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	in, err := explain.Build(c)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	stepChapters.Store(key, in)
	return in
}

// withStep are the bundled programs memsym models that have a step it
// models: not those with a dimension that counts blocks, whose step is not
// one block repeated.
func withStep() []*programs.Program {
	var out []*programs.Program
	for _, p := range programs.All() {
		if p.Refusal == "" && p.StepRefusal() == "" && !slices.ContainsFunc(p.Dims, func(d programs.Dim) bool { return d.Blocks }) {
			out = append(out, p)
		}
	}
	return out
}

// Every bundled program's chapter with its step, stored and recomputed,
// and with one remat or other types, is free of the slips.
func TestStepProseSlips(t *testing.T) {
	check := func(name string, in *explain.Input) {
		t.Helper()
		for _, s := range proseSlips(explain.Chapter(in)) {
			t.Errorf("%s: %s", name, s)
		}
	}
	for _, p := range withStep() {
		if testing.Short() && p.Name == "synthetic" {
			continue
		}
		check(p.Name+" --step --remat both", stepInput(t, p.Name, nil, both))
	}
	check("gpt-course --step --remat recompute", stepInput(t, "gpt-course", nil, both[1:]))
	mixed, err := programs.ParseTypes("params=bf16,activations=bf16,gradient=f32,states=f32,master=f32")
	if err != nil {
		t.Fatal(err)
	}
	check("llama2-7b-block --step, sgd in mixed precision", stepInput(t, "llama2-7b-block", nil, []programs.StepOptions{{Optimizer: programs.SGD, Types: mixed}}))
}

// TestStepChapterGolden: the course GPT's chapter with its step at the
// course's constants, stored and recomputed, as a reader checks it; go
// test -update rewrites it.
func TestStepChapterGolden(t *testing.T) {
	seed := record.Point{{Name: "B", Value: 16}, {Name: "T", Value: 256}}
	in := stepInputAt(t, "gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6}, seed, both)
	d := explain.Chapter(in)
	got := dump(d)
	path := filepath.Join("testdata", "gpt-course-course-step.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the step's chapter differs from %s (go test -update rewrites it); got:\n%s", path, got)
	}
	text := dump(d)
	for _, s := range []string{
		"## 13.4 A training step",
		"| the parameters | 86 532 096 | 82.5 MiB | 86 532 096 | 82.5 MiB |",
		"| the step's peak | 1 850 119 176 | 1.72 GiB | 662 806 536 | 632 MiB |",
		"Recomputing brings the step's peak down 2.8 times, by 1 187 312 640 bytes (1.11 GiB).",
		"the kept activations outweigh the states for T ≥ 35",
		"StepPeakStoreAtPoint (the training step's peak, storing, in bytes at B = 16, T = 256): 1850119176",
		"StepPeakRecomputeAtPoint (the training step's peak, recomputing, in bytes at B = 16, T = 256): 662806536",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("the step's chapter does not say %q", s)
		}
	}
}

// TestStepChapterNumbers checks the chapter's step against independent
// counts: its terms at the point against the step recorded afresh by the
// programs package, its polynomials at the point against those terms, its
// peak's terms summing to it (M2), and its crossover against recordings on
// both sides.
func TestStepChapterNumbers(t *testing.T) {
	course := map[string]int64{"D": 384, "H": 6, "L": 6}
	for _, c := range []struct {
		name   string
		consts map[string]int64
	}{{"gpt-course", course}, {"gpt-course", nil}, {"llama2-7b-block", nil}, {"bert-encoder", nil}, {"mlp-width", nil}} {
		in := stepInput(t, c.name, c.consts, both)
		p, _ := programs.Lookup(c.name)
		for k, col := range in.Step.Columns {
			where := fmt.Sprintf("%s %v, %s", c.name, c.consts, col.Remat)
			at := col.At
			pt, err := model.RecordStepAt(p, at.At.Map(), c.consts, both[k])
			if err != nil {
				t.Fatal(err)
			}
			want := pt.Count
			for _, x := range []struct {
				what      string
				got, want poly.Rat
			}{{"parameters", at.Params, want.Params}, {"states", at.States, want.States}, {"gradient", at.Gradient, want.Gradient},
				{"batch", at.Batch, want.Batch}, {"kept", at.Kept, want.Kept}, {"the step's peak", at.Peak.Bytes(), want.Peak.Terms.Sum()}} {
				if !x.got.Equal(x.want) {
					t.Errorf("%s: the chapter's %s %s, recorded %s", where, x.what, x.got, x.want)
				}
			}
			if at.Peak.Op != want.Peak.Op || len(at.Phases) != len(want.Phases) {
				t.Errorf("%s: the step's peak at operation %d, recorded %d", where, at.Peak.Op, want.Peak.Op)
			}
			sym := col.Symbolic
			for _, x := range []struct {
				what string
				p    poly.Poly
				want poly.Rat
			}{{"parameters", sym.Params, at.Params}, {"states", sym.States, at.States}, {"gradient", sym.Gradient, at.Gradient},
				{"batch", sym.Batch, at.Batch}, {"kept", sym.Kept, at.Kept}} {
				if v, err := x.p.EvalInt(at.At.Map()); err != nil || !v.Equal(x.want) {
					t.Errorf("%s: the chapter's %s %s gives %s at %s, the table %s", where, x.what, x.p, v, at.At, x.want)
				}
			}
			var top poly.Rat
			for _, k := range sym.Peak {
				if v, _ := k.Poly.EvalInt(at.At.Map()); v.Cmp(top) > 0 {
					top = v
				}
			}
			if !top.Equal(at.Peak.Bytes()) {
				t.Errorf("%s: the largest candidate is %s at %s, the step's peak %s", where, top, at.At, at.Peak.Bytes())
			}
			checkCross(t, where, p, c.consts, both[k], sym.Cross)
		}
	}
}

// checkCross records the step afresh on both sides of each change of
// which of the states and the kept activations is larger, and compares
// with what the chapter's own recordings there show.
func checkCross(t *testing.T, where string, p *programs.Program, consts map[string]int64, o programs.StepOptions, cr *explain.StepCross) {
	t.Helper()
	if cr == nil || len(cr.Segments) == 0 {
		t.Errorf("%s: no crossover of the kept activations and the states", where)
		return
	}
	if len(cr.Confirmed) != 2*(len(cr.Segments)-1) {
		t.Errorf("%s: %d recordings beside %d changes", where, len(cr.Confirmed), len(cr.Segments)-1)
	}
	for _, k := range cr.Confirmed {
		pt, err := model.RecordStepAt(p, k.Point.Map(), consts, o)
		if err != nil {
			if !strings.Contains(err.Error(), k.Refused) { // in the program's words
				t.Errorf("%s at %s: %v, yet the chapter says %q", where, k.Point, err, k.Refused)
			}
			continue
		}
		larger := 0
		if pt.Count.Kept.Cmp(pt.Count.States) > 0 {
			larger = 1
		}
		if larger != k.Predicted || !k.OK() || !k.Kept.Equal(pt.Count.Kept) {
			t.Errorf("%s at %s: kept %s, states %s, yet the chapter predicts holder %d and shows %+v", where, k.Point, pt.Count.Kept, pt.Count.States, k.Predicted, k)
		}
	}
}

// TestStepTeXMacros: the step's peak, its terms and its candidates are
// macros a paper may quote, under the chapter's prefix.
func TestStepTeXMacros(t *testing.T) {
	in := stepInput(t, "gpt-course", nil, both)
	d := explain.Chapter(in)
	keys := map[string]poly.Rat{}
	for _, n := range d.Numbers {
		keys[n.Key] = n.Value
	}
	for _, k := range []string{"StepPeakStoreAtPoint", "StepPeakRecomputeAtPoint", "StepPeakOpStoreAtPoint", "StepKeptStoreAtPoint", "StepParamsAtPoint", "StepCrossoverStore", "StepCrossoverRecompute"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("no number %s", k)
		}
	}
	if v := keys["StepPeakStoreAtPoint"]; !v.Equal(in.Step.Columns[0].At.Peak.Bytes()) {
		t.Errorf("StepPeakStoreAtPoint is %s, the step's peak %s", v, in.Step.Columns[0].At.Peak.Bytes())
	}
	formulas := map[string]bool{}
	for _, f := range d.Formulas {
		formulas[f.Key] = true
		if strings.HasPrefix(f.Key, "Step") && (f.Of == "Peak" || f.PlusPeak) {
			t.Errorf("%s is taken for one of the forward's peak's candidates", f.Key)
		}
		if strings.HasPrefix(f.Key, "StepPeakStore") && f.Of != "StepPeakStore" {
			t.Errorf("%s is not one of the step's peak's candidates (of %q)", f.Key, f.Of)
		}
	}
	for _, k := range []string{"StepParams", "StepStates", "StepKeptStore", "StepKeptRecompute", "StepPeakStoreA", "StepPeakRecomputeA"} {
		if !formulas[k] {
			t.Errorf("no formula %s", k)
		}
	}
	for _, f := range d.Formulas {
		for _, r := range f.Key {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				t.Errorf("key %q is not letters alone", f.Key)
			}
		}
	}
}

// TestStepNeedsABundledProgram: a chapter's step is recorded from a
// bundled program.
func TestStepNeedsABundledProgram(t *testing.T) {
	src := &source.Files{Grid: []string{filepath.Join("testdata", "no-dims.jsonl")}}
	_, err := explain.Gather(context.Background(), &explain.Request{Program: "no-dims", Source: src, Step: both})
	var u *source.UsageError
	if err == nil || !strings.Contains(err.Error(), "use it with --program") || !errors.As(err, &u) {
		t.Errorf("a step of recording files: %v", err)
	}
}

// bert-encoder's step: P is its positions, so the 14P rule's parameters
// are written Ψ; recomputing, the kept activations outweigh the states
// only past T = 512, where the program does not run, which the list, the
// sentence after it and the TeX macro's comment say; the step's peak is
// explained for each remat at its own operation.
func TestStepChapterBeyondReach(t *testing.T) {
	in := stepInput(t, "bert-encoder", nil, both)
	d := explain.Chapter(in)
	got := dump(d)
	for _, want := range []string{
		"2·Ψ bytes", "Ψ being the parameters' elements", "since P already names one of bert-encoder's sizes",
		"past the values the program takes.",
		"the program runs along T only up to T = 512; past it, what the list says is the polynomials', not the program's.",
		"The step's peak, storing: ", "The step's peak, recomputing: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q", want)
		}
	}
	if strings.Contains(got, "P being") || strings.Contains(got, "P = 9") {
		t.Errorf("P names the parameters' elements beside bert-encoder's P = 512")
	}
	for _, n := range d.Numbers {
		if n.Key == "StepCrossoverRecompute" && !strings.Contains(n.Label, "past T = 512, where the program stops running") {
			t.Errorf("%s: %s", n.Key, n.Label)
		}
	}
}
