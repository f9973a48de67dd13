package reports

import (
	"strings"

	"memsym/explain"
)

// texChars spells in LaTeX the characters of memsym's text that pdflatex
// does not take as they are.
var texChars = map[rune]string{
	'\\': `\textbackslash{}`, '{': `\{`, '}': `\}`, '$': `\$`, '&': `\&`, '#': `\#`,
	'%': `\%`, '_': `\_`, '^': `\textasciicircum{}`, '~': `\textasciitilde{}`,
	'·': `\ensuremath{\cdot}`, '×': `\ensuremath{\times}`, '∈': `\ensuremath{\in}`,
	'≥': `\ensuremath{\geq}`, '≤': `\ensuremath{\leq}`, '−': `\ensuremath{-}`, '∞': `\ensuremath{\infty}`,
	'\u2009': `\,`, '\u202f': `\,`, '’': `'`, '‘': "`", '…': `\ldots{}`, '–': `--`, '—': `---`,
	'⁰': `\textsuperscript{0}`, '¹': `\textsuperscript{1}`, '²': `\textsuperscript{2}`, '³': `\textsuperscript{3}`,
	'⁴': `\textsuperscript{4}`, '⁵': `\textsuperscript{5}`, '⁶': `\textsuperscript{6}`, '⁷': `\textsuperscript{7}`,
	'⁸': `\textsuperscript{8}`, '⁹': `\textsuperscript{9}`,
}

// texEscape writes s as LaTeX text; a character LaTeX cannot set is
// written as a question mark.
func texEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if t, ok := texChars[r]; ok {
			b.WriteString(t)
		} else if (r >= ' ' && r < 0x7f) || (r >= 0xa0 && r <= 0xff) {
			b.WriteRune(r)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// texComment writes s on one line for a LaTeX comment.
func texComment(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ")
}

// latexInlines writes inline runs as LaTeX: numbers grouped by \, and
// formulas in math mode.
func latexInlines(ins []explain.Inline) string {
	var b strings.Builder
	for _, in := range ins {
		switch in := in.(type) {
		case explain.Text:
			b.WriteString(texEscape(string(in)))
		case explain.Number:
			if in.Human {
				b.WriteString(texEscape(explain.Human(in.Value)))
			} else {
				b.WriteString(explain.Group(in.Value, explain.LaTeXThinSpace))
			}
		case explain.Formula:
			b.WriteString("$" + in.Poly.LaTeX() + "$")
		case explain.Code:
			b.WriteString(`\texttt{` + texEscape(string(in)) + "}")
		}
	}
	return b.String()
}
