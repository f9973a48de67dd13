package reports

import (
	"bytes"
	"fmt"
	"strings"

	"memsym/explain"
)

func init() { Register(mdRenderer{}) }

// mdRenderer writes GitHub-flavoured Markdown: chapter13.md, and each figure
// as an SVG image beside it (live.svg, candidates.svg).
type mdRenderer struct{}

func (mdRenderer) Name() string { return "md" }

func (mdRenderer) Render(doc *explain.Document, dir string) ([]string, error) {
	fs := files{"chapter13.md": markdown(doc)}
	for _, nf := range figureNames(doc) {
		fs[nf.stem+".svg"] = figureSVG(nf.fig)
	}
	return writeAll(dir, fs)
}

// namedFigure is a figure and the file stem it is written under.
type namedFigure struct {
	fig  *explain.Figure
	stem string
}

// figureNames gives every figure of doc a distinct file stem: its Name,
// or "figureN" when the name is empty or already taken.
func figureNames(doc *explain.Document) []namedFigure {
	taken := map[string]bool{}
	var out []namedFigure
	for i, f := range doc.Figures() {
		stem := f.Name
		if stem == "" || taken[stem] || strings.ContainsAny(stem, `/\. `) {
			stem = fmt.Sprintf("figure%d", i+1)
		}
		taken[stem] = true
		out = append(out, namedFigure{f, stem})
	}
	return out
}

// markdown writes doc as GitHub-flavoured Markdown. Numbers group their
// digits with narrow no-break spaces; formulas are written in display
// notation (48 · B · T²), which GitHub shows as it is.
func markdown(doc *explain.Document) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", mdEscape(doc.Title))
	stems := map[*explain.Figure]string{}
	for _, nf := range figureNames(doc) {
		stems[nf.fig] = nf.stem
	}
	figure := 0
	for _, s := range doc.Sections {
		fmt.Fprintf(&b, "\n## %s\n", mdEscape(s.Title))
		for _, blk := range s.Blocks {
			b.WriteByte('\n')
			switch blk := blk.(type) {
			case *explain.Paragraph:
				b.WriteString(mdBlockStart(mdInlines(blk.Inlines)) + "\n")
			case *explain.List:
				for _, item := range blk.Items {
					b.WriteString("- " + mdBlockStart(mdInlines(item)) + "\n")
				}
			case *explain.Table:
				mdTable(&b, blk)
			case *explain.Figure:
				figure++
				alt := explain.PlainText(blk.Caption, explain.NarrowNoBreakSpace)
				fmt.Fprintf(&b, "![%s](%s.svg)\n\n", mdEscape(alt), stems[blk])
				fmt.Fprintf(&b, "*Figure %d.* %s\n", figure, mdInlines(blk.Caption))
			}
		}
	}
	return b.Bytes()
}

// mdTable writes a GFM pipe table.
func mdTable(b *bytes.Buffer, t *explain.Table) {
	cols := len(t.Header)
	row := func(cells []explain.Cell) {
		b.WriteString("|")
		for i := 0; i < cols; i++ {
			text := ""
			if i < len(cells) {
				text = mdInlines(cells[i])
			}
			if text == "" {
				b.WriteString("   |")
				continue
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteByte('\n')
	}
	row(t.Header)
	b.WriteString("|")
	for i := 0; i < cols; i++ {
		if i < len(t.Align) && t.Align[i] == explain.AlignRight {
			b.WriteString("--:|")
		} else {
			b.WriteString(":--|")
		}
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		row(r)
	}
}

// mdInlines writes inline runs as Markdown.
func mdInlines(ins []explain.Inline) string {
	var b strings.Builder
	for _, in := range ins {
		switch in := in.(type) {
		case explain.Text:
			b.WriteString(mdEscape(string(in)))
		case explain.Number:
			b.WriteString(mdEscape(explain.NumberText(in, explain.NarrowNoBreakSpace)))
		case explain.Formula:
			b.WriteString(mdEscape(in.Poly.String()))
		case explain.Code:
			b.WriteString(mdCode(string(in)))
		}
	}
	return b.String()
}

// mdEscape escapes the characters Markdown would read as markup.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
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

// mdCode writes s as a code span, with enough backticks around it; a pipe
// is escaped so that a code span in a table cell stays in its cell.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
