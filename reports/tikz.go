package reports

import (
	"bytes"
	"fmt"
	"strings"

	"memsym/explain"
	"memsym/poly"
)

func init() { Register(tikzRenderer{}) }

// tikzRenderer writes LaTeX for papers: each figure as a pgfplots picture
// that compiles alone (live.tex, candidates.tex) or inside the chapter,
// formulas.tex with a macro per formula to \input, and chapter13.tex,
// which puts them together. It needs only LaTeX's base and pgfplots.
type tikzRenderer struct{}

func (tikzRenderer) Name() string { return "tikz" }

func (tikzRenderer) Render(doc *explain.Document, dir string) ([]string, error) {
	fs := files{"chapter13.tex": tikzChapter(doc)}
	if len(doc.Formulas) > 0 {
		fs["formulas.tex"] = tikzFormulas(doc)
	}
	for _, nf := range figureNames(doc) {
		fs[nf.stem+".tex"] = tikzFigure(nf.fig)
	}
	return writeAll(dir, fs)
}

// tikzPreamble is what a figure needs when compiled alone.
const tikzPreamble = `\documentclass{article}
\usepackage{pgfplots}
\pgfplotsset{compat=1.16}
\pagestyle{empty}
`

// tikzFigure writes f as a pgfplots picture. Alone it is a document; input
// from a file that defines \memsymchapter it is just the picture. Every
// coordinate is the exact value, printed as an integer or a decimal.
func tikzFigure(f *explain.Figure) []byte {
	p := layout(f)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s\n", texComment(explain.PlainText(f.Caption, " ")))
	b.WriteString("% Written by memsym; compiles alone, or \\input it where \\memsymchapter is defined.\n")
	b.WriteString("\\ifdefined\\memsymchapter\\else\n" + tikzPreamble + "\\begin{document}\n\\fi\n")
	for i := range f.Series {
		c := colour(i)
		fmt.Fprintf(&b, "\\definecolor{memsym%s}{RGB}{%d,%d,%d}\n", letterName(i), c[0], c[1], c[2])
	}
	b.WriteString("\\begin{tikzpicture}\n\\begin{axis}[\n")
	b.WriteString("  width=\\linewidth, height=0.55\\linewidth, scale only axis=false,\n")
	fmt.Fprintf(&b, "  xlabel={%s}, ylabel={%s},\n", texEscape(p.x.label(f.XLabel)), texEscape(p.y.label(f.YLabel)))
	fmt.Fprintf(&b, "  xmin=%s, xmax=%s, ymin=%s, ymax=%s,\n", coord(p.x.lo), coord(p.x.hi), coord(p.y.lo), coord(p.y.hi))
	writeTicks(&b, "x", p.x)
	writeTicks(&b, "y", p.y)
	b.WriteString("  scaled ticks=false, ymajorgrids, grid style={black!12},\n")
	b.WriteString("  legend pos=north west, legend cell align=left, legend style={font=\\footnotesize, draw=none, fill=white, fill opacity=0.85, text opacity=1},\n")
	b.WriteString("]\n")
	for i, s := range f.Series {
		style := "thick"
		if s.Steps {
			style = "const plot, thick"
		}
		fmt.Fprintf(&b, "\\addplot[%s, color=memsym%s, mark=none] table[row sep=\\\\] {\n  x y \\\\\n", style, letterName(i))
		for _, pt := range p.lines[i] {
			fmt.Fprintf(&b, "  %s %s \\\\\n", coord(pt.X), coord(pt.Y))
		}
		b.WriteString("};\n")
		if p.legend {
			entry := texEscape(s.Label)
			if s.Formula != nil {
				entry += ": $" + s.Formula.LaTeX() + "$"
			}
			fmt.Fprintf(&b, "\\addlegendentry{%s}\n", entry)
		}
	}
	for _, m := range f.Marks {
		at := fmt.Sprintf("(axis cs:%s,%s)", coord(m.At.X), coord(m.At.Y))
		anchor := "south east"
		if p.labelRight(m) {
			anchor = "south west"
		}
		fmt.Fprintf(&b, "\\draw[fill=white] %s circle[radius=2pt];\n", at)
		fmt.Fprintf(&b, "\\node[anchor=%s, font=\\footnotesize\\bfseries, inner sep=3pt] at %s {%s};\n", anchor, at, texEscape(m.Label))
	}
	b.WriteString("\\end{axis}\n\\end{tikzpicture}\n")
	b.WriteString("\\ifdefined\\memsymchapter\\expandafter\\endinput\\fi\n\\end{document}\n")
	return b.Bytes()
}

// writeTicks writes an axis' ticks at exact values with memsym's labels.
func writeTicks(b *bytes.Buffer, name string, a axis) {
	at := make([]string, len(a.ticks))
	labels := make([]string, len(a.ticks))
	for i, t := range a.ticks {
		at[i], labels[i] = coord(t.at), texEscape(t.label)
	}
	fmt.Fprintf(b, "  %stick={%s}, %sticklabels={%s},\n", name, strings.Join(at, ","), name, strings.Join(labels, ","))
}

// letterName names the i-th colour or formula with letters alone.
func letterName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// tikzFormulas writes a macro for each of doc's formulas and \memsymPeak,
// the largest of the candidates, to \input in a paper.
func tikzFormulas(doc *explain.Document) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s: the formulas, in bytes, written by memsym.\n", texComment(doc.Title))
	b.WriteString("% \\input this file to define one macro per formula; it needs no package.\n")
	var candidates []string
	for _, f := range doc.Formulas {
		fmt.Fprintf(&b, "%% %s\n\\newcommand{\\memsym%s}{%s}\n", texComment(f.Label), f.Key, f.Poly.LaTeX())
		if f.Candidate {
			candidates = append(candidates, "\\memsym"+f.Key)
		}
	}
	if len(candidates) > 0 {
		b.WriteString("% the peak: the largest of the candidates\n")
		fmt.Fprintf(&b, "\\newcommand{\\memsymPeak}{\\max\\{%s\\}}\n", strings.Join(candidates, ",\\ "))
	}
	return b.Bytes()
}

// tikzChapter writes chapter13.tex: the formulas displayed and the figures
// with their captions, in a document that compiles with pdflatex.
func tikzChapter(doc *explain.Document) []byte {
	var b bytes.Buffer
	b.WriteString("% Written by memsym: the formulas and figures of the memory chapter.\n")
	b.WriteString(tikzPreamble)
	b.WriteString("\\def\\memsymchapter{}\n\\begin{document}\n")
	fmt.Fprintf(&b, "\\section*{%s}\n", texEscape(doc.Title))
	if len(doc.Formulas) > 0 {
		b.WriteString("\\input{formulas}\n")
		for _, f := range doc.Formulas {
			fmt.Fprintf(&b, "\\noindent %s, in bytes:\n\\[ \\memsym%s \\]\n", capitalTeX(texEscape(f.Label)), f.Key)
		}
	}
	for _, nf := range figureNames(doc) {
		fmt.Fprintf(&b, "\\begin{figure}[htbp]\n\\centering\n\\input{%s}\n\\caption{%s}\n\\end{figure}\n", nf.stem, latexInlines(nf.fig.Caption))
	}
	b.WriteString("\\end{document}\n")
	return b.Bytes()
}

// capitalTeX returns s with its first letter in upper case.
func capitalTeX(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// coord writes an exact coordinate for pgfplots: an integer, or a decimal
// exact to 6 places.
func coord(v poly.Rat) string { return explain.Fixed(v, 6) }
