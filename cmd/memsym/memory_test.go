package main

import (
	"bytes"
	"encoding/json"
	"memsym/doc"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runMemory runs memsym with args in process and returns its stdout,
// stderr and exit code.
func runMemory(args ...string) (stdout, stderr string, code int) {
	var out, errs bytes.Buffer
	code = exitCode(run(&out, &errs, args), &errs)
	return out.String(), errs.String(), code
}

// TestMemoryGolden runs `memsym memory` on the hand-made recordings in
// testdata/memory; go test -update rewrites the goldens. The numbers in
// them are worked out by hand in TestMemoryByHand and in package record's
// tests (mlp.jsonl is the format's example).
func TestMemoryGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"memory/mlp.txt", []string{"memory", "testdata/memory/mlp.jsonl"}},
		{"memory/mlp.json", []string{"memory", "--json", "testdata/memory/mlp.jsonl"}},
		{"memory/folds.txt", []string{"memory", "testdata/memory/folds.jsonl"}},
		{"memory/folds.json", []string{"memory", "testdata/memory/folds.jsonl", "--json"}},
		{"memory/empty.txt", []string{"memory", "testdata/memory/empty.jsonl"}},
		{"memory/empty.json", []string{"memory", "-json", "testdata/memory/empty.jsonl"}},
	} {
		out, errs, code := runMemory(c.args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		golden(t, c.golden, []byte(out))
		again, _, _ := runMemory(c.args...)
		if again != out {
			t.Errorf("%v: a second run printed something else", c.args)
		}
	}
}

// TestMemoryByHand checks the lines of folds.jsonl's counts against
// numbers worked out by hand: a (5 u4, 5/2 bytes) lives at operations 1-4,
// the 100 bytes at 2-3, the 200 at 3-4, the 50 (read through a view, in
// the result) at 4-5; so the peak is 5/2 + 100 + 200 at operation 3.
// Placed: the 200 at 0, the 100 and the 50 at 256, a at 384: 773/2. Half
// bytes print as exact decimals.
func TestMemoryByHand(t *testing.T) {
	out, errs, code := runMemory("memory", "testdata/memory/folds.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"memsym memory: the recording: 5 operations, 4 launches\n",
		"  parameters  3 bytes: 3 elements, 3 in u4, and 1.5 bytes given without a shape\n",
		"  peak        302.5 bytes live, at operation 3 of 5, `step` in e.f, iterations e[1], f[0]\n",
		"  outputs     50 bytes\n",
		"  needs       305.5 bytes: the inputs and the peak\n",
		"  placed      386.5 bytes beside",
		"  buffer 4 \"line\\tbreak\"    100  bytes   operation 2, `step` in e[0].f[0]\n",
		"  e ×2               300       300           3\n",
		"    f ×2             300       300           3\n",
		"      g                0        50           1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestMemoryCourseGPT records the bundled course GPT at the seed's point
// and checks `memsym memory --units bytes` against the seed's lines, and
// that by default each figure has its binary units beside it.
func TestMemoryCourseGPT(t *testing.T) {
	rec, errs, code := runMemory("record", "--program", "gpt-course", "--dim", "B=2", "--dim", "T=16", "--const", "D=64", "--const", "H=2", "--const", "L=2")
	if code != 0 {
		t.Fatalf("memsym record: exit %d: %s", code, errs)
	}
	file := filepath.Join(t.TempDir(), "gpt.jsonl")
	if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runMemory("memory", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "  parameters  903168 bytes (882 KiB): 112896 elements"; !strings.Contains(out, want) {
		t.Errorf("by default, no %q:\n%s", want, out)
	}
	out, errs, code = runMemory("memory", "--units", "bytes", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	seed := "memsym memory: `GPT.apply` at B = 2, T = 16 in f64: 45 operations, 45 launches\n" +
		"  parameters  903168 bytes: 112896 elements, 112896 in f64\n" +
		"  inputs      903424 bytes, the parameters among them\n" +
		"  peak        149504 bytes live, at operation 19 of 45, `Linear.apply/%5` in blocks.ff.up, iteration 0\n" +
		"  outputs     23552 bytes\n" +
		"  needs       1052928 bytes: the inputs and the peak\n" +
		"  placed      149504 bytes beside the inputs: every buffer at an offset by its life, largest first, each offset a multiple of 64\n"
	if !strings.HasPrefix(out, seed) {
		t.Errorf("got\n%s\nwant the seed's lines\n%s", out, seed)
	}
	for _, want := range []string{"  blocks ×2        147456", "      up           131072"} {
		if !strings.Contains(out, want) {
			t.Errorf("the calls' table lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n  buffer "); n != 4 {
		t.Errorf("%d buffers live at the peak, want 4 (the mask, the residual, the product and its bias added)", n)
	}
}

// TestMemoryJSON decodes --json and checks it against the text's numbers.
func TestMemoryJSON(t *testing.T) {
	out, errs, code := runMemory("memory", "--json", "testdata/memory/mlp.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Dims map[string]int64
		Peak struct {
			Bytes     string
			Operation int
		}
		Calls []struct{ Path, Share string }
		Live  []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Dims["B"] != 4 || got.Dims["T"] != 8 || got.Peak.Bytes != "49157/2" || got.Peak.Operation != 7 || len(got.Live) != 11 || got.Live[6] != "49157/2" {
		t.Errorf("decoded %+v", got)
	}
	if i := strings.Index(out, `"B"`); i < 0 || i > strings.Index(out, `"T"`) {
		t.Error("the dimensions are not in the header's order")
	}
}

func TestMemoryStdin(t *testing.T) {
	data, err := os.ReadFile("testdata/memory/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	out, errs, code := runMemory("memory", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, _, _ := runMemory("memory", "testdata/memory/mlp.jsonl")
	if out != want {
		t.Errorf("from stdin:\n%s\nfrom the file:\n%s", out, want)
	}
}

func TestMemoryErrors(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stderr string // its first line
	}{
		{[]string{"memory"}, 2, `memsym: memory needs a recording file ("-" reads stdin)`},
		{[]string{"memory", "a.jsonl", "b.jsonl"}, 2, "memsym: memory counts one recording, given 2: a.jsonl b.jsonl"},
		{[]string{"memory", "-h"}, 0, `Usage: memsym memory [--json] [--units iec|si|bytes] REC ("-" reads stdin)`},
		{[]string{"memory", "testdata/memory/none.jsonl"}, 1, "memsym: testdata/memory/none.jsonl: cannot read the recording: no such file or directory"},
		{[]string{"memory", "testdata/memory/bad.jsonl"}, 1, "memsym: testdata/memory/bad.jsonl:3: buffer 1 is read by operation 1 (`f`) before any operation writes it; a caller-held input is declared with \"role\": \"input\""},
	} {
		out, errs, code := runMemory(c.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != c.code || first != c.stderr || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit %d, stderr %q", c.args, code, first, out, c.code, c.stderr)
		}
	}
	// An unknown flag is bad usage; main.go's parseFlags words the message.
	if _, errs, code := runMemory("memory", "--bogus", "a.jsonl"); code != 2 || !strings.Contains(errs, "-bogus") {
		t.Errorf("--bogus: exit %d, stderr %q; want exit 2 and a word about -bogus", code, errs)
	}
}

// TestJSONKeepsMarkup: --json writes "<", ">" and "&" in names as
// themselves, in memory's output as in programs' (one writeJSON).
func TestJSONKeepsMarkup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "amp.jsonl")
	text := `{"memsym": 1, "entry": "Q&K.apply<f>", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2], "role": "input", "name": "x"}
{"buffer": 2, "dtype": "f32", "shape": [2], "name": "q&k"}
{"op": "F.apply", "path": "attn", "reads": [1], "writes": [2]}
{"result": [2]}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI("memory", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"Q&K.apply<f>"`) || strings.Contains(out, `\u0026`) {
		t.Errorf("memory --json escaped markup:\n%s", out)
	}
	out, _, _ = runCLI("programs", "--json")
	if strings.Contains(out, `\u003e`) || !strings.Contains(out, "S > 1") {
		t.Errorf("programs --json escaped markup")
	}
}

// TestMemoryWideNames checks that the tables line up, as a terminal shows
// them, around names whose characters take two columns each.
func TestMemoryWideNames(t *testing.T) {
	file := filepath.Join(t.TempDir(), "wide.jsonl")
	text := `{"memsym": 1, "entry": "模型.apply", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2, 1024], "role": "input", "name": "x"}
{"buffer": 2, "dtype": "f32", "shape": [2, 1024], "name": "注意力"}
{"op": "F.apply", "path": "注意力层", "reads": [1], "writes": [2]}
{"buffer": 3, "dtype": "f32", "shape": [2, 4096], "name": "up"}
{"op": "G.apply", "path": "ff", "reads": [2], "writes": [3]}
{"result": [3]}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI("memory", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// In each table, every row's second column ends in the same terminal
	// column as the heading's (its figures are aligned right).
	for _, table := range strings.Split(out, "\n\n")[1:] {
		lines := strings.Split(strings.TrimSpace(table), "\n")
		if len(lines) < 3 {
			continue
		}
		end := func(line string) int {
			// The end of the first figure after the name: the first
			// digit run after two spaces.
			i := strings.Index(line[2:], "  ")
			rest := strings.TrimLeft(line[2+i:], " ")
			j := strings.IndexAny(rest, " ")
			if j < 0 {
				j = len(rest)
			}
			return doc.Columns(line[:len(line)-len(rest)+j])
		}
		want := end(lines[1])
		for _, line := range lines[2:] {
			if got := end(line); got != want {
				t.Errorf("the figures end in column %d and %d:\n%s", want, got, table)
				break
			}
		}
		if !strings.Contains(table, "注意力") {
			t.Errorf("a table without the wide name:\n%s", table)
		}
	}
}
