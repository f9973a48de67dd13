package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/model"
	"memsym/source"
)

// TestFitGolden: the largest T that fits each budget, on the course GPT
// and the Llama 2 block, confirmed by recordings at each answer and one
// past it; go test -update rewrites the goldens.
func TestFitGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
		want   []string
	}{
		{"fit/gpt-course-course.txt",
			[]string{"fit", "--program", "gpt-course", "--const", courseConsts, "--budget", "24GiB,40GiB,80GiB", "--along", "T", "--at", "B=8", "--confirm"},
			[]string{
				"memsym fit: `GPT.apply` in f64, along T at B = 8: ",
				"  24 GiB ",
				"  40 GiB ",
				"  80 GiB ",
				"binds at T + 1: operation 12 (`SelfAttention.apply/%21` in blocks[0].attn)",
				"every smaller T fits too",
			}},
		{"fit/llama2-7b-block.txt",
			[]string{"fit", "--program", "llama2-7b-block", "--budget", "24GiB", "--budget", "40GiB,80GiB,1GiB", "--along", "T", "--at", "B=1", "--confirm"},
			[]string{
				"memsym fit: `DecoderBlock.apply` in f32, along T at B = 1: ",
				"  1 GiB ",
				"binds at T + 1: operation 11 (`Attention.mask` in block.attn)",
				"no T ≥ 1 fits 1 GiB: T = 1 needs 1858290704 bytes (1.73 GiB)",
			}},
		{"fit/llama2-7b-block-si.txt",
			[]string{"fit", "--program", "llama2-7b-block", "--budget", "8e10", "--along", "B", "--at", "T=4096", "--units", "si"},
			[]string{"  80 GB "}},
		{"fit/layers-as-dim.txt",
			[]string{"fit", "--program", "layers-as-dim", "--budget", "1MiB,64MiB", "--along", "L", "--at", "B=64", "--confirm"},
			[]string{"memsym fit: `Deep.apply` in f32, along L at B = 64: ", "  64 MiB        254 "}},
		{"fit/mlp-train-step.txt",
			[]string{"fit", "--program", "mlp-train-step", "--budget", "1.5GiB,1EiB", "--along", "B", "--units", "bytes"},
			[]string{"  1610612736 bytes "}},
	} {
		out := mustRunCLI(t, c.args...)
		golden(t, c.golden, []byte(out))
		checkLinesInOrder(t, out, c.want)
		confirms := strings.Count(out, "\nconfirmed at ")
		if confirms != strings.Count(out, ", as predicted\n") {
			t.Errorf("%v: not every recording is as predicted:\n%s", c.args, out)
		}
	}
}

// TestFitJSON: the JSON answer is the text's, and every number in it reads
// back: the needs at the answer fit, one past it do not.
func TestFitJSON(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "gpt-course", "--const", courseConsts, "--budget", "24GiB,80GiB", "--along", "T", "--at", "B=8", "--json", "--confirm")
	golden(t, "fit/gpt-course-course.json", []byte(out))
	var f model.FitJSON
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Budgets) != 2 || f.Along != "T" {
		t.Fatalf("%+v", f)
	}
	for _, b := range f.Budgets {
		budget, err := doc.ParseSize(b.Budget)
		if err != nil {
			t.Fatal(err)
		}
		at, _ := doc.ParseSize(b.At.Needs)
		past, _ := doc.ParseSize(b.Past.Needs)
		if b.Fits != "up_to" || at.Cmp(budget) > 0 || past.Cmp(budget) <= 0 || !b.EverySmallerFits {
			t.Errorf("%+v", b)
		}
		if len(b.Confirmed) != 2 || !b.Confirmed[0].OK || !b.Confirmed[1].OK {
			t.Errorf("confirmed %+v", b.Confirmed)
		}
	}
}

// TestFitRefusals: bad budgets and dimensions are bad usage, said on one
// line.
func TestFitRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--along", "T", "--at", "B=8"}, "memsym: fit needs --budget SIZE, such as --budget 80GiB"},
		{[]string{"--budget", "1GiB"}, "memsym: fit needs --along DIM, the dimension to find the largest value of"},
		{[]string{"--budget", "80G", "--along", "T", "--at", "B=8"}, `memsym: --budget 80G: "G" may mean GB (powers of 1000) or GiB (powers of 1024): say which`},
		{[]string{"--budget", "1GiB", "--along", "T", "--at", "B=8,T=3"}, "memsym: --at B=8,T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"--budget", "1GiB", "--along", "T", "--at", "B=0"}, "memsym: --at B=0: dimensions are integers of at least 1"},
		// An empty item quotes what was typed: before, "--budget : expected a size".
		{[]string{"--budget", "24GiB,", "--along", "T", "--at", "B=8"}, `memsym: --budget "24GiB,": an empty item: expected a size such as 80GiB, or several joined by commas (24GiB,40GiB)`},
		{[]string{"--budget", ",24GiB", "--along", "T", "--at", "B=8"}, `memsym: --budget ",24GiB": an empty item: expected a size such as 80GiB, or several joined by commas (24GiB,40GiB)`},
	} {
		out, errs, code := runCLI(append([]string{"fit", "--program", "gpt-course"}, c.args...)...)
		if code != 2 || out != "" || errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
}

// writeGrid writes recordings of one buffer of bytes(B, T) at B, T in
// {1, 2, 3}, and a check at B = 5, T = 7, into a new directory; it returns
// the arguments naming them.
func writeGrid(t *testing.T, bytes func(b, t int64) int64) []string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, b, tt int64) string {
		path := filepath.Join(dir, name)
		text := fmt.Sprintf("{\"memsym\": 1, \"dims\": {\"B\": %d, \"T\": %d}}\n{\"buffer\": 1, \"bytes\": %d, \"name\": \"x\"}\n{\"op\": \"F.apply\", \"writes\": [1]}\n{\"result\": [1]}\n", b, tt, bytes(b, tt))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var args []string
	for b := int64(1); b <= 3; b++ {
		for tt := int64(1); tt <= 3; tt++ {
			args = append(args, write(fmt.Sprintf("B%dT%d.jsonl", b, tt), b, tt))
		}
	}
	return append(args, "--check", write("chk.jsonl", 5, 7))
}

// TestFitSaysWhatIsShown: needs that fall along T are said to fall, and
// a budget they fit from T = 10 on is answered "from 10"; a budget below
// the least need is said against the least need and where it is; and
// with several budgets, "every smaller T fits too" is said of each budget
// it is true of, and of none it is not; bytes that turn negative are
// noted under the title.
func TestFitSaysWhatIsShown(t *testing.T) {
	const head = "memsym fit: the recording, along T at B = 1: the largest T whose needs (the inputs and the peak) fit the budget:\n"
	for _, c := range []struct {
		bytes   func(b, t int64) int64
		budgets string
		want    string
	}{
		{func(b, t int64) int64 { return 40 - t }, "30,45", head +
			"  note: buffer 1 \"x\", made by operation 1 (`F.apply`), has bytes −T + 40, which is −1 at T = 41: where a buffer's bytes are negative, the polynomials are not the program's\n" +
			"  budget    largest T  needs at T     needs at T + 1  binds\n" +
			"  30 bytes         40     0 bytes  not the program's\n" +
			"  45 bytes         40     0 bytes  not the program's\n" +
			"some buffer's bytes are negative at T ≥ 41: the polynomials are not the program's there, and no value there is said to fit or not\n" +
			"under 30 bytes, T = 1 to 9 do not fit: the needs fall along T\n" +
			"under 45 bytes, every T smaller than 40 fits too\n" +
			"under 30 bytes and 45 bytes, the answer stops where some buffer's bytes turn negative, at T = 41, not where the budget is passed: whether larger values fit is not known\n"},
		{func(b, t int64) int64 { return t*t - 10*t + 30 }, "4", head +
			"  budget   largest T  needs at T  needs at T + 1  binds\n" +
			"  4 bytes       none\n" +
			"no T ≥ 1 fits 4 bytes: T = 5 needs 5 bytes, the least of any T ≥ 1\n"},
		{func(b, t int64) int64 { return t*t - 10*t + 30 }, "8,16,30", head +
			"  budget    largest T  needs at T  needs at T + 1  binds\n" +
			"  8 bytes           6     6 bytes         9 bytes  operation 1\n" +
			"  16 bytes          8    14 bytes        21 bytes  operation 1\n" +
			"  30 bytes         10    30 bytes        41 bytes  operation 1\n" +
			"binds at T + 1: operation 1 (`F.apply`)\n" +
			"under 8 bytes, T = 1 to 3 do not fit: the needs are not monotone along T\n" +
			"under 16 bytes, T = 1 does not fit: the needs are not monotone along T\n" +
			"under 30 bytes, every T smaller than 10 fits too\n"},
		// −T² + 6T + 31 rises to 40 at T = 3, then falls, below zero from
		// T = 10: no value from there is said to fit.
		{func(b, t int64) int64 { return -t*t + 6*t + 31 }, "45", head +
			"  note: buffer 1 \"x\", made by operation 1 (`F.apply`), has bytes −T² + 6 · T + 31, which is −9 at T = 10: where a buffer's bytes are negative, the polynomials are not the program's\n" +
			"  budget    largest T  needs at T     needs at T + 1  binds\n" +
			"  45 bytes          9     4 bytes  not the program's\n" +
			"some buffer's bytes are negative at T ≥ 10: the polynomials are not the program's there, and no value there is said to fit or not\n" +
			"under 45 bytes, the answer stops where some buffer's bytes turn negative, at T = 10, not where the budget is passed: whether larger values fit is not known\n" +
			"every smaller T fits too\n"},
	} {
		args := append([]string{"fit", "--along", "T", "--at", "B=1", "--budget", c.budgets}, writeGrid(t, c.bytes)...)
		if out := mustRunCLI(t, args...); out != c.want+besideText(&source.Files{}, false) {
			t.Errorf("budgets %s:\n got\n%s\nwant\n%s", c.budgets, out, c.want)
		}
	}
}

// TestFitJSONExtremes: the JSON says what the text says of needs that
// fall, of a budget nothing fits (the least need) and of one every value
// fits (the most).
func TestFitJSONExtremes(t *testing.T) {
	type budget struct {
		Falls bool `json:"falls"`
		Least *struct {
			At    int64  `json:"at"`
			Needs string `json:"needs"`
		} `json:"least"`
		Most *struct {
			At    int64  `json:"at"`
			Needs string `json:"needs"`
		} `json:"most"`
		Negative []struct{ From, To int64 } `json:"negative_bytes"`
	}
	run := func(bytes func(b, t int64) int64, budgets string) []budget {
		args := append([]string{"fit", "--json", "--along", "T", "--at", "B=1", "--budget", budgets}, writeGrid(t, bytes)...)
		var out struct {
			Budgets []budget `json:"budgets"`
		}
		if err := json.Unmarshal([]byte(mustRunCLI(t, args...)), &out); err != nil {
			t.Fatal(err)
		}
		return out.Budgets
	}
	// Needs that fall take some buffer's bytes below zero, past which
	// nothing is said: no "most" over every value.
	falling := run(func(b, t int64) int64 { return 40 - t }, "30,45")
	if !falling[0].Falls || falling[1].Most != nil || len(falling[1].Negative) != 1 || falling[1].Negative[0].From != 41 {
		t.Errorf("40 − T: %+v", falling)
	}
	none := run(func(b, t int64) int64 { return t*t - 10*t + 30 }, "4")
	if none[0].Falls || none[0].Least == nil || none[0].Least.At != 5 || none[0].Least.Needs != "5" {
		t.Errorf("T² − 10·T + 30 under 4 bytes: %+v", none)
	}
}

// TestNoOperations: a program whose recordings have no operation (a
// function that returns its input) has a peak of 0 and nothing holding it,
// which symbolic, fit (with --confirm) and crossover say in words rather
// than as "the largest of 0", "operation 0" or a bare "binds at B + 1:".
func TestNoOperations(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	rec := `printf '{{"memsym": 1, "dims": {{"B": %s}}}}\n{{"buffer": 1, "dtype": "f32", "shape": [%s], "role": "input"}}\n{{"result": [1]}}\n' {B} {B}`
	src := []string{"--recorder", rec, "--grid", "B=1,2,3"}
	out := mustRunCLI(t, append([]string{"symbolic"}, src...)...)
	checkLinesInOrder(t, out, []string{"  inputs      4 · B", "  peak        0: no operations"})
	if strings.Contains(out, "the largest of 0") {
		t.Errorf("symbolic:\n%s", out)
	}
	out = mustRunCLI(t, append([]string{"fit", "--along", "B", "--budget", "100", "--confirm"}, src...)...)
	checkLinesInOrder(t, out, []string{
		"  100 bytes         25   100 bytes       104 bytes  no operations",
		"every smaller B fits too",
		"confirmed at B = 25: recorded needs 100 bytes, no operations, fits 100 bytes, as predicted",
		"confirmed at B = 26: recorded needs 104 bytes, no operations, does not fit 100 bytes, as predicted",
	})
	if strings.Contains(out, "operation 0") || strings.Contains(out, "binds at") {
		t.Errorf("fit:\n%s", out)
	}
	_, errs, code := runCLI(append([]string{"crossover", "--along", "B"}, src...)...)
	if want := "memsym: the program has no operations, so no peak to follow along B\n"; code != 1 || errs != want {
		t.Errorf("crossover: exit %d, stderr %q, want %q", code, errs, want)
	}
}

// TestFitFailureNamesBudget: when one budget of several has no answer
// memsym can give (the largest value past int64), the error says which,
// as the notes under the table do; with one budget it needs not.
func TestFitFailureNamesBudget(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--program", "mlp-train-step", "--along", "B", "--budget", "1GiB,1e30"},
			"memsym: under 1000000000000000000000000000000 bytes (867361737988 EiB), the largest B that fits is 74716078900179318589360030, beyond the largest dimension memsym handles (9223372036854775807)\n"},
		{[]string{"fit", "--step", "--program", "gpt-course", "--along", "B", "--at", "T=16", "--budget", "1GiB,1e30"},
			"memsym: under 1000000000000000000000000000000 bytes (867361737988 EiB), the largest B that fits is 3127502001601281024819846, beyond the largest dimension memsym handles (9223372036854775807)\n"},
		{[]string{"fit", "--program", "mlp-train-step", "--along", "B", "--budget", "1e30"},
			"memsym: the largest B that fits is 74716078900179318589360030, beyond the largest dimension memsym handles (9223372036854775807)\n"},
	} {
		out, errs, code := runCLI(c.args...)
		if code != 1 || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestFitNotesNameBudgets: with several budgets, a note under the table
// names its budget as the table's row does ("80 GiB"), not in bytes.
func TestFitNotesNameBudgets(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "80GiB,10MiB"},
			"note: under 80 GiB, bert-encoder does not run at B = 1, T = 51766: T = 51766 is more than P = 512; it runs at T = 512 but not at T = 513, and T = 512 fits"},
		{[]string{"fit", "--step", "--program", "bert-encoder", "--along", "T", "--at", "B=1", "--budget", "80GiB,10MiB"},
			"note: under 80 GiB, bert-encoder does not run at B = 1, T = 36434: T = 36434 is more than P = 512; it runs at T = 512 but not at T = 513, and T = 512 fits"},
	} {
		out := mustRunCLI(t, c.args...)
		checkLinesInOrder(t, out, []string{"  80 GiB ", c.want})
	}
}

// TestFitBudgetFigure: a budget not exact in the units (80GB in binary
// units) is written with the digits its figure needs to fall between the
// needs beside it, and the needs with as many digits as the budget's
// figure, each on its side of it: before, needs of 74.50583 GiB that do
// not fit read "74.51 GiB" beside a budget of "74.506 GiB" (74.50581 GiB),
// which is more than they are, and needs of 37.25289 GiB "37.25 GiB" beside
// "37.2529 GiB", fewer digits than the budget's.
func TestFitBudgetFigure(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "gpt-course", "--along", "B", "--at", "T=16", "--budget", "80GB,40GB", "--confirm")
	checkLinesInOrder(t, out, []string{
		"  80000000000 bytes (74.50581 GiB)    1083176  79999951872 bytes  (74.50576 GiB)  80000025728 bytes  (74.50583 GiB)  operation 19",
		"  40000000000 bytes (37.2529 GiB)      541582  39999985408 bytes  (37.25289 GiB)  40000059264 bytes  (37.2530 GiB)   operation 19",
		"confirmed at B = 1083176, T = 16: recorded needs 79999951872 bytes (74.50576 GiB), the peak at operation 19, fits 80000000000 bytes (74.50581 GiB), as predicted",
		"confirmed at B = 541583, T = 16: recorded needs 40000059264 bytes (37.2530 GiB), the peak at operation 19, does not fit 40000000000 bytes (37.2529 GiB), as predicted",
	})
}

// TestFitEverySmallerSaysWhich: with a budget that nothing fits among
// those asked, what every smaller value does is said of the budget it is
// true of, not in a line that reads as speaking of them all.
func TestFitEverySmallerSaysWhich(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "gpt-course", "--along", "T", "--at", "B=8", "--budget", "12345,80GB")
	checkLinesInOrder(t, out, []string{
		"no T ≥ 1 fits 12345 bytes (12.1 KiB): T = 1 needs 932424 bytes (911 KiB)",
		"under 80000000000 bytes (74.506 GiB), every smaller T fits too",
	})
	if strings.Contains(out, "\nevery smaller T fits too") {
		t.Errorf("a line for every budget after one that nothing fits:\n%s", out)
	}
}

// TestBesideText: what a fit's figures leave out, for a step, and for a
// PyTorch model recorded with or without --free release.
func TestBesideText(t *testing.T) {
	files := besideText(&source.Files{}, false)
	if !strings.Contains(files, "(the allocator's rounding and cache, a CUDA context, libraries' workspaces)") || strings.Count(files, "\n") != 1 {
		t.Errorf("files: %q", files)
	}
	if step := besideText(&source.Files{}, true); !strings.Contains(step, "what the training loop keeps in its own variables, such as the model's output through the backward; ") {
		t.Errorf("a step: %q", step)
	}
	for args, lines := range map[string]int{
		"m.py:build":                           2,
		"m.py:build --step adamw":              2,
		"m.py:build --free release":            1,
		"m.py:build --step sgd --free=release": 1,
		"m.py:build --free last-use":           2,
	} {
		got := besideText(&source.Torch{Args: args}, false)
		if strings.Count(got, "\n") != lines || lines == 2 && !strings.Contains(got, "--free release' records that") {
			t.Errorf("--torch %q: %q", args, got)
		}
	}
}

// TestFitStepStopsAtNegative: a step whose kept buffer has 40 − T bytes
// answers T = 40, where its bytes turn negative past, with "not the
// program's" one past it, as fit does; it once failed there, its Eval
// refusing T = 41.
func TestFitStepStopsAtNegative(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for _, T := range []int64{4, 8, 12, 16} {
		path := filepath.Join(dir, fmt.Sprintf("T%d.jsonl", T))
		text := fmt.Sprintf(`{"memsym": 2, "entry": "F.step", "dims": {"T": %d}}
{"buffer": 1, "bytes": 8, "role": "param", "name": "w"}
{"buffer": 2, "bytes": %d, "name": "y"}
{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}
{"buffer": 3, "bytes": 8, "name": "dw"}
{"op": "f (vjp)", "reads": [2, 1], "writes": [3], "phase": "backward"}
{"op": "sgd", "reads": [1, 3], "writes": [1], "phase": "optimizer"}
{"result": [1]}
`, T, 40-T)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if T == 16 {
			args = append(args, "--check")
		}
		args = append(args, path)
	}
	out := mustRunCLI(t, append([]string{"fit", "--step", "--along", "T", "--budget", "30"}, args...)...)
	for _, want := range []string{
		"  30 bytes         40          16 bytes     not the program's\n",
		"under 30 bytes, T = 1 to 25 do not fit: the step's peak is larger there\n",
		"under 30 bytes, the answer stops where some buffer's bytes turn negative, at T = 41, not where the budget is passed: whether larger values fit is not known\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit --step lacks %q:\n%s", want, out)
		}
	}
}
