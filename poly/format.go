package poly

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// notation is one way of writing a polynomial.
type notation struct {
	plus, minus string // between terms
	lead        string // before a negative first term
	times       string // between a coefficient and a variable, and between variables
	coef        func(Rat) string
	power       func(b *strings.Builder, name string, e int) // e ≥ 1
}

var (
	display = notation{
		plus: " + ", minus: " − ", lead: "−", times: " · ",
		coef: ratString,
		power: func(b *strings.Builder, name string, e int) {
			b.WriteString(name)
			if e > 1 {
				writeSuperscript(b, e)
			}
		},
	}
	ascii = notation{
		plus: " + ", minus: " - ", lead: "-", times: "*",
		coef: ratString,
		power: func(b *strings.Builder, name string, e int) {
			b.WriteString(name)
			if e > 1 {
				b.WriteByte('^')
				b.WriteString(strconv.Itoa(e))
			}
		},
	}
	latex = notation{
		plus: " + ", minus: " - ", lead: "-", times: `\,`,
		coef: latexCoef,
		power: func(b *strings.Builder, name string, e int) {
			writeLatexName(b, name)
			if e > 1 {
				b.WriteString("^{")
				b.WriteString(strconv.Itoa(e))
				b.WriteByte('}')
			}
		},
	}
)

// String returns p in display notation, as memsym prints polynomials to
// people: "48 · B · T² + 12288 · B · T + 8 · T²", "3/2 · T − 1", "0".
func (p Poly) String() string { return p.format(&display) }

// ASCII returns p in machine notation, which Parse reads back exactly:
// "48*B*T^2 + 12288*B*T + 8*T^2", "3/2*T - 1", "0".
func (p Poly) ASCII() string { return p.format(&ascii) }

// LaTeX returns p for a LaTeX formula: "48\,B\,T^{2} + 12288\,B\,T",
// "\tfrac{3}{2}\,T - 1", with multi-letter names as \mathit{seq}.
func (p Poly) LaTeX() string { return p.format(&latex) }

// StringWith returns p in display notation, as String does, each
// coefficient (positive, and not 1 but in a constant term) written by
// coef: a reader's rendering such as grouped digits, "16 392 · T". What
// a tool reads back is String or ASCII.
func (p Poly) StringWith(coef func(Rat) string) string {
	nt := display
	nt.coef = coef
	return p.format(&nt)
}

func (p Poly) format(nt *notation) string {
	if p.IsZero() {
		return "0"
	}
	var b strings.Builder
	for i, c := range p.coefs {
		neg := c.Sign() < 0
		if neg {
			c = c.Neg()
		}
		switch {
		case i == 0 && neg:
			b.WriteString(nt.lead)
		case i > 0 && neg:
			b.WriteString(nt.minus)
		case i > 0:
			b.WriteString(nt.plus)
		}
		row := p.row(i)
		first := true
		if !c.Equal(Int(1)) || isZeroRow(row) {
			b.WriteString(nt.coef(c))
			first = false
		}
		for j, e := range row {
			if e == 0 {
				continue
			}
			if !first {
				b.WriteString(nt.times)
			}
			nt.power(&b, p.vars[j], e)
			first = false
		}
	}
	return b.String()
}

// ratString is Rat.String without fmt for int64s.
func ratString(c Rat) string {
	n, d, ok := c.Small()
	switch {
	case !ok:
		return c.String()
	case d == 1:
		return strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10) + "/" + strconv.FormatInt(d, 10)
}

// superscripts holds the superscript digits ⁰ to ⁹.
var superscripts = [10]rune{'⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'}

// writeSuperscript writes e in superscript digits.
func writeSuperscript(b *strings.Builder, e int) {
	for _, d := range strconv.Itoa(e) {
		b.WriteRune(superscripts[d-'0'])
	}
}

// latexCoef writes a positive coefficient: "12", or "\tfrac{3}{2}".
func latexCoef(c Rat) string {
	if c.IsInt() {
		return ratString(c)
	}
	return `\tfrac{` + c.Num().String() + "}{" + c.Den().String() + "}"
}

// writeLatexName writes a variable: a single letter as itself, a longer
// name as \mathit{seq}, with underscores escaped.
func writeLatexName(b *strings.Builder, name string) {
	if utf8.RuneCountInString(name) == 1 && name != "_" {
		b.WriteString(name)
		return
	}
	b.WriteString(`\mathit{`)
	b.WriteString(strings.ReplaceAll(name, "_", `\_`))
	b.WriteByte('}')
}
