package reports

import (
	"fmt"
	"image/color"
	"image/png"
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
	"memsym/source"
)

// needTeXFile skips t, or fails it when tools are required, when LaTeX
// has no file name (a package, a class).
func needTeXFile(t *testing.T, name, why string) {
	t.Helper()
	tooltest.Need(t, "kpsewhich", why)
	if out, err := exec.Command("kpsewhich", name).Output(); err != nil || strings.TrimSpace(string(out)) == "" {
		tooltest.Missing(t, "LaTeX has no "+name+": "+why)
	}
}

// Each figure goes into a paper however the paper takes it: \input with
// or without the standalone package loaded (which makes \documentclass,
// after \begin{document}, skip an \input file's preamble), and
// \includestandalone; as well as compiling alone (TestTikZCompiles). The
// figures once tested for a paper by \documentclass alone, which the
// package changes: with it, "Extra }, or forgotten \endgroup", 7 errors
// for the candidates \input, 6 for the calls \includestandalone'd.
func TestTikZFiguresInPaperWithStandalone(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the figures are not compiled into a paper")
	needTeXFile(t, "standalone.sty", "the figures are not compiled with the standalone package")
	needTeXFile(t, "gincltex.sty", "\\includestandalone does not read a figure's TeX")
	want := map[string][]string{
		"live":       {"peak, operation 19", "blocks[0]"},
		"calls":      {"GPT.apply", "blocks ×2", "98.6%"},
		"candidates": {"T = 75", "counted"},
	}
	for _, c := range []struct {
		name, preamble, include string
	}{
		{"input", "", `\input`},
		{"input with the standalone package", `\usepackage{standalone}`, `\input`},
		{"input with the standalone package and hyperref", `\usepackage{hyperref}\usepackage{standalone}`, `\input`},
		{"includestandalone", `\usepackage{standalone}`, `\includestandalone`},
	} {
		t.Run(c.name, func(t *testing.T) {
			paper := t.TempDir()
			renderUnder(t, paper, "gpt-course", "gpt")
			var body strings.Builder
			for _, fig := range []string{"live", "calls", "candidates"} {
				fmt.Fprintf(&body, "Before %s.\n\\begin{figure}[h]\n\\centering\n%s{gpt/chapter13-%s}\n\\caption{The %s figure}\n\\end{figure}\nAfter %s.\n\\clearpage\n", fig, c.include, fig, fig, fig)
			}
			tex := "\\documentclass{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n" + c.preamble +
				"\n\\begin{document}\n" + body.String() + "The end.\n\\end{document}\n"
			if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(tex), 0o644); err != nil {
				t.Fatal(err)
			}
			log := pdflatex(t, paper, paper, "paper.tex")
			if o := overfull(log); o != "" {
				t.Errorf("the paper has overfull boxes:\n%s", o)
			}
			pages, _ := pdfWords(t, filepath.Join(paper, "paper.pdf"))
			if len(pages) != 4 {
				t.Errorf("the paper has %d pages, want 4, a figure each and the end", len(pages))
			}
			for i, fig := range []string{"live", "calls", "candidates"} {
				if i >= len(pages) {
					break
				}
				for _, w := range append([]string{"Before " + fig + ".", "The " + fig + " figure", "After " + fig + "."}, want[fig]...) {
					if _, ok := phraseBox(pages[i], w); !ok {
						t.Errorf("page %d, of the %s figure, lacks %q: %v", i+1, fig, w, pages[i])
					}
				}
			}
			if _, ok := phraseBox(pages[len(pages)-1], "The end."); !ok {
				t.Errorf("the paper's last page lacks its last words")
			}
		})
	}
}

// The calls' figure is laid out for the line it is set in, its text at
// its 6 pt, the size of a line set in 6 pt sans-serif beside it: in a
// two-column paper's column, in a minipage half as wide and in a figure*
// the page's width; and \centering centres it, as any figure. Before, it
// was a fixed drawing 319.5 pt wide shrunk to the line (its text 4.6 pt in
// a column of 246 pt, 3 pt in half of one), and it ended in a box in
// vertical mode, flush left: 160 pt off centre in a figure*.
func TestTikZCallsFitTheirLine(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the calls' figure is not compiled into a paper")
	paper := t.TempDir()
	renderUnder(t, paper, "gpt-course", "gpt")
	figure := func(env, before, after string) string {
		return fmt.Sprintf("\\begin{%s}[p]\n%s\\noindent[\\hfill]\\par\n\\centering\n\\input{gpt/chapter13-calls}\\par\n%s\\caption{The calls}\n\\end{%s}\n",
			env, before, after, env)
	}
	tex := "\\documentclass[twocolumn]{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n" +
		"\\typeout{memsym-columnwidth=\\the\\columnwidth}\n" +
		"{\\sffamily\\fontsize{6}{7}\\selectfont GPT.apply}\n\\clearpage\n" +
		figure("figure", "", "") + "\\clearpage\n" +
		figure("figure", "\\begin{minipage}{0.5\\linewidth}\n", "\\end{minipage}\n") + "\\clearpage\n" +
		figure("figure*", "", "") + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(tex), 0o644); err != nil {
		t.Fatal(err)
	}
	log := pdflatex(t, paper, paper, "paper.tex")
	if o := overfull(log); o != "" {
		t.Errorf("the paper has overfull boxes:\n%s", o)
	}
	m := regexp.MustCompile(`memsym-columnwidth=([0-9.]+)pt`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("the paper's log gives no column width")
	}
	column, _ := strconv.ParseFloat(m[1], 64)
	pages, _ := pdfWords(t, filepath.Join(paper, "paper.pdf"))
	if len(pages) < 4 {
		for i, p := range pages {
			t.Logf("page %d: %v", i+1, p)
		}
		t.Fatalf("the paper has %d pages, want 4", len(pages))
	}
	ref, ok := phraseBox(pages[0], "GPT.apply")
	if !ok {
		t.Fatalf("the first page lacks the line in 6 pt")
	}
	size := ref[3] - ref[1]
	for _, c := range []struct {
		name string
		page int
		line float64 // the line's width, in TeX's points
	}{
		{"a column", 1, column},
		{"half a column", 2, math.Floor(column/2*65536) / 65536},
		{"a figure*", 3, 0},
	} {
		words := pages[c.page]
		title, ok := phraseBox(words, "GPT.apply")
		if !ok {
			t.Errorf("%s: the figure lacks its frame's title GPT.apply: %v", c.name, words)
			continue
		}
		if h := title[3] - title[1]; math.Abs(h-size) > 0.01*size {
			t.Errorf("%s: the figure's text is %.2f pt high, %.2f of its 6 pt's %.2f pt", c.name, h, h/size, size)
		}
		// The line's ends, from the brackets set at them, and the
		// drawing's, from its words: the frame's title is a pad from its
		// left side, a percent two pads from its right (the box of the
		// entry's own operations, a pad inside the frame).
		open, ok1 := phraseBox(words, "[")
		shut, ok2 := phraseBox(words, "]")
		if !ok1 || !ok2 {
			t.Errorf("%s: the line's ends are not marked: %v", c.name, words)
			continue
		}
		right := 0.0
		for _, w := range words {
			if strings.HasSuffix(w.Text, "%") && w.YMin > open[3] && w.YMax < title[3]+30 {
				right = max(right, w.XMax)
			}
		}
		lineLeft, lineRight := open[0], shut[2]
		pad := 3.0 // about 6 px at a little more than 0.5 pt
		left, rightGap := title[0]-pad-lineLeft, lineRight-(right+2*pad)
		if c.line > 0 && lineRight-lineLeft < c.line-3 {
			t.Errorf("%s: the line is %.1f pt wide, want %.1f", c.name, lineRight-lineLeft, c.line)
		}
		if math.Abs(left-rightGap) > 3 {
			t.Errorf("%s: the drawing is %.1f pt from the line's left and %.1f pt from its right: not centred", c.name, left, rightGap)
		}
		if left < -1 || rightGap < -1 {
			t.Errorf("%s: the drawing runs out of its line by %.1f pt", c.name, -min(left, rightGap))
		}
	}
}

// No curve runs through a mark's label in the TikZ figure: where the
// candidates cross beside a mark, its label is moved from it, tied to it
// by a line, to where no curve is. llama2-7b-block along B at T = 450
// labels the counted point at B = 1 and the crossover at B = 4 where the
// candidates run close, and along T its crossover at T = 446, where the
// four lines meet; the curves once ran through "counted" and "T = 446".
// Read back as pixels: inside each label, no pixels of the curves' own
// colours but a few a line's edge may leave.
func TestTikZMarkLabelsClearCurves(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the figure is not compiled")
	tooltest.Need(t, "pdftoppm", "the figure's pixels are not read")
	alongB := built(t, "llama2-7b-block along B at T=450", func() *explain.Request {
		src, err := source.NewProgram("llama2-7b-block", nil)
		if err != nil {
			t.Fatal(err)
		}
		return &explain.Request{Program: "llama2-7b-block", Source: src, At: src.Default().With("B", 1).With("T", 450), Along: "B", Verify: 2, Confirm: true}
	})
	for _, c := range []struct {
		name  string
		in    *explain.Input
		label string
	}{
		{"along B", alongB, "counted"}, // "B = 4" reads back as "B" "=4"
		{"along T", input(t, "llama2-7b-block"), "446"},
	} {
		if n := curvePixels(t, explain.Chapter(c.in), c.label); n > 12 {
			t.Errorf("%s: %q has %d pixels of the curves' colours in it, want none", c.name, c.label, n)
		}
	}
}

// curvePixels compiles d's candidates' figure and counts the pixels of
// the curves' colours inside the words of label.
func curvePixels(t *testing.T, d *doc.Document, label string) int {
	t.Helper()
	dir, _ := render(t, "tikz", d)
	out := t.TempDir()
	pdflatex(t, dir, out, "chapter13-candidates.tex")
	pdf := filepath.Join(out, "chapter13-candidates.pdf")
	words := allWords(t, pdf)
	const dpi = 288
	if msg, err := exec.Command("pdftoppm", "-r", strconv.Itoa(dpi), "-png", "-singlefile", pdf, filepath.Join(out, "figure")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, msg)
	}
	f, err := os.Open(filepath.Join(out, "figure.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	fig := figureNamed(t, d, "candidates")
	near := func(c color.Color) bool {
		r, g, b, _ := c.RGBA()
		for i := range fig.Series {
			want := colour(i)
			if absDiff(int(r>>8), want[0]) <= 24 && absDiff(int(g>>8), want[1]) <= 24 && absDiff(int(b>>8), want[2]) <= 24 {
				return true
			}
		}
		return false
	}
	bx, ok := phraseBox(words, label)
	if !ok {
		t.Fatalf("the figure lacks the label %q: %v", label, words)
	}
	n := 0
	s := float64(dpi) / 72
	for y := int(bx[1] * s); y < int(bx[3]*s); y++ {
		for x := int(bx[0] * s); x < int(bx[2]*s); x++ {
			if near(img.At(x, y)) {
				n++
			}
		}
	}
	t.Logf("%q: %d pixels of the curves' colours in it", label, n)
	return n
}

func absDiff(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

// A paper sets what a program needs, and its peak, in displayed equations
// (equation and \[ \]) in a one-column article by the Lines macros, the
// maximum's candidates one a line, with no overfull box: the course GPT's
// and the Llama 2 block's, without a package and with amsmath. The same
// display of \PREFIXNeeds, on one line, runs into the margin (the course
// GPT's by some 70 pt here; in a paper's narrower column by more), so the
// paper would show the overflow were the Lines macros one line too; and
// the text read back is each program's inputs and candidates, in order,
// each candidate a line of its own (the box as tall as their lines).
func TestTikZLinesInDisplays(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the displayed formulas are not compiled into a paper")
	tooltest.Need(t, "pdftotext", "the displayed formulas are not read back")
	type program struct {
		name, prefix string
		inputs       poly.Poly
		candidates   []poly.Poly
	}
	var progs []program
	paper := t.TempDir()
	for _, p := range []struct{ name, prefix string }{{"gpt-course", "gpt"}, {"llama2-7b-block", "llama"}} {
		renderUnder(t, paper, p.name, p.prefix)
		pr := program{name: p.name, prefix: p.prefix}
		for _, f := range explain.Chapter(input(t, p.name)).Formulas {
			switch {
			case f.Of == "Peak":
				pr.candidates = append(pr.candidates, f.Poly)
			case f.PlusPeak:
				pr.inputs = f.Poly
			}
		}
		if len(pr.candidates) < 3 {
			t.Fatalf("%s has %d candidates: a maximum of one or two tells little", p.name, len(pr.candidates))
		}
		progs = append(progs, pr)
	}
	// flat is what pdftotext reads of a formula, its spaces and markup
	// gone, and the pieces of a tall brace, which it reads as characters
	// of Unicode's private use: 48BT2+1024BT+8T2.
	flat := func(s string) string {
		s = strings.NewReplacer(`\,`, "", "{", "", "}", "", "^", "", `\max`, "max").Replace(plainSpaces(s))
		return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
			if r >= 0xE000 && r <= 0xF8FF {
				return -1
			}
			return r
		}, s)), "")
	}
	write := func(name, preamble, body string) {
		tex := "\\documentclass{article}\n" + preamble + "\\begin{document}\n" + body + "\\end{document}\n"
		if err := os.WriteFile(filepath.Join(paper, name), []byte(tex), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	measured := regexp.MustCompile(`memsym-lines (\w+) ([0-9.]+)pt ([0-9.]+)pt ([0-9.]+)pt`)
	for _, c := range []struct{ name, preamble string }{{"no package", ""}, {"amsmath", "\\usepackage{amsmath}\n"}} {
		t.Run(c.name, func(t *testing.T) {
			var body strings.Builder
			for _, p := range progs {
				fmt.Fprintf(&body, "\\input{%s/chapter13-formulas}\nWhat %s needs, in bytes:\n\\begin{equation}\n\\%sNeedsLines\n\\end{equation}\n", p.prefix, p.name, p.prefix)
				fmt.Fprintf(&body, "and its peak:\n\\[ \\%sPeakLines \\]\n", p.prefix)
				fmt.Fprintf(&body, "\\setbox0\\hbox{$\\displaystyle\\%sNeedsLines$}\\typeout{memsym-lines %s \\the\\ht0 \\space\\the\\dp0 \\space\\the\\baselineskip}\n", p.prefix, p.prefix)
			}
			file := strings.ReplaceAll(c.name, " ", "") + ".tex"
			write(file, c.preamble, body.String())
			log := pdflatex(t, paper, paper, file)
			if o := overfull(log); o != "" {
				t.Errorf("the displays run into the margin:\n%s", o)
			}
			text, err := exec.Command("pdftotext", "-enc", "UTF-8", "-raw", filepath.Join(paper, strings.TrimSuffix(file, ".tex")+".pdf"), "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			read := flat(string(text))
			for _, p := range progs {
				cands := make([]string, len(p.candidates))
				for i, q := range p.candidates {
					cands[i] = texPoly(q)
				}
				peak := `\max` + strings.Join(cands, ",")
				for _, want := range []string{flat(texPoly(p.inputs) + "+" + peak + "(" + map[string]string{"gpt": "1", "llama": "2"}[p.prefix] + ")"), flat(peak)} {
					if !strings.Contains(read, want) {
						t.Errorf("%s: the paper lacks %q in:\n%s", p.name, want, read)
					}
				}
				found := false
				for _, m := range measured.FindAllStringSubmatch(log, -1) {
					if m[1] != p.prefix {
						continue
					}
					found = true
					ht, _ := strconv.ParseFloat(m[2], 64)
					dp, _ := strconv.ParseFloat(m[3], 64)
					line, _ := strconv.ParseFloat(m[4], 64)
					if n := len(p.candidates); ht+dp < float64(n)*line {
						t.Errorf("%s: \\%sNeedsLines is %.1f pt tall, less than its %d candidates' lines of %.1f pt", p.name, p.prefix, ht+dp, n, line)
					}
				}
				if !found {
					t.Errorf("%s: the log does not measure \\%sNeedsLines", p.name, p.prefix)
				}
			}
		})
	}
	// The one-line macro in the same display runs over: the paper shows
	// an overflow where there is one.
	var body strings.Builder
	for _, p := range progs {
		fmt.Fprintf(&body, "\\input{%s/chapter13-formulas}\n\\begin{equation}\n\\%sNeeds\n\\end{equation}\n", p.prefix, p.prefix)
	}
	write("oneline.tex", "\\usepackage{amsmath}\n", body.String())
	if o := overfull(pdflatex(t, paper, paper, "oneline.tex")); strings.Count(o, "Overfull \\hbox") != len(progs) {
		t.Errorf("the one-line needs in displays: want an overfull box each, %d, the log says:\n%s", len(progs), o)
	}
}
