package explain

import (
	"memsym/doc"
	"memsym/record"
)

// checked is the section that says how the counts and the polynomials were
// checked, and what they were not checked against.
func (w *writer) checked() doc.Section {
	in := w.in
	s := doc.Section{Title: "How it was checked"}
	sym := in.Symbolic
	switch {
	case len(in.Vars) == 0:
		s.Blocks = append(s.Blocks, para("Nothing was interpolated: ", entryName(in.Entry),
			" has no dimensions, so its counts come from one recording and hold at every call at the same constants. Nothing further was checked."))
		return s
	case sym == nil && in.Point == nil:
		s.Blocks = append(s.Blocks, para("Nothing was counted: neither a point nor polynomials were asked for."))
		return s
	case sym == nil:
		s.Blocks = append(s.Blocks, para("The counts come from one recording at ", point(in.Point.At),
			"; no polynomials were made, so there was nothing to check them against."))
		return s
	}
	grid := []any{"Each buffer's bytes were interpolated exactly from recordings on a grid of three values per dimension, "}
	grid = append(grid, gridWords(in.Vars, sym.Grid)...)
	if sym.Fold == "" {
		grid = append(grid, ". The recordings run the same operations at every point, so each buffer's bytes are one value per point.")
	} else {
		grid = append(grid, ". The operations must be the same at every point but for ", doc.Math{doc.V(sym.Fold)},
			", which counts blocks that repeat one block exactly: its recordings were aligned block by block",
			pick(sym.FoldApart, ", the first and the last block standing apart.", "."))
	}
	s.Blocks = append(s.Blocks, para(grid...))

	if n := len(sym.Checked); n > 0 {
		off := []any{"The polynomials were checked against ", pick(n == 1, "a recording at one point", "recordings at "+doc.Spell(n)+" points"), " off the grid, "}
		off = append(off, pointList(sym.Checked)...)
		// The padding's example is in the last dimension that is a size,
		// not a count of blocks (gpt-depth's T, not its L).
		x := in.Vars[len(in.Vars)-1]
		for _, v := range in.Vars {
			if v != sym.Fold {
				x = v
			}
		}
		off = append(off, ": every buffer's bytes there are what the polynomials give. ",
			"A few points that agree are evidence, not proof: a size padded to a multiple of 64, ",
			doc.Math{doc.S("⌈"), doc.V(x), doc.S("/"), doc.NInt(64), doc.S("⌉"), doc.S("·"), doc.NInt(64)}, ", is ", doc.Math{doc.V(x)},
			" wherever ", doc.Math{doc.V(x)}, " is a multiple of 64, so a check point that shares a divisor with the grid's step can miss the padding.")
		s.Blocks = append(s.Blocks, para(off...))
	} else {
		s.Blocks = append(s.Blocks, para("No recording off the grid was checked against the polynomials: the model is UNCHECKED. ",
			"Three values per dimension fit a polynomial of degree two in each exactly, whatever the sizes are, so only a recording at a further point can show that a buffer's bytes are no such polynomial."))
	}

	if p := w.provenWords(sym, in); p != nil {
		s.Blocks = append(s.Blocks, p)
	}

	if len(in.Verified) == 0 {
		why := in.Unverified
		if why == "" {
			why = "it was not asked for"
		}
		s.Blocks = append(s.Blocks, para("Check M3, which records the program afresh at further points and compares everything with the polynomials, was not run: ", why, "."))
		return s
	}
	ok := 0
	for _, v := range in.Verified {
		if v.Err == "" {
			ok++
		}
	}
	n := len(in.Verified)
	verdict := "All " + doc.Spell(n) + " agree."
	switch {
	case n == 1 && ok == 1:
		verdict = "It agrees."
	case n == 1:
		verdict = "It disagrees."
	case ok < n:
		verdict = doc.Capital(doc.Spell(n-ok)) + " of them " + doc.Inflect(n-ok, "disagrees", "disagree") + "."
	}
	name := w.table()
	s.Blocks = append(s.Blocks, para("Check M3 records the program afresh at points off the grid and compares everything with the polynomials: ",
		"every buffer's bytes, the inputs, the outputs, the live bytes at every operation, and the peak with its operation. ",
		"It was run at ", doc.Spell(n), " ", doc.Inflect(n, "point", "points"), " (", name, "). ", verdict))
	t := &doc.Table{
		Caption: inlines("Check M3: fresh recordings against the polynomials."),
		Header:  []doc.Cell{cell("point"), cell("result")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignLeft},
	}
	for _, v := range in.Verified {
		result := cell("agrees")
		if v.Err != "" {
			result = cell("disagrees: " + v.Err)
		}
		t.Rows = append(t.Rows, []doc.Cell{cell(point(v.Point)), result})
	}
	s.Blocks = append(s.Blocks, t)
	return s
}

// gridWords writes a grid: "B ∈ {16, 32, 48} and T ∈ {256, 512, 768}".
func gridWords(vars []string, grid [][]int64) []any {
	var parts []any
	for i, values := range grid {
		m := doc.Math{doc.V(vars[i]), doc.S("∈"), doc.S("{")}
		for j, v := range values {
			if j > 0 {
				m = append(m, doc.S(","))
			}
			m = append(m, doc.NInt(v))
		}
		parts = append(parts, append(m, doc.S("}")))
	}
	return doc.Joined(", ", parts...)
}

// pointList writes points as a list, "(B = 64, T = 1 024) and (B = 115,
// T = 1 795)", each in parentheses where there are several of more than
// one dimension.
func pointList(points []record.Point) []any {
	var items []any
	for _, p := range points {
		if len(p) > 1 && len(points) > 1 {
			items = append(items, append(append(doc.Math{doc.S("(")}, point(p)...), doc.S(")")))
		} else {
			items = append(items, point(p))
		}
	}
	return doc.Joined("; ", items...)
}

// provenWords says how what the chapter says of the candidates was shown,
// and of what: the pruning's proofs, the witnesses and the crossovers are
// about the polynomials, exact, and the program's only as far as the
// polynomials are its bytes. It returns nil where nothing was proven.
func (w *writer) provenWords(sym *SymbolicModel, in *Input) *doc.Paragraph {
	crossings := sym.Cross != nil && len(sym.Cross.Segments) > 1
	witnessed := len(sym.Witnesses) > 0 || sym.Rechecked > 0
	var what []any
	if sym.Pruned > 0 {
		what = append(what, "pruning")
	}
	if witnessed {
		what = append(what, "comparisons")
	}
	if crossings {
		what = append(what, "crossovers")
	}
	if len(what) == 0 {
		return nil
	}
	for i := range what {
		what[i] = "the " + what[i].(string)
	}
	tested := "which the checks above test at a few points"
	if len(sym.Checked) == 0 {
		tested = "which no recording off the grid has tested"
	}
	out := []any{doc.Capital(doc.PlainText(inlines(doc.Joined(", ", what...)...), "")), " of ", w.ref("polynomials"), " ",
		pick(len(what) == 1, "is", "are"), " proven of the polynomials, in exact arithmetic; ",
		pick(len(what) == 1, "it holds", "they hold"), " of the program wherever the polynomials are its bytes, ", tested, "."}
	if sym.Pruned > 0 {
		out = append(out, " A candidate was pruned only where memsym proved its difference from another, itself a polynomial, at least zero at every integer point with ", atLeast(in.Least, in.Vars),
			", by a certificate of one of a few kinds: every coefficient at least zero once each dimension is written as its least value plus a variable at least zero;",
			" in one dimension, no negative value at the least value nor at the integers beside the polynomial's real roots (or a parabola's vertex), which are found exactly;",
			" a polynomial in one dimension after that substitution whose coefficients are each so proven;",
			" or a quadratic ", doc.Math{doc.V("a"), doc.S("·"), doc.VExp("x", 2), doc.S("+"), doc.V("b"), doc.S("·"), doc.V("x"), doc.S("+"), doc.V("c")},
			" with ", doc.Math{doc.V("a")}, ", ", doc.Math{doc.V("c")}, " and ", doc.Math{doc.NInt(4), doc.S("·"), doc.V("a"), doc.S("·"), doc.V("c"), doc.S("−"), doc.VExp("b", 2)}, " each so proven.")
	}
	if witnessed {
		out = append(out, " A candidate said not to dominate another is smaller than it at a point memsym found, both evaluated there exactly.")
	}
	if crossings {
		out = append(out, " The crossovers along ", doc.Math{doc.V(sym.Cross.Along)}, " are the integers where such differences change sign, found by the same exact tests.")
	}
	return para(out...)
}
