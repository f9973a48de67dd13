package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"memsym/model"
)

// TestEvalGolden: the model's terms at a point, and the peak along T piece
// by piece, with the candidates that never hold it alone; go test -update
// rewrites the goldens.
func TestEvalGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
		want   []string
	}{
		{"eval/gpt-course-course.txt",
			[]string{"eval", "--program", "gpt-course", "--const", courseConsts, "--at", "B=8,T=4096"},
			[]string{
				"memsym eval: `GPT.apply` in f64 at B = 8, T = 4096, ",
				"  parameters     98328576 bytes  (93.8 MiB)  3072 · T + 85745664",
				"  peak        19662897152 bytes  (18.3 GiB)  144 · B · T² + 6144 · B · T + 8 · T², at operation 12 ",
				"  operation 12  19662897152 bytes  (18.3 GiB)  144 · B · T² + 6144 · B · T + 8 · T²  ← the peak",
			}},
		{"eval/gpt-course-course-along.txt",
			[]string{"eval", "--program", "gpt-course", "--const", courseConsts, "--along", "T"},
			[]string{
				"memsym eval: `GPT.apply` in f64, the peak along T, for every B ≥ 1, in bytes",
				"  1 to 149  operation 19  27648 · B · T + 8 · T² ",
				"  ≥ 150     operation 12  144 · B · T² + 6144 · B · T + 8 · T² ",
				"never holding the peak alone, proven for every B, T ≥ 1:",
				"  operation 10 (`SelfAttention.apply/%13` in blocks[0].attn), 48 · B · T² + 12288 · B · T + 8 · T²: at most the larger of operations 12 and 19",
			}},
		{"eval/llama2-7b-block-along.txt",
			[]string{"eval", "--program", "llama2-7b-block", "--along", "T", "--at", "B=1"},
			[]string{
				"  1 to 445  operation 19  148480 · T ",
				"  ≥ 446     operation 11  260 · T² + 32768 · T ",
				"never holding the peak alone, proven for every B, T ≥ 1:",
				"  operation 7 ",
				"  operation 10 ",
			}},
		{"eval/mixed-precision.txt",
			[]string{"eval", "--program", "mixed-precision", "--at", "B=4,T=8"},
			nil},
		// At T = 192 two candidates tie: the peak is the one reaching it
		// first, as explain and crossover name it, the other as large.
		{"eval/synthetic-tie.txt",
			[]string{"eval", "--program", "synthetic", "--at", "B=4,T=192"},
			[]string{
				"  peak        1769472 bytes  (1.69 MiB)  2304 · B · T, at operation 7 ",
				"  operation 7  1769472 bytes  (1.69 MiB)  2304 · B · T  ← the peak",
				"  operation 9  1769472 bytes  (1.69 MiB)  4 · B · T² + 1536 · B · T  ← as large (operation 7 reaches it first)",
			}},
	} {
		out := mustRunCLI(t, c.args...)
		golden(t, c.golden, []byte(out))
		checkLinesInOrder(t, out, c.want)
	}
}

// TestEvalAgreesWithMemory: eval at a point says what memory says of a
// recording there.
func TestEvalAgreesWithMemory(t *testing.T) {
	var e model.EvalJSON
	if err := json.Unmarshal([]byte(mustRunCLI(t, "eval", "--program", "gpt-course", "--at", "B=3,T=77", "--json")), &e); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(rec, []byte(mustRunCLI(t, "record", "--program", "gpt-course", "--dim", "B=3", "--dim", "T=77")), 0o644); err != nil {
		t.Fatal(err)
	}
	var mj model.MemoryJSON
	if err := json.Unmarshal([]byte(mustRunCLI(t, "memory", "--json", rec)), &mj); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{
		{e.Params.Bytes, mj.Parameters.Bytes}, {e.Inputs.Bytes, mj.Inputs}, {e.Outputs.Bytes, mj.Outputs},
		{e.Peak.Bytes, mj.Peak.Bytes}, {e.Needs.Bytes, mj.Needs},
	} {
		if c[0] != c[1] {
			t.Errorf("eval says %s, memory %s", c[0], c[1])
		}
	}
	if e.Peak.Operation != mj.Peak.Operation {
		t.Errorf("eval's peak at operation %d, memory's at %d", e.Peak.Operation, mj.Peak.Operation)
	}
}

func TestEvalJSONGolden(t *testing.T) {
	golden(t, "eval/gpt-course-course.json", []byte(mustRunCLI(t, "eval", "--program", "gpt-course", "--const", courseConsts, "--at", "B=8,T=4096", "--json")))
	out := mustRunCLI(t, "eval", "--program", "gpt-course", "--const", courseConsts, "--along", "T", "--json")
	golden(t, "eval/gpt-course-course-along.json", []byte(out))
	var p model.PiecewiseJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Pieces) != 2 || len(p.NeverAlone) != 1 || p.NeverAlone[0].Candidate.Op != 10 || strings.Join(p.ForAll, ",") != "B" {
		t.Errorf("%+v", p)
	}
}

func TestEvalRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "memsym: eval needs --at B=N,T=N, a value for each dimension, or --along DIM"},
		{[]string{"--at", "B=8"}, "memsym: --at B=8: no value for T: every dimension (B, T) needs one"},
		{[]string{"--at", "B=8,T=2,L=3"}, "memsym: --at B=8,L=3,T=2: no dimension L (the dimensions are B, T)"},
		{[]string{"--along", "L"}, "memsym: --along L: no dimension L (the dimensions are B, T)"},
		{[]string{"--along", "T", "--at", "T=3"}, "memsym: --at T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"--along", "T", "--at", "B=2,T=3"}, "memsym: --at B=2,T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"--along", "T", "--at", "L=3"}, "memsym: --at L=3: no dimension L (the dimensions are B, T)"},
		{[]string{"--at", "B=9223372036854775808,T=1"}, `memsym: invalid value "B=9223372036854775808,T=1" for flag --at: B: 9223372036854775808 is too large: expected an integer from 1 to 9223372036854775807; memsym eval -h lists the flags`},
		{[]string{"--at", "B=99999999999999999999999,T=1"}, `memsym: invalid value "B=99999999999999999999999,T=1" for flag --at: B: 99999999999999999999999 is too large: expected an integer from 1 to 9223372036854775807; memsym eval -h lists the flags`},
		{[]string{"--at", "B=-99999999999999999999999,T=1"}, `memsym: invalid value "B=-99999999999999999999999,T=1" for flag --at: B: -99999999999999999999999 is too small: expected an integer from 1 to 9223372036854775807; memsym eval -h lists the flags`},
		{[]string{"--const", "D=99999999999999999999", "--at", "B=1,T=1"}, `memsym: invalid value "D=99999999999999999999" for flag --const: D: 99999999999999999999 is too large: expected an integer from 1 to 9223372036854775807; memsym eval -h lists the flags`},
		{[]string{"--at", "B=x,T=1"}, `memsym: invalid value "B=x,T=1" for flag --at: B: expected an integer, found "x"; memsym eval -h lists the flags`},
		{[]string{"--along", "B"}, "memsym: along B the candidate holding the peak may depend on T: give a value with --at T=N"},
	} {
		out, errs, code := runCLI(append([]string{"eval", "--program", "gpt-course"}, c.args...)...)
		if code != 2 || out != "" || errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
	// A program of one dimension: going along it leaves none to fix.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--along", "B", "--at", "B=3"}, "memsym: --at B=3: B is the dimension gone along: give only the others a value"},
		{[]string{"--along", "B", "--at", "T=3"}, "memsym: --at T=3: no dimension T (the dimensions are B)"},
	} {
		for _, cmd := range []string{"eval", "crossover"} {
			out, errs, code := runCLI(append([]string{cmd, "--program", "mlp-train-step"}, c.args...)...)
			if code != 2 || out != "" || errs != c.want+"\n" {
				t.Errorf("%s %v: exit %d, stdout %q\n got %s\nwant %s", cmd, c.args, code, out, errs, c.want)
			}
		}
	}
}

// TestEvalAlongOneDimension: along the only dimension, a covered
// candidate's proof claims nothing of other dimensions, there being none.
func TestEvalAlongOneDimension(t *testing.T) {
	out := mustRunCLI(t, "eval", "--program", "mlp-train-step", "--along", "B")
	want := "at most the largest of operations 15, 18 and 25, which hold the peak along B\n"
	if !strings.Contains(out, want) || strings.Contains(out, "every other dimension") {
		t.Errorf("got\n%s\nwant a line ending %q, and no word of other dimensions", out, want)
	}
}

// TestEvalNegativeBytesIsUsage: a point where some buffer's polynomial is
// negative, as strided-conv's at S = 1, N = 1 read from recording files
// (which cannot say where the program runs), is refused as bad usage, as
// a point where the program does not run is.
func TestEvalNegativeBytesIsUsage(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, b := range []int{1, 2, 3} {
		for _, n := range []int{8, 10, 12} {
			path := filepath.Join(dir, fmt.Sprintf("b%d-n%d.jsonl", b, n))
			mustRunCLI(t, "record", "--program", "strided-conv", "--const", "S=1", "--dim", fmt.Sprintf("B=%d,N=%d", b, n), "-o", path)
			files = append(files, path)
		}
	}
	out, errs, code := runCLI(append([]string{"eval", "--at", "B=5,N=1"}, files...)...)
	want := "memsym: at B = 5, N = 1, buffer 4 \"conv\", made by operation 1 (`Conv1d.apply` in conv), has bytes 64 · B · N − 128 · B, which is −320 there: "
	if code != 2 || out != "" || !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q, want exit 2 and %q...", code, out, errs, want)
	}
}

// TestEvalAtNamesTheDimensions: without --at, eval names the source's own
// dimensions where it knows them, and a recording without dimensions needs
// none: its model has one point.
func TestEvalAtNamesTheDimensions(t *testing.T) {
	if _, errs, code := runCLI("eval", "--recorder", "true {X}", "--grid", "X=1,2,3"); code != 2 || errs != "memsym: eval needs --at X=N, a value for each dimension, or --along DIM\n" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	file := filepath.Join(t.TempDir(), "r.jsonl")
	text := `{"memsym": 1, "entry": "F", "dims": {}}
{"buffer": 1, "dtype": "f32", "shape": [4], "role": "input", "name": "x"}
{"buffer": 2, "dtype": "f32", "shape": [8], "name": "y"}
{"op": "F.apply", "reads": [1], "writes": [2]}
{"result": [2]}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRunCLI(t, "eval", file)
	if !strings.Contains(out, "`F` at its one point") || !strings.Contains(out, "  peak        32 bytes") {
		t.Errorf("eval of a recording without dimensions:\n%s", out)
	}
}

// TestSizeOneNote: a query that answers where a size is 1, which the
// grid did not record, says so under its title (belowLine): with the
// --check that records the point where the source can record it, without
// for files, and not at all for a bundled program, whose operations are
// the same at every size.
func TestSizeOneNote(t *testing.T) {
	dir := t.TempDir()
	recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768})
	recordGrid(t, dir, []int64{65}, []int64{1025})
	recordGrid(t, dir, []int64{115}, []int64{1795})
	t.Setenv("TMPDIR", t.TempDir())
	rec := []string{"--recorder", fakeRecorder(t, dir), "--grid", "B=16,32,48", "--grid", "T=256,512,768"}
	second := func(out string) string {
		lines := strings.Split(out, "\n")
		if len(lines) < 2 {
			t.Fatalf("one line: %q", out)
		}
		return lines[1] + "\n"
	}

	got := mustRunCLI(t, append([]string{"eval", "--at", "B=1,T=256"}, rec...)...)
	want := "  note: the polynomials were made from no recording at B = 1: they answer there, but a program may run other operations where a size is 1 (PyTorch does); --check B=1,T=256 records it\n"
	if second(got) != want {
		t.Errorf("eval at B = 1 with a recorder:\n%s\nwant under the title:\n%s", got, want)
	}
	got = mustRunCLI(t, append([]string{"eval", "--at", "B=1,T=256", "--json"}, rec...)...)
	if !strings.Contains(got, `"unrecorded_at_1": [
    "B"
  ]`) {
		t.Errorf("eval --json at B = 1 with a recorder lacks unrecorded_at_1:\n%s", got)
	}
	// Above 1, below the grid: nothing said.
	if got := mustRunCLI(t, append([]string{"eval", "--at", "B=2,T=256"}, rec...)...); strings.Contains(got, "note:") {
		t.Errorf("eval at B = 2 with a recorder says:\n%s", got)
	}
	got = mustRunCLI(t, append([]string{"fit", "--along", "T", "--at", "B=1", "--budget", "1GiB"}, rec...)...)
	// With the --check that records the first answer.
	want = strings.TrimSuffix(sizeOneNote("B = 1 or T = 1"), "\n") + "; --check B=1,T=2519 records B = 1\n"
	if second(got) != want {
		t.Errorf("fit at B = 1 with a recorder:\n%s\nwant under the title:\n%s", got, want)
	}

	var files []string
	for _, p := range recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768}) {
		files = append(files, p)
	}
	sort.Strings(files)
	got = mustRunCLI(t, append([]string{"eval", "--at", "B=1,T=1"}, files...)...)
	if !strings.Contains(got, sizeOneNote("B = 1 or T = 1")) {
		t.Errorf("eval at B = 1, T = 1 from files:\n%s\nwant the note without a --check", got)
	}

	got = mustRunCLI(t, "eval", "--program", "gpt-course", "--at", "B=1,T=1")
	if strings.Contains(got, "note:") {
		t.Errorf("a bundled program at B = 1, T = 1:\n%s", got)
	}
	if got := mustRunCLI(t, "eval", "--program", "gpt-course", "--at", "B=1,T=1", "--json"); strings.Contains(got, "unrecorded_at_1") {
		t.Errorf("a bundled program at B = 1, T = 1, in JSON:\n%s", got)
	}
}
