package reports

import (
	"fmt"
	"strings"

	"memsym/doc"
	"memsym/poly"
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
	'⁸': `\textsuperscript{8}`, '⁹': `\textsuperscript{9}`, '⌈': `\ensuremath{\lceil}`, '⌉': `\ensuremath{\rceil}`,
	// Set otherwise by a roman font in the OT1 encoding, LaTeX's own,
	// which a paper's preamble may keep: ¡ for <, — for |, ” for ", ‘ for `.
	'<': `\ensuremath{<}`, '>': `\ensuremath{>}`, '|': `\ensuremath{|}`, '"': `\texttt{\char34}`, '`': "\\texttt{\\char96}",
}

// TeXLacks reports whether the LaTeX memsym writes shows r as a question
// mark: a character beyond Latin-1 that pdflatex's fonts do not set
// without packages memsym does not load (Cyrillic, Chinese, emoji).
func TeXLacks(r rune) bool {
	_, ok := texChars[r]
	return !ok && !(r >= ' ' && r < 0x7f) && !(r >= 0xa0 && r <= 0xff)
}

// PDFLacks reports whether the PDF memsym writes cannot show r: beyond
// the Basic Multilingual Plane (a question mark), or missing from one of
// the embedded DejaVu fonts (an empty box): Chinese, Devanagari, Thai.
func PDFLacks(r rune) bool {
	return r > 0xFFFF || !pdfHas(r)
}

// texEscape writes s as LaTeX text; a character LaTeX cannot set is
// written as a question mark.
func texEscape(s string) string {
	var b strings.Builder
	var prev rune
	for _, r := range s {
		if prev == '-' && r == '-' {
			b.WriteString("{}") // "--" is no ligature, en dash, in a name
		}
		prev = r
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
// formulas and Maths in math mode.
func latexInlines(ins []doc.Inline) string {
	var b strings.Builder
	for _, in := range ins {
		switch in := in.(type) {
		case doc.Text:
			b.WriteString(texEscape(string(in)))
		case doc.Number:
			if in.Human {
				b.WriteString(texEscape(doc.Human(in.Value)))
			} else {
				v := in.Value
				if v.Sign() < 0 {
					b.WriteString(`\ensuremath{-}`) // the minus sign, not a hyphen
					v = v.Neg()
				}
				b.WriteString(doc.Group(v, doc.LaTeXThinSpace))
			}
		case doc.Formula:
			b.WriteString("$" + texPoly(in.Poly) + "$")
		case doc.Math:
			b.WriteString("$" + texMath(in) + "$")
		case doc.Code:
			// A name may break after its dots, slashes and underscores,
			// as in a caption, rather than run into the margin.
			b.WriteString(`\texttt{` + breakableTeX(string(in)) + "}")
		}
	}
	return b.String()
}

// texSigns are a Math's signs in LaTeX's math mode.
var texSigns = map[string]string{
	"=": " = ", "≥": ` \geq `, "≤": ` \leq `, "<": " < ", ">": " > ", "∈": ` \in `, ",": ",\\ ",
	"{": `\{`, "}": `\}`, "(": "(", ")": ")", "/": "/", "·": ` \cdot `, "+": " + ", "−": " - ", "×": ` \times `, "to": `\mbox{ to }`,
}

// texMath writes a Math for LaTeX's math mode: T = 150, B \in \{16,\ 32\}.
func texMath(m doc.Math) string {
	var b strings.Builder
	for _, a := range m {
		switch {
		case a.Sign != "":
			if s, ok := texSigns[a.Sign]; ok {
				b.WriteString(s)
			} else {
				b.WriteString(texEscape(a.Sign))
			}
			if a.Exp > 1 {
				fmt.Fprintf(&b, "^{%d}", a.Exp)
			}
		case a.Var != "":
			b.WriteString(texVar(a.Var))
			if a.Exp > 1 {
				fmt.Fprintf(&b, "^{%d}", a.Exp)
			}
		default:
			b.WriteString(texNumber(a.Num))
		}
	}
	return b.String()
}

// texVar writes a variable: a letter as itself, a longer name as
// \mathit{seq}, with what LaTeX reads as markup escaped.
func texVar(name string) string {
	if len(name) == 1 && (name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return name
	}
	return `\mathit{` + texEscape(name) + "}"
}

// texNumber writes an exact number for math mode: its digits grouped by
// \, and a fraction as a text-style \frac, LaTeX's own, so that a formula
// needs no package (amsmath's \tfrac is the same fraction).
func texNumber(x poly.Rat) string {
	if x.IsInt() {
		return doc.Group(x, doc.LaTeXThinSpace)
	}
	sign := ""
	if x.Sign() < 0 {
		sign, x = "-", x.Neg()
	}
	return sign + `{\textstyle\frac{` + doc.Group(poly.FromBigInt(x.Num()), doc.LaTeXThinSpace) + "}{" + doc.Group(poly.FromBigInt(x.Den()), doc.LaTeXThinSpace) + "}}"
}

// texPoly writes a polynomial for LaTeX's math mode, its coefficients'
// digits grouped by \, and its variables side by side, a thin space
// beside a name of more than one letter, which would otherwise run into
// the next: 27\,648\,BT + 8\,T^{2}, \mathit{d\_model}\,B.
func texPoly(p poly.Poly) string {
	terms := p.Terms()
	if len(terms) == 0 {
		return "0"
	}
	vars := p.Vars()
	var b strings.Builder
	for i, t := range terms {
		c := t.Coef
		switch {
		case i == 0 && c.Sign() < 0:
			b.WriteString("-")
		case c.Sign() < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		if c.Sign() < 0 {
			c = c.Neg()
		}
		constant := true
		for _, e := range t.Exp {
			constant = constant && e == 0
		}
		if !c.Equal(poly.Int(1)) || constant {
			b.WriteString(texNumber(c))
			if !constant {
				b.WriteString(`\,`)
			}
		}
		prev := "" // the variable written last in this term
		for j, e := range t.Exp {
			if e == 0 {
				continue
			}
			if prev != "" && (len(prev) > 1 || len(vars[j]) > 1) {
				b.WriteString(`\,`) // x_1 xOne, not x_1xOne
			}
			prev = vars[j]
			b.WriteString(texVar(vars[j]))
			if e > 1 {
				fmt.Fprintf(&b, "^{%d}", e)
			}
		}
	}
	return b.String()
}
