package model

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// courseStep is the course GPT's training step at the course's constants,
// one per remat, built once.
var courseSteps sync.Map // programs.Remat → *Step

func courseStep(t *testing.T, r programs.Remat) (*Step, source.Source) {
	t.Helper()
	p, _ := programs.Lookup("gpt-course")
	sp, err := p.Step(programs.StepOptions{Remat: r})
	if err != nil {
		t.Fatal(err)
	}
	src := &source.Program{P: sp, Consts: map[string]int64{"D": 384, "H": 6, "L": 6}}
	if s, ok := courseSteps.Load(r); ok {
		return s.(*Step), src
	}
	s, err := BuildStep(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	courseSteps.Store(r, s)
	return s, src
}

// symbolicStep is a bundled program's training step under one remat, its
// source and its symbolic model.
type symbolicStep struct {
	name string // "program, remat"
	src  source.Source
	st   *Step
}

var (
	symbolicStepsOnce  sync.Once
	symbolicStepsBuilt []symbolicStep
	symbolicStepsErr   error
)

// symbolicSteps returns the symbolic step of every bundled program memsym
// models symbolically (the synthetic one not under -short), stored and
// recomputed, built once for the package's tests.
func symbolicSteps(t *testing.T) []symbolicStep {
	t.Helper()
	symbolicStepsOnce.Do(func() {
		for _, p := range programs.All() {
			if p.StepRefusal() != "" || p.Refusal != "" || countsBlocks(p) || p.Name == "synthetic" && testing.Short() {
				continue
			}
			for _, r := range remats {
				name := fmt.Sprintf("%s, %s", p.Name, r)
				sp, err := p.Step(programs.StepOptions{Remat: r})
				if err != nil {
					symbolicStepsErr = err
					return
				}
				src := &source.Program{P: sp}
				st, err := BuildStep(context.Background(), src, source.Spec{})
				if err != nil {
					symbolicStepsErr = fmt.Errorf("%s: %w", name, err)
					return
				}
				symbolicStepsBuilt = append(symbolicStepsBuilt, symbolicStep{name, src, st})
			}
		}
	})
	if symbolicStepsErr != nil {
		t.Fatal(symbolicStepsErr)
	}
	return symbolicStepsBuilt
}

// TestStepEvalAgainstRecording: every term of the step from its
// polynomials, each phase's peak with its operation and terms, and the
// step's peak, are those of a fresh recording at points off the grid, for
// every bundled program memsym models symbolically, stored and recomputed.
func TestStepEvalAgainstRecording(t *testing.T) {
	for _, ss := range symbolicSteps(t) {
		for k := 0; k < 2; k++ {
			at := record.Point{}
			for i, v := range ss.st.Vars {
				at = append(at, record.Dim{Name: v, Value: 1 + int64(k)*(ss.st.Grid[i][2]+int64(i)+2)})
			}
			got, err := ss.st.Eval(at)
			if err != nil {
				t.Fatalf("%s: %v", ss.name, err)
			}
			want := recordedStep(t, ss.src, at)
			compareStepTerms(t, fmt.Sprintf("%s at %s", ss.name, at), got, want)
		}
	}
}

// compareStepTerms reports where the step's terms from the polynomials
// differ from a recording's.
func compareStepTerms(t *testing.T, where string, got *StepTerms, want *count.Step) {
	t.Helper()
	for _, x := range []struct {
		what      string
		got, want poly.Rat
	}{{"parameters", got.Params, want.Params}, {"states", got.States, want.States}, {"batch", got.Batch, want.Batch},
		{"gradient", got.Gradient, want.Gradient}, {"kept", got.Kept, want.Kept}} {
		if !x.got.Equal(x.want) {
			t.Errorf("%s: %s %s, recorded %s", where, x.what, x.got, x.want)
		}
	}
	if len(got.StateParts) != len(want.StateParts) {
		t.Fatalf("%s: %d states, recorded %d", where, len(got.StateParts), len(want.StateParts))
	}
	for i, p := range got.StateParts {
		if p != want.StateParts[i] && (p.Name != want.StateParts[i].Name || !p.Bytes.Equal(want.StateParts[i].Bytes)) {
			t.Errorf("%s: state %s %s, recorded %s %s", where, p.Name, p.Bytes, want.StateParts[i].Name, want.StateParts[i].Bytes)
		}
	}
	if len(got.Phases) != len(want.Phases) {
		t.Fatalf("%s: %d phases, recorded %d", where, len(got.Phases), len(want.Phases))
	}
	peaks := append(append([]StepPeak{}, got.Phases...), got.Peak)
	wants := append(append([]count.PhasePeak{}, want.Phases...), want.Peak)
	for i, g := range peaks {
		w := wants[i]
		if g.Phase != w.Phase || !g.Bytes.Equal(w.Terms.Sum()) || g.Op != w.Op || !sameTerms(g.Terms, w.Terms) || !g.Terms.Sum().Equal(g.Bytes) {
			t.Errorf("%s: the %s phase's peak %s at operation %d (%+v); recorded %s at %d (%+v)", where, g.Phase, g.Bytes, g.Op, g.Terms, w.Terms.Sum(), w.Op, w.Terms)
		}
	}
}

// TestStepFitGPT checks each answer for the course GPT's step by the
// definition (the step's peak at the answer fits, one past it does not,
// and a scan finds no smaller value that fails), then by recording at
// both, stored and recomputed.
func TestStepFitGPT(t *testing.T) {
	for _, r := range remats {
		st, src := courseStep(t, r)
		for _, c := range []struct {
			along  string
			fixed  map[string]int64
			budget string
		}{{"T", map[string]int64{"B": 8}, "24GiB"}, {"T", map[string]int64{"B": 8}, "80GiB"}, {"B", map[string]int64{"T": 1024}, "40GiB"}} {
			name := fmt.Sprintf("%s, along %s at %v, %s", r, c.along, c.fixed, c.budget)
			b := size(t, c.budget)
			f, err := st.Fit(c.along, c.fixed, b)
			if err != nil {
				t.Fatal(err)
			}
			if f.Fit.Kind != FitsUpTo || len(f.Fit.Gaps) != 0 || f.At == nil || f.Past == nil {
				t.Fatalf("%s: %+v", name, f.Fit)
			}
			if f.At.Peak.Bytes.Cmp(b) > 0 || f.Past.Peak.Bytes.Cmp(b) <= 0 {
				t.Errorf("%s: %d gives %s, %d gives %s", name, f.Fit.Largest, f.At.Peak.Bytes, f.Fit.Largest+1, f.Past.Peak.Bytes)
			}
			for x := int64(1); x <= f.Fit.Largest; x += 1 + x/40 {
				tm, err := st.Eval(f.Fit.Point(st.Model, x))
				if err != nil {
					t.Fatal(err)
				}
				if tm.Peak.Bytes.Cmp(b) > 0 {
					t.Errorf("%s: %s = %d does not fit, yet no gap is listed", name, c.along, x)
				}
			}
			checks, err := st.ConfirmFit(context.Background(), src, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(checks) != 2 {
				t.Fatalf("%s: %d checks", name, len(checks))
			}
			for _, k := range checks {
				if !k.OK(b) {
					t.Errorf("%s at %s: recorded %s at operation %d, predicted %s at %d", name, k.Point, k.Needs, k.PeakOp, k.Predicted, k.PredictedOp)
				}
			}
			t.Logf("%s: %s = %d", name, c.along, f.Fit.Largest)
		}
	}
	// The parameters, states and gradient alone are 330 MiB: 100 MiB fits
	// no T.
	st, _ := courseStep(t, programs.Store)
	f, err := st.Fit("T", map[string]int64{"B": 8}, size(t, "100MiB"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Fit.Kind != FitsNone || f.At != nil || f.Past == nil || f.Past.Peak.Bytes.Cmp(size(t, "100MiB")) <= 0 {
		t.Errorf("100MiB: %+v", f.Fit)
	}
}

// TestStepFitConfirmDisagrees: a check made against another program's
// step (the recompute one for the stored one's answer) is not confirmed.
func TestStepFitConfirmDisagrees(t *testing.T) {
	st, _ := courseStep(t, programs.Store)
	_, other := courseStep(t, programs.Recompute)
	b := size(t, "24GiB")
	f, err := st.Fit("T", map[string]int64{"B": 8}, b)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := st.ConfirmFit(context.Background(), other, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 2 {
		t.Fatalf("%d checks, want 2", len(checks))
	}
	for _, c := range checks {
		if c.OK(b) {
			t.Errorf("at %s a recording of another step is confirmed: %+v", c.Point, c)
		}
	}
}

// TestStepEvalJSON: the JSON's terms are the evaluation's and the peak's
// terms sum to it.
func TestStepEvalJSON(t *testing.T) {
	st, _ := courseStep(t, programs.Recompute)
	at, err := st.PointOf(map[string]int64{"B": 16, "T": 256})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := st.Eval(at)
	if err != nil {
		t.Fatal(err)
	}
	j := st.EvalJSON(tm)
	if j.Peak.Bytes != "662806536" || j.Peak.Phase != "backward" || j.Params.Bytes != "86532096" || j.Kept.Bytes != "104235008" {
		t.Errorf("%+v", j)
	}
	sum := poly.Int(0)
	for _, s := range []string{j.Peak.Terms.Params, j.Peak.Terms.States, j.Peak.Terms.Batch, j.Peak.Terms.Gradient, j.Peak.Terms.Kept, j.Peak.Terms.Own} {
		v, err := poly.ParseRat(s)
		if err != nil {
			t.Fatal(err)
		}
		sum = sum.Add(v)
	}
	if sum.String() != j.Peak.Bytes || len(j.Phases) != 3 || len(j.StateParts) != 3 {
		t.Errorf("the peak's terms sum to %s, not %s; %d phases, %d states", sum, j.Peak.Bytes, len(j.Phases), len(j.StateParts))
	}
}
