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

// stepText writes the counted steps side by side, then each one's peak
// and phases, and the estimates when asked for.
func stepText(cols []stepColumn, trained string) string {
	var b strings.Builder
	first := cols[0]
	fmt.Fprintf(&b, "memsym memory --step: %s%s%s\n", memoryTitle(&first.rec.Header), constsString(&first.rec.Header), trained)
	head := []string{""}
	for _, c := range cols {
		head = append(head, c.name)
	}
	rows := [][]string{head}
	row := func(name string, value func(c *count.Step) string) {
		r := []string{"  " + name}
		for _, c := range cols {
			r = append(r, value(c.c))
		}
		rows = append(rows, r)
	}
	rat := func(f func(c *count.Step) poly.Rat) func(c *count.Step) string {
		return func(c *count.Step) string { return f(c).String() }
	}
	row("parameters", rat(func(c *count.Step) poly.Rat { return c.Params }))
	row("optimizer's states", rat(func(c *count.Step) poly.Rat { return c.States }))
	for i := range first.c.StateParts {
		name := first.c.StateParts[i].Name
		row("  "+name, func(c *count.Step) string {
			for _, p := range c.StateParts {
				if p.Name == name {
					return p.Bytes.String()
				}
			}
			return "0"
		})
	}
	row("gradient", rat(func(c *count.Step) poly.Rat { return c.Gradient }))
	row("batch", rat(func(c *count.Step) poly.Rat { return c.Batch }))
	row("kept for the backward", rat(func(c *count.Step) poly.Rat { return c.Kept }))
	for _, ph := range record.Phases {
		row(ph.String()+" phase", func(c *count.Step) string {
			for _, p := range c.Phases {
				if p.Phase == ph {
					return p.Terms.Sum().String()
				}
			}
			return "-"
		})
	}
	row("the step's peak", rat(func(c *count.Step) poly.Rat { return c.Peak.Terms.Sum() }))
	b.WriteString(alignColumns(rows, "l"+strings.Repeat("r", len(cols))))
	if len(cols) == 2 {
		a, r := cols[0].c.Peak.Terms.Sum(), cols[1].c.Peak.Terms.Sum()
		if r.Cmp(a) < 0 {
			fmt.Fprintf(&b, "recompute needs %s times less than store, %s bytes fewer\n", doc.Times(a, r), a.Sub(r))
		} else {
			fmt.Fprintf(&b, "recompute saves nothing here: the step's peak is in the %s phase, which recomputing does not lower\n", cols[1].c.Peak.Phase)
		}
	}
	for _, c := range cols {
		b.WriteString("\n")
		b.WriteString(stepPeakText(c))
		if c.cmp != nil {
			b.WriteString("\n")
			b.WriteString(compareText(c.name, c.cmp, func(p poly.Poly) string {
				v, _ := p.IsConst()
				return v.String()
			}, true))
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

// stepPeakText writes one step's peak, its terms, and each phase's peak.
func stepPeakText(c stepColumn) string {
	var b strings.Builder
	pk := &c.c.Peak
	fmt.Fprintf(&b, "the step's peak (%s): %s bytes at operation %d of %d, %s, in the %s phase\n",
		c.name, pk.Terms.Sum(), pk.Op, len(c.rec.Ops), opWhere(&c.rec.Ops[pk.Op-1]), pk.Phase)
	b.WriteString(alignColumns(termRows(pk.Terms, func(r poly.Rat) string { return r.String() }), "lr"))
	b.WriteString("each phase's peak, what it and the loop hold there:\n")
	var rows [][]string
	for _, p := range c.c.Phases {
		rows = append(rows, []string{"  " + p.Phase.String(), p.Terms.Sum().String(),
			fmt.Sprintf("at operation %d, %s", p.Op, opWhere(&c.rec.Ops[p.Op-1]))})
	}
	b.WriteString(alignColumns(rows, "lrl"))
	return b.String()
}

// termRows lists a peak's terms and their sum.
func termRows(t count.Terms, show func(poly.Rat) string) [][]string {
	return [][]string{
		{"  parameters", show(t.Params)},
		{"  optimizer's states", show(t.States)},
		{"  batch", show(t.Batch)},
		{"  gradient, live", show(t.Gradient)},
		{"  kept for the backward, live", show(t.Kept)},
		{"  the phase's own", show(t.Own)},
		{"  sum", show(t.Sum())},
	}
}

// compareText writes the estimates beside the exact terms, then why each
// misses.
func compareText(name string, cmp *model.Comparison, show func(poly.Poly) string, ratio bool) string {
	var b strings.Builder
	rows := cmp.Rows
	fmt.Fprintf(&b, "the analytic estimates on the same step (%s), P = %s, the parameters' elements:\n", name, show(cmp.P))
	head := []string{"  term", "rule", "estimate", "exact", "exact - estimate"}
	align := "llrrr"
	if ratio {
		head = append(head, "exact/estimate")
		align += "r"
	}
	table := [][]string{head}
	for _, r := range rows {
		line := []string{"  " + r.Term, r.Rule, show(r.Estimate), show(r.Exact), show(r.Exact.Sub(r.Estimate))}
		if ratio {
			e, _ := r.Estimate.IsConst()
			x, _ := r.Exact.IsConst()
			line = append(line, doc.Times(x, e))
		}
		table = append(table, line)
	}
	b.WriteString(alignColumns(table, align))
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s: %s\n", r.Term, r.Why)
	}
	return b.String()
}

// symbolicStepText writes a step's model.
func symbolicStepText(s *model.Step, p *programs.Program, o programs.StepOptions, bundled bool) string {
	var b strings.Builder
	h := s.Header()
	how := ""
	if bundled {
		how = fmt.Sprintf(", trained with %s, the activations %s", o.Optimizer, map[programs.Remat]string{programs.Store: "stored", programs.Recompute: "recomputed block by block"}[o.Remat])
	}
	fmt.Fprintf(&b, "memsym symbolic --step: %s, in %s%s: each buffer's bytes interpolated on %s, %s\n",
		entryName(h), doc.AndList(s.Vars), how, gridString(s.Model), checkedString(s.Model))
	line := func(what string, q poly.Poly) { fmt.Fprintf(&b, "  %-22s %s\n", what, q) }
	line("parameters", s.Params)
	line("optimizer's states", s.States)
	for _, part := range s.StateParts {
		line("  "+part.Name, part.Bytes)
	}
	line("gradient", s.Gradient)
	line("batch", s.Batch)
	line("kept for the backward", s.Kept)
	for _, ph := range s.Phases {
		b.WriteString(phaseText(s, ph.Phase.String()+" phase", &ph))
	}
	b.WriteString(phaseText(s, "the step's peak", &s.Peak))
	for _, dim := range s.Vars {
		fixed := map[string]int64{}
		var at []string
		for i, v := range s.Vars {
			if v != dim {
				fixed[v] = s.Grid[i][0]
				at = append(at, fmt.Sprintf("%s = %d", v, s.Grid[i][0]))
			}
		}
		c, err := s.Crossover(s.Kept, s.States, dim, fixed)
		if err != nil {
			continue
		}
		where := ""
		if len(at) > 0 {
			where = " at " + strings.Join(at, ", ")
		}
		fmt.Fprintf(&b, "  %-22s along %s%s: %s\n", "kept against states", dim, where, crossoverWords(c, dim))
	}
	return b.String()
}

// phaseText writes a phase's (or the step's) peak: its kept candidates.
func phaseText(s *model.Step, what string, ph *model.StepPhase) string {
	var b strings.Builder
	kept := ph.Front.Kept
	if len(kept) == 1 {
		fmt.Fprintf(&b, "  %-22s %s, at %s\n", what, ph.Cands[kept[0]].Poly, s.Where(ph.Cands[kept[0]].Op))
		return b.String()
	}
	claim := "none of which dominates another"
	if n := len(ph.Front.Undecided); n > 0 {
		claim = fmt.Sprintf("none proven to dominate another; %s undecided", doc.Plural(n, "pair", "pairs"))
	}
	fmt.Fprintf(&b, "  %-22s the largest of %d, %s:\n", what, len(kept), claim)
	for _, k := range kept {
		fmt.Fprintf(&b, "%25s%s, at %s\n", "", ph.Cands[k].Poly, s.Where(ph.Cands[k].Op))
	}
	return b.String()
}

// crossoverWords says which of the kept activations (holder 0) and the
// states (holder 1) is larger where, along dim.
func crossoverWords(c *model.Crossovers, dim string) string {
	names := []string{"the kept activations are larger", "the states are larger"}
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
