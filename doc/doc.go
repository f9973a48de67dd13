// Package doc is memsym's document model: a document of sections, whose
// blocks are paragraphs, tables, lists and figures and whose running text is
// words, exact numbers, formulas and code, with the words and number
// formats that every writer of memsym's prose shares. The explain package
// builds documents and the reports package renders them, each format in
// its own way; doc knows neither.
package doc

import "memsym/poly"

// Document is a chapter: a title and its sections, in order, and the
// formulas and numbers a paper may quote, by name.
type Document struct {
	Title string
	// Number is the chapter's number (13), which numbers its sections,
	// tables and figures (13.2, Table 13.1); 0 leaves them unnumbered.
	Number   int
	Sections []Section
	Formulas []NamedFormula
	Numbers  []NamedNumber
	// Caveats qualify the formulas for a reader who takes them without
	// the chapter's text, as a paper that inputs its formulas file does:
	// the polynomials checked at no point off their grid, a buffer's
	// polynomial negative somewhere. Plain sentences.
	Caveats []string
}

// NamedNumber is an exact number of the chapter that a paper may quote:
// Key is a name of letters alone ("PeakAtPoint", "CrossoverA") for a
// macro, Label says what it is.
type NamedNumber struct {
	Key, Label string
	Value      poly.Rat
}

// NamedFormula is a formula of the chapter that a paper may quote: Key is
// a name of letters alone ("Inputs", "PeakA") for a macro, Label says
// what it counts, and Of, for a candidate, the key of the largest of the
// candidates of that key ("Peak": the peak; "StepPeakStore": the training
// step's peak, the activations stored), which has its macro too, and
// OfLabel says what that largest is.
type NamedFormula struct {
	Key, Label string
	// Words is Label as prose sets it, its names as code and its sizes as
	// math, for a format that sets the label in text; nil when Label,
	// plain, is all there is.
	Words       []Inline
	Poly        poly.Poly
	Of, OfLabel string
	// PlusPeak says the formula is Poly plus the peak, as what is needed
	// is the inputs and the peak.
	PlusPeak bool
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
	// Caption says what the table shows; formats number it (Table 13.1)
	// and keep it with the table.
	Caption []Inline
	Header  []Cell
	Rows    [][]Cell
	Align   []Align
	// Indent gives, for each row, how many steps its first cell is
	// indented, as a call inside another is; missing entries are 0.
	Indent []int
	// Foot are rows set apart below the others, such as their sum.
	Foot [][]Cell
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

// Walk calls visit for every block of d, section by section, in order.
func (d *Document) Walk(visit func(s *Section, b Block)) {
	for i := range d.Sections {
		s := &d.Sections[i]
		for _, b := range s.Blocks {
			visit(s, b)
		}
	}
}

// Figures returns d's figures in order.
func (d *Document) Figures() []*Figure {
	var figs []*Figure
	d.Walk(func(_ *Section, b Block) {
		if f, ok := b.(*Figure); ok {
			figs = append(figs, f)
		}
	})
	return figs
}
