package explain

import (
	"cmp"
	"fmt"
	"memsym/model"
	"slices"

	"memsym/doc"
	"memsym/record"
)

// asPolynomials is the section of the polynomials: how they were made, the
// inputs and outputs, the peak's candidates, which of them holds the peak
// along one dimension and figures of them.
func (w *writer) asPolynomials() doc.Section {
	in := w.in
	sym := in.Symbolic
	s := doc.Section{Title: "As polynomials in " + doc.AndList(in.Vars)}
	how := []any{}
	if sym.Shapeless == 0 {
		how = append(how, "Every buffer of ", entryName(in.Entry), " has a type and a shape, its bytes the type's size times the product of its axes. memsym takes each buffer's bytes to be a polynomial in ",
			variables(in.Vars), " of degree at most two", pick(len(in.Vars) > 1, " in each", ""), ", the constants being numbers, as they are where at most two axes of a shape grow with any one dimension, each linearly")
	} else {
		which := []any{doc.Capital(doc.Spell(sym.Shapeless)), " of the ", sym.Buffers, " buffers of "}
		switch {
		case sym.Buffers == 1:
			which = []any{"The one buffer of "}
		case sym.Shapeless == sym.Buffers:
			which = []any{"Every buffer of "}
		}
		verb := doc.Inflect(sym.Shapeless, "is", "are")
		if sym.Shapeless == sym.Buffers {
			verb = "is" // every buffer, the one buffer
		}
		how = append(append(how, which...), entryName(in.Entry), " ",
			verb, " given in bytes alone, so nothing is known of ", pick(sym.Shapeless == 1, "its", "their"),
			" axes. memsym takes each buffer's bytes to be a polynomial in ", variables(in.Vars), " of degree at most two", pick(len(in.Vars) > 1, " in each", ""))
	}
	name := w.table()
	checked := " says where they were checked. "
	if len(sym.Checked) == 0 {
		checked = " says that they were not checked off the grid. "
	}
	how = append(how, ". It interpolated each buffer's bytes exactly from recordings on a grid; ", w.ref("checked"), checked,
		"From them follow the inputs, the parameters and the outputs (", name, "), and the live bytes at every operation.")
	s.Blocks = append(s.Blocks, para(how...))
	s.Blocks = append(s.Blocks, &doc.Table{
		Caption: inlines("The inputs, the parameters and the outputs, in bytes."),
		Header:  []doc.Cell{cell(""), cell("bytes")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignLeft},
		Rows: [][]doc.Cell{
			{cell("the inputs, the parameters among them"), cell(inOrder(sym.Inputs, in.Vars))},
			{cell("the parameters"), cell(inOrder(sym.Params, in.Vars))},
			{cell("the outputs"), cell(inOrder(sym.Outputs, in.Vars))},
		},
	})
	if sym.GrowingCount > 0 || sym.Fold != "" && sym.Params.Degree(sym.Fold) > 0 {
		s.Blocks = append(s.Blocks, para(growingWords(sym)...))
	}
	if n := sym.Negative; n != nil {
		s.Blocks = append(s.Blocks, para(negativeWords(n, in.Vars)...))
	}
	if sym.Ops == 0 {
		s.Blocks = append(s.Blocks, para("The program has no operations: nothing is live at any ", atLeast(in.Least, in.Vars), ", so the peak is 0 bytes and what is needed is the inputs."))
		return s
	}
	if len(sym.Candidates) == 0 {
		return s
	}
	s.Blocks = append(s.Blocks, w.candidates()...)
	if sym.Cross != nil {
		s.Blocks = append(s.Blocks, w.holders(sym.Candidates, sym.Cross)...)
		s.Blocks = append(s.Blocks, w.confirmations(sym.Cross, nil)...)
	}
	for _, f := range w.candidateFigures() {
		s.Blocks = append(s.Blocks, f)
	}
	return s
}

// growingWords says why the parameters' bytes grow with a dimension: the
// parameters with it among their axes, as a table of positions sized by the
// sequence; and the fold's blocks, each holding its own, where they count
// the blocks. "The parameters grow with T: one of them, `table` in `rope`
// (T · D reals), has T among its axes."
func growingWords(sym *SymbolicModel) []any {
	byFold := sym.Fold != "" && sym.Params.Degree(sym.Fold) > 0 && !slices.Contains(sym.GrowingVars, sym.Fold)
	var out []any
	if sym.GrowingCount > 0 {
		used := sym.GrowingVars
		var names []any
		for _, n := range sym.Growing {
			names = append(names, bufferWords(n))
		}
		if more := sym.GrowingCount - len(sym.Growing); more > 0 {
			names = append(names, doc.Spell(more)+" more")
		}
		dim := []any{variables(used)}
		if len(used) > 1 {
			dim = []any{"a dimension"}
		}
		out = append(out, "The parameters grow with ", variables(used), ": ")
		if sym.GrowingCount == 1 {
			out = append(out, "one of them, ")
			out = append(out, names...)
			out = append(out, ", has ")
			out = append(out, dim...)
			out = append(out, " among its axes.")
		} else {
			out = append(out, doc.Spell(sym.GrowingCount), " of them have ")
			out = append(out, dim...)
			out = append(out, " among their axes, ")
			out = append(out, doc.Joined(", ", names...)...)
			out = append(out, ".")
		}
		if !byFold {
			return out
		}
		out = append(out, " ")
	}
	v := variables([]string{sym.Fold})
	if sym.GrowingCount > 0 {
		return append(out, "They grow with ", v, " too: each of the ", v, " blocks holds its own.")
	}
	return append(out, "The parameters grow with ", v, ": each of the ", v, " blocks holds its own.")
}

// candidates says how the peak's candidates were found and what was shown
// of them, and tables them.
func (w *writer) candidates() []doc.Block {
	in := w.in
	sym := in.Symbolic
	dims := atLeast(in.Least, in.Vars)
	name := w.table()
	found := []any{"Over the ", plural(sym.Ops, "operation", "operations")}
	if sym.Fold != "" {
		// The operations' count grows with the blocks: say whose it is.
		found = append(found, " of the recording at ", point(sym.OpsAt))
	}
	found = append(found, ", the live bytes take ", plural(sym.Distinct, "distinct polynomial", "distinct polynomials"))
	switch {
	case sym.Kept == 1 && sym.Pruned > 0:
		found = append(found, ", and memsym proved, for each but one, that another is at least as large at every point with ", dims,
			"; so the peak is that one, candidate 1 of ", name, ", everywhere.")
	case sym.Kept == 1:
		found = append(found, ": the peak is that one, candidate 1 of ", name, ", everywhere.")
	case sym.Pruned > 0:
		found = append(found, ", and memsym proved, for ", pick(sym.Pruned == 1, "", "each of "), doc.Spell(sym.Pruned), " of them, that another is at least as large at every point with ", dims,
			"; so the peak is the largest of the other ", doc.Spell(sym.Kept), " (", name, ").")
	default:
		found = append(found, ", and the peak is the largest of them (", name, ").")
	}
	blocks := []doc.Block{para(found...)}
	if len(in.AtOne) > 0 {
		blocks = append(blocks, para(w.atOneWords()...))
	}
	if sym.Kept >= 2 {
		blocks = append(blocks, para(w.dominanceWords()...))
		if len(sym.Witnesses) > 0 {
			blocks = append(blocks, witnessList(sym.Witnesses))
		}
	}
	t := &doc.Table{
		Caption: inlines(append([]any{"The peak's candidates: live sets that no other is proven to dominate. "}, namingWords(in.Vars, sym.Grid, sym.Cross)...)...),
		Header:  []doc.Cell{cell(""), cell("live bytes"), cell("at operation"), cell("its largest live buffers")},
		Align:   []doc.Align{doc.AlignRight, doc.AlignLeft, doc.AlignLeft, doc.AlignLeft},
	}
	said := map[string]int{}
	for i, c := range sym.Candidates {
		at := []any{c.Op}
		if c.Label != "" {
			at = append(at, ", ", doc.Code(c.Label))
		}
		if c.Path != "" {
			at = append(at, " in ", doc.Code(c.Path))
		}
		largest := cell("nothing is live")
		if c.Largest != nil {
			largest = cell(bufferWords(c.Largest))
			if j, ok := said[doc.PlainText(largest, " ")]; ok {
				largest = cell("as candidate ", j+1, "'s")
			} else {
				said[doc.PlainText(largest, " ")] = i
			}
		}
		t.Rows = append(t.Rows, []doc.Cell{cell(i + 1), cell(inOrder(c.Poly, in.Vars)), cell(at...), largest})
	}
	if extra := len(sym.Candidates) - sym.Kept; extra > 0 {
		t.Caption = inlines(t.Caption, " ", pick(extra == 1, "The last is", "The last "+doc.Spell(extra)+" are"),
			" at most another everywhere, but ", pick(extra == 1, "holds", "hold"), " the peak where ", pick(extra == 1, "it ties", "they tie"), " it at an earlier operation.")
	}
	blocks = append(blocks, t)
	if sym.Common != nil {
		blocks = append(blocks, para(commonWords(sym.Common)...))
	}
	return blocks
}

// negativeWords says where a buffer's polynomial is negative, and what
// that means for everything said of the polynomials.
func negativeWords(n *NegativeRow, vars []string) []any {
	return []any{"A buffer's bytes are never negative, yet the polynomial of ", doc.Code(n.Name), "'s, ", inOrder(n.Bytes, vars),
		", is ", n.There, " at ", point(n.At), ": there, and wherever some buffer's polynomial is negative, the polynomials are not the program's bytes ",
		"(the point is below the sizes the program has, or the grid does not show how its sizes behave there), ",
		"and what this chapter says of them holds only where every buffer's bytes are at least zero."}
}

// namingWords says where a candidate's buffers are compared to name its
// largest (namingPoints): where it holds the peak along the crossovers'
// dimension, else at the grid's largest values.
func namingWords(vars []string, grid [][]int64, cross *CrossRows) []any {
	var top record.Point
	for i, v := range vars {
		top = append(top, record.Dim{Name: v, Value: grid[i][len(grid[i])-1]})
	}
	if cross == nil || len(cross.Segments) == 0 {
		return []any{"Their largest live buffers are those at the grid's largest values, ", point(top), "."}
	}
	return []any{"Each one's largest live buffers are those where it holds the peak along ", doc.Math{doc.V(cross.Along)},
		" (at the last value of its stretch; for a stretch without end, at its first or the grid's largest, whichever is larger), or, for one that holds it nowhere there, at the grid's largest values, ", point(top), "."}
}

// commonWords says which buffers, live at every candidate, the candidates
// are not named by.
func commonWords(c *BufferName) []any {
	return []any{"At every candidate, ", bufferWords(c), " ", doc.Inflect(c.Count, "is", "are"),
		" live, larger than what some others hold; so the table names each candidate by its largest buffer of those not live at every candidate."}
}

// dominanceWords says what was shown of the kept candidates pair by pair:
// that none dominates another, or which pairs memsym could not decide.
func (w *writer) dominanceWords() []any {
	in := w.in
	sym := in.Symbolic
	dims := atLeast(in.Least, in.Vars)
	n := sym.Kept
	if len(sym.Undecided) == 0 {
		if n == 2 {
			return []any{"Neither dominates the other: at points with ", dims, " that memsym found, each exceeds the other in turn", w.witnessed()}
		}
		return []any{"None of the ", doc.Spell(n), " dominates another: for each pair, at points with ", dims, " that memsym found, each exceeds the other in turn", w.witnessed()}
	}
	var out []any
	for i, u := range sym.Undecided {
		if i > 0 {
			out = append(out, " ")
		}
		out = append(out, "memsym could neither prove nor refute that one of candidates ", u[0]+1, " and ", u[1]+1,
			" dominates the other for every ", dims, ", so both are kept.")
	}
	pairs := n * (n - 1) / 2
	if rest := pairs - len(sym.Undecided); rest > 0 {
		out = append(out, " For ", pick(rest == 1, "the other pair", "each of the other "+doc.Spell(rest)+" pairs"),
			", at points with ", dims, " that it found, each exceeds the other in turn", w.witnessed())
	}
	return out
}

// atOneWords says that the claims at a size of 1 are the polynomials':
// nothing was recorded there, and a program may run other operations
// there (model.Model.UnrecordedAtOne).
func (w *writer) atOneWords() []any {
	var at, from []any
	for i, d := range w.in.AtOne {
		if i > 0 {
			at, from = append(at, " or "), append(from, " and ")
		}
		at = append(at, equals(d.Name, 1))
		from = append(from, equals(d.Name, d.Value))
	}
	out := []any{"Nothing was recorded at "}
	out = append(out, at...)
	out = append(out, ": the recordings start at ")
	out = append(out, from...)
	return append(out, ". What this chapter says for every value from 1 is said of the polynomials; a program may run other operations where a size is 1 (PyTorch does), and there they are the program's only where a recording at 1 shows it (a check point, --check).")
}

// witnessed ends the sentence that says points were found: with a colon
// when they follow.
func (w *writer) witnessed() string {
	sym := w.in.Symbolic
	switch {
	case len(sym.Witnesses) > 0:
		return ":"
	case sym.Rechecked > 0:
		return fmt.Sprintf("; memsym evaluated the two candidates again at each of those points, %d in all, one for each ordered pair, exactly: at each, the one exceeds the other (too many to list here).", sym.Rechecked)
	}
	return "."
}

// scopeWords says for which values of the other dimensions crossovers
// hold: "for every B ≥ 1", "at B = 1", "at S = 2 and for every B ≥ 1", or
// nothing when there are no others.
func scopeWords(c *CrossRows) []any {
	var out []any
	if len(c.Fixed) > 0 {
		out = append(out, "at ", point(c.Fixed))
	}
	if len(c.Free) > 0 {
		if len(out) > 0 {
			out = append(out, " and ")
		}
		out = append(out, "for every ", atLeast(c.Least, c.Free))
	}
	return out
}

// holders says which candidate holds the peak along one dimension, and
// which candidates hold it nowhere there, apart from what dominance says.
func (w *writer) holders(cands []CandidateRow, c *CrossRows) []doc.Block {
	in := w.in
	scope := scopeWords(c)
	if len(c.Segments) == 1 {
		seg := c.Segments[0]
		intro := []any{"Along ", doc.Math{doc.V(c.Along)}}
		if len(scope) > 0 {
			intro = append(append(append(intro, ", "), scope...), ",")
		}
		intro = append(intro, " candidate ", seg.Holder+1, " holds the peak at every ", atLeast(c.Least, []string{c.Along}), ".")
		return []doc.Block{para(intro...)}
	}
	intro := []any{"Along ", doc.Math{doc.V(c.Along)}}
	if len(scope) > 0 {
		intro = append(append(intro, ", "), scope...)
	}
	intro = append(intro, ", memsym found exactly which candidate holds the peak, the first reaching it where two tie:")
	list := &doc.List{}
	for i, seg := range c.Segments {
		item := inlines(segmentRange(c.Along, seg), ": candidate ", seg.Holder+1, ", ", inOrder(cands[seg.Holder].Poly, in.Vars),
			pick(i == len(c.Segments)-1, ".", ";"))
		list.Items = append(list.Items, item)
	}
	blocks := []doc.Block{para(intro...), list}
	if b := runsOnly("The program", c.Along, c.Reach, "the stretches above are"); b != nil {
		blocks = append(blocks, b)
	}
	holds := map[int]bool{}
	for _, seg := range c.Segments {
		holds[seg.Holder] = true
	}
	undecided := false
	var never []any
	k := 0
	for i := range cands {
		if holds[i] {
			continue
		}
		for _, u := range w.in.Symbolic.Undecided {
			undecided = undecided || u[0] == i || u[1] == i
		}
		never = append(never, i+1)
		k++
	}
	if k == 0 {
		return blocks
	}
	var sentence []any
	sentence = append(sentence, doc.Capital(doc.Inflect(k, "candidate ", "candidates ")))
	sentence = append(sentence, doc.Joined(", ", never...)...)
	sentence = append(sentence, " ", doc.Inflect(k, "holds", "hold"), " the peak at no ", atLeast(c.Least, []string{c.Along}))
	if len(c.Fixed) > 0 {
		sentence = append(sentence, " at ", point(c.Fixed))
	}
	if len(c.Free) > 0 {
		sentence = append(sentence, ", for any ", atLeast(c.Least, c.Free))
	}
	sentence = append(sentence, "; ", doc.Inflect(k, "it is", "they are"), " kept because no other candidate is ", pick(undecided, "proven to be ", ""),
		"at least as large as ", doc.Inflect(k, "it", pick(k == 2, "either of them", "any of them")), " at every point.")
	return append(blocks, para(sentence...))
}

// runsOnly says where along the dimension along what (the program, its
// step) runs, when it does not run at every value, and that outside it
// said (what was said before) is the polynomials', not the program's; nil
// where it runs at every value.
func runsOnly(what, along string, r model.Reach, said string) doc.Block {
	if r.Last == 0 && r.First == 0 {
		return nil
	}
	runs := []any{what, " runs along ", doc.Math{doc.V(along)}, " only"}
	if r.First > 0 {
		runs = append(runs, " from ", equals(along, r.First), " (not at ", point(r.Below), ": ", r.BelowWhy, ")")
	}
	if r.Last > 0 {
		runs = append(runs, " up to ", equals(along, r.Last), " (not at ", point(r.At), ": ", r.Why, ")")
	}
	outside := "; past it"
	switch {
	case r.First > 0 && r.Last > 0:
		outside = "; outside that"
	case r.First > 0:
		outside = "; below it"
	}
	return para(append(runs, outside, ", ", said, " the polynomials', not the program's.")...)
}

// segmentRange writes a segment's range: "T = 1 to 149", "T ≥ 150",
// "T = 20".
func segmentRange(along string, seg SegmentRow) []doc.Inline {
	switch {
	case seg.To == 0:
		return inlines(doc.Math{doc.V(along), doc.S("≥"), doc.NInt(seg.From)})
	case seg.From == seg.To:
		return inlines(equals(along, seg.From))
	}
	return inlines(equals(along, seg.From), " to ", seg.To)
}

// confirmations says what the recordings made beside each crossover
// show; consts are the constants they were made at, when not the
// chapter's.
func (w *writer) confirmations(c *CrossRows, consts []NameValue) []doc.Block {
	if len(c.Segments) < 2 {
		return nil
	}
	one := len(c.Segments) == 2
	if len(c.Confirmed) == 0 {
		why := c.Unconfirmed
		if why == "" {
			why = "none was asked for"
		}
		return []doc.Block{para("No recording was made beside the ", pick(one, "crossover", "crossovers"), " to confirm ",
			pick(one, "it", "them"), ": ", why, ".")}
	}
	bad := 0
	for _, f := range c.Confirmed {
		if !f.OK() {
			bad++
		}
	}
	n := len(c.Confirmed)
	name := w.table()
	var intro []any
	if consts == nil {
		intro = []any{"memsym recorded the program on both sides of ", pick(one, "the crossover", "each crossover"), ", ", doc.Spell(n), " ",
			doc.Inflect(n, "recording", "recordings"), " in all (", name, "). "}
		if bad == 0 {
			intro = append(intro, pick(n == 2, "Both show", "All "+doc.Spell(n)+" show"), " the peak the candidates predict, at the operation they predict.")
		}
	} else {
		intro = []any{"At these constants too, recordings on both sides of ",
			pick(one, "the crossover", "each crossover"), ", ", doc.Spell(n), " in all (", name, "), "}
		if bad == 0 {
			intro = append(intro, "find each peak where the model puts it, bytes and operation.")
		} else {
			intro = append(intro, "were made. ")
		}
	}
	switch {
	case bad > 0 && bad == n:
		intro = append(intro, pick(n == 2, "Both contradict", "All "+doc.Spell(n)+" contradict"), " the crossovers.")
	case bad > 0:
		intro = append(intro, doc.Capital(doc.Spell(bad)), " of them ", doc.Inflect(bad, "contradicts", "contradict"), " the crossovers.")
	}
	caption := []any{"Recordings on both sides of ", pick(one, "the crossover", "each crossover"), " along ", doc.Math{doc.V(c.Along)}}
	if consts != nil {
		caption = append(caption, " at ", constants(consts))
	}
	t := &doc.Table{
		Caption: inlines(append(caption, ".")...),
		Header:  []doc.Cell{cell("point"), cell("recorded peak"), cell("predicted"), cell("result")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignLeft, doc.AlignLeft, doc.AlignLeft},
	}
	for _, f := range c.Confirmed {
		result := "agrees"
		if !f.OK() {
			result = "contradicts"
		}
		predicted := cell(bytesWords(f.PredictedPeak), " at operation ", f.PredictedOp)
		if consts == nil {
			predicted = cell(predicted, ", candidate ", f.Predicted+1)
		}
		t.Rows = append(t.Rows, []doc.Cell{cell(point(f.Point)), cell(bytesWords(f.Peak), " at operation ", f.PeakOp), predicted, cell(result)})
	}
	return []doc.Block{para(intro...), t}
}

// elsewhere is the section of the crossovers at other constants, each from
// a model of its own.
func (w *writer) elsewhere() doc.Section {
	in := w.in
	s := doc.Section{Title: "At other constants"}
	for _, e := range in.Elsewhere {
		if e.Cross == nil {
			continue
		}
		head := []any{"At ", constants(e.Consts), ", memsym built a model of its own the same way"}
		if len(e.Checked) > 0 {
			head = append(append(append(head, ", its polynomials checked against recordings at "), pointList(e.Checked)...), ".")
		} else {
			head = append(head, ", its polynomials checked at no point off its grid: they are UNCHECKED.")
		}
		head = append(head, " Along ", doc.Math{doc.V(e.Cross.Along)})
		if scope := scopeWords(e.Cross); len(scope) > 0 {
			head = append(append(append(head, ", "), scope...), ",")
		}
		head = append(head, " its candidates hold the peak thus:")
		list := &doc.List{}
		for i, seg := range e.Cross.Segments {
			c := e.Candidates[seg.Holder]
			item := inlines(segmentRange(e.Cross.Along, seg), ": ", inOrder(c.Poly, in.Vars), ", at operation ", c.Op)
			if c.Largest != nil {
				item = inlines(item, ", whose largest live ", doc.Inflect(c.Largest.Count, "buffer is ", "buffers are "), bufferWords(c.Largest))
			}
			list.Items = append(list.Items, inlines(item, pick(i == len(e.Cross.Segments)-1, ".", ";")))
		}
		s.Blocks = append(s.Blocks, para(head...), list)
		if e.Common != nil {
			s.Blocks = append(s.Blocks, para(commonWords(e.Common)...))
		}
		s.Blocks = append(s.Blocks, w.confirmations(e.Cross, e.Consts)...)
	}
	return s
}

// crossoverLabel says what a crossover is for a macro's comment: "along T,
// for every B ≥ 1, at D = 64: from T = 75 the live set at operation 12
// holds the peak".
func crossoverLabel(consts []NameValue, cands []CandidateRow, c *CrossRows, seg SegmentRow) string {
	var b []any
	b = append(b, "along "+c.Along)
	if scope := scopeWords(c); len(scope) > 0 {
		b = append(append(b, ", "), scope...)
	}
	if len(consts) > 0 {
		b = append(b, ", at ", constants(consts))
	}
	b = append(b, fmt.Sprintf(": from %s = %d the live set at operation %d holds the peak", c.Along, seg.From, cands[seg.Holder].Op))
	return doc.PlainText(inlines(b...), " ")
}

// drawnAt are the other dimensions' values the candidates are drawn at:
// those the crossovers fix, then the counted point's, then the grid's
// smallest.
func (w *writer) drawnAt(c *CrossRows) record.Point {
	in := w.in
	var at record.Point
	for i, v := range in.Vars {
		if v == c.Along {
			continue
		}
		x := in.Symbolic.Grid[i][0]
		if y, ok := c.Fixed.Value(v); ok {
			x = y
		} else if in.Point != nil {
			if y, ok := in.Point.At.Value(v); ok {
				x = max(y, in.Least[v]) // where the model holds
			}
		}
		at = append(at, record.Dim{Name: v, Value: x})
	}
	return at
}

// witnessList lists the witnesses pair by pair, the pairs in the
// candidates' order: "Candidates 1 and 2: 1 exceeds 2 at B = 1, T = 1
// (12 344 bytes against 6 296), 2 exceeds 1 at B = 1, T = 100 (...)."
func witnessList(ws []Witness) *doc.List {
	type pair struct{ a, b int }
	var order []pair
	byPair := map[pair][]Witness{}
	for _, x := range ws {
		p := pair{min(x.Smaller, x.Larger), max(x.Smaller, x.Larger)}
		if _, ok := byPair[p]; !ok {
			order = append(order, p)
		}
		byPair[p] = append(byPair[p], x)
	}
	slices.SortFunc(order, func(x, y pair) int { return cmp.Or(x.a-y.a, x.b-y.b) })
	list := &doc.List{}
	for _, p := range order {
		item := []any{"Candidates ", p.a + 1, " and ", p.b + 1, ": "}
		xs := byPair[p]
		slices.SortFunc(xs, func(x, y Witness) int { return x.Larger - y.Larger })
		for k, x := range xs {
			if k > 0 {
				item = append(item, "; ")
			}
			item = append(item, x.Larger+1, " exceeds ", x.Smaller+1, " at ", point(x.At), " (", bytesAside(x.LargerBytes, x.SmallerBytes), ", against ", bytesAside(x.SmallerBytes, x.LargerBytes), ")")
		}
		list.Items = append(list.Items, inlines(append(item, ".")...))
	}
	return list
}
