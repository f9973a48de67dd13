package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgramLimits: bert-encoder runs only for T ≤ P = 512. eval refuses
// a point past it, as bad usage of --at; fit's answer past it is noted with the last T it runs
// at, and --confirm does not try to record there; an answer within the
// limits gets no note.
func TestProgramLimits(t *testing.T) {
	_, errs, code := runCLI("eval", "--program", "bert-encoder", "--at", "B=1,T=100000")
	if want := "memsym: --at B=1,T=100000: bert-encoder does not run at B = 1, T = 100000: T = 100000 is more than P = 512\n"; code != 2 || errs != want {
		t.Errorf("eval past P: exit %d, %q; want exit 2, %q", code, errs, want)
	}
	note := "note: bert-encoder does not run at B = 1, T = 51766: T = 51766 is more than P = 512; it runs at T = 512 but not at T = 513, and T = 512 fits"
	out := mustRunCLI(t, "fit", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "80GiB")
	if !strings.Contains(out, "\n"+note+"\n") {
		t.Errorf("fit past P:\n%s", out)
	}
	out = mustRunCLI(t, "fit", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "80GiB", "--confirm")
	if !strings.Contains(out, "\n"+note+"; not confirmed: the program cannot be recorded there\n") || strings.Contains(out, "confirmed at") {
		t.Errorf("fit --confirm past P:\n%s", out)
	}
	// Under 40 MiB the answer, T = 303, is within P: no note, and it is
	// confirmed.
	out = mustRunCLI(t, "fit", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "40MiB", "--confirm")
	if strings.Contains(out, "note:") || !strings.Contains(out, "confirmed at B = 1, T = 303") {
		t.Errorf("fit within P:\n%s", out)
	}
	out = mustRunCLI(t, "fit", "--program", "gpt-depth", "--along", "L", "--at", "B=1,T=1", "--budget", "10GiB")
	if !strings.Contains(out, "it runs at L = 10000 but not at L = 10001, and L = 10000 fits") {
		t.Errorf("fit past gpt-depth's L limit:\n%s", out)
	}
}

// TestProgramLimitsStep: the step's eval and fit keep bert-encoder's
// T ≤ P as the forward's do.
func TestProgramLimitsStep(t *testing.T) {
	_, errs, code := runCLI("eval", "--step", "--program", "bert-encoder", "--at", "B=8,T=1000")
	if want := "memsym: --at B=8,T=1000: bert-encoder does not run at B = 8, T = 1000: T = 1000 is more than P = 512\n"; code != 2 || errs != want {
		t.Errorf("eval --step past P: exit %d, %q; want exit 2, %q", code, errs, want)
	}
	note := "note: bert-encoder does not run at B = 8, T = 12768: T = 12768 is more than P = 512; it runs at T = 512 but not at T = 513, and T = 512 fits"
	out := mustRunCLI(t, "fit", "--step", "--program", "bert-encoder", "--budget", "80GiB", "--along", "T", "--at", "B=8", "--confirm")
	if !strings.Contains(out, "\n"+note+"; not confirmed: the program cannot be recorded there\n") || strings.Contains(out, "confirmed at") {
		t.Errorf("fit --step --confirm past P:\n%s", out)
	}
	out = mustRunCLI(t, "fit", "--step", "--program", "bert-encoder", "--budget", "80GiB", "--along", "T", "--at", "B=8", "--json")
	if !strings.Contains(out, `"not_running": "`+strings.TrimPrefix(note, "note: ")+`"`) {
		t.Errorf("fit --step --json past P has no not_running:\n%s", out)
	}
}

// TestProgramLimitsStepChange: symbolic --step says when the states and
// the kept activations change places past what the program takes.
func TestProgramLimitsStepChange(t *testing.T) {
	out := mustRunCLI(t, "symbolic", "--step", "--program", "bert-encoder")
	want := "the kept activations are larger from T = 679 on (T = 679 lies beyond the sizes the program takes: T = 679 is more than P = 512)\n"
	if !strings.Contains(out, want) {
		t.Errorf("symbolic --step:\n%s", out)
	}
	if out := mustRunCLI(t, "symbolic", "--step", "--program", "gpt-course"); strings.Contains(out, "lies beyond") {
		t.Errorf("gpt-course's step, which runs everywhere, is said to change beyond it:\n%s", out)
	}
}

// TestFitWhereBytesAreNegative: at S = 1 strided-conv's polynomials are
// negative at N = 1, where the program does not run: fit answers from
// N = 3, where it starts to run, and says of no budget what the
// polynomials give below it (1 640 bytes, which the polynomials give at
// N = 1, is no answer: N = 3 needs 1 688).
func TestFitWhereBytesAreNegative(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=1", "--budget", "1000,1640")
	for _, want := range []string{
		"  1000 bytes                  none\n",
		"  1640 bytes (1.60 KiB)       none\n",
		"no N ≥ 3 fits 1000 bytes: N = 3 needs 1688 bytes (1.65 KiB)\n", // strided-conv runs from N = K = 3
		"note: strided-conv does not run at B = 1, N = 2: K = 3 is more than N = 2; it runs from N = 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit lacks %q:\n%s", want, out)
		}
	}
	out = mustRunCLI(t, "fit", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=1", "--budget", "1000", "--json")
	var got struct {
		Budgets []struct {
			RunsFrom int64 `json:"runs_from"`
			Least    struct {
				At int64 `json:"at"`
			} `json:"least"`
			Past struct {
				Point map[string]int64 `json:"point"`
			} `json:"past"`
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Budgets) != 1 {
		t.Fatalf("fit --json: %v:\n%s", err, out)
	}
	if b := got.Budgets[0]; b.RunsFrom != 3 || b.Least.At != 3 || b.Past.Point["N"] != 3 {
		t.Errorf("fit --json: runs_from %d, least at N = %d, past at N = %d; want 3, where the program starts to run:\n%s", b.RunsFrom, b.Least.At, b.Past.Point["N"], out)
	}
}

// TestFitAnswerAtTheLimit: under 47 812 096 bytes bert-encoder's answer
// is T = 512, its last: T = 513, one past it, is noted and not recorded,
// and --confirm confirms the answer alone.
func TestFitAnswerAtTheLimit(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "47812096", "--confirm")
	for _, want := range []string{
		"note: T = 513, one past the answer, lies past the sizes the program takes (bert-encoder does not run at B = 1, T = 513: T = 513 is more than P = 512), and is not recorded\n",
		"confirmed at B = 1, T = 512: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "confirmed at B = 1, T = 513") {
		t.Errorf("T = 513 was recorded:\n%s", out)
	}
}

// TestCrossoverBeyondTheProgram: at S = 1 strided-conv's crossover along N
// has a side at N = 2, below K = 3, where the program does not run:
// crossover --confirm says so and records nothing, and explain writes its
// chapter saying why no recording confirms the crossover.
func TestCrossoverBeyondTheProgram(t *testing.T) {
	out := mustRunCLI(t, "crossover", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=1", "--confirm")
	if !strings.HasSuffix(out, "\nnot confirmed: B = 1, N = 2, one side of a crossover, lies past the sizes strided-conv takes (K = 3 is more than N = 2)\n") {
		t.Errorf("crossover --confirm:\n%s", out)
	}
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "strided-conv", "--const", "S=1", "--format", "md", "--verify", "0", "-o", dir)
	md, err := os.ReadFile(filepath.Join(dir, "chapter13.md"))
	if err != nil || !strings.Contains(string(md), "No recording was made beside the crossover to confirm it: B = 8, N = 2, one side of a crossover, lies past the sizes strided-conv takes (K = 3 is more than N = 2)") {
		t.Errorf("the chapter does not say why the crossover is not confirmed (%v)", err)
	}
}

// TestFitBelowTheProgram: at S = 1 strided-conv runs from N = K = 3. The
// fit's "every smaller N fits too" is said down to N = 3, with a note on
// why not below, and the JSON gives runs_from; an answer of N = 1, where
// the program does not run, has no smaller values to speak of.
func TestFitBelowTheProgram(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=8", "--budget", "1MiB,100KiB")
	for _, want := range []string{
		"\nevery smaller N down to 3 fits too\n",
		"\nnote: strided-conv does not run at B = 8, N = 2: K = 3 is more than N = 2; it runs from N = 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "every smaller N fits too") {
		t.Errorf("fit says every smaller N fits, N = 1 and 2 included:\n%s", out)
	}
	js := mustRunCLI(t, "fit", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=8", "--budget", "1MiB", "--json")
	if !strings.Contains(js, `"runs_from": 3`) || !strings.Contains(js, `"every_smaller_fits": true`) {
		t.Errorf("fit --json has no runs_from 3:\n%s", js)
	}
	out = mustRunCLI(t, "fit", "--step", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=8", "--budget", "1MiB")
	if !strings.Contains(out, "\nevery smaller N down to 3 fits too\n") || !strings.Contains(out, "it runs from N = 3\n") {
		t.Errorf("fit --step:\n%s", out)
	}
	out = mustRunCLI(t, "fit", "--program", "strided-conv", "--const", "S=1", "--along", "N", "--at", "B=1", "--budget", "1640")
	if strings.Contains(out, "smaller than 1") || strings.Contains(out, "every smaller") {
		t.Errorf("fit speaks of N below its answer N = 1:\n%s", out)
	}
	// A program that runs at every N ≥ 1 gets no such note.
	if out := mustRunCLI(t, "fit", "--program", "gpt-course", "--along", "T", "--at", "B=1", "--budget", "1GiB"); strings.Contains(out, "runs from") || strings.Contains(out, "down to") {
		t.Errorf("gpt-course's fit:\n%s", out)
	}
}

// TestFitAlongBlocks: gpt-depth's model holds from L = 2. fit along L says
// what it says of smaller L down to 2, its JSON gives that domain, and the
// operation that binds one past the answer is numbered as in a recording
// there: the optimizer's update comes after every block, so its number
// grows with L (295 at L = 7, where the grid's recordings number it 175).
func TestFitAlongBlocks(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "gpt-depth", "--along", "L", "--at", "B=2,T=16", "--budget", "2179200")
	if !strings.Contains(out, "\nevery smaller L down to 2 fits too\n") {
		t.Errorf("fit along L:\n%s", out)
	}
	js := mustRunCLI(t, "fit", "--program", "gpt-depth", "--along", "L", "--at", "B=2,T=16", "--budget", "1MB", "--json")
	var f struct {
		Domain  map[string]int64 `json:"domain"`
		Budgets []struct {
			Fits string `json:"fits"`
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(js), &f); err != nil {
		t.Fatal(err)
	}
	if f.Domain["L"] != 2 || len(f.Budgets) != 1 || f.Budgets[0].Fits != "none" {
		t.Errorf("fit --json: domain %v, budgets %+v", f.Domain, f.Budgets)
	}
	out = mustRunCLI(t, "fit", "--step", "--program", "gpt-depth", "--along", "L", "--at", "B=2,T=16", "--budget", "20MB", "--confirm")
	for _, want := range []string{
		"operation 295\n",
		"binds at L + 1: operation 295 (`AdamW.update` in adamw.step), in the optimizer phase\n",
		"confirmed at B = 2, T = 16, L = 7: recorded step's peak 20317736 bytes (19.4 MiB), the peak at operation 295,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit --step along L lacks %q:\n%s", want, out)
		}
	}
}

// TestRefusedBeforeRecording: a check point on the grid or below 1, an
// --at below 1, a constant out of its range and a grid or check point
// where the program does not run are refused as the command line's
// mistakes (exit 2) before anything is recorded: the recorder, which
// notes each call, is never called.
func TestRefusedBeforeRecording(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	rec := "echo {B} {T} >> " + calls + "; exit 1"
	grid := []string{"--recorder", rec, "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"symbolic", "--check", "B=5,T=8"}, grid...), "memsym: --check B=5,T=8: T = 8 is a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value\n"},
		{append([]string{"symbolic", "--check", "B=5,T=0"}, grid...), "memsym: --check B=5,T=0: T = 0: dimensions are integers of at least 1\n"},
		{append([]string{"symbolic", "--timeout", "-1s"}, grid...), "memsym: --timeout -1s: expected a duration of at least 0 (0 for no limit)\n"},
		{append([]string{"explain", "-o", filepath.Join(dir, "out"), "--at", "B=2,T=-3"}, grid...), "memsym: --at T=-3: dimensions are integers of at least 1\n"},
		{[]string{"symbolic", "--program", "gpt-course", "--const", "D=0"}, "memsym: --const: constant D = 0: expected an integer from 1 to 16777216\n"},
		{[]string{"symbolic", "--program", "bert-encoder", "--grid", "T=400,450,600"}, "memsym: bert-encoder does not run at B = 2, T = 600: T = 600 is more than P = 512; the grid's every point is recorded: give --grid values where it runs\n"},
		// The chapter's default point, which the constants moved past:
		// not blamed on an --at that was not given.
		{[]string{"explain", "-o", filepath.Join(dir, "out"), "--program", "bert-encoder", "--const", "P=100", "--grid", "T=1,2,3"}, "memsym: the chapter counts the program at its default point, B = 8, T = 128, where it does not run: T = 128 is more than P = 100; give --at a point where it runs\n"},
		{[]string{"symbolic", "--program", "bert-encoder", "--check", "B=3,T=600"}, "memsym: --check B=3,T=600: bert-encoder does not run at B = 3, T = 600: T = 600 is more than P = 512\n"},
		{[]string{"explain", "-o", filepath.Join(dir, "out"), "--program", "bert-encoder", "--at", "B=2,T=600"}, "memsym: --at B=2,T=600: bert-encoder does not run at B = 2, T = 600: T = 600 is more than P = 512\n"},
		{[]string{"symbolic", "--program", "bert-encoder", "--grid", "T=400,450,500", "--check", "B=17,T=1053"}, "memsym: --check B=17,T=1053: bert-encoder does not run at B = 17, T = 1053: T = 1053 is more than P = 512\n"}, // one of memsym's own points, given
		{[]string{"crossover", "--program", "gpt-course", "--along", "T", "--at", "B=0"}, "memsym: --at B=0: dimensions are integers of at least 1\n"},
		{[]string{"crossover", "--program", "gpt-depth", "--along", "T", "--at", "B=2,L=1"}, "memsym: --at B=2,L=1: L = 1: the model holds for every L ≥ 2, L counting blocks whose first and last stand apart\n"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(calls); err == nil {
		b, _ := os.ReadFile(calls)
		t.Errorf("the recorder was called:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("explain made its folder")
	}
	// The default check points bert-encoder does not run at, past a grid
	// that ends near its P = 512, are left out; its own, below the grid,
	// is kept.
	out := mustRunCLI(t, "symbolic", "--program", "bert-encoder", "--grid", "T=400,450,500")
	if !strings.Contains(out, "T ∈ {400, 450, 500}, checked at B = 9, T = 320\n") {
		t.Errorf("bert-encoder's grid up to T = 500:\n%s", out)
	}
}

// TestProgramPointMistakes: record and memory --step refuse a bundled
// program's point as the command line's mistake (exit 2), as eval does.
func TestProgramPointMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"record", "--program", "gpt-course", "--dim", "B=0"}, "memsym: gpt-course: dimension B = 0: expected an integer from 1 to 1099511627776\n"},
		{[]string{"record", "--program", "bert-encoder", "--dim", "T=600"}, "memsym: bert-encoder: T = 600 is more than P = 512\n"},
		{[]string{"memory", "--step", "--program", "gpt-course", "--dim", "X=1"}, "memsym: --dim X: gpt-course has no dimension X; its dimensions are B and T\n"},
		{[]string{"memory", "--step", "--program", "bert-encoder", "--dim", "T=600"}, "memsym: bert-encoder: T = 600 is more than P = 512\n"},
	} {
		out, errs, code := runCLI(c.args...)
		if code != 2 || errs != c.want || out != "" {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, errs, c.want)
		}
	}
}

// TestRecomputeSavesLittle: a saving under a tenth reads as a share, not
// as "1.0 times less".
func TestRecomputeSavesLittle(t *testing.T) {
	out := mustRunCLI(t, "memory", "--step", "--program", "gpt-course", "--dim", "B=11", "--remat", "both")
	if !strings.Contains(out, "\nrecompute needs 1.3% less than store, 84192 bytes (82.2 KiB) fewer\n") {
		t.Errorf("memory --step --remat both at B = 11:\n%s", out)
	}
}
