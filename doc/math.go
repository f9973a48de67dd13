package doc

import (
	"strconv"
	"strings"

	"memsym/poly"
)

// Math is a short statement about a program's dimensions and constants,
// set as mathematics: a value ("T = 150"), a range ("B, T ≥ 1"), a set
// ("B ∈ {16, 32, 48}") or a size ("B · T · 4D"). Formats set its names as
// variables (italic in LaTeX and the PDF), its numbers with their digits
// grouped and its signs as mathematical signs.
type Math []Atom

// Atom is one piece of a Math: a variable (Var, raised to Exp when Exp >
// 1), a sign (Sign: = ≥ ≤ ∈ , { } ( ) / · + −; a closing bracket may be
// raised to Exp too), or else the exact number Num.
// Two atoms with no sign between them are set side by side: a number and a
// variable, N(4) V("D"), read 4D.
type Atom struct {
	Var  string
	Exp  int
	Sign string
	Num  poly.Rat
}

func (Math) inline() {}

// V is the variable name as an atom.
func V(name string) Atom { return Atom{Var: name} }

// VExp is the variable name raised to e as an atom: T².
func VExp(name string, e int) Atom { return Atom{Var: name, Exp: e} }

// S is a sign as an atom.
func S(sign string) Atom { return Atom{Sign: sign} }

// N is an exact number as an atom.
func N(x poly.Rat) Atom { return Atom{Num: x} }

// NInt is an integer as an atom.
func NInt(x int64) Atom { return Atom{Num: poly.Int(x)} }

// spaced are the signs set with a space on either side; "," is followed by
// one, and brackets by none.
var spaced = map[string]bool{"=": true, "≥": true, "≤": true, "<": true, ">": true, "∈": true, "·": true, "+": true, "−": true, "×": true, "to": true}

// Plain writes m as plain Unicode text, numbers grouped by sep: "T = 150",
// "B, T ≥ 1", "B ∈ {16, 32, 48}", "B · T · 4D", "T²".
func (m Math) Plain(sep string) string {
	var b strings.Builder
	for _, a := range m {
		switch {
		case a.Sign == ",":
			b.WriteString(", ")
		case a.Sign != "" && spaced[a.Sign]:
			b.WriteString(" " + a.Sign + " ")
		case a.Sign != "":
			b.WriteString(a.Sign)
			if a.Exp > 1 {
				for _, d := range strconv.Itoa(a.Exp) {
					b.WriteRune(superscriptDigits[d-'0'])
				}
			}
		case a.Var != "":
			b.WriteString(a.Var)
			if a.Exp > 1 {
				for _, d := range strconv.Itoa(a.Exp) {
					b.WriteRune(superscriptDigits[d-'0'])
				}
			}
		default:
			b.WriteString(Group(a.Num, sep))
		}
	}
	return b.String()
}

// superscriptDigits are ⁰ to ⁹.
var superscriptDigits = [10]rune{'⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'}

// FormulaText writes p as the chapter sets a formula in plain Unicode text:
// in memsym's display notation (poly.Poly.String), its products with "·",
// but an integer coefficient's digits grouped by sep as Group groups the
// prose's numbers, from four digits on: "8 · B · T + 16 392 · T +
// 1 858 125 824" where String writes "16392 · T + 1858125824". A fraction
// stays numerator/denominator, never grouped, as Group writes one without
// a decimal ("3/2 · T"), so that no coefficient reads as a decimal the
// formula's other formats (LaTeX's \frac) do not show. The exponents are
// superscripts and a negative term's sign the minus sign, "−", as String's.
//
// It is for reading: poly.Parse does not read the groups back, and what a
// tool reads (memsym symbolic, the --json outputs) is String or ASCII.
func FormulaText(p poly.Poly, sep string) string {
	return p.StringWith(func(c poly.Rat) string {
		if c.IsInt() {
			return Group(c, sep)
		}
		return c.String()
	})
}
