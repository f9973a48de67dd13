package reports

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTikZGolden(t *testing.T) {
	dir, names := render(t, "tikz", chapter())
	for _, n := range names {
		golden(t, "tikz/"+n, read(t, dir, n))
	}
}

// Every .tex file that stands alone must compile with pdflatex, and the
// PDF must say what the figure shows.
func TestTikZCompiles(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex is not installed; the TikZ output is not compiled")
	}
	dir, _ := render(t, "tikz", chapter())
	for _, c := range []struct {
		file string
		want []string
	}{
		{"live.tex", []string{"peak, operation 19", "operation", "live bytes (kB)"}},
		{"candidates.tex", []string{"T = 150", "27648", "live bytes (MB)"}},
		{"chapter13.tex", []string{"Memory: what GPT.apply needs", "149504", "144BT2+6144BT+8T2", "Figure 2"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
				"-output-directory", out, c.file)
			cmd.Dir = dir
			if log, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("pdflatex %s: %v\n%s", c.file, err, tail(string(log), 40))
			}
			pdf := filepath.Join(out, strings.TrimSuffix(c.file, ".tex")+".pdf")
			if _, err := os.Stat(pdf); err != nil {
				t.Fatal(err)
			}
			if _, err := exec.LookPath("pdftotext"); err != nil {
				t.Skip("pdftotext is not installed; the compiled text is not checked")
			}
			text, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(plainSpaces(string(text))), "")
			for _, w := range c.want {
				if !strings.Contains(flat, strings.ReplaceAll(w, " ", "")) {
					t.Errorf("the compiled %s lacks %q:\n%s", c.file, w, text)
				}
			}
		})
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func TestTeXEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Linear.apply/%5":  `Linear.apply/\%5`,
		"tok_emb & {x} $y": `tok\_emb \& \{x\} \$y`,
		"B ≥ 1, T ∈ {1}":   `B \ensuremath{\geq} 1, T \ensuremath{\in} \{1\}`,
		"blocks ×2":        `blocks \ensuremath{\times}2`,
		"a\\b^c~":          `a\textbackslash{}b\textasciicircum{}c\textasciitilde{}`,
		"日本":               "??",
	} {
		if got := texEscape(in); got != want {
			t.Errorf("texEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
