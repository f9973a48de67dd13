package main

import (
	"encoding/json"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/model"
)

// stepCourse are the flags of the course GPT at the course's constants.
var stepCourse = []string{"--program", "gpt-course", "--const", courseConsts}

// withoutFormula drops eval's lines that a recording cannot print: its
// title and the step's peak's formula.
func withoutFormula(s string) string {
	var keep []string
	for i, line := range strings.Split(s, "\n") {
		if i == 0 || strings.HasPrefix(line, "  the candidate holding it there: ") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

// TestEvalStepIsTheRecording: eval --step from the polynomials prints, at
// the seed's point and off the grid, what memory --step counts in a
// recording there, line by line: every term, each phase's peak and its
// operation, the step's peak and its terms, store and recompute side by
// side, in every system of units.
func TestEvalStepIsTheRecording(t *testing.T) {
	for _, at := range []string{"B=16,T=256", "B=5,T=1031"} {
		for _, units := range []string{"iec", "si", "bytes"} {
			eval := mustRunCLI(t, append([]string{"eval", "--step", "--at", at, "--remat", "both", "--units", units}, stepCourse...)...)
			mem := mustRunCLI(t, "memory", "--step", "--program", "gpt-course", "--const", courseConsts, "--dim", at, "--remat", "both", "--units", units)
			if got, want := withoutFormula(eval), withoutFormula(mem); got != want {
				t.Errorf("at %s in %s, eval --step:\n%s\nmemory --step:\n%s", at, units, eval, mem)
			}
			if units == "iec" && at == "B=16,T=256" {
				golden(t, "step/eval-gpt-course-both.txt", []byte(eval))
				checkLinesInOrder(t, eval, []string{
					"memsym eval --step: `GPT.apply` in f64 at B = 16, T = 256, D = 384, H = 6, L = 6, trained with adamw, the activations stored and recomputed block by block, from the polynomials (in bytes); nothing recorded:",
					"  parameters               86532096  (82.5 MiB)   86532096  (82.5 MiB)",
					"  the step's peak        1850119176  (1.72 GiB)  662806536  (632 MiB)",
					"the step's peak (store): 1850119176 bytes (1.72 GiB) at operation 132 of 255",
					"  the candidate holding it there: ",
				})
			}
			if units == "bytes" && strings.Contains(eval, "iB)") {
				t.Errorf("--units bytes prints binary units:\n%s", eval)
			}
		}
	}
}

// TestEvalStepBlockIteration: where L counts the blocks, eval --step
// names the block of each peak's operation as a recording at the point
// has it, as memory --step does (the model's structure is at L = 4, whose
// last block is blocks[3]).
func TestEvalStepBlockIteration(t *testing.T) {
	for _, l := range []string{"3", "7"} {
		at := "B=8,T=512,L=" + l
		eval := mustRunCLI(t, "eval", "--step", "--program", "gpt-depth", "--at", at)
		mem := mustRunCLI(t, "memory", "--step", "--program", "gpt-depth", "--dim", at)
		var want []string
		for _, line := range strings.Split(mem, "\n") {
			if strings.Contains(line, ", iteration ") {
				want = append(want, line)
			}
		}
		if len(want) < 2 {
			t.Fatalf("at %s memory --step names %d blocks' operations:\n%s", at, len(want), mem)
		}
		checkLinesInOrder(t, eval, want)
	}
}

// TestEvalStepJSON: the JSON's step peak is the text's, and its terms sum
// to it.
func TestEvalStepJSON(t *testing.T) {
	out := mustRunCLI(t, append([]string{"eval", "--step", "--at", "B=16,T=256", "--remat", "recompute", "--json"}, stepCourse...)...)
	golden(t, "step/eval-gpt-course-recompute.json", []byte(out))
	var j model.StepEvalJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Peak.Bytes != "662806536" || j.Peak.Operation != 352 || j.Peak.Phase != "backward" {
		t.Errorf("the step's peak: %+v", j.Peak)
	}
}

// TestFitStepGolden: the largest T whose step fits each budget, stored and
// recomputed, each answer and one past it confirmed by recording the step.
func TestFitStepGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
		want   []string
	}{
		{"step/fit-gpt-course-both.txt",
			append([]string{"fit", "--step", "--budget", "24GiB,80GiB,100MiB", "--along", "T", "--at", "B=8", "--remat", "both", "--confirm"}, stepCourse...),
			[]string{
				"memsym fit --step: `GPT.apply` in f64, D = 384, H = 6, L = 6, trained with adamw, the activations stored, along T at B = 8: the largest T whose training step's peak fits the budget:",
				"  24 GiB        2556  25764042248 bytes  (23.99 GiB)     25781872264 bytes  (24.01 GiB)  operation 141",
				"binds at T + 1: operation 141 (`SelfAttention.apply/%21 (vjp)` in blocks[5].attn), in the backward phase",
				"no T ≥ 1 fits 100 MiB: T = 1 peaks at 600241192 bytes (572 MiB)",
				"memsym fit --step: `GPT.apply` in f64, D = 384, H = 6, L = 6, trained with adamw, the activations recomputed block by block, along T at B = 8: ",
				"  24 GiB        4569 ",
			}},
		{"step/fit-llama-sgd-B.txt",
			[]string{"fit", "--step", "--program", "llama2-7b-block", "--optimizer", "sgd", "--budget", "40GB,80GB", "--along", "B", "--at", "T=4096", "--units", "si", "--confirm"},
			[]string{"memsym fit --step: `DecoderBlock.apply` in f32, D = 4096, H = 32, F = 11008, V = 32000, trained with sgd, the activations stored, along B at T = 4096: "}},
	} {
		out := mustRunCLI(t, c.args...)
		golden(t, c.golden, []byte(out))
		checkLinesInOrder(t, out, c.want)
		confirms := strings.Count(out, "\nconfirmed at ")
		if confirms == 0 || confirms != strings.Count(out, ", as predicted\n") {
			t.Errorf("%v: not every recording is as predicted:\n%s", c.args, out)
		}
	}
}

// TestFitStepJSON: the step's peak at the answer fits and one past it does
// not, and both recordings agree.
func TestFitStepJSON(t *testing.T) {
	out := mustRunCLI(t, append([]string{"fit", "--step", "--budget", "24GiB,80GiB", "--along", "T", "--at", "B=8", "--json", "--confirm"}, stepCourse...)...)
	var f model.FitJSON
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Budgets) != 2 {
		t.Fatalf("%+v", f)
	}
	for _, b := range f.Budgets {
		budget, _ := doc.ParseSize(b.Budget)
		at, _ := doc.ParseSize(b.At.Needs)
		past, _ := doc.ParseSize(b.Past.Needs)
		if b.Fits != "up_to" || at.Cmp(budget) > 0 || past.Cmp(budget) <= 0 || b.At.Phase != "backward" || b.At.Holder.Label == "" {
			t.Errorf("%+v", b)
		}
		if len(b.Confirmed) != 2 || !b.Confirmed[0].OK || !b.Confirmed[1].OK {
			t.Errorf("confirmed %+v", b.Confirmed)
		}
	}
	if f.Budgets[0].Largest != 2556 || f.Budgets[1].Largest != 4945 {
		t.Errorf("largest T %d and %d, want 2556 and 4945 (the text's)", f.Budgets[0].Largest, f.Budgets[1].Largest)
	}
}

// TestStepQueriesUsage: the step's flags on eval and fit, misused.
func TestStepQueriesUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--step", "--along", "T", "--program", "gpt-course"}, "memsym: --along goes without --step: eval --step gives the step's terms at --at\n"},
		{[]string{"eval", "--step", "--program", "gpt-course"}, "memsym: eval --step needs --at B=N,T=N, a value for each dimension\n"},
		{[]string{"eval", "--remat", "both", "--at", "B=2,T=16", "--program", "gpt-course"}, "memsym: --remat goes with --step\n"},
		{[]string{"eval", "--step", "--json", "--remat", "both", "--at", "B=2,T=16", "--program", "gpt-course"}, "memsym: --json gives one step: with --remat both, ask for store and recompute apart\n"},
		{[]string{"eval", "--step", "--at", "B=2", "--program", "gpt-course"}, "memsym: --at B=2: no value for T: every dimension (B, T) needs one\n"},
		{[]string{"fit", "--step", "--budget", "1GiB", "--along", "L", "--at", "B=2", "--program", "gpt-course"}, "memsym: --along L: no dimension L (the dimensions are B, T)\n"},
		{[]string{"fit", "--step", "--budget", "1GiB", "--along", "T", "--program", "gpt-course", "--remat", "never"}, "memsym: --remat never: expected store, recompute or both\n"},
		{[]string{"fit", "--optimizer", "sgd", "--budget", "1GiB", "--along", "T", "--at", "B=2", "--program", "gpt-course"}, "memsym: --optimizer goes with --step\n"},
		{[]string{"fit", "--step", "--budget", "1GiB", "--along", "B", "--optimizer", "sgd", "testdata/step/small.jsonl"}, "memsym: --optimizer goes with --program: a recording of a step was made with its own\n"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, errs, c.want)
		}
	}
	_, errs, code := runCLI("eval", "--step", "--at", "B=2", "--program", "mlp-train-step")
	if code != 1 || !strings.Contains(errs, "mlp-train-step has no --step") {
		t.Errorf("eval --step on mlp-train-step: exit %d, %q", code, errs)
	}
}

// TestStepUnits: memory --step and symbolic --step write units as memory
// does: binary by default, decimal with --units si, none with --units
// bytes; the exact figures stay the same.
func TestStepUnits(t *testing.T) {
	memory := func(units string) string {
		return mustRunCLI(t, "memory", "--step", "--program", "gpt-course", "--const", courseConsts, "--dim", "B=16,T=256", "--units", units)
	}
	iec, si, bytes := memory("iec"), memory("si"), memory("bytes")
	for _, c := range []struct {
		out, has, lacks string
	}{{iec, "1850119176  (1.72 GiB)", " GB)"}, {si, "1850119176  (1.85 GB)", "GiB)"}, {bytes, "1850119176", "B)"}} {
		if !strings.Contains(c.out, c.has) || strings.Contains(c.out, c.lacks) {
			t.Errorf("memory --step: want %q and no %q in:\n%s", c.has, c.lacks, c.out)
		}
	}
	sym := mustRunCLI(t, "symbolic", "--step", "--program", "llama2-7b-block", "--units", "si")
	if !strings.Contains(sym, ", in bytes: ") || !strings.Contains(sym, "  gradient               1858125824 (1.86 GB)\n") {
		t.Errorf("symbolic --step --units si:\n%s", sym)
	}
	if sym := mustRunCLI(t, "symbolic", "--step", "--program", "llama2-7b-block", "--units", "bytes"); strings.Contains(sym, "B)") {
		t.Errorf("symbolic --step --units bytes writes units:\n%s", sym)
	}
}
