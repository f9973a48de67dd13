package reports

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/tooltest"
	"memsym/poly"
)

func TestTikZGolden(t *testing.T) {
	dir, names := renderWith(t, "tikz", chapter(t), Options{TeXPrefix: "gptcourse"})
	for _, n := range names {
		golden(t, "tikz/"+n, read(t, dir, n))
	}
}

// pdflatex compiles file in dir into out and returns its log.
func pdflatex(t *testing.T, dir, out, file string) string {
	t.Helper()
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-output-directory", out, file)
	cmd.Dir = dir
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex %s: %v\n%s", file, err, tail(string(log), 40))
	}
	log, err := os.ReadFile(filepath.Join(out, strings.TrimSuffix(filepath.Base(file), ".tex")+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(log)
}

// Every .tex file that stands alone must compile with pdflatex, a figure
// into a cropped picture no wider than its column, and the PDF must say
// what it shows, labels in math mode among it.
func TestTikZCompiles(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the TikZ output is not compiled")
	dir, _ := render(t, "tikz", chapter(t))
	for _, c := range []struct {
		file string
		want []string
	}{
		{"chapter13-live.tex", []string{"peak, operation 19", "operation", "live bytes (KiB)", "blocks[0]"}},
		{"chapter13-calls.tex", []string{"GPT.apply", "own operations", "1.4%", "blocks ×2", "98.6%", "up", "87.7%"}},
		{"chapter13-candidates.tex", []string{"T = 75", "counted", "4608BT+8T2", "1 MiB", "grid"}},
		{"chapter13-tikz.tex", []string{"13 Memory: what GPT.apply needs", "149 504", "48BT2+1 024BT+8T2", "Figure 13.2"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			out := t.TempDir()
			log := pdflatex(t, dir, out, c.file)
			if strings.Contains(log, "Overfull \\hbox") {
				t.Errorf("%s has an overfull box:\n%s", c.file, overfull(log))
			}
			pdf := filepath.Join(out, strings.TrimSuffix(c.file, ".tex")+".pdf")
			if strings.HasPrefix(c.file, "chapter13-") && c.file != "chapter13-tikz.tex" {
				// A figure alone is cropped to its picture, a column wide.
				info, err := exec.Command("pdfinfo", pdf).Output()
				if err == nil {
					m := regexp.MustCompile(`Page size:\s+([0-9.]+) x`).FindSubmatch(info)
					if m == nil {
						t.Fatalf("pdfinfo: no page size in %s", info)
					}
					if w, _ := strconv.ParseFloat(string(m[1]), 64); w > 248.1 {
						t.Errorf("%s is %v pt wide, more than its 246 pt column and a border", c.file, w)
					}
				}
			}
			tooltest.Need(t, "pdftotext", "the compiled text is not checked")
			text, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(plainSpaces(string(text))), "")
			for _, w := range c.want {
				if !strings.Contains(flat, strings.ReplaceAll(plainSpaces(w), " ", "")) {
					t.Errorf("the compiled %s lacks %q:\n%s", c.file, w, text)
				}
			}
		})
	}
}

// overfull returns the lines of a LaTeX log about overfull boxes.
func overfull(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "Overfull") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// renderUnder writes the TikZ of a bundled program's chapter, under its
// own prefix, into the directory paper/prefix, as a paper holding two
// programs' keeps them.
func renderUnder(t *testing.T, paper, name, prefix string) {
	t.Helper()
	sub := filepath.Join(paper, prefix)
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r, _ := Lookup("tikz")
	if _, err := r.Render(explain.Chapter(input(t, name)), sub, Options{TeXPrefix: prefix}); err != nil {
		t.Fatal(err)
	}
}

// Two programs' formulas and figures go into one two-column paper: each
// program's macros under its own prefix, defined once, and every figure a
// column wide, with no overfull box from any of them.
func TestTikZInTwoColumnPaper(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the paper with two programs' formulas and figures is not compiled")
	paper := t.TempDir()
	var body strings.Builder
	for _, p := range []struct{ name, prefix string }{{"gpt-course", "gptcourse"}, {"llama2-7b-block", "llamablock"}} {
		renderUnder(t, paper, p.name, p.prefix)
		body.WriteString(`\input{` + p.prefix + `/chapter13-formulas}` + "\n")
		body.WriteString(`The peak of \texttt{` + p.name + `} at its point is \` + p.prefix + `PeakAtPoint~bytes, and what it needs is $\` + p.prefix + `Needs$ bytes; its peak crosses over at $T = \` + p.prefix + `CrossoverA$.` + "\n")
		for _, fig := range []string{"live", "calls", "candidates"} {
			body.WriteString(`\begin{figure}` + "\n" + `\centering` + "\n" + `\input{` + p.prefix + `/chapter13-` + fig + `}` + "\n" + `\caption{` + p.name + ` ` + fig + `}` + "\n" + `\end{figure}` + "\n")
		}
		body.WriteString(`\clearpage` + "\n")
	}
	// The same file twice: its macros are defined the same, which is no error.
	body.WriteString(`\input{gptcourse/chapter13-formulas}` + "\n")
	doc := "\\documentclass[twocolumn]{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n" + body.String() + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	log := pdflatex(t, paper, paper, "paper.tex")
	if o := overfull(log); o != "" {
		t.Errorf("the paper has overfull boxes:\n%s", o)
	}
	if strings.Contains(log, "LaTeX Warning: Float too large") {
		t.Errorf("a figure is too large for its column")
	}
	tooltest.Need(t, "pdftotext", "the paper's text is not checked")
	text, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join(paper, "paper.pdf"), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	flat := plainSpaces(string(text))
	for _, want := range []string{"at its point is 149 504 bytes", "at its point is 57 016 320 bytes", "T = 75", "T = 446"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the paper lacks %q:\n%s", want, flat)
		}
	}
}

// With TikZ's externalization on (\tikzexternalize, pdflatex
// -shell-escape), each figure is one picture, exported once, and a plot is
// as wide as without it, a column (the calls' boxes, laid out for the
// line, no wider than it, the width they are drawn at written into the
// picture); two programs' figures in one paper. The hidden
// pass that measures a figure's labels was once a picture of its own, and
// the job that exported the figure measured a line of text in its place:
// the course GPT's live bytes came out 184 pt wide in a 345 pt column.
func TestTikZExternalized(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the figures are not compiled with TikZ's externalization")
	tooltest.Need(t, "pdfinfo", "the externalized figures are not measured")
	paper := t.TempDir()
	type figure struct {
		prefix, name string
		plot         bool // a column wide
	}
	var figures []figure
	var body strings.Builder
	body.WriteString("\\typeout{memsym-columnwidth=\\the\\columnwidth}\n")
	for _, p := range []struct{ name, prefix string }{{"gpt-course", "gptcourse"}, {"llama2-7b-block", "llamablock"}} {
		renderUnder(t, paper, p.name, p.prefix)
		for _, f := range []figure{{p.prefix, "live", true}, {p.prefix, "calls", false}, {p.prefix, "candidates", true}} {
			figures = append(figures, f)
			fmt.Fprintf(&body, "\\begin{figure}\n\\centering\n\\input{%s/chapter13-%s}\n\\caption{%s %s}\n\\end{figure}\n", f.prefix, f.name, p.name, f.name)
		}
		body.WriteString("\\clearpage\n")
	}
	doc := "\\documentclass{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n" +
		"\\usetikzlibrary{external}\n\\tikzexternalize\n\\begin{document}\n" + body.String() + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-shell-escape", "paper.tex")
	cmd.Dir = paper
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex -shell-escape paper.tex: %v\n%s", err, tail(string(out), 40))
	}
	log, err := os.ReadFile(filepath.Join(paper, "paper.log"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`memsym-columnwidth=([0-9.]+)pt`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("the paper's log gives no column width:\n%s", tail(string(log), 40))
	}
	column, _ := strconv.ParseFloat(string(m[1]), 64)
	made, err := filepath.Glob(filepath.Join(paper, "paper-figure*.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != len(figures) {
		t.Errorf("externalization made %d figures' PDFs of %d figures: %v", len(made), len(figures), made)
	}
	for i, f := range figures {
		pdf := filepath.Join(paper, fmt.Sprintf("paper-figure%d.pdf", i))
		info, err := exec.Command("pdfinfo", pdf).Output()
		if err != nil {
			t.Errorf("%s's %s: no externalized figure %s: %v", f.prefix, f.name, filepath.Base(pdf), err)
			continue
		}
		m := regexp.MustCompile(`Page size:\s+([0-9.]+) x`).FindSubmatch(info)
		if m == nil {
			t.Fatalf("pdfinfo: no page size in %s", info)
		}
		bp, _ := strconv.ParseFloat(string(m[1]), 64)
		width := bp * 72.27 / 72 // pdfinfo's big points in TeX's points
		if f.plot && math.Abs(width-column) > 1 || !f.plot && width > column+1 {
			t.Errorf("%s's %s, externalized, is %.2f pt wide in a column of %.2f pt", f.prefix, f.name, width, column)
		}
	}
}

// Macros are named by the prefix and letters alone.
func TestMacroName(t *testing.T) {
	for key, want := range map[string]string{
		"PeakA": `\gptPeakA`, "ConstD": `\gptConstD`, "Constd_model": `\gptConstdModel`, "ConstL2": `\gptConstLTwo`, "PointCin": `\gptPointCin`,
	} {
		if got := macroName("gpt", key); got != want {
			t.Errorf("macroName(gpt, %q) = %q, want %q", key, got, want)
		}
	}
}

// Formulas are written for math mode with their digits grouped by \,.
func TestTeXPoly(t *testing.T) {
	for in, want := range map[string]string{
		"27648*B*T + 8*T^2": `27\,648\,BT + 8\,T^{2}`,
		"85745664 + 3072*T": `3\,072\,T + 85\,745\,664`,
		"1/2*T^2 - 3*Cin":   `{\textstyle\frac{1}{2}}\,T^{2} - 3\,\mathit{Cin}`,
		"-B":                `-B`,
		"0":                 `0`,
		"12345/2":           `{\textstyle\frac{12\,345}{2}}`,
		"d_model*B":         `\mathit{d\_model}\,B`,
		"4*x_1*xOne^2":      `4\,\mathit{x\_1}\,\mathit{xOne}^{2}`,
		"B*T*d_model":       `BT\,\mathit{d\_model}`,
	} {
		p, err := poly.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := texPoly(p); got != want {
			t.Errorf("texPoly(%s) = %q, want %q", in, got, want)
		}
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
		"Linear.apply/%5":   `Linear.apply/\%5`,
		"tok_emb & {x} $y":  `tok\_emb \& \{x\} \$y`,
		"B ≥ 1, T ∈ {1}":    `B \ensuremath{\geq} 1, T \ensuremath{\in} \{1\}`,
		"blocks ×2":         `blocks \ensuremath{\times}2`,
		"a\\b^c~":           `a\textbackslash{}b\textasciicircum{}c\textasciitilde{}`,
		"日本":                "??",
		"E*n|t<x>\"p\" --a": `E*n\ensuremath{|}t\ensuremath{<}x\ensuremath{>}\texttt{\char34}p\texttt{\char34} -{}-a`,
	} {
		if got := texEscape(in); got != want {
			t.Errorf("texEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// pdflatexRun compiles file in dir, halting at the first error, and
// returns whether it compiled and its log.
func pdflatexRun(t *testing.T, dir, file string) (bool, string) {
	t.Helper()
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", file)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log, lerr := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(file, ".tex")+".log"))
	if lerr != nil {
		t.Fatalf("pdflatex %s wrote no log: %v\n%s", file, lerr, tail(string(out), 40))
	}
	return err == nil, string(log)
}

// numberAt returns the number d's formulas file defines under key, as
// pdftotext shows it.
func numberAt(t *testing.T, name, key string) string {
	t.Helper()
	for _, n := range explain.Chapter(input(t, name)).Numbers {
		if n.Key == key {
			return strings.ReplaceAll(texNumber(n.Value), `\,`, " ")
		}
	}
	t.Fatalf("%s has no number %s", name, key)
	return ""
}

// Two programs' formulas under one prefix in one paper stop pdflatex with
// an error naming --tex-prefix, never the first program's numbers for the
// second's; under their own prefixes each shows its own numbers, and one
// file \input twice is no error.
func TestTikZTwoProgramsOnePrefix(t *testing.T) {
	tooltest.Need(t, "pdflatex", "two programs' formulas in one paper are not compiled")
	programs := []string{"gpt-course", "mlp-width"}
	gptPeak, mlpPeak := numberAt(t, programs[0], "PeakAtPoint"), numberAt(t, programs[1], "PeakAtPoint")
	if gptPeak == mlpPeak {
		t.Fatalf("both programs' peaks are %s: the test tells nothing", gptPeak)
	}
	paper := func(t *testing.T, prefixes [2]string, twice bool) (string, bool, string) {
		dir := t.TempDir()
		var body strings.Builder
		for i, p := range programs {
			sub := filepath.Join(dir, p)
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			r, _ := Lookup("tikz")
			if _, err := r.Render(explain.Chapter(input(t, p)), sub, Options{TeXPrefix: prefixes[i]}); err != nil {
				t.Fatal(err)
			}
			body.WriteString(`\input{` + p + `/chapter13-formulas}` + "\n")
			if twice {
				body.WriteString(`\input{` + p + `/chapter13-formulas}` + "\n")
			}
			body.WriteString(`The peak of ` + p + ` is \` + prefixes[i] + `PeakAtPoint~bytes.` + "\n\n")
		}
		tex := "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n" + body.String() + "\\end{document}\n"
		if err := os.WriteFile(filepath.Join(dir, "paper.tex"), []byte(tex), 0o644); err != nil {
			t.Fatal(err)
		}
		ok, log := pdflatexRun(t, dir, "paper.tex")
		return dir, ok, log
	}

	t.Run("one prefix", func(t *testing.T) {
		_, ok, log := paper(t, [2]string{"memsym", "memsym"}, false)
		if ok {
			t.Fatalf("a paper with two programs' formulas under one prefix compiled")
		}
		if !strings.Contains(log, `! memsym: \memsym`) || !strings.Contains(log, "--tex-prefix") {
			t.Errorf("the error does not say which macro and --tex-prefix:\n%s", tail(log, 20))
		}
	})
	t.Run("own prefixes", func(t *testing.T) {
		dir, ok, log := paper(t, [2]string{"gpt", "mlp"}, true)
		if !ok {
			t.Fatalf("a paper with two programs' formulas under their own prefixes, each twice, did not compile:\n%s", tail(log, 20))
		}
		tooltest.Need(t, "pdftotext", "the paper's numbers are not checked")
		text, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join(dir, "paper.pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(plainSpaces(string(text))), " ")
		for _, want := range []string{"The peak of gpt-course is " + gptPeak + " bytes", "The peak of mlp-width is " + mlpPeak + " bytes"} {
			if !strings.Contains(flat, want) {
				t.Errorf("the paper lacks %q:\n%s", want, flat)
			}
		}
	})
}

// overfullPattern matches a LaTeX log's overfull box and its excess.
var overfullPattern = regexp.MustCompile(`Overfull \\hbox \(([0-9.]+)pt too wide\)`)

// The chapter's TikZ document sets the peak of many candidates and what is
// needed on as many lines as they take: no line is wider than the text.
func TestTikZChapterFormulasFit(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the TikZ document's lines are not measured")
	for _, name := range []string{"encdec-cross", "llama2-7b-block"} {
		t.Run(name, func(t *testing.T) {
			dir, _ := render(t, "tikz", explain.Chapter(input(t, name)))
			ok, log := pdflatexRun(t, dir, "chapter13-tikz.tex")
			if !ok {
				t.Fatalf("chapter13-tikz.tex did not compile:\n%s", tail(log, 20))
			}
			for _, m := range overfullPattern.FindAllStringSubmatch(log, -1) {
				if w, _ := strconv.ParseFloat(m[1], 64); w > 2 {
					t.Errorf("chapter13-tikz.tex: %s", m[0])
				}
			}
		})
	}
}

// A line too long for TeX keeps, in each column of the axis, its first,
// last, lowest and highest points, exactly, in order; a short one is kept
// whole.
func TestThinLine(t *testing.T) {
	frac := func(x poly.Rat) float64 { return x.Float64() / 6000 }
	var line []doc.XY
	for i := range 6000 {
		y := int64((i*7919)%1000 + 1)
		if i == 4321 {
			y = 5000 // the peak
		}
		line = append(line, doc.XY{X: poly.Int(int64(i)), Y: poly.Int(y)})
	}
	thin := thinLine(line, frac)
	if len(thin) > 4*thinColumns || len(thin) < thinColumns {
		t.Fatalf("%d points thinned to %d, want between %d and %d", len(line), len(thin), thinColumns, 4*thinColumns)
	}
	next := 0
	for _, pt := range thin { // each kept point is one of the line's, in order
		for next < len(line) && !(line[next].X.Equal(pt.X) && line[next].Y.Equal(pt.Y)) {
			next++
		}
		if next == len(line) {
			t.Fatalf("(%v, %v) is not in the line, or out of order", pt.X, pt.Y)
		}
	}
	for c := 0; c < 6000; c += 12 { // each column's highest and lowest kept
		hi, lo := line[c].Y, line[c].Y
		for _, pt := range line[c : c+12] {
			hi, lo = maxRat(hi, pt.Y), minRat(lo, pt.Y)
		}
		var khi, klo poly.Rat
		first := true
		for _, pt := range thin {
			if x := pt.X.Float64(); x >= float64(c) && x < float64(c+12) {
				if first {
					khi, klo, first = pt.Y, pt.Y, false
				}
				khi, klo = maxRat(khi, pt.Y), minRat(klo, pt.Y)
			}
		}
		if first || !khi.Equal(hi) || !klo.Equal(lo) {
			t.Fatalf("operations %d to %d: kept %v to %v, want %v to %v", c, c+11, klo, khi, lo, hi)
		}
	}
	if short := line[:maxPlotted]; len(thinLine(short, frac)) != maxPlotted {
		t.Errorf("a line of %d points was thinned", maxPlotted)
	}
}

func minRat(a, b poly.Rat) poly.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// A figure whose formulas have fractions (the int4 Llama's half bytes)
// compiles alone, as its header says, with no package but pgfplots; and
// the formulas file needs no package, as its header says: a formula's
// fraction in math mode and a number's, half a byte, in running text.
func TestTikZFractionsNeedNoPackage(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the fractions are not compiled")
	t.Run("figure alone", func(t *testing.T) {
		dir, _ := render(t, "tikz", explain.Chapter(input(t, "llama2-7b-block-int4")))
		if !strings.Contains(string(read(t, dir, "chapter13-candidates.tex")), `frac{1}{2}`) {
			t.Fatalf("the candidates' figure has no fraction: the test tells nothing")
		}
		pdflatex(t, dir, t.TempDir(), "chapter13-candidates.tex")
	})
	t.Run("formulas in a paper", func(t *testing.T) {
		half := poly.Int(3).Quo(poly.Int(2))
		p, err := poly.Parse("1/2*B*T + 3/2*T")
		if err != nil {
			t.Fatal(err)
		}
		d := &doc.Document{
			Title:    "Memory: what F needs",
			Formulas: []doc.NamedFormula{{Key: "PeakA", Label: "candidate 1", Poly: p, Of: "Peak", OfLabel: "the peak"}},
			Numbers:  []doc.NamedNumber{{Key: "PeakAtPoint", Label: "the peak's bytes", Value: half}},
		}
		dir, _ := render(t, "tikz", d)
		tex := "\\documentclass{article}\n\\begin{document}\n\\input{chapter13-formulas}\n" +
			"The peak is $\\memsymPeak$, here \\memsymPeakAtPoint~bytes.\n\\end{document}\n"
		if err := os.WriteFile(filepath.Join(dir, "paper.tex"), []byte(tex), 0o644); err != nil {
			t.Fatal(err)
		}
		if ok, log := pdflatexRun(t, dir, "paper.tex"); !ok {
			t.Fatalf("a paper without amsmath quoting fractions did not compile:\n%s", tail(log, 20))
		}
	})
}

// Each largest-of has its macro: the peak, the largest of its candidates,
// and a training step's peak, the largest of its own, each in the order
// of its candidates.
func TestTikZLargestOf(t *testing.T) {
	f := func(key, of, label string, x int64) doc.NamedFormula {
		return doc.NamedFormula{Key: key, Label: key, Poly: poly.Const(poly.Int(x)), Of: of, OfLabel: label}
	}
	d := &doc.Document{
		Title: "Memory: what F needs",
		Formulas: []doc.NamedFormula{
			f("PeakA", "Peak", "the peak", 1), f("PeakB", "Peak", "the peak", 2),
			{Key: "StepParams", Label: "the parameters", Poly: poly.Const(poly.Int(3))},
			f("StepPeakStoreA", "StepPeakStore", "the training step's peak, storing", 4),
			f("StepPeakStoreB", "StepPeakStore", "the training step's peak, storing", 5),
		},
	}
	out := string(tikzFormulas(d, Options{}))
	for _, want := range []string{
		"% the peak: the largest of the candidates\n\\memsym@define\\memsymPeak{\\max\\{\\memsymPeakA,\\allowbreak\\ \\memsymPeakB\\}}\n",
		"% the training step's peak, storing: the largest of the candidates\n\\memsym@define\\memsymStepPeakStore{\\max\\{\\memsymStepPeakStoreA,\\allowbreak\\ \\memsymStepPeakStoreB\\}}\n",
		// And for a display, one candidate a line.
		"\\memsym@define\\memsymPeakLines{\\max\\left\\{\\begin{array}{@{}l@{}}\\memsymPeakA,\\\\[\\jot]\\memsymPeakB\\end{array}\\right\\}}\n",
		"\\memsym@define\\memsymStepPeakStoreLines{\\max\\left\\{\\begin{array}{@{}l@{}}\\memsymStepPeakStoreA,\\\\[\\jot]\\memsymStepPeakStoreB\\end{array}\\right\\}}\n",
		"% A displayed equation breaks no line, and a maximum of long candidates runs into\n% the margin there: in one, \\memsymPeakLines and \\memsymStepPeakStoreLines set it one candidate a line,\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "StepParams,") {
		t.Errorf("a formula that is no candidate is among a largest-of's:\n%s", out)
	}
}

// Two constants or two dimensions whose names spell one macro (d_model
// and dModel, x1 and xOne) get macros of their own in one formulas file,
// which compiles, each macro giving its own number: never the error that
// blames another program's file under the same prefix.
func TestTikZMacroNamesDistinct(t *testing.T) {
	d := &doc.Document{
		Title: "Memory: what F needs",
		Numbers: []doc.NamedNumber{
			{Key: "Constd_model", Label: "the constant d_model", Value: poly.Int(8)},
			{Key: "ConstdModel", Label: "the constant dModel", Value: poly.Int(9)},
			{Key: "ConstdModelB", Label: "the constant dModelB", Value: poly.Int(10)},
			{Key: "Pointx1", Label: "the counted point's x1", Value: poly.Int(11)},
			{Key: "PointxOne", Label: "the counted point's xOne", Value: poly.Int(12)},
		},
	}
	names := macroNames(d, "p")
	seen := map[string]string{}
	for _, n := range d.Numbers {
		if k, ok := seen[names[n.Key]]; ok {
			t.Errorf("%s and %s are both %s", k, n.Key, names[n.Key])
		}
		seen[names[n.Key]] = n.Key
	}
	// A key of letters alone keeps its name, wherever it comes: a paper
	// quoting \pConstdModel quotes dModel (before, the first of d_model
	// and dModel took it, and dModelB became \pConstdModelBB).
	for key, want := range map[string]string{"ConstdModel": `\pConstdModel`, "ConstdModelB": `\pConstdModelB`, "PointxOne": `\pPointxOne`,
		"Constd_model": `\pConstdModelC`, "Pointx1": `\pPointxOneB`} {
		if names[key] != want {
			t.Errorf("%s is %s, want %s", key, names[key], want)
		}
	}
	tooltest.Need(t, "pdflatex", "the formulas file is not compiled")
	dir, _ := renderWith(t, "tikz", d, Options{TeXPrefix: "p"})
	var body strings.Builder
	for _, n := range d.Numbers {
		body.WriteString(strings.ReplaceAll(n.Key, "_", "") + " is " + names[n.Key] + ".\n\n")
	}
	tex := "\\documentclass{article}\n\\begin{document}\n\\input{chapter13-formulas}\n" + body.String() + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(dir, "paper.tex"), []byte(tex), 0o644); err != nil {
		t.Fatal(err)
	}
	ok, log := pdflatexRun(t, dir, "paper.tex")
	if !ok {
		t.Fatalf("one program's formulas file did not compile:\n%s", tail(log, 20))
	}
	tooltest.Need(t, "pdftotext", "the numbers are not checked")
	text, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join(dir, "paper.pdf"), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(text)), " ")
	for _, n := range d.Numbers {
		if want := strings.ReplaceAll(n.Key, "_", "") + " is " + n.Value.String() + "."; !strings.Contains(flat, want) {
			t.Errorf("the paper lacks %q:\n%s", want, flat)
		}
	}
}

// Names in Python's style, long and joined by underscores rather than
// dots, break at their underscores in the TikZ document's title, formulas'
// labels and captions rather than run into the margin.
func TestTikZUnderscoreNamesFit(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the TikZ document's lines are not measured")
	long := "a_very_long_buffer_name" + strings.Repeat("_that_goes_on_and_on", 6)
	p, err := poly.Parse("4*B*T")
	if err != nil {
		t.Fatal(err)
	}
	d := explain.Chapter(input(t, "gpt-course"))
	d.Title = "Memory: what transformer_decoder_block_with_rotary_embeddings_apply needs"
	d.Formulas = append(d.Formulas, doc.NamedFormula{Key: "Long", Label: "the live set at operation 2 (MLP_very_long_op_label_very_long_op_label_very_long_op_label), whose largest live buffer is " + long, Poly: p})
	for _, f := range d.Figures() {
		f.Caption = append(f.Caption, doc.Text(", made by "), doc.Code(long))
	}
	dir, _ := render(t, "tikz", d)
	ok, log := pdflatexRun(t, dir, "chapter13-tikz.tex")
	if !ok {
		t.Fatalf("chapter13-tikz.tex did not compile:\n%s", tail(log, 20))
	}
	for _, m := range overfullPattern.FindAllStringSubmatch(log, -1) {
		if w, _ := strconv.ParseFloat(m[1], 64); w > 2 {
			t.Errorf("chapter13-tikz.tex: %s", m[0])
		}
	}
}

// A figure set in half a column leaves no room for every tick label of an
// axis with many: every other one is left out (\memsymsparse), where at
// full width each is there. The course GPT's candidates, on a logarithmic
// T from 1 to 4 096, label 1, 16, 256 and 4 096 at half width: before,
// "1 024" and "4 096" ran together.
func TestTikZTickLabelsAtHalfWidth(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the figures are not compiled")
	paper := t.TempDir()
	r, _ := Lookup("tikz")
	if _, err := r.Render(explain.Chapter(input(t, "gpt-course")), paper, Options{}); err != nil {
		t.Fatal(err)
	}
	figure := func(width, name string) string {
		return `\noindent\begin{minipage}{` + width + `}` + "\n" + `\input{chapter13-candidates}` + "\n" +
			`\typeout{LABELS AT ` + name + `: \meaning\memsymxticklabels}` + "\n" + `\end{minipage}` + "\n\n\\clearpage\n"
	}
	doc := "\\documentclass{article}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n" +
		figure(`\linewidth`, "full") + figure(`0.45\linewidth`, "half") + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	log := strings.Join(strings.Fields(pdflatex(t, paper, paper, "paper.tex")), " ")
	for _, want := range []string{
		`LABELS AT full: macro:->{$1$},{$4$},{$16$},{$64$},{$256$},{$1\,024$},{$4\,096$}`,
		`LABELS AT half: macro:->{$1$},{},{$16$},{},{$256$},{},{$4\,096$}`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	// Read back at half width: the labels left, after the grid's guide
	// and before the axis' name.
	tooltest.Need(t, "pdftotext", "the labels are not read back")
	text, err := exec.Command("pdftotext", "-f", "2", "-l", "2", "-enc", "UTF-8", filepath.Join(paper, "paper.pdf"), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	if flat, want := strings.Join(strings.Fields(string(text)), " "), "grid 1 16 256 4 096 T"; !strings.Contains(flat, want) {
		t.Errorf("at half width, want the labels %q in:\n%s", want, flat)
	}
}

// With one candidate the peak is that candidate's polynomial, no largest
// of one: conv-same's \memsymPeak is \memsymPeakA, and so is its
// \memsymPeakLines.
func TestTikZOneCandidatePeak(t *testing.T) {
	d := explain.Chapter(input(t, "conv-same"))
	got := string(tikzFormulas(d, Options{}))
	if !strings.Contains(got, "\\memsym@define\\memsymPeak{\\memsymPeakA}") || strings.Contains(got, "\\max") {
		t.Errorf("the peak of one candidate is not that candidate:\n%s", got)
	}
	// In a display too: what is needed is the inputs and that candidate.
	for _, want := range []string{"\\memsym@define\\memsymPeakLines{\\memsymPeakA}\n", " + \\memsymPeakLines}\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the formulas lack %q:\n%s", want, got)
		}
	}
}
