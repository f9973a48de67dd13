package explain

import (
	"fmt"
	"strings"
)

// asPolynomials is the section of the polynomials: the inputs and outputs,
// the peak's candidates, where each holds the peak and a figure of them.
func asPolynomials(in *Input) Section {
	sym := in.Symbolic
	s := Section{Title: "As polynomials in " + andList(in.Vars)}
	consts := sym.Consts
	if consts == nil {
		consts = in.Consts
	}
	intro := []any{}
	if len(consts) > 0 {
		intro = append(intro, "At ", constants(consts), ", every")
	} else {
		intro = append(intro, "Every")
	}
	intro = append(intro, " axis of a buffer is a linear form in ", andList(in.Vars),
		", so a buffer's bytes are a polynomial in them; memsym interpolated each buffer's exactly from recordings (the next section says how it was checked).")
	s.Blocks = append(s.Blocks, para(intro...))
	s.Blocks = append(s.Blocks, &Table{
		Header: []Cell{cell(""), cell("bytes")},
		Align:  []Align{AlignLeft, AlignLeft},
		Rows: [][]Cell{
			{cell("the inputs, the parameters among them"), cell(inOrder(sym.Inputs, in.Vars))},
			{cell("the outputs"), cell(inOrder(sym.Outputs, in.Vars))},
		},
	})
	if len(sym.Candidates) == 0 {
		return s
	}
	s.Blocks = append(s.Blocks, candidates(in)...)
	if len(sym.Segments) > 0 {
		s.Blocks = append(s.Blocks, holders(in)...)
	}
	for _, u := range sym.Undecided {
		s.Blocks = append(s.Blocks, para("Along ", sym.Along, ", memsym could not decide ", scope(in),
			" which of candidates ", u[0]+1, " and ", u[1]+1, " is the larger; both are kept."))
	}
	if f := candidatesFigure(in); f != nil {
		s.Blocks = append(s.Blocks, f)
	}
	return s
}

// candidates is the table of the peak's candidates.
func candidates(in *Input) []Block {
	sym := in.Symbolic
	n := len(sym.Candidates)
	var intro *Paragraph
	dims := strings.Join(in.Vars, ", ") + " ≥ 1"
	if n == 1 {
		intro = para("The peak is one live set, which no other exceeds for ", dims, ":")
	} else {
		intro = para("The peak is the largest of ", count(n), " live sets, none of which dominates another for ", dims, ":")
	}
	named := false
	for _, c := range sym.Candidates {
		named = named || c.Name != ""
	}
	t := &Table{
		Header: []Cell{cell(""), cell("live bytes"), cell("at operation")},
		Align:  []Align{AlignRight, AlignLeft, AlignLeft},
	}
	if named {
		t.Header = append(t.Header, cell("what weighs most"))
		t.Align = append(t.Align, AlignLeft)
	}
	for i, c := range sym.Candidates {
		at := []any{c.Op}
		if c.Label != "" {
			at = append(at, ", ", Code(c.Label))
		}
		if c.Path != "" {
			at = append(at, " in ", Code(c.Path))
		}
		row := []Cell{cell(i + 1), cell(inOrder(c.Poly, in.Vars)), cell(at...)}
		if named {
			row = append(row, cell(c.Name))
		}
		t.Rows = append(t.Rows, row)
	}
	return []Block{intro, t}
}

// holders says which candidate holds the peak along the main dimension.
func holders(in *Input) []Block {
	sym := in.Symbolic
	intro := para("Which of them holds the peak along ", sym.Along, ", ", scope(in), ":")
	list := &List{}
	for i, seg := range sym.Segments {
		if seg.Holder < 0 || seg.Holder >= len(sym.Candidates) {
			continue
		}
		c := sym.Candidates[seg.Holder]
		item := inlines(segmentRange(sym.Along, seg), " ")
		if c.Name != "" {
			item = inlines(item, c.Name, ", ", inOrder(c.Poly, in.Vars), ", ", pick(c.Plural, "hold", "holds"), " the peak")
		} else {
			item = inlines(item, "candidate ", seg.Holder+1, ", ", inOrder(c.Poly, in.Vars), ", holds the peak")
		}
		item = inlines(item, pick(i == len(sym.Segments)-1, ".", ";"))
		list.Items = append(list.Items, item)
	}
	return []Block{intro, list}
}

// segmentRange writes a segment's range: "up to T = 149", "from T = 150",
// "from T = 20 to 40".
func segmentRange(along string, seg SegmentRow) []Inline {
	switch {
	case seg.From <= 1 && seg.To == 0:
		return inlines("for every ", along, " ≥ 1")
	case seg.From <= 1:
		return inlines("up to ", along, " = ", seg.To)
	case seg.To == 0:
		return inlines("from ", along, " = ", seg.From)
	}
	return inlines("from ", along, " = ", seg.From, " to ", seg.To)
}

// scope says for which values of the other dimensions the holders were
// found: "for every B ≥ 1" or "at B = 16".
func scope(in *Input) []Inline {
	sym := in.Symbolic
	var others []string
	for _, v := range in.Vars {
		if v != sym.Along {
			others = append(others, v)
		}
	}
	if len(others) == 0 {
		return inlines("for every value")
	}
	if sym.ForAll {
		return inlines("for every " + strings.Join(others, ", ") + " ≥ 1")
	}
	return inlines("at ", assignment(fixedValues(in)))
}

// fixedValues are the other dimensions' values for the figure: Fixed, and 1
// for any dimension it leaves out.
func fixedValues(in *Input) []NameInt {
	sym := in.Symbolic
	var at []NameInt
	for _, v := range in.Vars {
		if v == sym.Along {
			continue
		}
		value := int64(1)
		for _, f := range sym.Fixed {
			if f.Name == v {
				value = f.Value
			}
		}
		at = append(at, NameInt{Name: v, Value: value})
	}
	return at
}

// describe names candidate i for a caption: its name or "candidate 2".
func describe(c CandidateRow, i int) string {
	if c.Name != "" {
		return c.Name
	}
	return fmt.Sprintf("candidate %d", i+1)
}

// formulas are the polynomials a paper may quote: the inputs, the outputs
// and the peak's candidates (CandidateA, CandidateB, ...).
func formulas(in *Input) []NamedFormula {
	sym := in.Symbolic
	out := []NamedFormula{
		{Key: "Inputs", Label: "the inputs, the parameters among them", Poly: inOrder(sym.Inputs, in.Vars)},
		{Key: "Outputs", Label: "the outputs", Poly: inOrder(sym.Outputs, in.Vars)},
	}
	for i, c := range sym.Candidates {
		label := fmt.Sprintf("candidate %d, the live set at operation %d", i+1, c.Op)
		if c.Label != "" {
			label += " (" + c.Label + ")"
		}
		if c.Name != "" {
			label += ": " + c.Name
		}
		out = append(out, NamedFormula{Key: "Candidate" + letters(i), Label: label, Poly: inOrder(c.Poly, in.Vars), Candidate: true})
	}
	return out
}

// letters names the i-th item with letters alone: A, B, ..., Z, AA, AB, ...
func letters(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}
