package explain

import "fmt"

// Chapter writes the memory chapter of in: what is counted, the counts at
// the point, the polynomials and where each holds the peak, and how they
// were checked. Sections whose data in leaves out say so briefly or are
// left out.
func Chapter(in *Input) *Document {
	doc := &Document{Title: "Memory: what " + in.Entry + " needs"}
	doc.Sections = append(doc.Sections, counted(in))
	if in.Point != nil {
		doc.Sections = append(doc.Sections, atPoint(in))
	}
	if in.Symbolic != nil {
		doc.Sections = append(doc.Sections, asPolynomials(in))
		doc.Formulas = formulas(in)
	}
	doc.Sections = append(doc.Sections, checked(in))
	return doc
}

// counted is the section that says what is counted, with the program's
// own numbers where there is a point.
func counted(in *Input) Section {
	s := Section{Title: "What is counted"}
	what := []any{"memsym recorded ", Code(in.Entry)}
	if in.Program != "" {
		what = append(what, " of ", in.Program)
	}
	if in.Realization != "" {
		what = append(what, " in ", in.Realization)
	}
	if len(in.Consts) > 0 {
		what = append(what, ", at ", constants(in.Consts), ",")
	}
	what = append(what, " operation by operation, on buffers that have an identity, and counts its memory from that recording; it never measures a process.")
	s.Blocks = append(s.Blocks, para(what...))

	pc := in.Point
	inputs := []any{"The inputs, "}
	if pc != nil {
		inputs = append(inputs, "here ", pc.Inputs, " bytes of which the parameters are ", pc.Params, ",")
	} else {
		inputs = append(inputs, "the parameters among them,")
	}
	rules := append([]any{"A buffer is live from its first write to its last read, both included, so an operation's inputs and its output are live together. "},
		inputs...)
	rules = append(rules, " are held by the caller and counted apart, and the result's buffers live to the end. ",
		"A buffer weighs its elements times its stored type's bytes, and nothing is rounded. ",
		"The peak is the largest live set, at the first operation that reaches it")
	if pc != nil {
		rules = append(rules, " (", pc.Peak, " bytes at operation ", pc.PeakOp, ")",
			"; what is needed is the inputs and the peak, ", pc.Needs, " bytes.")
	} else {
		rules = append(rules, "; what is needed is the inputs and the peak.")
	}
	s.Blocks = append(s.Blocks, para(rules...))
	s.Blocks = append(s.Blocks, para("This is what any executor of that sequence of operations holds if it frees each buffer after its last read and keeps buffers whole. ",
		"It leaves out the allocator's reserves and the process's own footprint."))
	return s
}

// checked is the section that says how the counts and the polynomials were
// checked.
func checked(in *Input) Section {
	s := Section{Title: "How it was checked"}
	sym := in.Symbolic
	if sym == nil && len(in.Verified) == 0 && in.Point == nil {
		s.Blocks = append(s.Blocks, para("Nothing was counted: neither a point nor polynomials were asked for."))
		return s
	}
	if sym == nil && len(in.Verified) == 0 {
		s.Blocks = append(s.Blocks, para("The counts come from one recording at ", assignment(in.Point.At),
			"; no polynomials were made, so there was nothing to check them against."))
		return s
	}
	if sym != nil {
		grid := []any{"Each buffer's bytes were interpolated exactly from recordings on a grid of "}
		if n := len(sym.Grid); n > 0 && sameLengths(sym.Grid) {
			grid = append(grid, count(len(sym.Grid[0])), " ", plural(len(sym.Grid[0]), "value"), " per dimension, ")
		}
		grid = append(grid, gridWords(in.Vars, sym.Grid)...)
		grid = append(grid, ". The operations must be the same at every point, so a dimension that counts a fold's iterations is refused.")
		if len(sym.Checked) > 0 {
			grid = append(grid, " The polynomials were checked against ", pick(len(sym.Checked) == 1, "a recording", "recordings"), " off the grid, at ")
			for i, pt := range sym.Checked {
				if i > 0 {
					grid = append(grid, "; ")
				}
				grid = append(grid, assignment(zipVars(in.Vars, pt)))
			}
			grid = append(grid, ".")
		}
		s.Blocks = append(s.Blocks, para(grid...))
	}
	if len(in.Verified) > 0 {
		ok := 0
		for _, v := range in.Verified {
			if v.OK {
				ok++
			}
		}
		verdict := fmt.Sprintf("all %s agree.", count(ok))
		if ok < len(in.Verified) {
			verdict = fmt.Sprintf("%s of them %s.", capital(count(len(in.Verified)-ok)), pick(len(in.Verified)-ok == 1, "disagrees", "disagree"))
		}
		s.Blocks = append(s.Blocks, para("Statement M3 checks the polynomials against recordings at ",
			count(len(in.Verified)), " more ", plural(len(in.Verified), "assignment"), ": ", verdict))
		t := &Table{
			Header: []Cell{cell("assignment"), cell("result"), cell("detail")},
			Align:  []Align{AlignLeft, AlignLeft, AlignLeft},
		}
		for _, v := range in.Verified {
			result := "agrees"
			if !v.OK {
				result = "disagrees"
			}
			t.Rows = append(t.Rows, []Cell{cell(assignment(v.Point)), cell(result), cell(v.Detail)})
		}
		s.Blocks = append(s.Blocks, t)
	}
	return s
}

// gridWords writes a grid: "B ∈ {16, 32, 48} and T ∈ {256, 512, 768}".
func gridWords(vars []string, grid [][]int64) []any {
	var parts []any
	for i, values := range grid {
		switch {
		case i > 0 && i == len(grid)-1:
			parts = append(parts, " and ")
		case i > 0:
			parts = append(parts, ", ")
		}
		name := fmt.Sprintf("x%d", i+1)
		if i < len(vars) {
			name = vars[i]
		}
		parts = append(parts, name+" ∈ {")
		for j, v := range values {
			if j > 0 {
				parts = append(parts, ", ")
			}
			parts = append(parts, v)
		}
		parts = append(parts, "}")
	}
	return parts
}

// zipVars pairs the dimensions' names with values in their order.
func zipVars(vars []string, values []int64) []NameInt {
	at := make([]NameInt, 0, len(values))
	for i, v := range values {
		name := fmt.Sprintf("x%d", i+1)
		if i < len(vars) {
			name = vars[i]
		}
		at = append(at, NameInt{Name: name, Value: v})
	}
	return at
}

// sameLengths reports whether every row of grid has as many values as the
// first.
func sameLengths(grid [][]int64) bool {
	for _, g := range grid {
		if len(g) != len(grid[0]) {
			return false
		}
	}
	return true
}
