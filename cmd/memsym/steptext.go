package main

// The text of memory --step and symbolic --step.

import (
	"fmt"
	"strings"

	"memsym/count"
	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// stepText writes the counted steps side by side under the title line,
// then each one's peak and phases, and the estimates when asked for.
func stepText(title string, cols []stepColumn, units doc.Units) string {
	var b strings.Builder
	b.WriteString(title + "\n")
	first := cols[0]
	head := []string{""}
	align := "l"
	for _, c := range cols {
		head = append(head, c.name, "")
		align += "rl"
	}
	rows := [][]string{head}
	row := func(name string, value func(c *count.Step) (poly.Rat, bool)) {
		r := []string{"  " + name}
		for _, c := range cols {
			v, ok := value(c.c)
			if !ok {
				r = append(r, "-", "")
				continue
			}
			r = append(r, doc.Decimal(v), approxCell(v, units))
		}
		rows = append(rows, r)
	}
	term := func(f func(c *count.Step) poly.Rat) func(c *count.Step) (poly.Rat, bool) {
		return func(c *count.Step) (poly.Rat, bool) { return f(c), true }
	}
	row("parameters", term(func(c *count.Step) poly.Rat { return c.Params }))
	row("optimizer's states", term(func(c *count.Step) poly.Rat { return c.States }))
	for i := range first.c.StateParts {
		name := first.c.StateParts[i].Name
		row("  "+name, term(func(c *count.Step) poly.Rat {
			for _, p := range c.StateParts {
				if p.Name == name {
					return p.Bytes
				}
			}
			return poly.Rat{}
		}))
	}
	row("gradient", term(func(c *count.Step) poly.Rat { return c.Gradient }))
	row("batch", term(func(c *count.Step) poly.Rat { return c.Batch }))
	row("kept for the backward", term(func(c *count.Step) poly.Rat { return c.Kept }))
	for _, ph := range record.Phases {
		row(ph.String()+" phase", func(c *count.Step) (poly.Rat, bool) {
			for _, p := range c.Phases {
				if p.Phase == ph {
					return p.Terms.Sum(), true
				}
			}
			return poly.Rat{}, false
		})
	}
	row("the step's peak", term(func(c *count.Step) poly.Rat { return c.Peak.Terms.Sum() }))
	b.WriteString(alignColumns(dropEmptyColumns(rows, align)))
	if len(cols) == 2 {
		a, r := cols[0].c.Peak.Terms.Sum(), cols[1].c.Peak.Terms.Sum()
		switch {
		case r.Cmp(a) < 0 && a.Cmp(r.Mul(poly.Frac(11, 10))) < 0:
			// A saving under a tenth reads as a share, not "1.0 times".
			fmt.Fprintf(&b, "recompute needs %s less than store, %s fewer\n", doc.Percent(a.Sub(r), a), units.Bytes(a.Sub(r)))
		case r.Cmp(a) < 0:
			fmt.Fprintf(&b, "recompute needs %s times less than store, %s fewer\n", doc.Times(a, r), units.Bytes(a.Sub(r)))
		default:
			fmt.Fprintf(&b, "recompute saves nothing here: the step's peak is in the %s phase, which recomputing does not lower\n", cols[1].c.Peak.Phase)
		}
	}
	for _, c := range cols {
		b.WriteString("\n")
		b.WriteString(stepPeakText(c, units))
		if c.cmp != nil {
			b.WriteString("\n")
			b.WriteString(compareText(c.name, c.cmp, &units))
		}
	}
	return b.String()
}

// constsString writes ", D = 384, H = 6, L = 6" for a header's constants.
func constsString(h *record.Header) string {
	var parts []string
	for _, c := range h.Consts {
		parts = append(parts, c.Name+" = "+c.Value)
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// remat writes a column's remat after what it names, " (store)"; nothing
// for a recording's column, named "step", whose remat the recording made.
func remat(name string) string {
	if name == "step" {
		return ""
	}
	return " (" + name + ")"
}

// stepPeakText writes one step's peak, its terms, and each phase's peak.
func stepPeakText(c stepColumn, units doc.Units) string {
	var b strings.Builder
	pk := &c.c.Peak
	fmt.Fprintf(&b, "the step's peak%s: %s at operation %d of %d, %s, in the %s phase\n",
		remat(c.name), units.Bytes(pk.Terms.Sum()), pk.Op, c.ops, c.where(pk.Op), pk.Phase)
	if c.formula != "" {
		fmt.Fprintf(&b, "  the candidate holding it there: %s\n", c.formula)
	}
	b.WriteString(alignColumns(dropEmptyColumns(termRows(pk.Terms, units), "lrl")))
	b.WriteString("each phase's peak, what it and the loop hold there:\n")
	var rows [][]string
	for _, p := range c.c.Phases {
		rows = append(rows, []string{"  " + p.Phase.String(), doc.Decimal(p.Terms.Sum()), approxCell(p.Terms.Sum(), units),
			fmt.Sprintf("at operation %d, %s", p.Op, c.where(p.Op))})
	}
	b.WriteString(alignColumns(dropEmptyColumns(rows, "lrll")))
	return b.String()
}

// termRows lists a peak's terms and their sum, each exact and in units.
func termRows(t count.Terms, units doc.Units) [][]string {
	row := func(name string, v poly.Rat) []string {
		return []string{"  " + name, doc.Decimal(v), approxCell(v, units)}
	}
	return [][]string{
		row("parameters", t.Params),
		row("optimizer's states", t.States),
		row("batch", t.Batch),
		row("gradient, live", t.Gradient),
		row("kept for the backward, live", t.Kept),
		row("the phase's own", t.Own),
		row("sum", t.Sum()),
	}
}

// compareText writes the estimates beside the exact terms, then why each
// misses: at a point (numbers, each with its units beside it, and the
// ratio), or as polynomials when units is nil.
func compareText(name string, cmp *model.Comparison, units *doc.Units) string {
	var b strings.Builder
	rows := cmp.Rows
	show := func(p poly.Poly) []string {
		if units == nil {
			return []string{p.String()}
		}
		v, _ := p.IsConst()
		return []string{doc.Decimal(v), approxCell(v, *units)}
	}
	fmt.Fprintf(&b, "the analytic estimates on the same step%s, %s = %s, the parameters' elements:\n", remat(name), cmp.Symbol, show(cmp.P)[0])
	head := []string{"  term", "rule", "estimate", "exact", "exact - estimate"}
	align := "llrrr"
	if units != nil {
		head = []string{"  term", "rule", "estimate", "", "exact", "", "exact - estimate", "", "exact/estimate"}
		align = "llrlrlrlr"
	}
	table := [][]string{head}
	for _, r := range rows {
		line := []string{"  " + r.Term, r.Rule}
		line = append(line, show(r.Estimate)...)
		line = append(line, show(r.Exact)...)
		line = append(line, show(r.Exact.Sub(r.Estimate))...)
		if units != nil {
			e, _ := r.Estimate.IsConst()
			x, _ := r.Exact.IsConst()
			line = append(line, doc.Times(x, e))
		}
		table = append(table, line)
	}
	b.WriteString(alignColumns(dropEmptyColumns(table, align)))
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s: %s\n", r.Term, r.Why)
	}
	if cmp.Omitted != "" {
		fmt.Fprintf(&b, "  left out: %s\n", cmp.Omitted)
	}
	return b.String()
}

// symbolicStepText writes a step's model.
//
// runs, when not nil, says why the program does not run at a point (a
// bundled program's limits), or nil: a change of the larger term past them
// is said to lie there.
func symbolicStepText(s *model.Step, o programs.StepOptions, bundled bool, units doc.Units, runs func(record.Point) error) string {
	var b strings.Builder
	h := s.Header()
	how := ""
	if bundled {
		how = fmt.Sprintf(", trained with %s, the activations %s", o.Optimizer, map[programs.Remat]string{programs.Store: "stored", programs.Recompute: "recomputed block by block"}[o.Remat])
	}
	if len(s.Vars) == 0 {
		fmt.Fprintf(&b, "memsym symbolic --step: %s%s, in bytes: no dimensions, its bytes read from one recording\n", entryName(h), how)
	} else {
		fmt.Fprintf(&b, "memsym symbolic --step: %s, in %s%s, in bytes: each buffer's bytes interpolated on %s, %s\n",
			entryName(h), doc.AndList(s.Vars), how, s.Model.GridString(), checkedString(s.Model))
	}
	// The labels' column is 22 wide, or as wide as the longest state's
	// name (a PyTorch model's, "embed.weight.exp_avg_sq"), so that every
	// figure starts in one column.
	width := 22
	for _, part := range s.StateParts {
		width = max(width, 2+doc.Columns(part.Name))
	}
	line := func(what string, q poly.Poly) {
		fmt.Fprintf(&b, "  %s %s\n", padRight(what, width), polyUnits(q, units))
	}
	line("parameters", s.Params)
	line("optimizer's states", s.States)
	for _, part := range s.StateParts {
		line("  "+part.Name, part.Bytes)
	}
	line("gradient", s.Gradient)
	line("batch", s.Batch)
	line("kept for the backward", s.Kept)
	for _, ph := range s.Phases {
		b.WriteString(phaseText(s, ph.Phase.String()+" phase", &ph, units, width))
	}
	b.WriteString(phaseText(s, "the step's peak", &s.Peak, units, width))
	for _, dim := range s.Vars {
		fixed := map[string]int64{}
		var at []string
		for i, v := range s.Vars {
			if v != dim {
				fixed[v] = s.Grid[i][0]
				at = append(at, fmt.Sprintf("%s = %d", v, s.Grid[i][0]))
			}
		}
		c, err := s.Crossover(s.States, s.Kept, dim, fixed)
		if err != nil {
			continue
		}
		where := ""
		if len(at) > 0 {
			where = " at " + strings.Join(at, ", ")
		}
		words := crossoverWords(c, dim)
		for k := 1; k < len(c.Segments) && runs != nil; k++ {
			values := make([]int64, len(s.Vars))
			for i, v := range s.Vars {
				values[i] = fixed[v]
				if v == dim {
					values[i] = c.Segments[k].From
				}
			}
			if err := runs(s.Point(values)); err != nil {
				words += fmt.Sprintf(" (%s = %d lies beyond the sizes the program takes: %v)", dim, c.Segments[k].From, err)
				break
			}
		}
		fmt.Fprintf(&b, "  %-*s along %s%s: %s\n", width, "kept against states", dim, where, words)
	}
	return b.String()
}

// phaseText writes a phase's (or the step's) peak: its kept candidates,
// the labels in a column width wide.
func phaseText(s *model.Step, what string, ph *model.StepPhase, units doc.Units, width int) string {
	var b strings.Builder
	kept := ph.Front.Kept
	if len(kept) == 1 {
		fmt.Fprintf(&b, "  %-*s %s, at %s\n", width, what, polyUnits(ph.Cands[kept[0]].Poly, units), s.Where(ph.Cands[kept[0]].Op))
		return b.String()
	}
	claim := "none of which dominates another"
	if n := len(ph.Front.Undecided); n > 0 {
		claim = fmt.Sprintf("none proven to dominate another; %s undecided", doc.Plural(n, "pair", "pairs"))
	}
	fmt.Fprintf(&b, "  %-*s the largest of %d, %s:\n", width, what, len(kept), claim)
	for _, k := range kept {
		fmt.Fprintf(&b, "%*s%s, at %s\n", width+3, "", polyUnits(ph.Cands[k].Poly, units), s.Where(ph.Cands[k].Op))
	}
	return b.String()
}

// crossoverWords says which of the states (holder 0, which holds where
// they tie) and the kept activations (holder 1) is larger where, along
// dim.
func crossoverWords(c *model.Crossovers, dim string) string {
	names := []string{"the states are at least as large", "the kept activations are larger"}
	var parts []string
	for i, seg := range c.Segments {
		var span string
		switch {
		case i == len(c.Segments)-1:
			span = fmt.Sprintf("from %s = %d on", dim, seg.From)
		case seg.From == seg.To:
			span = fmt.Sprintf("at %s = %d", dim, seg.From)
		default:
			span = fmt.Sprintf("from %s = %d to %d", dim, seg.From, seg.To)
		}
		parts = append(parts, names[seg.Holder]+" "+span)
	}
	return strings.Join(parts, "; ")
}

// polyUnits writes a polynomial of bytes, and beside a constant one of a
// unit or more its size in units: "1052928 (1.00 MiB)".
func polyUnits(q poly.Poly, units doc.Units) string {
	if v, ok := q.IsConst(); ok {
		if a := units.Approx(v); a != "" {
			return doc.Decimal(v) + " (" + a + ")"
		}
		return doc.Decimal(v)
	}
	return q.String()
}
