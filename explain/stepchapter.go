package explain

import (
	"slices"
	"strings"

	"memsym/doc"
	"memsym/poly"
)

// The section of the training step: what a step is, its terms at the
// point and as polynomials, store and recompute side by side, its peak's
// candidates, where the kept activations outweigh the optimizer's states,
// and the analytic estimates beside the exact terms.

// stepSection writes the training step's section.
func (w *writer) stepSection() doc.Section {
	st := w.in.Step
	s := doc.Section{Title: "A training step"}
	s.Blocks = append(s.Blocks, w.stepIntro()...)
	if st.Columns[0].At != nil {
		s.Blocks = append(s.Blocks, w.stepAtPoint()...)
	}
	if st.Columns[0].Symbolic != nil {
		s.Blocks = append(s.Blocks, w.stepPolynomials()...)
	}
	s.Blocks = append(s.Blocks, w.stepEstimates()...)
	return s
}

// rematWord says a remat as an adverb: "storing", "recomputing".
func rematWord(remat string) string {
	if remat == "recompute" {
		return "recomputing"
	}
	return "storing"
}

// stepIntro says what a step is and how it was recorded.
func (w *writer) stepIntro() []doc.Block {
	in := w.in
	st := in.Step
	what := []any{"memsym also recorded a training step of ", in.Program, " as a training loop makes it: the forward pass counted above, a loss, ",
		"the backward pass (each operation's vector-Jacobian product, reading what the forward kept) and the optimizer's step, here ", doc.Code(st.Optimizer)}
	if st.Types != "" {
		what = append(what, ", with the stored types ", doc.Code(st.Types))
	}
	what = append(what, ". The loop holds the parameters and the optimizer's states across the step, and the batch through the last phase that reads it; ",
		"everything else lives by the rule of ", w.ref("counted"), ". ",
		"At every operation the memory is the sum of six terms: the parameters, the optimizer's states, the batch, what is live of the gradient, ",
		"what is live of what the forward kept for the backward, and the phase's own working memory. ",
		"Each phase's peak is the largest such sum among its operations, at the first operation that reaches it, and the step's peak is the largest of the phases' peaks. ",
		"The gradient is what the backward phase makes that is live where the optimizer phase starts; what is kept for the backward is what the forward phase makes that is live where the backward phase starts, the term that recomputing moves.")
	blocks := []doc.Block{para(what...)}
	store := "storing every value a vector-Jacobian product reads"
	recompute := "recomputing, which keeps for the backward each block's input and what lies outside the blocks, and runs each block's forward again inside the backward"
	switch {
	case len(st.Columns) == 2:
		blocks = append(blocks, para("The step was recorded twice: ", store, " (store), and ", recompute, " (recompute)."))
	case st.Columns[0].Remat == "recompute":
		blocks = append(blocks, para("The step was recorded ", recompute, "."))
	default:
		blocks = append(blocks, para("The step was recorded ", store, "."))
	}
	return blocks
}

// stepHeader is a table's header: a first column, then one per remat,
// each followed by one of binary units when units is set.
func (w *writer) stepHeader(first string, units bool) ([]doc.Cell, []doc.Align) {
	header := []doc.Cell{cell(first)}
	align := []doc.Align{doc.AlignLeft}
	for _, c := range w.in.Step.Columns {
		header = append(header, cell(c.Remat))
		align = append(align, doc.AlignRight)
		if units {
			header = append(header, cell(""))
			align = append(align, doc.AlignRight)
		}
	}
	return header, align
}

// byteCells are a count of bytes as two cells: exact, and in binary units
// ("1.72 GiB", empty below a KiB).
func byteCells(n poly.Rat) []doc.Cell { return []doc.Cell{cell(n), cell(approx(n))} }

// dropEmptyColumns removes a table's columns whose cells, header and
// foot included, are all empty.
func dropEmptyColumns(t *doc.Table) {
	rows := append(append([][]doc.Cell{t.Header}, t.Rows...), t.Foot...)
	var keep []int
	for j := range t.Header {
		for _, r := range rows {
			if j < len(r) && len(r[j]) > 0 {
				keep = append(keep, j)
				break
			}
		}
	}
	pick := func(r []doc.Cell) []doc.Cell {
		var out []doc.Cell
		for _, j := range keep {
			out = append(out, r[j])
		}
		return out
	}
	t.Header = pick(t.Header)
	for i := range t.Rows {
		t.Rows[i] = pick(t.Rows[i])
	}
	for i := range t.Foot {
		t.Foot[i] = pick(t.Foot[i])
	}
	var align []doc.Align
	for _, j := range keep {
		align = append(align, t.Align[j])
	}
	t.Align = align
}

// sameAsAbove writes, in each column but the first, a cell of six words
// or more that an earlier row of the column holds as "same as" that
// row's first cell: "same as the parameters". A number is one word, its
// digits' groups not counted apart: "3072 · T + 85745664" is five.
func sameAsAbove(t *doc.Table) {
	for j := 1; j < len(t.Header); j++ {
		first := map[string]int{}
		for i, r := range t.Rows {
			text := doc.PlainText(r[j], "")
			if len(strings.Fields(text)) < 6 {
				continue
			}
			if k, ok := first[text]; ok {
				r[j] = cell("same as " + doc.PlainText(t.Rows[k][0], " "))
				continue
			}
			first[text] = i
		}
	}
}

// stepAtPoint is the step at the chapter's point: its terms side by side,
// where its peak is, and its peak's terms, which sum to it.
func (w *writer) stepAtPoint() []doc.Block {
	in := w.in
	cols := in.Step.Columns
	at := cols[0].At.At
	where := []any{"At every call"}
	if len(at) > 0 {
		where = []any{"At ", point(at)}
	}
	terms := w.table()
	runs := []any{", the step runs "}
	for i, c := range cols {
		if i > 0 {
			runs = append(runs, " and ")
		}
		runs = append(runs, plural(c.At.Ops, "operation", "operations"))
		if len(cols) > 1 {
			runs = append(runs, " "+rematWord(c.Remat))
		}
	}
	blocks := []doc.Block{para(append(append(where, runs...), "; ", terms, " gives its terms.")...)}
	header, align := w.stepHeader("", true)
	caption := []any{"The training step's terms"}
	if len(at) > 0 {
		caption = append(caption, " at ", point(at))
	}
	t := &doc.Table{Caption: inlines(append(caption, ", in bytes and in binary units.")...), Header: header, Align: align}
	row := func(label string, indent int, value func(c *StepCounts) (poly.Rat, bool)) {
		r := []doc.Cell{cell(label)}
		for _, c := range cols {
			if v, ok := value(c.At); ok {
				r = append(r, byteCells(v)...)
			} else {
				r = append(r, cell("–"), cell(""))
			}
		}
		t.Rows = append(t.Rows, r)
		t.Indent = append(t.Indent, indent)
	}
	has := func(f func(c *StepCounts) poly.Rat) func(c *StepCounts) (poly.Rat, bool) {
		return func(c *StepCounts) (poly.Rat, bool) { return f(c), true }
	}
	row("the parameters", 0, has(func(c *StepCounts) poly.Rat { return c.Params }))
	row("the optimizer's states", 0, has(func(c *StepCounts) poly.Rat { return c.States }))
	for _, part := range cols[0].At.StateParts {
		name := part.Name
		row(name, 1, func(c *StepCounts) (poly.Rat, bool) {
			for _, p := range c.StateParts {
				if p.Name == name {
					return p.Bytes, true
				}
			}
			return poly.Rat{}, false
		})
	}
	row("the gradient", 0, has(func(c *StepCounts) poly.Rat { return c.Gradient }))
	row("the batch", 0, has(func(c *StepCounts) poly.Rat { return c.Batch }))
	row("kept for the backward", 0, has(func(c *StepCounts) poly.Rat { return c.Kept }))
	for _, ph := range cols[0].At.Phases {
		phase := ph.Phase
		row("the "+phase+" phase's peak", 0, func(c *StepCounts) (poly.Rat, bool) {
			for _, p := range c.Phases {
				if p.Phase == phase {
					return p.Bytes(), true
				}
			}
			return poly.Rat{}, false
		})
	}
	foot := []doc.Cell{cell("the step's peak")}
	for _, c := range cols {
		foot = append(foot, byteCells(c.At.Peak.Bytes())...)
	}
	t.Foot = [][]doc.Cell{foot}
	dropEmptyColumns(t)
	blocks = append(blocks, t)
	split := w.table()
	words := append(w.stepPeakWords(), " ", split, pick(len(cols) > 1, " splits each step's peak into its six terms.", " splits the step's peak into its six terms."))
	blocks = append(blocks, para(words...))
	blocks = append(blocks, w.stepPeakTerms())
	return blocks
}

// stepPeakWords says where the step's peak is under each remat, and how
// much recomputing saves.
func (w *writer) stepPeakWords() []any {
	cols := w.in.Step.Columns
	var out []any
	for i, c := range cols {
		pk := c.At.Peak
		if i > 0 {
			out = append(out, " ")
		}
		if len(cols) > 1 {
			out = append(out, doc.Capital(rematWord(c.Remat)), ", the step's peak is ")
		} else {
			out = append(out, "The step's peak is ")
		}
		out = append(out, bytesWords(pk.Bytes()), ", at operation ", pk.Op, " of ", c.At.Ops, ", ", doc.Code(pk.Label))
		if pk.Path != "" {
			out = append(out, " in ", doc.Code(pk.Path))
		}
		out = append(out, ", in the "+pk.Phase+" phase.")
	}
	if len(cols) == 2 {
		a, r := cols[0].At.Peak.Bytes(), cols[1].At.Peak.Bytes()
		switch a.Cmp(r) {
		case 1:
			out = append(out, " Recomputing brings the step's peak down ", doc.Times(a, r), " times, by ", bytesWords(a.Sub(r)), ".")
		case 0:
			out = append(out, " Recomputing leaves the step's peak as it is")
			if p0, p1 := cols[0].At.Peak.Phase, cols[1].At.Peak.Phase; p0 == p1 {
				out = append(out, ": either way it is in the "+p0+" phase")
			}
			out = append(out, ".")
		default:
			out = append(out, " Recomputing raises the step's peak, by ", bytesWords(r.Sub(a)), ".")
		}
	}
	return out
}

// stepPeakTerms tables the step's peak's six terms under each remat.
func (w *writer) stepPeakTerms() *doc.Table {
	cols := w.in.Step.Columns
	header, align := w.stepHeader("", true)
	t := &doc.Table{Caption: inlines("The step's peak, term by term: the six terms sum to it exactly."), Header: header, Align: align}
	for _, r := range []struct {
		label string
		value func(p StepPeakRow) poly.Rat
	}{
		{"the parameters", func(p StepPeakRow) poly.Rat { return p.Params }},
		{"the optimizer's states", func(p StepPeakRow) poly.Rat { return p.States }},
		{"the batch", func(p StepPeakRow) poly.Rat { return p.Batch }},
		{"of the gradient, what is live there", func(p StepPeakRow) poly.Rat { return p.Gradient }},
		{"of what the forward kept, what is live there", func(p StepPeakRow) poly.Rat { return p.Kept }},
		{"the phase's own working memory", func(p StepPeakRow) poly.Rat { return p.Own }},
	} {
		row := []doc.Cell{cell(r.label)}
		for _, c := range cols {
			row = append(row, byteCells(r.value(c.At.Peak))...)
		}
		t.Rows = append(t.Rows, row)
	}
	foot := []doc.Cell{cell("the step's peak: their sum")}
	for _, c := range cols {
		foot = append(foot, byteCells(c.At.Peak.Bytes())...)
	}
	t.Foot = [][]doc.Cell{foot}
	dropEmptyColumns(t)
	return t
}

// stepPolynomials is the step as polynomials: its terms, its peak's
// candidates, and where the kept activations outweigh the states.
func (w *writer) stepPolynomials() []doc.Block {
	in := w.in
	cols := in.Step.Columns
	sym := cols[0].Symbolic
	name := w.table()
	how := []any{"As polynomials in ", variables(in.Vars), ", memsym interpolated each buffer of the step exactly from recordings of the step on the grid "}
	how = append(how, gridWords(in.Vars, sym.Grid)...)
	if len(cols) > 1 {
		how = append(how, ", storing and recomputing alike")
	}
	how = append(how, " (", name, "). ")
	how = append(how, w.stepChecks()...)
	blocks := []doc.Block{para(how...)}
	header, align := w.stepHeader("", false)
	for i := 1; i < len(align); i++ {
		align[i] = doc.AlignLeft
	}
	t := &doc.Table{Caption: inlines("The training step's terms as polynomials in ", variables(in.Vars), ", in bytes."), Header: header, Align: align}
	row := func(label string, indent int, value func(s *StepPolys) poly.Poly) {
		r := []doc.Cell{cell(label)}
		for _, c := range cols {
			r = append(r, cell(value(c.Symbolic)))
		}
		t.Rows = append(t.Rows, r)
		t.Indent = append(t.Indent, indent)
	}
	row("the parameters", 0, func(s *StepPolys) poly.Poly { return s.Params })
	row("the optimizer's states", 0, func(s *StepPolys) poly.Poly { return s.States })
	for _, part := range sym.StateParts {
		name := part.Name
		row(name, 1, func(s *StepPolys) poly.Poly {
			for _, p := range s.StateParts {
				if p.Name == name {
					return p.Bytes
				}
			}
			return poly.New(nil, nil)
		})
	}
	row("the gradient", 0, func(s *StepPolys) poly.Poly { return s.Gradient })
	row("the batch", 0, func(s *StepPolys) poly.Poly { return s.Batch })
	row("kept for the backward", 0, func(s *StepPolys) poly.Poly { return s.Kept })
	sameAsAbove(t)
	blocks = append(blocks, t)
	blocks = append(blocks, w.stepCandidates()...)
	blocks = append(blocks, w.stepCross()...)
	return blocks
}

// stepChecks says where the step's polynomials were checked.
func (w *writer) stepChecks() []any {
	cols := w.in.Step.Columns
	checked := cols[0].Symbolic.Checked
	var out []any
	if len(checked) == 0 {
		out = append(out, "No recording of the step off the grid was checked against them: they are UNCHECKED.")
	} else {
		var points []any
		for _, p := range checked {
			points = append(points, point(p))
		}
		out = append(out, "They were checked against recordings of the step at ")
		out = append(out, doc.Joined("; ", points...)...)
		out = append(out, ", off the grid.")
	}
	n, bad := 0, 0
	var failed []any
	for _, c := range cols {
		for _, v := range c.Verified {
			n++
			if v.Err != "" {
				bad++
				failed = append(failed, " At ", point(v.Point), ", "+rematWord(c.Remat)+": ", v.Err, ".")
			}
		}
	}
	if n == 0 {
		return out
	}
	out = append(out, " Check M3 recorded the step afresh at ", plural(n, "further point", "further points"), pick(len(cols) > 1, " in all", ""), " (")
	out = append(out, verifiedPoints(cols)...)
	if bad == 0 {
		return append(out, "), and every buffer's bytes, the live bytes at every operation and the peak agree with the polynomials there.")
	}
	out = append(out, "), and ", doc.Spell(bad), " of them ", doc.Inflect(bad, "disagrees", "disagree"), " with the polynomials.")
	return append(out, failed...)
}

// verifiedPoints names the points check M3 recorded the step at: "B = 1,
// T = 37; B = 5, T = 101", with ", under each remat" where every column
// was recorded at the same points, else each column's after its remat:
// "storing at B = 1, T = 37 and B = 5, T = 101; recomputing at …".
func verifiedPoints(cols []StepColumn) []any {
	lists := make([][]any, len(cols))
	same := true
	for i, c := range cols {
		for _, v := range c.Verified {
			lists[i] = append(lists[i], point(v.Point))
		}
		same = same && len(c.Verified) == len(cols[0].Verified)
		for k := 0; same && k < len(c.Verified); k++ {
			same = c.Verified[k].Point.Equal(cols[0].Verified[k].Point)
		}
	}
	if same {
		out := doc.Joined("; ", lists[0]...)
		if len(cols) > 1 {
			out = append(out, ", under each remat")
		}
		return out
	}
	var out []any
	for i, c := range cols {
		if len(lists[i]) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "; ")
		}
		out = append(out, rematWord(c.Remat), " at ")
		out = append(out, doc.Joined(" and ", lists[i]...)...)
	}
	return out
}

// stepCandidates says how the step's peak is found from the polynomials
// and tables its candidates under each remat.
func (w *writer) stepCandidates() []doc.Block {
	in := w.in
	cols := in.Step.Columns
	var names []string
	for range cols {
		names = append(names, w.table())
	}
	intro := []any{"Each phase's peak is the largest of its candidates, the sums at its operations, pruned as in ", w.ref("polynomials"), ": "}
	for i, c := range cols {
		if i > 0 {
			intro = append(intro, "; ")
		}
		if len(cols) > 1 {
			intro = append(intro, rematWord(c.Remat), ", ")
		}
		var counts []string
		for j, ph := range c.Symbolic.PhaseKept {
			if j == 0 {
				counts = append(counts, "the "+ph.Phase+" phase keeps "+doc.Spell(ph.Kept)+" of its candidates")
			} else {
				counts = append(counts, "the "+ph.Phase+" phase "+doc.Spell(ph.Kept))
			}
		}
		intro = append(intro, doc.AndList(counts))
	}
	intro = append(intro, ". The step's peak is the largest of the phases' kept candidates, pruned again: ")
	for i, c := range cols {
		if i > 0 {
			intro = append(intro, pick(i == len(cols)-1, " and ", ", "))
		}
		intro = append(intro, plural(len(c.Symbolic.Peak), "candidate", "candidates"))
		if len(cols) > 1 {
			intro = append(intro, " "+rematWord(c.Remat))
		}
		intro = append(intro, " (", names[i], ")")
	}
	intro = append(intro, ".")
	for _, c := range cols {
		if u := c.Symbolic.Undecided; u > 0 {
			intro = append(intro, " ", doc.Capital(rematWord(c.Remat)), ", memsym could neither prove nor refute that one dominates the other for ",
				plural(u, "pair", "pairs"), " of them, so both of each pair are kept.")
		}
	}
	blocks := []doc.Block{para(intro...)}
	for _, c := range cols {
		caption := []any{"The candidates of the step's peak"}
		if len(cols) > 1 {
			caption = append(caption, ", "+rematWord(c.Remat)+",")
		}
		caption = append(caption, " the largest of which it is at every point with ", atLeast(in.Least, in.Vars), ".")
		t := &doc.Table{
			Caption: inlines(caption...),
			Header:  []doc.Cell{cell(""), cell("bytes"), cell("phase"), cell("at operation")},
			Align:   []doc.Align{doc.AlignRight, doc.AlignLeft, doc.AlignLeft, doc.AlignLeft},
		}
		for i, k := range c.Symbolic.Peak {
			at := []any{k.Op, ", ", doc.Code(k.Label)}
			if k.Path != "" {
				at = append(at, " in ", doc.Code(k.Path))
			}
			t.Rows = append(t.Rows, []doc.Cell{cell(i + 1), cell(k.Poly), cell(k.Phase), cell(at...)})
		}
		blocks = append(blocks, t)
	}
	return blocks
}

// stepCross says, under each remat, where along one dimension what the
// forward keeps outweighs the optimizer's states.
func (w *writer) stepCross() []doc.Block {
	cols := w.in.Step.Columns
	cross := cols[0].Symbolic.Cross
	if cross == nil {
		return nil
	}
	intro := []any{"memsym found exactly, from the polynomials, where what the forward keeps for the backward outweighs the optimizer's states along ", doc.Math{doc.V(cross.Along)}}
	if len(cross.Fixed) > 0 {
		intro = append(intro, ", at ", point(cross.Fixed))
	}
	intro = append(intro, ":")
	list := &doc.List{}
	for i, c := range cols {
		cr := c.Symbolic.Cross
		var item []any
		if len(cols) > 1 {
			item = append(item, rematWord(c.Remat), ", ")
		}
		for j, seg := range cr.Segments {
			if j > 0 {
				item = append(item, ", and ")
			}
			if seg.Holder == 0 {
				item = append(item, "the states are at least as large ")
			} else {
				item = append(item, "the kept activations outweigh the states ")
			}
			if len(cr.Segments) == 1 {
				item = append(item, "at every ", atLeast(w.in.Least, []string{cr.Along}))
			} else {
				item = append(item, "for ", segmentRange(cr.Along, seg))
			}
			if r := cr.Reach; r.Last > 0 && seg.From > r.Last {
				item = append(item, ", past the values the program takes")
			}
		}
		item = append(item, pick(i == len(cols)-1, ".", ";"))
		list.Items = append(list.Items, inlines(item...))
	}
	blocks := []doc.Block{para(intro...), list}
	cr := cols[0].Symbolic.Cross
	if fwd := w.in.Symbolic; fwd != nil && fwd.Cross != nil && fwd.Cross.Along == cr.Along && fwd.Cross.Reach.Last == cr.Reach.Last && fwd.Cross.Reach.At.Equal(cr.Reach.At) && cr.Reach.Last > 0 && cr.Reach.First == 0 {
		// The forward's crossovers said why already, at the same point.
		blocks = append(blocks, para("As said of the forward, the program runs along ", doc.Math{doc.V(cr.Along)}, " only up to ", equals(cr.Along, cr.Reach.Last),
			"; past it, what the list says is the polynomials', not the program's."))
	} else if b := runsOnly("The step", cr.Along, cr.Reach, "what the list says is"); b != nil {
		blocks = append(blocks, b)
	}
	return append(blocks, w.stepCrossChecks()...)
}

// stepCrossChecks says what recordings of the step on both sides of each
// change of the larger show, and tables them.
func (w *writer) stepCrossChecks() []doc.Block {
	cols := w.in.Step.Columns
	changes, n, bad, refused := 0, 0, 0, 0
	for _, c := range cols {
		cr := c.Symbolic.Cross
		changes += len(cr.Segments) - 1
		for _, k := range cr.Confirmed {
			n++
			switch {
			case k.Refused != "":
				refused++
			case !k.OK():
				bad++
			}
		}
	}
	if changes == 0 {
		return nil
	}
	if n == 0 {
		return []doc.Block{para("No recording of the step was made beside ", pick(changes == 1, "the change", "the changes"), " to confirm ", pick(changes == 1, "it", "them"), ".")}
	}
	var names []any
	for _, c := range cols {
		if len(c.Symbolic.Cross.Confirmed) > 0 {
			if len(names) > 0 {
				names = append(names, " and ")
			}
			names = append(names, w.table())
		}
	}
	made := n - refused // the points recorded: the program takes them
	sides := pick(changes == 1, "the change", "each change")
	var words []any
	if refused == 0 {
		words = []any{"memsym recorded the step on both sides of ", sides, ", ", doc.Spell(n), " ", doc.Inflect(n, "recording", "recordings"), " in all ("}
	} else {
		words = []any{"memsym set out to record the step on both sides of ", sides, ", at ", doc.Spell(n), " ", doc.Inflect(n, "point", "points"), " in all ("}
	}
	words = append(append(words, names...), "). ")
	if refused > 0 {
		words = append(words, doc.Capital(doc.Spell(refused)), " of them ", doc.Inflect(refused, "lies", "lie"), " beyond the values the program takes, so the step was recorded at ",
			map[bool]string{true: "none of them", false: pick(made == 1, "the other one", "the other "+doc.Spell(made))}[made == 0], ". ")
	}
	switch {
	case bad > 0:
		words = append(words, doc.Capital(doc.Spell(bad)), " of the recordings ", doc.Inflect(bad, "contradicts", "contradict"), " the polynomials.")
	case made == 1:
		words = append(words, "It shows the larger term the polynomials predict.")
	case made == 2:
		words = append(words, "Both show the larger term the polynomials predict.")
	case made > 2:
		words = append(words, "All ", doc.Spell(made), " show the larger term the polynomials predict.")
	}
	blocks := []doc.Block{para(words...)}
	for _, c := range cols {
		if len(c.Symbolic.Cross.Confirmed) == 0 {
			continue
		}
		caption := []any{"Recordings of the step beside each change along ", doc.Math{doc.V(c.Symbolic.Cross.Along)}}
		if len(cols) > 1 {
			caption = append(caption, ", "+rematWord(c.Remat))
		}
		t := &doc.Table{
			Caption: inlines(append(caption, ", in bytes.")...),
			Header:  []doc.Cell{cell("point"), cell("kept for the backward"), cell("the optimizer's states"), cell("predicted larger"), cell("result")},
			Align:   []doc.Align{doc.AlignLeft, doc.AlignRight, doc.AlignRight, doc.AlignLeft, doc.AlignLeft},
		}
		for _, k := range c.Symbolic.Cross.Confirmed {
			predicted := pick(k.Predicted == 1, "the kept activations", "the states")
			if k.Refused != "" {
				t.Rows = append(t.Rows, []doc.Cell{cell(point(k.Point)), cell("–"), cell("–"), cell(predicted), cell("not recorded: ", k.Refused)})
				continue
			}
			t.Rows = append(t.Rows, []doc.Cell{cell(point(k.Point)), cell(k.Kept), cell(k.States), cell(predicted), cell(pick(k.OK(), "agrees", "contradicts"))})
		}
		blocks = append(blocks, t)
	}
	return blocks
}

// stepEstimates are the analytic estimates beside the exact step: at the
// point, as polynomials, and where and why they miss.
func (w *writer) stepEstimates() []doc.Block {
	in := w.in
	st := in.Step
	cols := st.Columns
	sym := cols[0].PSymbol
	intro := []any{"Beside the exact step, the analytic estimates users know, evaluated on the same program: the handbook's 14" + sym + " rule ",
		"(fp16 parameters, 2·", sym, " bytes; an fp32 gradient, 4·", sym, "; fp32 optimizer states, 8·", sym, " for Adam's two moments, 4·", sym, " for one moment), ", sym, " being the parameters' elements"}
	if sym != "P" {
		intro = append(intro, " (written ", sym, ", as ZeRO does, since ", doc.Math{doc.V("P")}, " already names one of ", in.Program, "'s sizes)")
	}
	if sh := st.Shape; sh != nil {
		intro = append(intro, ", and Korthikanti et al.'s activations per layer, s·b·h·(34 + 5·a·s/h) bytes in fp16 with dropout, ",
			"2·s·b·h with full recomputation, reading s as ", shapeName(sh.S), ", b as ", shapeName(sh.B), ", h as ", shapeName(sh.H), ", a as ", shapeName(sh.A))
		if sh.L != "" {
			intro = append(intro, " and the layers as ", shapeName(sh.L))
		}
	}
	var blocks []doc.Block
	if cols[0].EstimatesAt != nil {
		var names []any
		for i := range cols {
			if i > 0 {
				names = append(names, pick(i == len(cols)-1, " and ", ", "))
			}
			names = append(names, w.table())
		}
		at := cols[0].At.At
		intro = append(intro, ". ")
		if len(at) > 0 {
			intro = append(intro, "At ", point(at), ", ")
		}
		p, _ := cols[0].PAt.IsConst()
		intro = append(intro, doc.Math{doc.V(sym), doc.S("="), doc.N(p)}, " (")
		intro = append(intro, names...)
		intro = append(intro, ").")
		blocks = append(blocks, para(intro...))
		for _, c := range cols {
			blocks = append(blocks, w.estimatesTable(c, c.EstimatesAt, true))
		}
	} else {
		intro = append(intro, ".")
		blocks = append(blocks, para(intro...))
	}
	if cols[0].Estimates != nil {
		var names []any
		for i := range cols {
			if i > 0 {
				names = append(names, pick(i == len(cols)-1, " and ", ", "))
			}
			names = append(names, w.table())
		}
		var pv any = inOrder(cols[0].P, in.Vars)
		if v, ok := cols[0].P.IsConst(); ok {
			pv = doc.Math{doc.N(v)} // its digits grouped, as at the point
		}
		p := []any{"As polynomials, with ", doc.Math{doc.V(sym)}, " = ", pv, ", the estimates miss by what "}
		p = append(p, names...)
		p = append(p, pick(len(cols) > 1, " give", " gives"), " in their last column.")
		blocks = append(blocks, para(p...))
		for _, c := range cols {
			blocks = append(blocks, w.estimatesTable(c, c.Estimates, false))
		}
		if o := cols[0].EstimatesOmitted; o != "" {
			blocks = append(blocks, para(doc.Capital(o), "."))
		}
	}
	// Why each misses, each term said once, as polynomials where it is;
	// a term whose reason differs between the columns (the step's peak,
	// at another operation when recomputing) once per column.
	type reason struct {
		col int
		row EstimateRow
	}
	var terms []string
	reasons := map[string][]reason{}
	for i, c := range cols {
		seen := map[string]bool{} // a column's terms, as polynomials first
		for _, rows := range [][]EstimateRow{c.Estimates, c.EstimatesAt} {
			for _, r := range rows {
				if seen[r.Term] {
					continue
				}
				seen[r.Term] = true
				if r.Estimate.Equal(r.Exact) {
					continue // no miss to explain
				}
				if _, ok := reasons[r.Term]; !ok {
					terms = append(terms, r.Term)
				}
				if !slices.ContainsFunc(reasons[r.Term], func(x reason) bool { return x.row.Why == r.Why }) {
					reasons[r.Term] = append(reasons[r.Term], reason{i, r})
				}
			}
		}
	}
	list := &doc.List{}
	for _, t := range terms {
		for _, r := range reasons[t] {
			term := t
			if term == "the step" {
				term = "the step's peak"
			}
			if len(reasons[t]) > 1 {
				term += ", " + rematWord(cols[r.col].Remat)
			}
			why := []any{r.row.Why}
			if r.row.WhyParts != nil {
				why = r.row.WhyParts // its numbers grouped as the chapter's are
			}
			list.Items = append(list.Items, inlines(append(append([]any{doc.Capital(term), ": "}, why...), ".")...))
		}
	}
	if len(list.Items) > 0 {
		blocks = append(blocks, para("Where the estimates miss, and why:"), list)
	}
	return blocks
}

// shapeName writes a dimension's or constant's name as mathematics.
func shapeName(name string) doc.Math { return doc.Math{doc.V(name)} }

// estimatesTable tables the estimates beside the exact terms under one
// remat: at the point, with the sizes in units and the ratio, or as
// polynomials with the difference.
func (w *writer) estimatesTable(c StepColumn, rows []EstimateRow, atPoint bool) *doc.Table {
	in := w.in
	caption := []any{"The analytic estimates beside the exact step"}
	if len(in.Step.Columns) > 1 {
		caption = append(caption, ", "+rematWord(c.Remat))
	}
	if atPoint {
		if len(c.At.At) > 0 {
			caption = append(caption, ", at ", point(c.At.At))
		}
		caption = append(caption, ", in bytes.")
	} else {
		caption = append(caption, ", as polynomials in ", variables(in.Vars), ", in bytes.")
	}
	t := &doc.Table{Caption: inlines(caption...)}
	if atPoint {
		t.Header = []doc.Cell{cell("term"), cell("rule"), cell("estimate"), cell(""), cell("exact"), cell(""), cell("exact / estimate")}
		t.Align = []doc.Align{doc.AlignLeft, doc.AlignLeft, doc.AlignRight, doc.AlignRight, doc.AlignRight, doc.AlignRight, doc.AlignRight}
	} else {
		t.Header = []doc.Cell{cell("term"), cell("rule"), cell("estimate"), cell("exact"), cell("exact − estimate")}
		t.Align = []doc.Align{doc.AlignLeft, doc.AlignLeft, doc.AlignLeft, doc.AlignLeft, doc.AlignLeft}
	}
	for _, r := range rows {
		term := r.Term
		if term == "the step" {
			term = "the step's peak"
		}
		if atPoint {
			e, _ := r.Estimate.IsConst()
			x, _ := r.Exact.IsConst()
			row := append([]doc.Cell{cell(term), cell(r.Rule)}, byteCells(e)...)
			row = append(row, byteCells(x)...)
			t.Rows = append(t.Rows, append(row, cell(doc.Times(x, e))))
			continue
		}
		t.Rows = append(t.Rows, []doc.Cell{cell(term), cell(r.Rule), cell(inOrder(r.Estimate, in.Vars)), cell(inOrder(r.Exact, in.Vars)),
			cell(inOrder(r.Exact.Sub(r.Estimate), in.Vars))})
	}
	if atPoint {
		dropEmptyColumns(t)
	}
	sameAsAbove(t)
	return t
}

// stepKey writes a remat as a macro's part: "Store", "Recompute".
func stepKey(remat string) string { return strings.ToUpper(remat[:1]) + remat[1:] }
