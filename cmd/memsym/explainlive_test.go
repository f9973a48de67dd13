package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"memsym/internal/tooltest"
)

// The live bytes' TikZ figure of a program of thousands of operations
// (the course GPT with 300 layers, 6 005) compiles: its line is thinned to
// what TeX holds.
func TestExplainLongLiveFigureCompiles(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the long live figure is not compiled")
	dir := filepath.Join(t.TempDir(), "d")
	mustRunCLI(t, "explain", "--program", "gpt-course", "--const", "L=300", "--verify", "0", "--confirm=false", "--format", "tikz", "-o", dir)
	tex, err := os.ReadFile(filepath.Join(dir, "chapter13-live.tex"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tex), "points, too many for TeX") {
		t.Errorf("chapter13-live.tex does not say its line is thinned")
	}
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "chapter13-live.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := strings.Split(string(out), "\n")
		t.Fatalf("pdflatex chapter13-live.tex: %v\n%s", err, strings.Join(lines[max(0, len(lines)-20):], "\n"))
	}
}
