package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRecorder returns the --recorder command of testdata/recorder's fake
// recorder, which writes dir's recording b{B}-t{T}.jsonl at each point, or
// misbehaves at the values of B its comment lists.
func fakeRecorder(t *testing.T, dir string) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "fake-recorder.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("sh '%s' '%s' {B} {T}", script, dir)
}

// TestRecorderSuccess: the course GPT recorded by a recorder command gives
// the model --program gives, from symbolic, crossover --confirm and verify.
func TestRecorderSuccess(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 48, 64}, []int64{256, 512, 768, 1024})
	recordGrid(t, dir, []int64{2}, []int64{149, 150})
	recordGrid(t, dir, []int64{65}, []int64{1025}) // the default check points
	recordGrid(t, dir, []int64{115}, []int64{1795})
	t.Setenv("TMPDIR", t.TempDir())
	rec := []string{"--recorder", fakeRecorder(t, dir), "--grid", "B=16,32,48", "--grid", "T=256,512,768"}

	// The same model, checked at the recorder's default points and the
	// one given.
	got := mustRunCLI(t, append(append([]string{"symbolic"}, rec...), "--check", "B=64,T=1024")...)
	want := mustRunCLI(t, "symbolic", "--program", "gpt-course", "--const", courseConsts)
	gotHead, gotRest, _ := strings.Cut(got, "\n")
	_, wantRest, _ := strings.Cut(want, "\n")
	if gotRest != wantRest || !strings.HasSuffix(gotHead, "checked at B = 65, T = 1025; B = 115, T = 1795; B = 64, T = 1024") {
		t.Errorf("symbolic with the recorder:\n%s\nwith --program:\n%s", got, want)
	}
	noLeftovers(t)

	got = mustRunCLI(t, append(append([]string{"crossover"}, rec...), "--along", "T", "--at", "B=2", "--confirm")...)
	want = mustRunCLI(t, "crossover", "--program", "gpt-course", "--const", courseConsts, "--along", "T", "--at", "B=2", "--confirm")
	// The same, but for the note that T = 1 was not recorded, which a
	// recorder may treat otherwise; a bundled program does not.
	title, rest, _ := strings.Cut(want, "\n")
	want = title + "\n" + sizeOneNote("T = 1") + rest
	if got != want {
		t.Errorf("crossover with the recorder:\n%s\nwant:\n%s", got, want)
	}
	noLeftovers(t)
}

// TestRecorderFailures: each way a recorder can fail is one line naming
// the point, and nothing is left in the temporary directory.
func TestRecorderFailures(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 48, 904}, []int64{256, 512, 768})
	recordGrid(t, dir, []int64{64}, []int64{1024})
	t.Setenv("TMPDIR", t.TempDir())
	for _, c := range []struct {
		name  string
		b     int // the value of B at which the recorder misbehaves
		want  []string
		extra []string
	}{
		{"a non-zero exit", 901, []string{"memsym: the recorder at B = 901, T = ", " failed (exit status 3); its standard error ends: fake-recorder: cannot build the model at B=901, T="}, nil},
		{"no output", 902, []string{"memsym: recorder(B=902,T=", "):1: the recording ends without the header and the result line {\"result\": [...]}"}, nil},
		{"garbage", 903, []string{"memsym: recorder(B=903,T=", "):1: expected a record, a JSON object {...}, found \"Segmentation fault (core dumped)\""}, nil},
		{"partial output, then exit 0", 904, []string{"memsym: recorder(B=904,T=", "):5: the recording ends without the result line {\"result\": [...]}"}, nil},
		{"hanging", 905, []string{"memsym: the recorder at B = 905, T = ", " did not finish within 1s and was stopped, writing nothing to its standard error"}, []string{"--timeout", "1s"}},
		{"a flood on stderr", 906, []string{"memsym: the recorder at B = 906, T = ", " failed (exit status 1); its standard error ends: …", "a line of noise on the standard error | fake-recorder: out of memory at B=906, T="}, nil},
		{"another point's recording", 907, []string{"memsym: recorder(B=907,T=", "):1: the recorder was asked for B = 907, T = ", " but its header says B = 48, T = "}, nil},
	} {
		// The recordings at the default check points, which the recorder
		// is asked for too.
		for _, p := range defaultChecks(t, [][3]int64{{16, 32, int64(c.b)}, {256, 512, 768}}, []string{"B", "T"}) {
			recordGrid(t, dir, []int64{p[0].Value}, []int64{p[1].Value})
		}
		args := append([]string{"symbolic", "--recorder", fakeRecorder(t, dir), "--grid", fmt.Sprintf("B=16,32,%d", c.b), "--grid", "T=256,512,768", "--check", "B=64,T=1024"}, c.extra...)
		out, errs, code := runCLI(args...)
		if code != 1 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line", c.name, code, out, errs)
			continue
		}
		rest := errs
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: %q is not in (the rest of) %s", c.name, w, errs)
				break
			}
			rest = rest[i+len(w):]
		}
		if len(errs) > 1200 {
			t.Errorf("%s: a message of %d bytes: %s", c.name, len(errs), errs)
		}
		noLeftovers(t)
	}
}

// TestRecorderCommandErrors: a recorder command that cannot be run, or
// cannot be parsed, is a clear error before anything is recorded.
func TestRecorderCommandErrors(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, c := range []struct {
		cmd  string
		code int
		want string
	}{
		{"/nonexistent/recorder {B} {T}", 1, `failed (exit status 127: the shell found no such command); its standard error ends: sh: 1: /nonexistent/recorder: not found`},
		{"rec '{B} {T}", 2, `memsym: recorder command "rec '{B} {T}": the shell cannot read it: sh: 1: Syntax error: Unterminated quoted string`},
		{"rec {B} {T", 2, `memsym: recorder command "rec {B} {T": a { without its }: write {NAME} for a dimension, {{ for a brace`},
		// Given empty, as a script's unset variable gives it: said as
		// that, not as no source given.
		{"", 2, "memsym: --recorder is empty: expected a shell command that writes a recording, such as 'python3 rec.py {B} {T}'"},
	} {
		out, errs, code := runCLI("symbolic", "--recorder", c.cmd, "--grid", "B=1,2,3", "--grid", "T=1,2,3")
		// Which point fails first is not known: the message names one.
		ok := errs == c.want+"\n" || strings.HasPrefix(c.want, `failed`) && strings.HasPrefix(errs, "memsym: the recorder at B = ") && strings.Contains(errs, c.want)
		if code != c.code || out != "" || !ok {
			t.Errorf("%q: exit %d, stdout %q\n got %s\nwant %s", c.cmd, code, out, errs, c.want)
		}
	}
	noLeftovers(t)
}

// TestRecorderOrderOfDimensions: --grid given in another order than the
// recorder writes its dimensions is said as that, not as another point;
// and explain's --at, given as one list (which the flag sorts), takes the
// grid's order, so the recorder is asked for the point it writes.
func TestRecorderOrderOfDimensions(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768})
	for _, p := range defaultChecks(t, [][3]int64{{16, 32, 48}, {256, 512, 768}}, []string{"B", "T"}) {
		recordGrid(t, dir, []int64{p[0].Value}, []int64{p[1].Value})
	}
	t.Setenv("TMPDIR", t.TempDir())
	_, errs, code := runCLI("symbolic", "--recorder", fakeRecorder(t, dir), "--grid", "T=256,512,768", "--grid", "B=16,32,48")
	if code != 1 || !strings.Contains(errs, "the recorder writes its dimensions in the order B, T, where the grid has them T, B: give --grid in the recorder's order\n") {
		t.Errorf("--grid T before B: exit %d, %s", code, errs)
	}

	// A recorder whose dimensions are B, T, K, not in alphabetical order:
	// --at B=3,T=20,K=2 as one list, which the flag sorts to B, K, T,
	// reaches it in the grid's order.
	script := filepath.Join(t.TempDir(), "btk.sh")
	text := `printf '{"memsym": 1, "dims": {"B": %s, "T": %s, "K": %s}}\n{"buffer": 1, "bytes": %s, "name": "x"}\n{"op": "F.apply", "writes": [1]}\n{"result": [1]}\n' "$1" "$2" "$3" $(($1 * $2 * $3))` + "\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	btk := []string{"--recorder", "sh " + script + " {B} {T} {K}", "--grid", "B=1,2,3", "--grid", "T=4,8,12", "--grid", "K=2,3,4"}
	out := filepath.Join(t.TempDir(), "chapter")
	mustRunCLI(t, append([]string{"explain", "--at", "B=3,T=20,K=2", "--format", "md", "--verify", "0", "-o", out}, btk...)...)
	md, err := os.ReadFile(filepath.Join(out, "chapter13.md"))
	if err != nil || !strings.Contains(string(md), "*B* = 3, *T* = 20, *K* = 2") {
		t.Errorf("the chapter is not at B = 3, T = 20, K = 2 (%v)", err)
	}
	_, errs, code = runCLI(append([]string{"explain", "--at", "B=3", "--format", "md", "-o", out}, btk...)...)
	if code != 2 || errs != "memsym: --at: no value for T\n" {
		t.Errorf("--at without T: exit %d, %q", code, errs)
	}
}

// TestRecorderGrowingBlocks: where the layer count L counts blocks whose
// bytes grow from block to block, the model's first middle block stands
// for the last; every command names the operation, and its block, as a
// recording at the point has them: the structure's own (at L = 3) for
// symbolic, the point's for eval, fit and crossover.
func TestRecorderGrowingBlocks(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "growing.sh"))
	if err != nil {
		t.Fatal(err)
	}
	rec := []string{"--recorder", "sh " + script + " {B} {L}", "--grid", "B=1,2,3", "--grid", "L=1,2,3"}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"symbolic"}, []string{"                64 · B · L − 32 · B, at operation 3 (`Linear.apply` in layers[2])"}},
		{[]string{"eval", "--at", "B=1,L=7"}, []string{
			"  peak         416 bytes              64 · B · L − 32 · B, at operation 7 (`Linear.apply` in layers[6])",
			"  operation 7  416 bytes    64 · B · L − 32 · B  ← the peak",
		}},
		{[]string{"fit", "--at", "B=1", "--along", "L", "--budget", "3000"}, []string{"binds at L + 1: operation 10 (`Linear.apply` in layers[9])"}},
		{[]string{"crossover", "--along", "B", "--at", "L=6"}, []string{
			"  B ≥ 1            64 · B · L − 32 · B, at operation 6 (`Linear.apply` in layers[5])",
			"the candidate at operation 6 holds the peak for every B ≥ 1",
		}},
	} {
		out := mustRunCLI(t, append(c.args, rec...)...)
		checkLinesInOrder(t, out, c.want)
	}
	// The JSON's confirmations number the predicted operation as the
	// recording at their point does, as the peak's.
	var cross struct {
		Confirmed []struct {
			PredictedOp int  `json:"predicted_op"`
			PeakOp      int  `json:"peak_op"`
			OK          bool `json:"ok"`
		} `json:"confirmed"`
	}
	out := mustRunCLI(t, append([]string{"crossover", "--along", "L", "--at", "B=1", "--confirm", "--json"}, rec...)...)
	if err := json.Unmarshal([]byte(out), &cross); err != nil || len(cross.Confirmed) != 2 {
		t.Fatalf("crossover --json: %v\n%s", err, out)
	}
	for _, c := range cross.Confirmed {
		if !c.OK || c.PredictedOp != c.PeakOp {
			t.Errorf("crossover --json: predicted operation %d, recorded %d, ok %v", c.PredictedOp, c.PeakOp, c.OK)
		}
	}
	// At L = 7 a recording has the peak there too.
	dir := t.TempDir()
	path := filepath.Join(dir, "l7.jsonl")
	if _, err := exec.Command("sh", "-c", "sh "+script+" 1 7 > "+path).Output(); err != nil {
		t.Fatal(err)
	}
	checkLinesInOrder(t, mustRunCLI(t, "memory", path), []string{"  peak        416 bytes live, at operation 7 of 8, `Linear.apply` in layers, iteration 6"})
}

// A recording that contradicts a fit is said as what it is: its needs on
// their own side of the budget, not the prediction's, and the line not
// headed "confirmed" (before: "confirmed at B = 1, T = 80: recorded needs
// 27240 bytes …, fits 26240 bytes"); the JSON gives both sides.
func TestFitConfirmContradicted(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "bump.sh"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"fit", "--along", "T", "--at", "B=1", "--budget", "26240", "--confirm",
		"--recorder", "sh " + script + " {B} {T}", "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	out, _, code := runCLI(args...)
	const want = "checked at B = 1, T = 80: recorded needs 27240 bytes (26.6 KiB), the peak at operation 3, does not fit 26240 bytes (25.6 KiB), NOT as predicted: "
	if code != 1 || !strings.Contains(out, "\n"+want) || !strings.Contains(out, "\nconfirmed at B = 1, T = 81: ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, _ = runCLI(append(args, "--json")...)
	var got struct {
		Budgets []struct {
			Confirmed []struct {
				PredictedFits bool `json:"predicted_fits"`
				Fits          bool `json:"fits"`
				OK            bool `json:"ok"`
			} `json:"confirmed"`
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(got.Budgets) != 1 || len(got.Budgets[0].Confirmed) != 2 {
		t.Fatalf("%s", out)
	}
	if c := got.Budgets[0].Confirmed[0]; !c.PredictedFits || c.Fits || c.OK {
		t.Errorf("at T = 80: predicted_fits %v, fits %v, ok %v; want true, false, false", c.PredictedFits, c.Fits, c.OK)
	}
}

// A recording made to confirm an answer is checked against the model
// there, not only at its peak: extraop.sh runs one operation more from
// T = 1000 on, after the peak, so that both sides of its crossover at
// T = 1001 have the peak predicted, at the operation predicted. Before,
// both were "confirmed … as predicted"; the operations differ, and the
// model's numbers do not hold there.
func TestConfirmChecksTheOperations(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "extraop.sh"))
	if err != nil {
		t.Fatal(err)
	}
	grid := []string{"--recorder", "sh " + script + " {B} {T}", "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	out, _, code := runCLI(append([]string{"crossover", "--along", "T", "--confirm"}, grid...)...)
	const want = "checked at B = 1, T = 1000: recorded peak 4004000 bytes (3.82 MiB) at operation 2, NOT as predicted: the recording is not the model's there: "
	if code != 1 || !strings.Contains(out, "\n"+want) || !strings.Contains(out, `record 9 is buffer 5 "out" at B = 1, T = 4 but operation "touch" at B = 1, T = 1000`) || strings.Contains(out, "confirmed at") {
		t.Errorf("crossover --confirm: exit %d:\n%s", code, out)
	}
	out, _, _ = runCLI(append([]string{"crossover", "--along", "T", "--confirm", "--json"}, grid...)...)
	var cross struct {
		Confirmed []struct {
			OK      bool   `json:"ok"`
			Differs string `json:"differs"`
		} `json:"confirmed"`
	}
	if err := json.Unmarshal([]byte(out), &cross); err != nil || len(cross.Confirmed) != 2 {
		t.Fatalf("crossover --confirm --json: %v\n%s", err, out)
	}
	for _, c := range cross.Confirmed {
		if c.OK || !strings.Contains(c.Differs, `"touch"`) {
			t.Errorf("crossover --confirm --json: ok %v, differs %q", c.OK, c.Differs)
		}
	}
	// fit's recordings are checked too, but a fit says the needs at its
	// answer and one past it, not where the peak lies: at B = 1 the needs
	// pass 4 004 000 bytes at T = 1001, where the operations differ, and
	// are the predicted ones on both sides. The answer is confirmed, the
	// operations that differ noted (before, "NOT as predicted", exit 1).
	out, stderr, code := runCLI(append([]string{"fit", "--along", "T", "--at", "B=1", "--budget", "4004000", "--confirm"}, grid...)...)
	if code != 0 || stderr != "" || strings.Contains(out, "NOT as predicted") ||
		!strings.Contains(out, "\nconfirmed at B = 1, T = 1000: recorded needs ") ||
		!strings.Contains(out, "\n  note: the recording at B = 1, T = 1000 has operations the model's grid did not have; the answer rests on the needs, as predicted: ") ||
		!strings.Contains(out, `but operation "touch" at B = 1, T = 1000`) || strings.Contains(out, "make it a constant") {
		t.Errorf("fit --confirm: exit %d:\n%s\n%s", code, out, stderr)
	}
	out, _, code = runCLI(append([]string{"fit", "--along", "T", "--at", "B=1", "--budget", "4004000", "--confirm", "--json"}, grid...)...)
	var fit struct {
		Budgets []struct {
			Confirmed []struct {
				OK      bool   `json:"ok"`
				Differs string `json:"differs"`
			} `json:"confirmed"`
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(out), &fit); err != nil || code != 0 || len(fit.Budgets) != 1 || len(fit.Budgets[0].Confirmed) != 2 {
		t.Fatalf("fit --confirm --json: exit %d, %v\n%s", code, err, out)
	}
	// T = 999, then T = 1000, where "touch" runs.
	for i, c := range fit.Budgets[0].Confirmed {
		if !c.OK || strings.Contains(c.Differs, `"touch"`) != (i == 1) {
			t.Errorf("fit --confirm --json, recording %d: ok %v, differs %q", i, c.OK, c.Differs)
		}
	}
}

// A recording that fails beside an answer leaves the answer standing: the
// crossovers and the fit are written, the point said not recorded (in the
// JSON "unrecorded", its recorded fields null), and the command exits 1.
// Before, the one error line was all.
func TestConfirmUnrecorded(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "extraop.sh"))
	if err != nil {
		t.Fatal(err)
	}
	// The recorder fails from T = 1000 on, where it also runs one
	// operation more: both sides of the crossover, and the fit's T + 1.
	rec := "if [ {T} -ge 1000 ]; then echo no room >&2; exit 9; fi; sh " + script + " {B} {T}"
	grid := []string{"--recorder", rec, "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	out, stderr, code := runCLI(append([]string{"crossover", "--along", "T", "--confirm"}, grid...)...)
	if code != 1 || !strings.Contains(out, "  T ≥ 1001 ") || !strings.Contains(out, "\nnot recorded at B = 1, T = 1001, so not confirmed there: ") ||
		!strings.Contains(stderr, "2 recordings failed: nothing was confirmed where they did") {
		t.Errorf("crossover --confirm: exit %d:\n%s\n%s", code, out, stderr)
	}
	out, _, code = runCLI(append([]string{"crossover", "--along", "T", "--confirm", "--json"}, grid...)...)
	var cross struct {
		Segments  []json.RawMessage `json:"segments"`
		Confirmed []struct {
			Peak       *string `json:"peak"`
			OK         bool    `json:"ok"`
			Unrecorded string  `json:"unrecorded"`
		} `json:"confirmed"`
	}
	if err := json.Unmarshal([]byte(out), &cross); err != nil || code != 1 || len(cross.Segments) != 2 || len(cross.Confirmed) != 2 {
		t.Fatalf("crossover --confirm --json: exit %d, %v\n%s", code, err, out)
	}
	if c := cross.Confirmed[1]; c.OK || c.Peak != nil || !strings.Contains(c.Unrecorded, "no room") {
		t.Errorf("crossover --confirm --json at T = 1001: ok %v, peak %v, unrecorded %q", c.OK, c.Peak, c.Unrecorded)
	}
	out, stderr, code = runCLI(append([]string{"fit", "--along", "T", "--at", "B=1", "--budget", "4004000", "--confirm"}, grid...)...)
	if code != 1 || !strings.Contains(out, "\nconfirmed at B = 1, T = 999: ") || !strings.Contains(out, "\nnot recorded at B = 1, T = 1000, so not confirmed there: ") ||
		!strings.Contains(stderr, "1 recording failed: nothing was confirmed where it did") {
		t.Errorf("fit --confirm: exit %d:\n%s\n%s", code, out, stderr)
	}
}

// fit --step --confirm checks its recordings as fit does: one whose
// operations are not the step model's, its step's peak the predicted one,
// confirms the answer with a note, and one that fails leaves the answer
// standing. The recorder is memsym recording the
// course GPT's step, with one operation more at B = 56 and 57 (the answer
// and one past it for 20 MiB at T = 16), or failing there.
func TestStepFitConfirmChecks(t *testing.T) {
	self := "MEMSYM_TEST_MAIN=1 " + os.Args[0] + " record --program gpt-course --step --dim B={B},T={T}"
	grid := []string{"--grid", "B=16,32,48", "--grid", "T=256,512,768"}
	args := []string{"fit", "--step", "--along", "B", "--at", "T=16", "--budget", "20MiB", "--confirm"}
	touch := "if [ {B} -ge 56 ] && [ {B} -le 57 ]; then " + self + ` | sed '$i {{"op": "touch", "reads": [1], "writes": [], "phase": "optimizer"}}'; else ` + self + "; fi"
	out, stderr, code := runCLI(append(append(args, "--recorder", touch), grid...)...)
	if code != 0 || !strings.Contains(out, "\nconfirmed at B = 56, T = 16: ") || !strings.Contains(out, "\n  note: the recording at B = 56, T = 16 has operations the model's grid did not have; the answer rests on the step's peak, as predicted: ") ||
		strings.Contains(out, "NOT as predicted") || stderr != "" {
		t.Errorf("an operation more: exit %d:\n%s\n%s", code, out, stderr)
	}
	fail := "if [ {B} -eq 57 ]; then exit 9; fi; " + self
	out, stderr, code = runCLI(append(append(args, "--recorder", fail), grid...)...)
	if code != 1 || !strings.Contains(out, "\nconfirmed at B = 56, T = 16: ") || !strings.Contains(out, "\nnot recorded at B = 57, T = 16, so not confirmed there: ") ||
		!strings.Contains(stderr, "1 recording failed: nothing was confirmed where it did") {
		t.Errorf("a recording failing: exit %d:\n%s\n%s", code, out, stderr)
	}
}

// fit --step's note on values nothing was recorded at names the --check
// that records its answer's, as fit's does (before, it stopped at "(PyTorch
// does)").
func TestStepFitNamesItsCheck(t *testing.T) {
	self := "MEMSYM_TEST_MAIN=1 " + os.Args[0] + " record --program gpt-course --step --dim B={B},T={T}"
	out := mustRunCLI(t, "fit", "--step", "--recorder", self, "--grid", "B=16,32,48", "--grid", "T=256,512,768", "--budget", "1GiB", "--along", "T", "--at", "B=1")
	if want := "(PyTorch does); --check B=1,T=3991 records B = 1\n"; !strings.Contains(out, want) {
		t.Errorf("no %q in:\n%s", want, out)
	}
}

// TestRecorderNoDefaultChecks: a recorder that runs at some sizes only (a
// tiled executor's) cannot record memsym's own check points; the refusal
// says which flag leaves them out, and with --no-default-checks only the
// --check points given are recorded and checked.
func TestRecorderNoDefaultChecks(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768})
	recordGrid(t, dir, []int64{64}, []int64{1024}) // the one check point given; none of memsym's own
	t.Setenv("TMPDIR", t.TempDir())
	rec := []string{"symbolic", "--recorder", fakeRecorder(t, dir), "--grid", "B=16,32,48", "--grid", "T=256,512,768", "--check", "B=64,T=1024"}
	_, errs, code := runCLI(rec...)
	if code != 1 || !strings.HasPrefix(errs, "memsym: the recorder at the check point memsym chose, B = 65, T = 1025, failed") ||
		!strings.HasSuffix(errs, "; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller\n") {
		t.Errorf("without --no-default-checks: exit %d, stderr %q", code, errs)
	}
	noLeftovers(t)
	got := mustRunCLI(t, append(rec, "--no-default-checks")...)
	head, _, _ := strings.Cut(got, "\n")
	if !strings.HasSuffix(head, "interpolated on B ∈ {16, 32, 48}, T ∈ {256, 512, 768}, checked at B = 64, T = 1024") {
		t.Errorf("with --no-default-checks: %s", head)
	}
	noLeftovers(t)
	// Recording files have no check points of memsym's own to leave out.
	if _, errs, code := runCLI("symbolic", "--no-default-checks", filepath.Join(dir, "b16-t256.jsonl")); code != 2 ||
		errs != "memsym: --no-default-checks goes with --program, --recorder or --torch; recording files carry their own points and constants, and run no recorder\n" {
		t.Errorf("with files: exit %d, stderr %q", code, errs)
	}
}

// TestRecorderStderrNote: what a recorder that succeeds writes to its
// standard error (an executor's warnings) is one note on memsym's, once
// the points are recorded: at how many points it wrote there, the first of
// them in the grid's order named, whatever --jobs and however the runs are
// timed (the fake recorder warns later at B = 908, T = 256, the first,
// than at the two after it), and the end of what it wrote there, a
// terminal's escapes shown escaped. The output and the exit are those of
// the same recorder silenced, which makes no note, --json's too; a flood
// is quoted by its end only.
func TestRecorderStderrNote(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 908, 909}, []int64{256, 512, 768})
	for _, b := range []int64{908, 909} {
		for _, p := range defaultChecks(t, [][3]int64{{16, 32, b}, {256, 512, 768}}, []string{"B", "T"}) {
			recordGrid(t, dir, []int64{p[0].Value}, []int64{p[1].Value})
		}
	}
	t.Setenv("TMPDIR", t.TempDir())
	rec := fakeRecorder(t, dir)
	grid := []string{"--grid", "B=16,32,908", "--grid", "T=256,512,768"}
	want := `memsym: note: the recorder wrote to its standard error at 3 of the 11 points it recorded; at B = 908, T = 256 it ends: fake-recorder: loading the model | \x1b[33mwarning\x1b[0m: no fused kernel at B=908, T=256, falling back to float32` + "\n"
	for _, json := range [][]string{nil, {"--json"}} {
		// The recorder silenced: nothing on memsym's standard error.
		quiet := mustRunCLI(t, append(append([]string{"symbolic", "--recorder", rec + " 2>/dev/null"}, grid...), json...)...)
		for _, jobs := range []string{"1", "4"} {
			args := append(append([]string{"symbolic", "--recorder", rec, "--jobs", jobs}, grid...), json...)
			out, errs, code := runCLI(args...)
			if code != 0 || out != quiet || errs != want {
				t.Errorf("%v: exit %d, stderr %q, want %q; stdout:\n%s\nwith the recorder silenced:\n%s", args, code, errs, want, out, quiet)
			}
			noLeftovers(t)
		}
	}

	// 3000 lines, and the recorder succeeds: the end of them, cut as a
	// failure's are.
	_, errs, code := runCLI("symbolic", "--recorder", rec, "--grid", "B=16,32,909", "--grid", "T=256,512,768")
	head := "memsym: note: the recorder wrote to its standard error at 3 of the 11 points it recorded; at B = 909, T = 256 it ends: …"
	tail := "fake-recorder: debug 2998: a line of noise on the standard error | fake-recorder: debug 2999: a line of noise on the standard error\n"
	if code != 0 || !strings.HasPrefix(errs, head) || !strings.HasSuffix(errs, tail) || strings.Count(errs, "\n") != 1 || len(errs) > 1200 {
		t.Errorf("a flood: exit %d, stderr (%d bytes) %q", code, len(errs), errs)
	}
	noLeftovers(t)
}
