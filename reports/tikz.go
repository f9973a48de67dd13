package reports

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"memsym/doc"
	"memsym/poly"
)

func init() { Register(tikzRenderer{}) }

// tikzRenderer writes LaTeX for papers: each figure as a pgfplots picture
// (STEM-live.tex, STEM-candidates.tex) that compiles alone into a cropped
// picture a column wide, or goes into a paper with \input (or, with the
// standalone package, \includestandalone); STEM-formulas.tex
// with a macro for each formula and number, to \input in a paper; and
// STEM-tikz.tex, which puts them together and compiles with pdflatex into
// STEM-tikz.pdf, beside the PDF renderer's STEM.pdf. It needs only LaTeX's
// base and pgfplots (with the standalone class to compile a figure alone).
type tikzRenderer struct{}

func (tikzRenderer) Name() string { return "tikz" }

func (tikzRenderer) Render(d *doc.Document, dir string, o Options) ([]string, error) {
	fs := files{o.stem() + "-tikz.tex": tikzChapter(d, o)}
	if len(d.Formulas) > 0 || len(d.Numbers) > 0 {
		fs[o.stem()+"-formulas.tex"] = tikzFormulas(d, o)
	}
	for _, nf := range figureNames(d, o) {
		fs[nf.stem+".tex"] = tikzFigure(nf.fig, o)
	}
	return writeAll(dir, fs)
}

// tikzFitMacros are the TeX macros a figure's labels are set with, so
// that each fits where it goes whatever the column's width:
// \memsymfit{width}{\centering or \raggedright}{text} sets text as it
// is, or, when it is longer than the width, in lines the width long whose
// last's baseline is the box's, so that they stack upwards (pgfplots
// fixes a legend entry's depth, not its height); and \memsymmark, a
// mark's label (tikzMarkMacro).
const tikzFitMacros = "\\def\\memsymfit#1#2#3{\\setbox0=\\hbox{#3}\\dimen0=#1\\relax%\n" +
	"  \\ifdim\\wd0>\\dimen0 \\vbox{\\hsize=\\dimen0 #2\\noindent#3\\par}\\else\\box0 \\fi}%\n" +
	tikzMarkMacro

// tikzMarkMacro is the macro a mark's label is set with, so that it
// stays inside the axis whatever its width:
// \memsymmark{axis width}{mark's share of it from the left}{l or r}{north
// or south}{options}{coordinates}{text} sets the node of text at the
// mark, on the side the layout chose (l: its east anchor at the mark, the
// label to the left), or, when the label (its text in \scriptsize and
// the node's inner sep of 2.5pt on each side, measured outside the
// picture, where TikZ sets no font) is wider than the room on
// that side of the mark and fits on the other, on the other; where it
// fits on neither, it starts at the y axis. North or south is the
// anchor's: a label below its mark or above. The node is written out
// with its anchor and shift decided, as pgfplots draws a node after the
// axis' body has run.
const tikzMarkMacro = "\\def\\memsymmark#1#2#3#4#5#6#7{\\pgfinterruptpicture\\global\\setbox1=\\hbox{\\scriptsize#7}\\endpgfinterruptpicture\\dimen0=\\wd1 \\advance\\dimen0 by 5pt\\relax%\n" +
	"  \\dimen2=#1\\relax\\dimen2=#2\\dimen2 \\dimen4=#1\\relax\\advance\\dimen4 by -\\dimen2 \\dimen6=0pt\\relax%\n" +
	"  \\if l#3\\def\\memsymside{east}\\ifdim\\dimen0>\\dimen2 \\def\\memsymside{west}\\ifdim\\dimen0>\\dimen4 \\dimen6=-\\dimen2 \\fi\\fi%\n" +
	"  \\else\\def\\memsymside{west}\\ifdim\\dimen0>\\dimen4 \\ifdim\\dimen0>\\dimen2 \\dimen6=-\\dimen2 \\else\\def\\memsymside{east}\\fi\\fi\\fi%\n" +
	"  \\edef\\memsymnext{\\noexpand\\node[anchor=#4 \\memsymside, xshift=\\the\\dimen6, \\unexpanded{font=\\scriptsize, inner sep=2.5pt#5}] at (axis cs:#6) {\\unexpanded{#7}};}\\memsymnext}%\n"

// standaloneWidth is the column a figure compiled alone is drawn for: a
// two-column paper's (252pt in IEEE's, 241pt in ACM's).
const standaloneWidth = "246pt"

// tikzFigure writes f as a pgfplots picture a column wide. Compiled alone
// it is a cropped standalone picture; \input in a document (after
// \documentclass, with pgfplots loaded) it is the picture alone. Every
// coordinate is the exact value, printed as an integer or a decimal.
func tikzFigure(f *doc.Figure, o Options) []byte {
	if f.Boxes != nil {
		return tikzBoxes(f, o)
	}
	p := layout(f)
	var b bytes.Buffer
	standalonePreamble(&b, f, "pgfplots", "it is \\columnwidth wide", "\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}", "\\columnwidth")
	prefix := o.prefix()
	for i := range f.Series {
		c := colour(i)
		fmt.Fprintf(&b, "\\definecolor{%s%s}{RGB}{%d,%d,%d}%%\n", prefix, letterName(i), c[0], c[1], c[2])
	}
	b.WriteString(tikzFitMacros)
	// The picture is drawn twice: once, into a box, at 0.6 of the column,
	// to measure what its labels take beside the axis; then with the axis
	// as wide as the column less that, so that it is never wider than the
	// column.
	b.WriteString("\\def\\memsymfigure#1{%\n")
	sparse := sparseTicks(&b, p.x)
	b.WriteString("\\begin{tikzpicture}\n\\begin{axis}[\n")
	b.WriteString("  name=memsymaxis, scale only axis, width=#1, height=0.5\\columnwidth, clip=false,\n")
	// The y axis' label, turned along the axis, is never longer than it.
	fmt.Fprintf(&b, "  xlabel={%s}, ylabel={\\memsymfit{0.5\\columnwidth}{\\centering}{%s}},\n", latexInlines(axisLabel(p.x, f.XLabel)), latexInlines(axisLabel(p.y, f.YLabel)))
	if p.x.log {
		b.WriteString("  xmode=log, log basis x=2,\n")
	}
	if p.y.log {
		b.WriteString("  ymode=log, log basis y=2,\n")
	}
	fmt.Fprintf(&b, "  xmin=%s, xmax=%s, ymin=%s, ymax=%s,\n", coord(p.x.lo), coord(p.x.hi), coord(p.y.lo), coord(p.y.hi))
	writeTicks(&b, "x", p.x, sparse)
	writeTicks(&b, "y", p.y, false)
	b.WriteString("  tick label style={font=\\footnotesize}, label style={font=\\footnotesize},\n")
	b.WriteString("  scaled ticks=false, ymajorgrids, grid style={black!12},\n")
	if p.legend {
		b.WriteString("  legend cell align=left, legend style={at={(axis description cs:0,0)}, anchor=north west, yshift=-30pt,\n")
		b.WriteString("    draw=none, font=\\scriptsize, inner sep=0pt, row sep=-1pt},\n")
		// A legend's line carries its symbol in its middle, whichever of
		// the plot's points carry it.
		b.WriteString("  legend image post style={mark indices={2}},\n")
	}
	b.WriteString("]\n")
	share := func(i int) float64 { return p.x.frac(p.clampX(f.Bands[i].To)) - p.x.frac(p.clampX(f.Bands[i].From)) }
	for i := 0; i < len(f.Bands); i++ {
		band := f.Bands[i]
		// A run of bands each narrower than a column of the axis, as a
		// long program's thousands of calls are, is one rectangle of
		// half the shade, as its stripes look: TeX holds no more than a
		// few thousand rectangles and names in a picture.
		if j := i; share(i) < 1.0/thinColumns {
			for j < len(f.Bands) && share(j) < 1.0/thinColumns {
				j++
			}
			if j-i > 1 {
				fmt.Fprintf(&b, "%% operations of %d calls, each narrower than a %s of the axis' width, shaded together\n", j-i, thinPart)
				fmt.Fprintf(&b, "\\fill[black!3.5] (axis cs:%s,%s) rectangle (axis cs:%s,%s);\n", coord(p.clampX(band.From)), coord(p.y.lo), coord(p.clampX(f.Bands[j-1].To)), coord(p.y.hi))
				i = j - 1
				continue
			}
		}
		x0, x1 := coord(p.clampX(band.From)), coord(p.clampX(band.To))
		if i%2 == 0 {
			fmt.Fprintf(&b, "\\fill[black!7] (axis cs:%s,%s) rectangle (axis cs:%s,%s);\n", x0, coord(p.y.lo), x1, coord(p.y.hi))
		}
		// A name goes in its band where the layout found it fits, in a
		// narrow sans-serif as in the SVG and the PDF; the others are in
		// the key below the plot.
		if p.bandLabels[i] {
			from, to := p.clampX(band.From), p.clampX(band.To)
			mid := from.Add(to).Quo(poly.Int(2))
			fmt.Fprintf(&b, "\\node[anchor=north, font=\\tiny\\sffamily, text=black!60, inner xsep=1pt, inner ysep=2pt] at (axis cs:%s,%s) {%s};\n", coord(mid), coord(p.y.hi), texEscape(band.Label))
		}
	}
	for i, g := range f.Guides {
		if !p.inRange(g.X) {
			continue
		}
		fmt.Fprintf(&b, "\\draw[black!50, densely dotted] (axis cs:%s,%s) -- (axis cs:%s,%s);\n", coord(g.X), coord(p.y.lo), coord(g.X), coord(p.y.hi))
		if len(g.Label) > 0 {
			fmt.Fprintf(&b, "\\node[anchor=south west, font=\\tiny, text=black!60, inner sep=1pt%s] at (axis cs:%s,%s) {%s};\n", tikzShift(p.guideLabels[i]), coord(g.X), coord(p.y.lo), latexInlines(g.Label))
		}
	}
	// Each mark's label is set on white, that a band, a guide or the
	// grid under it does not run through its letters; the white goes
	// under the curves and the label's text over them, so that a label
	// where no placement is clear of the curves (placeMarks) hides none
	// of them. The white is the label's node, its text a phantom.
	// Each label is set by \memsymmark, which keeps it inside the axis
	// however narrow the column is; one moved further from its mark is
	// tied to it by a thin line.
	markNode := func(k int, text string) string {
		m := f.Marks[k]
		pl := p.marks[k]
		fill := ""
		if text == "" {
			fill, text = ", fill=white, fill opacity=0.8", "\\phantom{"+latexInlines(m.Label)+"}"
		}
		side, vertical := map[bool]string{true: "l", false: "r"}[pl.left], map[bool]string{true: "north", false: "south"}[pl.below]
		return fmt.Sprintf("\\memsymmark{#1}{%.6f}{%s}{%s}{%s%s}{%s,%s}{%s}%%\n", p.x.frac(m.At.X), side, vertical, fill, tikzShift(pl.rise()), coord(m.At.X), coord(m.At.Y), text)
	}
	if len(f.Marks) > 0 {
		b.WriteString("% the white under the marks' labels, under the curves\n")
	}
	for k := range f.Marks {
		b.WriteString(markNode(k, ""))
	}
	for k, m := range f.Marks {
		if rise := p.marks[k].rise(); rise != 0 {
			fmt.Fprintf(&b, "\\draw[black!60, very thin] (axis cs:%s,%s) -- ++(0pt,%.4f\\columnwidth);\n", coord(m.At.X), coord(m.At.Y), rise*0.5)
		}
	}
	for i, s := range f.Series {
		style := "thick"
		if s.Steps {
			style = "const plot, thick"
		}
		if d := tikzDash(i); d != "" {
			style += ", " + d
		}
		line := p.lines[i]
		if thin := thinLine(line, p.x.frac); len(thin) < len(line) {
			fmt.Fprintf(&b, "%% %d of the line's %d points, too many for TeX: in each %s of the axis' width the first, the last, the lowest and the highest, every peak among them\n", len(thin), len(line), thinPart)
			line = thin
		}
		mark := "mark=none"
		if p.legend {
			mark = tikzSymbol(i, symbolIndices(p.lines[i], line, p.symbols[i]))
		}
		fmt.Fprintf(&b, "\\addplot[%s, color=%s%s, %s] coordinates {", style, prefix, letterName(i), mark)
		for j, pt := range line {
			if j%6 == 0 {
				b.WriteString("\n ")
			}
			fmt.Fprintf(&b, " (%s,%s)", coord(pt.X), coord(pt.Y))
		}
		b.WriteString("\n};\n")
		if p.legend {
			entry := latexInlines([]doc.Inline{doc.Text(s.Label)})
			if s.Formula != nil {
				entry += ", $" + texPoly(*s.Formula) + "$"
			}
			// An entry longer than the axis is wide, less its line's
			// sample, goes on as many lines as it takes.
			fmt.Fprintf(&b, "\\addlegendentry{\\memsymfit{\\dimexpr#1-%s\\relax}{\\raggedright}{%s}}\n", legendSample, entry)
		}
	}
	for k, m := range f.Marks {
		fmt.Fprintf(&b, "\\draw[fill=white] (axis cs:%s,%s) circle[radius=1.6pt];\n", coord(m.At.X), coord(m.At.Y))
		b.WriteString(markNode(k, latexInlines(m.Label)))
	}
	b.WriteString("\\end{axis}\n")
	if key := p.bandKey(); key != nil {
		// The bands unnamed in the plot, named below it, as wide as the
		// axis.
		b.WriteString("\\node[anchor=north west, inner sep=0pt, yshift=-3pt, text width=#1, align=left, font=\\scriptsize] at (current bounding box.south -| memsymaxis.south west) {")
		b.WriteString(latexInlines(key))
		b.WriteString("};\n")
	}
	b.WriteString("\\end{tikzpicture}}%\n")
	// The measuring picture is drawn with TikZ's externalization off, in
	// a group: with \tikzexternalize in the paper it would otherwise be
	// a picture of its own, and a job that exports another picture puts
	// a line of text in its place, which measures wrong. The picture is
	// drawn at the width measured, written out, so that an externalized
	// picture is made again when the column's width changes.
	b.WriteString("% drawn once, hidden, to measure its labels, with TikZ's externalization off\n")
	b.WriteString("\\begingroup\\ifdefined\\tikzexternaldisable\\tikzexternaldisable\\fi%\n")
	b.WriteString("\\setbox0=\\hbox{\\memsymfigure{0.6\\columnwidth}}%\n")
	b.WriteString("\\dimen0=\\wd0 \\advance\\dimen0 by -0.6\\columnwidth\\relax%\n")
	b.WriteString("\\edef\\memsymaxiswidth{\\endgroup\\def\\noexpand\\memsymaxiswidth{\\the\\dimexpr\\columnwidth-\\dimen0\\relax}}\\memsymaxiswidth%\n")
	b.WriteString("% then drawn with its axis as wide as that leaves room for\n")
	b.WriteString("\\expandafter\\memsymfigure\\expandafter{\\memsymaxiswidth}%\n")
	b.WriteString("\\ifdefined\\memsymalone\\else\\expandafter\\endinput\\fi%\n\\end{document}\n")
	return b.Bytes()
}

// tikzShift is a node's option moving it up by rise, a fraction of the
// axis' height (half the column), as the layout moves a label; nothing
// when rise is 0.
func tikzShift(rise float64) string {
	if rise == 0 {
		return ""
	}
	return fmt.Sprintf(", yshift=%.4f\\columnwidth", rise*0.5)
}

// legendSample is the width of a legend entry's line and the space
// around it.
const legendSample = "30pt"

// A line of more than maxPlotted points is thinned to at most four points
// in each of thinColumns columns of the axis, thinPart of its width: a
// column is a fraction of a point wide, narrower than the line is thick.
const (
	maxPlotted  = 2000
	thinColumns = 500
	thinPart    = "500th"
)

// thinLine returns line, when it has more points than TeX holds in a
// picture, with only the first, the last, the lowest and the highest of
// the points in each column of the axis (frac places a point's x along it),
// in their order: the line drawn through them rises and falls as the whole
// line does, to every peak and every trough at its exact value. A line
// short enough is returned as it is.
func thinLine(line []doc.XY, frac func(poly.Rat) float64) []doc.XY {
	if len(line) <= maxPlotted {
		return line
	}
	column := func(pt doc.XY) int {
		c := int(frac(pt.X) * thinColumns)
		return min(max(c, 0), thinColumns-1)
	}
	var out []doc.XY
	for i := 0; i < len(line); {
		c := column(line[i])
		lo, hi, j := i, i, i+1
		for ; j < len(line) && column(line[j]) == c; j++ {
			if line[j].Y.Cmp(line[lo].Y) < 0 {
				lo = j
			}
			if line[j].Y.Cmp(line[hi].Y) > 0 {
				hi = j
			}
		}
		keep := []int{i, lo, hi, j - 1}
		slices.Sort(keep)
		for k, at := range keep {
			if k == 0 || at != keep[k-1] {
				out = append(out, line[at])
			}
		}
		i = j
	}
	return out
}

// tikzMarks are pgfplots' names of the symbols' shapes, those with an
// inside filled.
var tikzMarks = map[string]string{"circle": "*", "square": "square*", "triangle": "triangle*", "diamond": "diamond*", "pentagon": "pentagon*", "plus": "+", "cross": "x"}

// tikzSymbol is series i's symbol for pgfplots, drawn at the points of
// the written line numbered from 1 in at, solid whatever the line's dash.
func tikzSymbol(i int, at []int) string {
	sym := symbolOf(i)
	fill := ""
	if sym.open {
		fill = ", fill=white"
	}
	nums := make([]string, len(at))
	for k, j := range at {
		nums[k] = strconv.Itoa(j + 1)
	}
	return fmt.Sprintf("mark=%s, mark size=1.8pt, mark options={solid%s}, mark indices={%s}", tikzMarks[sym.shape], fill, strings.Join(nums, ","))
}

// symbolIndices returns the indices in written, a line as written (perhaps
// thinned), of the points of line at its indices at; a point thinned out
// carries no symbol.
func symbolIndices(line, written []doc.XY, at []int) []int {
	var out []int
	from := 0
	for _, k := range at {
		pt := line[k]
		for j := from; j < len(written); j++ {
			if written[j].X.Equal(pt.X) && written[j].Y.Equal(pt.Y) {
				out, from = append(out, j), j+1
				break
			}
		}
	}
	return out
}

// tikzDash is series i's dash pattern for TikZ, "" for a solid line.
func tikzDash(i int) string {
	d := dash(i)
	if d == nil {
		return ""
	}
	var parts []string
	for k, v := range d {
		parts = append(parts, fmt.Sprintf("%s %.1fpt", map[bool]string{true: "on", false: "off"}[k%2 == 0], v))
	}
	return "dash pattern=" + strings.Join(parts, " ")
}

// sparseTicks writes, inside \memsymfigure, the test of whether the axis,
// #1 wide, leaves room between two neighbouring ticks for the widest of
// a's labels and 4pt, and \memsymxticklabels, the labels: where it does
// not (a figure set in half a column), every other one after the first
// left out, else each. (The list, not a macro in each label: pgfplots
// keeps a label's box from the first picture that typesets its text.) It
// writes nothing and returns false for an axis of fewer than four ticks.
func sparseTicks(b *bytes.Buffer, a axis) bool {
	if len(a.ticks) < 4 {
		return false
	}
	gap, widest := 1.0, ""
	for i, t := range a.ticks {
		if i > 0 {
			gap = min(gap, a.frac(t.at)-a.frac(a.ticks[i-1].at))
		}
		if l := tickTeX(t); len(l) > len(widest) {
			widest = l
		}
	}
	fmt.Fprintf(b, "\\setbox2=\\hbox{\\footnotesize %s}\\dimen6=\\wd2 \\advance\\dimen6 by 4pt\\dimen8=#1\\relax\\dimen8=%.4f\\dimen8\\relax%%\n", widest, gap)
	all := make([]string, len(a.ticks))
	sparse := make([]string, len(a.ticks))
	for i, t := range a.ticks {
		all[i] = tickTeX(t)
		sparse[i] = all[i]
		if i%2 == 1 {
			sparse[i] = "{}"
		}
	}
	fmt.Fprintf(b, "\\ifdim\\dimen8<\\dimen6 \\def\\memsymxticklabels{%s}\\else\\def\\memsymxticklabels{%s}\\fi%%\n", strings.Join(sparse, ","), strings.Join(all, ","))
	return true
}

// writeTicks writes an axis' ticks at exact values with memsym's labels, in
// math mode; with sparse, the labels sparseTicks chose.
func writeTicks(b *bytes.Buffer, name string, a axis, sparse bool) {
	at := make([]string, len(a.ticks))
	labels := make([]string, len(a.ticks))
	for i, t := range a.ticks {
		at[i] = coord(t.at)
		labels[i] = tickTeX(t)
	}
	if sparse {
		fmt.Fprintf(b, "  %stick={%s}, %sticklabels/.expand once=\\memsymxticklabels,\n", name, strings.Join(at, ","), name)
		return
	}
	fmt.Fprintf(b, "  %stick={%s}, %sticklabels={%s},\n", name, strings.Join(at, ","), name, strings.Join(labels, ","))
}

// tickTeX writes a tick's label: its number in math mode, digits grouped,
// and its unit, if any, in text: $4\,096$, $32$\,KiB.
func tickTeX(t tick) string {
	out := "$" + strings.ReplaceAll(t.num, "\u2009", `\,`) + "$"
	if t.unit != "" {
		out += `\,` + texEscape(t.unit)
	}
	return "{" + out + "}"
}

// letterName names the i-th colour or formula with letters alone.
func letterName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// macroName is the macro a paper quotes a formula or number by: the
// prefix and the key made of letters alone (digits spelled, anything else
// dropped, the letter after it capitalized).
func macroName(prefix, key string) string {
	var b strings.Builder
	b.WriteString(`\` + prefix)
	up := false
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			if up {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			up = false
		case r >= '0' && r <= '9':
			b.WriteString(digitNames[r-'0'])
			up = true
		default:
			up = true
		}
	}
	return b.String()
}

var digitNames = []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"}

// macroNames names the macro of each of d's formulas and numbers, and of
// the peak and of the formulas' ID, by its key: macroName's. A key of
// letters alone is its macro's name, whatever else the file holds (the
// constant dModel is ConstdModel, the dimension xOne PointxOne); a key
// that macroName changes and whose name another took (d_model, x1) takes
// that name followed by the first of B, C, ... that none took, so that no
// two of one file's macros share a name, and a paper that quotes the
// macro a key of letters spells quotes that key's number.
func macroNames(d *doc.Document, prefix string) map[string]string {
	keys := []string{"FormulasID", "Peak", "PeakLines"}
	for _, f := range d.Formulas {
		if f.Of != "" {
			keys = append(keys, f.Of, f.Of+"Lines")
		}
		keys = append(keys, f.Key)
		if f.PlusPeak {
			keys = append(keys, f.Key+"Lines")
		}
	}
	for _, n := range d.Numbers {
		keys = append(keys, n.Key)
	}
	names := map[string]string{}
	taken := map[string]bool{}
	for _, key := range keys { // the keys of letters alone, their own names
		if name := macroName(prefix, key); name == `\`+prefix+key && !taken[name] {
			names[key], taken[name] = name, true
		}
	}
	for _, key := range keys {
		if _, ok := names[key]; ok {
			continue
		}
		name := macroName(prefix, key)
		for i := 1; taken[name]; i++ {
			name = macroName(prefix, key) + letterName(i)
		}
		names[key], taken[name] = name, true
	}
	return names
}

// formulasDefine is the macro every formulas file defines its macros
// with: it defines a name not yet defined, leaves one defined the same
// alone (so that a file may be \input twice), and stops with an error at
// one defined otherwise, which is two programs' files under one prefix (or
// a paper's own macro of that name): \providecommand would silently keep
// the first program's numbers for the second's.
const formulasDefine = "\\long\\gdef\\memsym@define#1#2{%\n" +
	"  \\long\\def\\memsym@new{#2}%\n" +
	"  \\ifdefined#1%\n" +
	"    \\ifx#1\\memsym@new\\else%\n" +
	"      \\errhelp{Two programs' formulas files define the same macros: give each program its own prefix with memsym explain --tex-prefix.}%\n" +
	"      \\errmessage{memsym: \\string#1 is defined already, otherwise: by another program's formulas, under the same --tex-prefix or one that starts the other (gpt and gptStep), or by the paper; give each program a --tex-prefix that does not start another's}%\n" +
	"    \\fi%\n" +
	"  \\else%\n" +
	"    \\global\\let#1\\memsym@new%\n" +
	"  \\fi}%\n"

// tikzFormulas writes a macro for each of d's formulas and numbers, the
// peak, the largest of the candidates, and what is needed, and
// \PREFIXFormulasID, which names what they are: the same file may be
// \input twice, but a file whose macros are defined already otherwise
// (another program's, or another run's, under the same prefix) stops
// pdflatex with an error that names --tex-prefix.
//
// Each largest-of (the peak, \PREFIXPeak) has a macro for a displayed
// equation too, \PREFIXPeakLines, and what is needed \PREFIXNeedsLines:
// the maximum's candidates one a line, in an array, which LaTeX has
// without a package. A display does not break a formula across lines, and
// the maximum of long candidates runs into the margin on one (the course
// GPT's needs by 126 pt in an article's column).
func tikzFormulas(d *doc.Document, o Options) []byte {
	var defs bytes.Buffer
	prefix := o.prefix()
	names := macroNames(d, prefix)
	// Each largest-of (the peak; a training step's peak) and its
	// candidates' macros, in the order of their first.
	type largestOf struct {
		key, label string
		of         []string
	}
	var largest []largestOf
	var lines []string // the Lines macros, for a display
	for _, f := range d.Formulas {
		name := names[f.Key]
		fmt.Fprintf(&defs, "%% %s\n", texComment(f.Label))
		body := texPoly(f.Poly)
		if f.PlusPeak {
			body += " + " + names["Peak"]
		}
		fmt.Fprintf(&defs, "\\memsym@define%s{%s}\n", name, body)
		if f.PlusPeak {
			lines = append(lines, names[f.Key+"Lines"])
			fmt.Fprintf(&defs, "%% %s, the peak's candidates one a line, for a display\n", texComment(f.Label))
			fmt.Fprintf(&defs, "\\memsym@define%s{%s + %s}\n", names[f.Key+"Lines"], texPoly(f.Poly), names["PeakLines"])
		}
		if f.Of != "" {
			k := slices.IndexFunc(largest, func(l largestOf) bool { return l.key == f.Of })
			if k < 0 {
				k = len(largest)
				largest = append(largest, largestOf{key: f.Of, label: f.OfLabel})
			}
			largest[k].of = append(largest[k].of, name)
		}
	}
	for _, l := range largest {
		lines = append(lines, names[l.key+"Lines"])
		if len(l.of) == 1 {
			// One candidate is the peak itself, no largest of one, on
			// one line in a display as in text.
			fmt.Fprintf(&defs, "%% %s: its one candidate\n", texComment(l.label))
			fmt.Fprintf(&defs, "\\memsym@define%s{%s}\n", names[l.key], l.of[0])
			fmt.Fprintf(&defs, "%% %s, for a display: its one candidate\n", texComment(l.label))
			fmt.Fprintf(&defs, "\\memsym@define%s{%s}\n", names[l.key+"Lines"], l.of[0])
			continue
		}
		// A line may break after each candidate's comma, as after a +.
		fmt.Fprintf(&defs, "%% %s: the largest of the candidates\n", texComment(l.label))
		fmt.Fprintf(&defs, "\\memsym@define%s{\\max\\{%s\\}}\n", names[l.key], strings.Join(l.of, ",\\allowbreak\\ "))
		// In a display, which never breaks a line, the candidates one
		// a line in a column of LaTeX's own array, flush left.
		fmt.Fprintf(&defs, "%% %s, for a display: the largest of the candidates, one a line\n", texComment(l.label))
		fmt.Fprintf(&defs, "\\memsym@define%s{\\max\\left\\{\\begin{array}{@{}l@{}}%s\\end{array}\\right\\}}\n", names[l.key+"Lines"], strings.Join(l.of, ",\\\\[\\jot]"))
	}
	for _, n := range d.Numbers {
		// A number goes anywhere, in text as in math: a fraction, such
		// as half a byte, in math mode of its own.
		body := texNumber(n.Value)
		if !n.Value.IsInt() {
			body = `\ensuremath{` + body + "}"
		}
		fmt.Fprintf(&defs, "%% %s\n\\memsym@define%s{%s}\n", texComment(n.Label), names[n.Key], body)
	}
	sum := sha256.Sum256(defs.Bytes())
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s: the formulas, in bytes, and the numbers of the memory chapter.\n", texComment(d.Title))
	fmt.Fprintf(&b, "%% %s. \\input this file to define a macro for each; it needs no package.\n", writtenBy)
	b.WriteString("% A formula's macro goes in math mode ($\\" + prefix + "Peak$); a number's anywhere.\n")
	if len(lines) > 0 {
		// A display never breaks a line: a maximum of long candidates
		// runs into the margin there.
		b.WriteString("% A displayed equation breaks no line, and a maximum of long candidates runs into\n")
		verb := "set"
		if len(lines) == 1 {
			verb = "sets"
		}
		fmt.Fprintf(&b, "%% the margin there: in one, %s %s it one candidate a line,\n", doc.AndList(lines), verb)
		fmt.Fprintf(&b, "%% as in \\[ %s \\] or \\begin{equation} %s \\end{equation}.\n", lines[len(lines)-1], lines[0])
	}
	b.WriteString("% \\input it twice and nothing changes; but a macro defined already otherwise, as\n")
	b.WriteString("% another program's file under the same prefix defines it, stops LaTeX with an\n")
	b.WriteString("% error: give each program's chapter its own prefix, memsym explain --tex-prefix.\n")
	for _, c := range d.Caveats {
		fmt.Fprintf(&b, "%% Note: %s\n", texComment(c))
	}
	b.WriteString("\\begingroup\\catcode`\\@=11\\relax\n")
	b.WriteString(formulasDefine)
	b.WriteString("% what these macros are of: another chapter's formulas under this prefix differ\n")
	fmt.Fprintf(&b, "\\memsym@define%s{%x}\n", names["FormulasID"], sum[:8])
	b.Write(defs.Bytes())
	b.WriteString("\\endgroup\n")
	return b.Bytes()
}

// tikzChapter writes STEM-tikz.tex: the chapter's formulas displayed and
// its figures with their captions, numbered as the chapter numbers them,
// in a document that compiles with pdflatex.
func tikzChapter(d *doc.Document, o Options) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s: the formulas and figures of the memory chapter.\n", writtenBy)
	b.WriteString("\\documentclass{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\pagestyle{empty}\n")
	if d.Number > 0 {
		fmt.Fprintf(&b, "\\setcounter{section}{%d}\n\\renewcommand{\\thefigure}{%d.\\arabic{figure}}\n", d.Number-1, d.Number)
	}
	b.WriteString("\\begin{document}\n")
	if d.Number > 0 {
		fmt.Fprintf(&b, "\\section{%s}\n", breakableTeX(d.Title))
	} else {
		fmt.Fprintf(&b, "\\section*{%s}\n", breakableTeX(d.Title))
	}
	if len(d.Formulas) > 0 || len(d.Numbers) > 0 {
		fmt.Fprintf(&b, "\\input{%s-formulas}\n", o.stem())
		names := macroNames(d, o.prefix())
		for _, f := range d.Formulas {
			// The label is set ragged, its names free to break after a
			// dot or a slash, so that a long one never runs into the
			// margin.
			label := breakableTeX(capitalTeX(f.Label))
			if len(f.Words) > 0 {
				label = latexInlines(capitalInlines(f.Words))
			}
			fmt.Fprintf(&b, "{\\raggedright\\noindent %s, in bytes:\\par}\n", label)
			// Set in a ragged paragraph, not a display, a formula breaks
			// after a + or a candidate's comma when it is wider than the
			// line, as the peak of many candidates is.
			fmt.Fprintf(&b, "\\begin{flushleft}\\leftskip=2em $%s$\\end{flushleft}\n", names[f.Key])
		}
	}
	for _, nf := range figureNames(d, o) {
		fmt.Fprintf(&b, "\\begin{figure}[htbp]\n\\centering\n\\input{%s}\n\\caption{%s}\n\\end{figure}\n", nf.stem, latexInlines(nf.fig.Caption))
	}
	b.WriteString("\\end{document}\n")
	return b.Bytes()
}

// nameBreak is where a name may break: a penalty that makes TeX break a
// ragged line at a space rather than inside a name, even at the cost of
// a line more, and inside a name only when the name is longer than the
// line.
const nameBreak = `\penalty50\relax `

// breakableTeX writes s as LaTeX text in which a name may break after
// each of its dots, slashes and underscores (Linear.apply/\%4,
// attn_norm), as a URL does: a dot, a slash or an underscore inside a
// word, with a letter, a digit, a bracket, a parenthesis or an underscore
// before it and a character other than a space after it, but not a
// decimal point (8.03).
func breakableTeX(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if i > 0 && rs[i-1] == '-' && r == '-' {
			b.WriteString("{}") // as texEscape: "--" is no en dash in a name
		}
		b.WriteString(texEscape(string(r)))
		if (r == '.' || r == '/' || r == '_') && i > 0 && i+1 < len(rs) && nameEnd(rs[i-1]) && !unicode.IsSpace(rs[i+1]) && rs[i+1] != '.' &&
			!(unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1])) {
			b.WriteString(nameBreak)
		}
	}
	return b.String()
}

// nameEnd reports whether r may end a part of a dotted name.
func nameEnd(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == ']' || r == ')' || r == '_')
}

// capitalInlines is capitalTeX for the first of ins, when it is text.
func capitalInlines(ins []doc.Inline) []doc.Inline {
	if t, ok := ins[0].(doc.Text); ok {
		return append([]doc.Inline{doc.Text(capitalTeX(string(t)))}, ins[1:]...)
	}
	return ins
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
func coord(v poly.Rat) string { return doc.Fixed(v, 6) }

// standalonePreamble writes the start of a figure's TikZ file: its caption
// and what it is as comments, then what makes it compile alone (the
// standalone class, setup, and width as wide) and is skipped when it is
// \input (or \includestandalone'd) in a document, which loads what it
// needs.
//
// The file is in a document once the document's \begin{document} has
// run, which sets LaTeX's \@nodocument to \relax (the kernel's own test
// for it), or, in a preamble, once its \documentclass has run, which
// makes \documentclass an error. Testing \documentclass alone is not
// enough: the standalone package, in a paper, makes \documentclass at
// \begin{document} skip an \input file's preamble, and the file's own
// \begin{document} would then open a group its \endinput never closes.
// The names are built with \csname, as the file may be read where @ is
// no letter.
func standalonePreamble(b *bytes.Buffer, f *doc.Figure, loads, size, setup, wide string) {
	fmt.Fprintf(b, "%% %s\n", texComment(doc.PlainText(f.Caption, " ")))
	fmt.Fprintf(b, "%% %s: compiles alone into a cropped picture, or \\input it (or \\includestandalone it) in a document that loads %s;\n", writtenBy, loads)
	fmt.Fprintf(b, "%% %s.\n", size)
	b.WriteString("\\expandafter\\ifx\\csname @nodocument\\endcsname\\relax\\else\n")
	b.WriteString("\\expandafter\\ifx\\csname @twoclasseserror\\endcsname\\documentclass\\else\n")
	fmt.Fprintf(b, "\\documentclass[border=1pt]{standalone}\n%s\n", setup)
	fmt.Fprintf(b, "\\def\\memsymalone{}\n\\begin{document}\n\\setlength{%s}{%s}%%\n\\fi\\fi%%\n", wide, standaloneWidth)
}
