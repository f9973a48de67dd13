package explain

import (
	"fmt"

	"memsym/doc"
)

// ChapterNumber is the memory chapter's number in a program's explanation.
const ChapterNumber = 13

// Chapter writes the memory chapter of in: what is counted, the counts at
// the point, the polynomials and where each holds the peak, the crossovers
// at other constants, and how it was checked. It says only what in shows:
// a section whose data in leaves out is left out, or says what is missing.
func Chapter(in *Input) *doc.Document {
	w := &writer{in: in}
	w.plan()
	d := &doc.Document{Title: "Memory: what " + entryText(in.Entry) + " needs", Number: ChapterNumber}
	d.Sections = append(d.Sections, w.counted())
	if in.Point != nil {
		d.Sections = append(d.Sections, w.atPoint())
	}
	if w.polynomials {
		d.Sections = append(d.Sections, w.asPolynomials())
	}
	if in.Step != nil {
		d.Sections = append(d.Sections, w.stepSection())
	}
	if len(in.Elsewhere) > 0 {
		d.Sections = append(d.Sections, w.elsewhere())
	}
	d.Sections = append(d.Sections, w.checked())
	d.Formulas, d.Numbers = w.formulas(), w.numbers()
	d.Caveats = w.caveats()
	return d
}

// writer writes one chapter: its input and the numbers of its sections,
// tables and figures, so that the text can refer to them.
type writer struct {
	in          *Input
	polynomials bool
	section     map[string]int
	tables      int
	figures     int
}

// plan numbers the chapter's sections before any is written.
func (w *writer) plan() {
	in := w.in
	w.polynomials = in.Symbolic != nil && len(in.Vars) > 0
	w.section = map[string]int{}
	n := 0
	next := func(name string, present bool) {
		if present {
			n++
			w.section[name] = n
		}
	}
	next("counted", true)
	next("point", in.Point != nil)
	next("polynomials", w.polynomials)
	next("step", in.Step != nil)
	next("elsewhere", len(in.Elsewhere) > 0)
	next("checked", true)
}

// ref names a section of the chapter: "section 13.5".
func (w *writer) ref(name string) string {
	return fmt.Sprintf("section %d.%d", ChapterNumber, w.section[name])
}

// table returns the name the next table goes by: "Table 13.2".
func (w *writer) table() string {
	w.tables++
	return fmt.Sprintf("Table %d.%d", ChapterNumber, w.tables)
}

// figure returns the name the next figure goes by: "Figure 13.1".
func (w *writer) figure() string {
	w.figures++
	return fmt.Sprintf("Figure %d.%d", ChapterNumber, w.figures)
}

// counted is the section that says what is counted, at which constants,
// with the program's own numbers where there is a point.
func (w *writer) counted() doc.Section {
	in := w.in
	s := doc.Section{Title: "What is counted"}
	what := []any{"memsym recorded ", entryName(in.Entry)}
	if in.FromFiles {
		what = []any{pick(len(in.Vars) == 0, "memsym read the recording of ", "memsym read the recordings of "), entryName(in.Entry)}
	}
	if in.Program != "" && !in.FromFiles {
		what = append(what, " of ", in.Program)
	}
	if in.Realization != "" {
		what = append(what, " in ", in.Realization)
	}
	switch {
	case in.FromFiles && len(in.Vars) == 0: // one recording: no grid
		what = append(what, ", made operation by operation on buffers that have an identity, from the file ", in.Program, ", and counts its memory from that recording; it never measures a process.")
	case in.FromFiles:
		what = append(what, ", made operation by operation on buffers that have an identity, from files (at the grid's first point, ", in.Program, "), and counts its memory from those recordings; it never measures a process.")
	default:
		what = append(what, " operation by operation, on buffers that have an identity, and counts its memory from those recordings; it never measures a process.")
	}
	switch {
	case len(in.Consts) > 0 && len(in.Elsewhere) > 0:
		what = append(what, " Every number and formula of this chapter is at ", constants(in.Consts), ", except those of ", w.ref("elsewhere"), ", which says at which constants each is.")
	case len(in.Consts) > 0:
		what = append(what, " Every number and formula of this chapter is at ", constants(in.Consts), ".")
	case len(in.Vars) > 0:
		what = append(what, " The program has no constants: its dimensions alone set its sizes.")
	}
	if len(in.Vars) == 0 {
		who := []any{" ", entryName(in.Entry)}
		if in.Entry == "" {
			who = []any{" The program"}
		}
		what = append(append(what, who...), pick(len(in.Consts) == 0, " has neither constants nor dimensions", " has no dimensions"),
			": its sizes are fixed, so one recording gives its memory at every call, and there are no polynomials to make.")
	}
	s.Blocks = append(s.Blocks, para(what...))

	pc := in.Point
	inputs := []any{"The inputs, "}
	if pc != nil {
		inputs = append(inputs, "here ", bytesWords(pc.Inputs))
		if len(pc.At) > 0 {
			inputs = append(inputs, " at ", point(pc.At), ",")
		}
		inputs = append(inputs, " of which the parameters are ", pc.Params, ",")
	} else {
		inputs = append(inputs, "the parameters among them,")
	}
	rules := append([]any{"A buffer is live from its first write to its last read, both included, so an operation's inputs and its output are live together. "},
		inputs...)
	rules = append(rules, " are held by the caller and counted apart, and the result's buffers live to the end. ",
		"A buffer weighs its elements times its stored type's bytes, and nothing is rounded. ",
		"The peak is the largest live set, at the first operation that reaches it")
	switch {
	case pc != nil && pc.PeakOp == 0: // no operations, nothing live
		rules = append(rules, " (0 bytes: there are no operations)",
			"; what is needed is the inputs and the peak, ", bytesWords(pc.Needs), ".")
	case pc != nil:
		rules = append(rules, " (", bytesAside(pc.Peak), ", at operation ", pc.PeakOp, ")",
			"; what is needed is the inputs and the peak, ", bytesWords(pc.Needs), ".")
	default:
		rules = append(rules, "; what is needed is the inputs and the peak.")
	}
	s.Blocks = append(s.Blocks, para(rules...))
	s.Blocks = append(s.Blocks, para("This is what any executor of that sequence of operations holds if it frees each buffer after its last read and keeps buffers whole. ",
		"It leaves out the allocator's reserves and the process's own footprint."))
	return s
}
