package doc

import (
	"strings"

	"memsym/poly"
)

// Inline is one piece of running text: Text, Number, Formula, Math or Code.
type Inline interface{ inline() }

// Text is plain words, written as they are.
type Text string

// Number is an exact number, written with its digits in groups (86 532 096)
// or, when Human is set, as a count of bytes in decimal units ("3.2 GB";
// see Human for the rule).
type Number struct {
	Value poly.Rat
	Human bool
}

// Formula is a polynomial in the program's dimensions, written in each
// format's own notation.
type Formula struct{ Poly poly.Poly }

// Code is a name from the program, such as an operation's label or a
// path, written in a fixed-width font.
type Code string

func (Text) inline()    {}
func (Number) inline()  {}
func (Formula) inline() {}
func (Code) inline()    {}

// PlainText writes inlines as plain Unicode text, numbers grouped by sep and
// formulas in their display notation ("48 · B · T²"). Formats use it where
// only text fits, such as an image's alternative text.
func PlainText(inlines []Inline, sep string) string {
	var b strings.Builder
	for _, in := range inlines {
		switch in := in.(type) {
		case Text:
			b.WriteString(string(in))
		case Code:
			b.WriteString(string(in))
		case Number:
			b.WriteString(NumberText(in, sep))
		case Formula:
			b.WriteString(FormulaText(in.Poly, sep))
		case Math:
			b.WriteString(in.Plain(sep))
		}
	}
	return b.String()
}

// NumberText writes n as text: Human's units when n.Human is set, else
// Group with sep; a negative number with the minus sign, −128.
func NumberText(n Number, sep string) string {
	s := Group(n.Value, sep)
	if n.Human {
		s = Human(n.Value)
	}
	// A negative number's sign is the minus sign, as in the formulas
	// beside it, not the hyphen.
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		s = "−" + rest
	}
	return s
}
