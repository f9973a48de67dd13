package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestCrossoverGolden gives where each of the course GPT's candidates holds
// the peak, at the course constants and at D = 64, confirmed by recordings
// on both sides; go test -update rewrites the goldens.
func TestCrossoverGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
		want   []string // lines the seed states, in order
	}{
		{"crossover/gpt-course-course.txt",
			[]string{"crossover", "--program", "gpt-course", "--const", courseConsts, "--along", "T", "--confirm"},
			[]string{
				"memsym crossover: `GPT.apply` in f64, along T, for every B ≥ 1, in bytes:",
				"  T = 1 to 149     27648 · B · T + 8 · T², at operation 19 ",
				"  T ≥ 150          144 · B · T² + 6144 · B · T + 8 · T², at operation 12 ",
				"from T = 150 the candidate at operation 12 holds the peak, taking over from operation 19",
				"confirmed at B = 2, T = 149: recorded peak 8416712 bytes (8.03 MiB) at operation 19, as predicted",
				"confirmed at B = 2, T = 150: recorded peak 8503200 bytes (8.11 MiB) at operation 12, as predicted",
			}},
		{"crossover/gpt-course-d64.txt",
			[]string{"crossover", "--program", "gpt-course", "--along", "T", "--confirm"},
			[]string{
				"memsym crossover: `GPT.apply` in f64, along T, for every B ≥ 1, in bytes:",
				"  T = 1 to 74      4608 · B · T + 8 · T², at operation 19 ",
				"  T ≥ 75           48 · B · T² + 1024 · B · T + 8 · T², at operation 12 ",
				"from T = 75 the candidate at operation 12 holds the peak, taking over from operation 19",
				"confirmed at B = 2, T = 74: ",
				"confirmed at B = 2, T = 75: ",
			}},
		{"crossover/encdec-cross.txt",
			[]string{"crossover", "--program", "encdec-cross", "--along", "T", "--at", "B=1,S=64", "--confirm"},
			[]string{
				"memsym crossover: `Seq2Seq.apply` in f32, along T, at B = 1, S = 64, in bytes:",
				"from T = 18 the candidate at operation 158 holds the peak, taking over from operation 25",
				"from T = 859 the candidate at operation 75 holds the peak, taking over from operation 158",
			}},
		{"crossover/conv-same.txt",
			[]string{"crossover", "--program", "conv-same", "--along", "N", "--confirm"},
			[]string{
				"the candidate at operation 7 holds the peak for every N ≥ 1",
				"nothing to confirm: no crossover along N",
			}},
	} {
		out := mustRunCLI(t, c.args...)
		golden(t, c.golden, []byte(out))
		checkLinesInOrder(t, out, c.want)
		if c.golden != "crossover/conv-same.txt" && strings.Count(out, ", as predicted\n") != 2*strings.Count(out, "\nfrom ") {
			t.Errorf("%v: not every side of every crossover is confirmed as predicted:\n%s", c.args, out)
		}
	}
}

// TestCrossoverAt: at a fixed B the crossover is the one for every B, and
// a dimension whose value matters must be given.
func TestCrossoverAt(t *testing.T) {
	all := mustRunCLI(t, "crossover", "--program", "gpt-course", "--along", "T")
	at := mustRunCLI(t, "crossover", "--program", "gpt-course", "--along", "T", "--at", "B=7")
	if strings.ReplaceAll(at, "at B = 7", "for every B ≥ 1") != all {
		t.Errorf("at B = 7:\n%s\nfor every B:\n%s", at, all)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--program", "gpt-course", "--along", "B"}, "memsym: along B the candidate holding the peak may depend on T: give a value with --at T=N"},
		{[]string{"--program", "encdec-cross", "--along", "T"}, "memsym: along T the candidate holding the peak may depend on B and S: give a value with --at B=N,S=N"},
		{[]string{"--program", "mlp-train-step", "--along", "B", "--at", "B=3"}, "memsym: --at B=3: B is the dimension gone along: give only the others a value"},
		{[]string{"--program", "gpt-course", "--along", "T", "--at", "T=3"}, "memsym: --at T=3: T is the dimension gone along: give only the others a value"},
	} {
		out, errs, code := runCLI(append([]string{"crossover"}, c.args...)...)
		if code != 2 || out != "" || errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
}

// TestCrossoverFiles: from recording files, without --confirm, the same
// crossover as from the bundled program; without a check file, under a
// line that says the polynomials are unchecked.
func TestCrossoverFiles(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, p := range recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768}) {
		files = append(files, p)
	}
	sort.Strings(files)
	var check string
	for _, p := range recordGrid(t, dir, []int64{64}, []int64{1024}) {
		check = p
	}
	// The program's, but for the note that T = 1 and B = 1 were not
	// recorded, which recordings of another program may treat otherwise.
	program := mustRunCLI(t, "crossover", "--program", "gpt-course", "--const", courseConsts, "--along", "T")
	title, rest, _ := strings.Cut(program, "\n")
	note := sizeOneNote("T = 1 or B = 1")
	want := title + "\n" + note + rest
	got := mustRunCLI(t, append([]string{"crossover", "--along", "T", "--check", check}, files...)...)
	if got != want {
		t.Errorf("from files:\n%s\nwant:\n%s", got, want)
	}
	unchecked := title + "\n  UNCHECKED: no point off the grid was recorded to check the polynomials (give --check)\n" + note + rest
	if got := mustRunCLI(t, append([]string{"crossover", "--along", "T"}, files...)...); got != unchecked {
		t.Errorf("from files without a check:\n%s\nwant:\n%s", got, unchecked)
	}
}

// sizeOneNote is the note under a query's title that nothing was
// recorded at where (belowLine).
func sizeOneNote(where string) string {
	return "  note: the polynomials were made from no recording at " + where + ": they answer there, but a program may run other operations where a size is 1 (PyTorch does)\n"
}

// TestCrossoverNothingToConfirmJSON: with --confirm but no crossover
// along the dimension, the JSON has no "confirmed", as docs/json.md says,
// and the text says there is nothing to confirm.
func TestCrossoverNothingToConfirmJSON(t *testing.T) {
	args := []string{"crossover", "--program", "gpt-course", "--along", "B", "--at", "T=100", "--confirm"}
	if out := mustRunCLI(t, args...); !strings.HasSuffix(out, "\nnothing to confirm: no crossover along B\n") {
		t.Errorf("text:\n%s", out)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(mustRunCLI(t, append(args, "--json")...)), &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["confirmed"]; ok {
		t.Errorf("confirmed given with nothing to confirm: %v", got["confirmed"])
	}
}

// Where a bundled program stops running along the dimension, crossover and
// eval --along say up to where it runs, and a crossover past that is
// marked: bert-encoder at P = 200 runs at T ≤ 200, and its attention takes
// the peak over from T = 224, which only the polynomials reach.
func TestCrossoverPastTheProgramsSizes(t *testing.T) {
	const note = "the program runs along T up to T = 200 (not at B = 8, T = 201: T = 201 is more than P = 200); past it, the pieces are the polynomials', not the program's\n"
	out := mustRunCLI(t, "crossover", "--program", "bert-encoder", "--const", "P=200", "--along", "T", "--at", "B=8")
	if !strings.Contains(out, "from T = 224 the candidate at operation 17 holds the peak, taking over from operation 26, past the sizes the program takes\n") || !strings.HasSuffix(out, note) {
		t.Errorf("crossover:\n%s", out)
	}
	if out := mustRunCLI(t, "eval", "--program", "bert-encoder", "--const", "P=200", "--along", "T", "--at", "B=8"); !strings.HasSuffix(out, note) {
		t.Errorf("eval --along:\n%s", out)
	}
	for _, args := range [][]string{
		{"crossover", "--program", "bert-encoder", "--const", "P=200", "--along", "T", "--json"},
		{"eval", "--program", "bert-encoder", "--const", "P=200", "--along", "T", "--at", "B=8", "--json"},
	} {
		var got struct {
			RunsTo     int64  `json:"runs_to"`
			NotRunning string `json:"not_running"`
		}
		if err := json.Unmarshal([]byte(mustRunCLI(t, args...)), &got); err != nil {
			t.Fatal(err)
		}
		if got.RunsTo != 200 || got.NotRunning != "T = 201 is more than P = 200" {
			t.Errorf("%s: runs_to %d, not_running %q", strings.Join(args, " "), got.RunsTo, got.NotRunning)
		}
	}
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--const", "P=200", "--format", "md", "--verify", "0", "-o", dir)
	md, err := os.ReadFile(filepath.Join(dir, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "The program runs along *T* only up to *T* = 200 (not at *B* = 8, *T* = 201: T = 201 is more than P = 200); past it, the stretches above are the polynomials', not the program's.") {
		t.Errorf("the chapter does not say where the program stops running along T:\n%s", md)
	}
	// A line the program runs nowhere on is refused by eval --along as by
	// crossover (before, eval gave its pieces without a word).
	for _, cmd := range []string{"eval", "crossover"} {
		_, errs, code := runCLI(cmd, "--program", "bert-encoder", "--const", "P=200", "--along", "B", "--at", "T=300")
		if want := "memsym: --at T=300: bert-encoder does not run at B = 1, T = 300: T = 300 is more than P = 200\n"; code != 2 || errs != want {
			t.Errorf("%s --along B --at T=300: exit %d, %q; want exit 2, %q", cmd, code, errs, want)
		}
	}
	// The lower end: strided-conv at K = 5 runs from N = 5, where its
	// crossover falls; the stretch before it is the polynomials' alone.
	out = mustRunCLI(t, "crossover", "--program", "strided-conv", "--const", "S=1,K=5", "--along", "N", "--at", "B=2")
	if !strings.Contains(out, "from N = 5 the candidate at operation 2 holds the peak, taking over from operation 4, the stretch before it below the sizes the program takes\n") ||
		!strings.HasSuffix(out, "the program runs along N from N = 5 (not at B = 2, N = 4: K = 5 is more than N = 4); below it, the pieces are the polynomials', not the program's\n") {
		t.Errorf("crossover on strided-conv:\n%s", out)
	}
	var low struct {
		RunsFrom        int64  `json:"runs_from"`
		NotRunningBelow string `json:"not_running_below"`
	}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "eval", "--program", "strided-conv", "--const", "S=1,K=5", "--along", "N", "--at", "B=2", "--json")), &low); err != nil {
		t.Fatal(err)
	}
	if low.RunsFrom != 5 || low.NotRunningBelow != "K = 5 is more than N = 4" {
		t.Errorf("eval --along N --json: runs_from %d, not_running_below %q", low.RunsFrom, low.NotRunningBelow)
	}
	// A program that runs up to 2^40 along the dimension has no such note.
	if out := mustRunCLI(t, "crossover", "--program", "synthetic", "--along", "T"); strings.Contains(out, "the program runs along") {
		t.Errorf("synthetic:\n%s", out)
	}
}

// TestConfirmEachPointOnce: a candidate that holds the peak at one value
// alone stands on the right of one crossover and the left of the next;
// --confirm records that point once, and lists it once.
func TestConfirmEachPointOnce(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "one-value.sh"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	rec := []string{"--recorder", "sh '" + script + "' {B} {T}", "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	out := mustRunCLI(t, append([]string{"crossover", "--along", "T", "--at", "B=1", "--confirm"}, rec...)...)
	var confirmed []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "confirmed at ") {
			confirmed = append(confirmed, line)
		}
	}
	want := []string{
		"confirmed at B = 1, T = 4: recorded peak 232 bytes at operation 1, as predicted",
		"confirmed at B = 1, T = 5: recorded peak 251 bytes at operation 2, as predicted",
		"confirmed at B = 1, T = 6: recorded peak 272 bytes at operation 1, as predicted",
	}
	if !slices.Equal(confirmed, want) {
		t.Errorf("got:\n%s\nwant the lines:\n%s", out, strings.Join(want, "\n"))
	}
}
