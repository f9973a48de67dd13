// Package explain writes up a program's memory model for people: it turns
// the counts at a point, the polynomials and their checks into a chapter,
// a small document of sections, paragraphs, tables, lists and figures that
// the reports package renders in each format.
package explain

import (
	"strings"

	"memsym/poly"
)

// Document is a chapter: a title and its sections, in order, and the
// formulas a paper may quote, by name.
type Document struct {
	Title    string
	Sections []Section
	Formulas []NamedFormula
}

// NamedFormula is a formula of the chapter that a paper may quote: Key is
// a name of letters alone ("Inputs", "CandidateA") for a macro, Label says
// what it counts, and Candidate marks the peak's candidates, of which the
// peak is the largest.
type NamedFormula struct {
	Key, Label string
	Poly       poly.Poly
	Candidate  bool
}

// Section is a titled run of blocks.
type Section struct {
	Title  string
	Blocks []Block
}

// Block is one block of a section: *Paragraph, *Table, *List or *Figure.
type Block interface{ block() }

// Paragraph is a run of inline pieces read as one paragraph.
type Paragraph struct{ Inlines []Inline }

// Table is a table of cells with one header row. Align has one entry per
// column (missing entries are AlignLeft).
type Table struct {
	Header []Cell
	Rows   [][]Cell
	Align  []Align
}

// Cell is the content of one table cell.
type Cell []Inline

// Align says how a table column's cells line up.
type Align int

// The alignments of a table column; numbers are right-aligned.
const (
	AlignLeft Align = iota
	AlignRight
)

// List is a bulleted list; each item is a run of inline pieces.
type List struct{ Items [][]Inline }

func (*Paragraph) block() {}
func (*Table) block()     {}
func (*List) block()      {}
func (*Figure) block()    {}

// Inline is one piece of running text: Text, Number, Formula or Code.
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
			b.WriteString(in.Poly.String())
		}
	}
	return b.String()
}

// NumberText writes n as text: Human's units when n.Human is set, else
// Group with sep.
func NumberText(n Number, sep string) string {
	if n.Human {
		return Human(n.Value)
	}
	return Group(n.Value, sep)
}

// Walk calls visit for every block of doc, section by section, in order.
func (doc *Document) Walk(visit func(s *Section, b Block)) {
	for i := range doc.Sections {
		s := &doc.Sections[i]
		for _, b := range s.Blocks {
			visit(s, b)
		}
	}
}

// Figures returns doc's figures in order.
func (doc *Document) Figures() []*Figure {
	var figs []*Figure
	doc.Walk(func(_ *Section, b Block) {
		if f, ok := b.(*Figure); ok {
			figs = append(figs, f)
		}
	})
	return figs
}
