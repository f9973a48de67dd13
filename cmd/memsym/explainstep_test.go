package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"memsym/internal/tooltest"
)

// TestExplainStep writes the course GPT's chapter with its training step
// at the seed's point, stored and recomputed: the section's numbers are
// memory --step's, the step's peak is a LaTeX macro under --tex-prefix,
// the TikZ file compiles, and the page beside it shows the steps.
func TestExplainStep(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, append([]string{"explain", "--step", "--remat", "both", "--at", "B=16,T=256", "-o", dir, "--format", "md,tikz,page", "--verify", "1", "--tex-prefix", "gptstep"}, stepCourse...)...)
	files := readDir(t, dir)
	md := plainThinSpaces(files["chapter13.md"])
	mem := mustRunCLI(t, "memory", "--step", "--program", "gpt-course", "--const", courseConsts, "--dim", "B=16,T=256", "--remat", "both", "--units", "bytes")
	for _, s := range []string{
		"## 13.4 A training step",
		"| **the step's peak** | **1 850 119 176** | **1.72 GiB** | **662 806 536** | **632 MiB** |",
		"Recomputing brings the step's peak down 2.8 times, by 1 187 312 640 bytes (1.11 GiB).",
		"the kept activations outweigh the states for *T* ≥ 35",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("the chapter does not say %q", s)
		}
	}
	// The chapter's terms are memory --step's.
	for _, line := range strings.Split(mem, "\n")[2:13] {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		store, recompute := group(f[len(f)-2]), group(f[len(f)-1])
		if !strings.Contains(md, "| "+store+" | ") || !strings.Contains(md, "| "+recompute+" | ") {
			t.Errorf("memory --step says %q; the chapter lacks %s or %s", line, store, recompute)
		}
	}
	tex := string(files["chapter13-formulas.tex"])
	for _, s := range []string{`\memsym@define\gptstepStepPeakStoreAtPoint{1\,850\,119\,176}`, `\memsym@define\gptstepStepPeakRecomputeAtPoint{662\,806\,536}`,
		`\memsym@define\gptstepStepPeakStoreA{`, `\memsym@define\gptstepStepCrossoverStore{35}`} {
		if !strings.Contains(tex, s) {
			t.Errorf("the formulas' file lacks %s", s)
		}
	}
	page := string(files["chapter13-page.html"])
	if !strings.Contains(page, `"steps":[{"name":"store"`) || !strings.Contains(page, `{"name":"recompute"`) {
		t.Errorf("the page beside the chapter shows no steps")
	}
	pdflatex := tooltest.Need(t, "pdflatex", "the chapter's TikZ with the step's macros is not compiled")
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "chapter13-tikz.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "chapter13-tikz.pdf")); err != nil {
		t.Error(err)
	}
}

// group writes a count's digits grouped by threes, as the chapter does.
func group(s string) string {
	var parts []string
	for len(s) > 3 {
		parts = append([]string{s[len(s)-3:]}, parts...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, parts...), " ")
}

// TestStepChapterAndPageUsage: --step records a bundled program.
func TestStepChapterAndPageUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--step", "-o", dir, "--verify", "0", "testdata/memory/mlp.jsonl"}, "memsym: --step records a bundled program's training step: use it with --program\n"},
		{[]string{"explain", "--remat", "both", "--program", "gpt-course", "-o", dir}, "memsym: --remat goes with --step\n"},
		{[]string{"page", "--step", "-o", dir, "testdata/memory/mlp.jsonl"}, "memsym: --step shows a bundled program's training step: use it with --program\n"},
		{[]string{"page", "--optimizer", "lion", "--program", "gpt-course", "-o", dir}, "memsym: --optimizer goes with --step\n"},
		// A PyTorch module's step is the recorder's to make: said before
		// anything is recorded.
		{[]string{"explain", "--step", "-o", dir, "--torch", "model.py:build", "--grid", "B=1,2,3"}, "memsym: --step records a bundled program's training step: a PyTorch module's is recorded by memsym_torch: put --step adamw inside --torch's quotes and leave out explain's --step\n"},
		{[]string{"page", "--step", "-o", dir, "--torch", "model.py:build", "--grid", "B=1,2,3"}, "memsym: --step shows a bundled program's training step: a PyTorch module's is recorded by memsym_torch: put --step adamw inside --torch's quotes and leave out the page's --step\n"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, errs, c.want)
		}
	}
	if _, errs, code := runCLI("page", "--step", "--program", "mlp-train-step", "-o", dir); code != 1 || !strings.Contains(errs, "mlp-train-step has no --step") {
		t.Errorf("page --step on mlp-train-step: exit %d, %q", code, errs)
	}
}

// TestPageStep: memsym page --step writes the page with the step, the
// same page explain --format page --step writes.
func TestPageStep(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "page", "--step", "--remat", "both", "--program", "mlp-width", "-o", dir)
	alone, err := os.ReadFile(filepath.Join(dir, "mlp-width.html"))
	if err != nil {
		t.Fatal(err)
	}
	mustRunCLI(t, "explain", "--step", "--remat", "both", "--program", "mlp-width", "-o", dir, "--format", "page", "--verify", "0", "--name", "ch")
	beside, err := os.ReadFile(filepath.Join(dir, "ch-page.html"))
	if err != nil {
		t.Fatal(err)
	}
	if string(alone) != string(beside) {
		t.Error("explain's page with the step differs from memsym page --step's")
	}
	if !strings.Contains(string(alone), `"steps":[{"name":"store"`) {
		t.Error("the page holds no step")
	}
}

// TestExplainStepBlocksAsDimension: gpt-depth's step, whose layer count L
// is a dimension, gets its chapter; the per-layer estimates are left out,
// saying why, in the chapter and in symbolic --step --compare.
func TestExplainStepBlocksAsDimension(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "gpt-depth", "--step", "--format", "md", "--verify", "0", "-o", dir)
	md, err := os.ReadFile(filepath.Join(dir, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	left := "with the layer count L a dimension the model does not split what the step keeps by layer: their rows are left out"
	if !strings.Contains(string(md), left) {
		t.Errorf("the chapter does not say why the per-layer estimates are left out")
	}
	out := mustRunCLI(t, "symbolic", "--program", "gpt-depth", "--step", "--compare")
	if !strings.Contains(out, "  left out: Korthikanti et al.'s activations are per layer, and "+left) || strings.Contains(out, "kept per layer") {
		t.Errorf("symbolic --step --compare:\n%s", out)
	}
}

// TestExplainStepChangesBeyondTheProgram: bert-encoder takes T ≤ P = 512,
// and two of the four points around its step's changes lie beyond it: the
// chapter says it set out to record four and recorded two, not that it
// recorded four.
func TestExplainStepChangesBeyondTheProgram(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--step", "--remat", "both", "--format", "md", "--verify", "0", "-o", dir)
	md, err := os.ReadFile(filepath.Join(dir, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "memsym set out to record the step on both sides of each change, at four points in all (Table 13.12 and Table 13.13). Two of them lie beyond the values the program takes, so the step was recorded at the other two. Both show the larger term the polynomials predict."
	if !strings.Contains(string(md), want) || strings.Contains(string(md), "four recordings in all") {
		t.Errorf("the chapter does not say which of the four points were recorded")
	}
}
