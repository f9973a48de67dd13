package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStepGolden runs memory --step and symbolic --step on the course GPT
// at the seed's point and on a small step; go test -update rewrites the
// goldens. The numbers are checked in packages programs and model.
func TestStepGolden(t *testing.T) {
	course := []string{"--program", "gpt-course", "--const", "D=384,H=6,L=6"}
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"step/gpt-course-both.txt", append([]string{"memory", "--step", "--dim", "B=16,T=256", "--remat", "both", "--compare"}, course...)},
		{"step/gpt-course-sgd-mixed.txt", append([]string{"memory", "--step", "--dim", "B=16,T=256", "--optimizer", "sgd", "--types", "params=bf16,activations=bf16,gradient=f32,states=f32,master=f32"}, course...)},
		{"step/llama-symbolic.txt", []string{"symbolic", "--step", "--program", "llama2-7b-block", "--remat", "both", "--compare"}},
		{"step/small-file.txt", []string{"memory", "--step", "--compare", "testdata/step/small.jsonl"}},
	} {
		out, errs, code := runMemory(c.args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		golden(t, c.golden, []byte(out))
	}
}

// TestStepRecordRoundTrip records a step with memsym record and counts
// the file as memory --step counts the program.
func TestStepRecordRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "step.jsonl")
	if _, errs, code := runMemory("record", "--program", "gpt-course", "--step", "--remat", "recompute", "--optimizer", "lion", "-o", path); code != 0 {
		t.Fatalf("record: %s", errs)
	}
	fromFile, errs, code := runMemory("memory", "--step", path)
	if code != 0 {
		t.Fatalf("memory --step FILE: %s", errs)
	}
	fromProgram, errs, code := runMemory("memory", "--step", "--program", "gpt-course", "--remat", "recompute", "--optimizer", "lion")
	if code != 0 {
		t.Fatalf("memory --step --program: %s", errs)
	}
	// The file's column is named "step", the program's "recompute", which
	// the program's peak says and the file's does not; the title of the
	// program's says how it was trained.
	norm := func(s string) string {
		s = strings.ReplaceAll(s, "the step's peak (recompute):", "the step's peak:")
		s = strings.ReplaceAll(s, "recompute", "step")
		return strings.Join(strings.Fields(s[strings.Index(s, "\n"):]), " ")
	}
	if norm(fromFile) != norm(fromProgram) {
		t.Errorf("memory --step on the recorded file:\n%s\non the program:\n%s", fromFile, fromProgram)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(text), `{"memsym": 2,`) || !strings.Contains(string(text), `"phase": "optimizer"`) {
		t.Errorf("the recording is not a version-2 step: %.200s", text)
	}
}

// TestStepUsage checks the step's flags' misuse.
func TestStepUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"memory", "--remat", "both", "testdata/memory/mlp.jsonl"}, "memsym: --remat goes with --step\n"},
		{[]string{"memory", "--program", "gpt-course"}, "memsym: --program, --dim and --const go with --step; memory counts a recording file\n"},
		{[]string{"memory", "--step", "--optimizer", "sgd", "testdata/step/small.jsonl"}, "memsym: --optimizer goes with --program: a recording of a step was made with its own\n"},
		{[]string{"memory", "--step", "--program", "gpt-course", "--remat", "sometimes"}, "memsym: --remat sometimes: expected store, recompute or both\n"},
		{[]string{"memory", "--step", "--program", "gpt-course", "--optimizer", "adam"}, "memsym: --optimizer: unknown optimizer \"adam\": expected adamw, adamw-inplace, sgd, lion, adafactor\n"},
		{[]string{"memory", "--step", "--json", "--program", "gpt-course"}, "memsym: --json does not go with --step\n"},
		{[]string{"symbolic", "--compare", "--program", "gpt-course"}, "memsym: --compare goes with --step\n"},
		{[]string{"record", "--program", "gpt-course", "--step", "--remat", "both"}, "memsym: --remat both: a recording is of one step; record store and recompute apart\n"},
	} {
		_, errs, code := runMemory(c.args...)
		if code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, errs, c.want)
		}
	}
	_, errs, code := runMemory("memory", "--step", "testdata/memory/mlp.jsonl")
	if code != 1 || !strings.Contains(errs, "testdata/memory/mlp.jsonl: the recording's operations have no phases") {
		t.Errorf("memory --step on a recording of one call: exit %d, %q", code, errs)
	}
	_, errs, code = runMemory("memory", "--step", "--program", "mlp-train-step")
	if code != 1 || !strings.Contains(errs, "mlp-train-step has no --step: it records a training step already") {
		t.Errorf("memory --step on mlp-train-step: exit %d, %q", code, errs)
	}
}

// TestSymbolicStepLongStateNames: a state named longer than the labels'
// column (a PyTorch model's "embed.weight.exp_avg_sq") widens the column,
// so that every figure starts where the others do.
func TestSymbolicStepLongStateNames(t *testing.T) {
	dir := t.TempDir()
	long := "embed.weight.exp_avg_sq.of.a.long.name"
	var files []string
	for _, b := range []int{1, 2, 3} {
		for _, tt := range []int{4, 8, 12} {
			out := mustRunCLI(t, "record", "--program", "gpt-course", "--step", "--dim", fmt.Sprintf("B=%d,T=%d", b, tt))
			path := filepath.Join(dir, fmt.Sprintf("b%d-t%d.jsonl", b, tt))
			if err := os.WriteFile(path, []byte(strings.ReplaceAll(out, `"name": "first moment"`, `"name": "`+long+`"`)), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, path)
		}
	}
	out := mustRunCLI(t, append([]string{"symbolic", "--step"}, files...)...)
	column := -1
	for _, line := range strings.Split(out, "\n") {
		for _, label := range []string{"  parameters ", "    " + long + " ", "  gradient "} {
			if !strings.HasPrefix(line, label) {
				continue
			}
			at := len(line) - len(strings.TrimLeft(line[len(label):], " "))
			if column >= 0 && at != column {
				t.Errorf("%q starts its figure at %d, another line at %d:\n%s", label, at, column, out)
			}
			column = at
		}
	}
	if column < 0 {
		t.Fatalf("no labelled lines:\n%s", out)
	}
}
