package reports

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"memsym/doc"
)

func init() { Register(mdRenderer{}) }

// mdRenderer writes GitHub-flavoured Markdown: STEM.md, and each figure
// as an SVG image beside it (STEM-live.svg, STEM-candidates.svg).
type mdRenderer struct{}

func (mdRenderer) Name() string { return "md" }

func (mdRenderer) Render(d *doc.Document, dir string, o Options) ([]string, error) {
	fs := files{o.stem() + ".md": markdown(d, o)}
	for _, nf := range figureNames(d, o) {
		fs[nf.stem+".svg"] = figureSVG(nf.fig)
	}
	return writeAll(dir, fs)
}

// namedFigure is a figure, the file stem it is written under and its
// number in the chapter ("13.2").
type namedFigure struct {
	fig    *doc.Figure
	stem   string
	number string
}

// figureNames gives every figure of d a distinct file stem, the option's
// stem and its Name ("chapter13-live"), or its number when the name is
// empty or already taken; and its number.
func figureNames(d *doc.Document, o Options) []namedFigure {
	taken := map[string]bool{}
	var out []namedFigure
	for i, f := range d.Figures() {
		name := f.Name
		if name == "" || taken[name] || strings.ContainsAny(name, `/\. `) {
			name = fmt.Sprintf("figure%d", i+1)
		}
		taken[name] = true
		out = append(out, namedFigure{f, o.stem() + "-" + name, numbered(d, i+1)})
	}
	return out
}

// numbered writes the n-th table's or figure's number: "13.2", or "2" in
// a document without a number.
func numbered(d *doc.Document, n int) string {
	if d.Number > 0 {
		return fmt.Sprintf("%d.%d", d.Number, n)
	}
	return fmt.Sprint(n)
}

// sectionTitle is a section's title with its number: "13.1 What is
// counted".
func sectionTitle(d *doc.Document, i int) string {
	if d.Number > 0 {
		return fmt.Sprintf("%d.%d %s", d.Number, i+1, d.Sections[i].Title)
	}
	return d.Sections[i].Title
}

// chapterTitle is the document's title with its number: "13 Memory: …".
func chapterTitle(d *doc.Document) string {
	if d.Number > 0 {
		return fmt.Sprintf("%d %s", d.Number, d.Title)
	}
	return d.Title
}

// markdown writes d as GitHub-flavoured Markdown. Numbers group their
// digits with narrow no-break spaces; formulas are written in display
// notation (48 · B · T²), which GitHub shows as it is.
func markdown(d *doc.Document, o Options) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- %s -->\n\n# %s\n", writtenBy, mdEscape(chapterTitle(d)))
	names := map[*doc.Figure]namedFigure{}
	for _, nf := range figureNames(d, o) {
		names[nf.fig] = nf
	}
	tables := 0
	for i, s := range d.Sections {
		fmt.Fprintf(&b, "\n## %s\n", mdEscape(sectionTitle(d, i)))
		for _, blk := range s.Blocks {
			b.WriteByte('\n')
			switch blk := blk.(type) {
			case *doc.Paragraph:
				b.WriteString(mdBlockStart(mdInlines(blk.Inlines)) + "\n")
			case *doc.List:
				for _, item := range blk.Items {
					b.WriteString("- " + mdBlockStart(mdInlines(item)) + "\n")
				}
			case *doc.Table:
				tables++
				if len(blk.Caption) > 0 {
					fmt.Fprintf(&b, "*Table %s.* %s\n\n", numbered(d, tables), mdInlines(blk.Caption))
				}
				mdTable(&b, blk)
			case *doc.Figure:
				nf := names[blk]
				alt := doc.PlainText(blk.Caption, doc.NarrowNoBreakSpace)
				fmt.Fprintf(&b, "![%s](%s.svg)\n\n", mdEscape(alt), nf.stem)
				fmt.Fprintf(&b, "*Figure %s.* %s\n", nf.number, mdInlines(blk.Caption))
			}
		}
	}
	return b.Bytes()
}

// mdTable writes a GFM pipe table: an indented row's first cell behind
// em spaces, the foot's rows in bold.
func mdTable(b *bytes.Buffer, t *doc.Table) {
	cols := len(t.Header)
	row := func(cells []doc.Cell, indent int, bold bool) {
		b.WriteString("|")
		for i := 0; i < cols; i++ {
			text := ""
			if i < len(cells) {
				text = mdCellInlines(cells[i])
			}
			if text == "" {
				b.WriteString("   |")
				continue
			}
			if bold {
				text = "**" + text + "**"
			}
			if i == 0 && indent > 0 {
				text = strings.Repeat("&emsp;", 2*indent) + text
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteByte('\n')
	}
	row(t.Header, 0, false)
	b.WriteString("|")
	for i := 0; i < cols; i++ {
		if i < len(t.Align) && t.Align[i] == doc.AlignRight {
			b.WriteString("--:|")
		} else {
			b.WriteString(":--|")
		}
	}
	b.WriteByte('\n')
	for i, r := range t.Rows {
		indent := 0
		if i < len(t.Indent) {
			indent = t.Indent[i]
		}
		row(r, indent, false)
	}
	for _, r := range t.Foot {
		row(r, 0, true)
	}
}

// mdInlines writes inline runs as Markdown, outside a table.
func mdInlines(ins []doc.Inline) string { return mdRuns(ins, false) }

// mdCellInlines writes inline runs as Markdown in a table's cell, where a
// pipe, even in a code span, must be escaped to stay in its cell.
func mdCellInlines(ins []doc.Inline) string { return mdRuns(ins, true) }

func mdRuns(ins []doc.Inline, cell bool) string {
	var b strings.Builder
	for _, in := range ins {
		switch in := in.(type) {
		case doc.Text:
			b.WriteString(mdEscape(string(in)))
		case doc.Number:
			b.WriteString(mdEscape(doc.NumberText(in, doc.NarrowNoBreakSpace)))
		case doc.Formula:
			// Its variables in italics, as a Math's are and as the PDF
			// and LaTeX set them, its coefficients' digits grouped as
			// the prose's numbers are: 16 392 · *B* · *T²*.
			for i, tok := range strings.Split(doc.FormulaText(in.Poly, doc.NarrowNoBreakSpace), " ") {
				if i > 0 {
					b.WriteByte(' ')
				}
				sign, v := "", tok
				if rest, ok := strings.CutPrefix(tok, "−"); ok && rest != "" {
					sign, v = "−", rest // −B: the sign upright
				}
				if r, _ := utf8.DecodeRuneInString(v); unicode.IsLetter(r) || r == '_' {
					b.WriteString(sign + "*" + mdEscape(v) + "*")
				} else {
					b.WriteString(mdEscape(tok))
				}
			}
		case doc.Code:
			b.WriteString(mdCode(string(in), cell))
		case doc.Math:
			for _, piece := range mathPieces(in, doc.NarrowNoBreakSpace) {
				if piece.variable {
					b.WriteString("*" + mdEscape(piece.text) + "*")
				} else {
					b.WriteString(mdEscape(piece.text))
				}
			}
		}
	}
	return b.String()
}

// mdEscape escapes the characters Markdown would read as markup, and
// writes control characters visibly (Visible), so that a name with a
// newline in it neither ends a paragraph nor a table's row.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range Visible(s) {
		if strings.ContainsRune("\\`*_[]<>#|&~!", r) {
			b.WriteByte('\\')
		}
		if r == '\n' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdBlockStart escapes what Markdown would read at the start of a block
// as a list, a heading's underline or a quote: "- x", "+ x", "=", "1. x".
func mdBlockStart(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsRune("-+=", rune(s[0])) {
		return `\` + s
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}

// mdCode writes s as a code span, with enough backticks around it and its
// control characters written visibly (Visible): a newline would end the
// span, and what follows would be read as Markdown, raw HTML too. In a
// table's cell a pipe is escaped, so that the span stays in its cell;
// elsewhere the backslash would show.
func mdCode(s string, cell bool) string {
	s = Visible(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// Visible writes the characters of s that would hide or move text
// (doc.Hidden: control characters, the line and paragraph separators, the
// bidirectional controls) as Go writes them in a quoted string, \n, \t,
// \x01, \u202e, so that a name from a recording cannot break a line, a
// row or a span of the chapter, or show it in another order.
func Visible(s string) string {
	if !strings.ContainsFunc(s, doc.Hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if doc.Hidden(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
