package explain

import (
	"fmt"
	"strconv"

	"memsym/doc"
	"memsym/poly"
)

// formulas are the polynomials a paper may quote: the inputs, the
// parameters, the outputs, the peak's candidates (PeakA, PeakB, ...) and
// what is needed, the inputs and the peak.
func (w *writer) formulas() []doc.NamedFormula {
	in := w.in
	sym := in.Symbolic
	if sym == nil || len(in.Vars) == 0 {
		return nil
	}
	out := []doc.NamedFormula{
		{Key: "Inputs", Label: "the inputs, the parameters among them", Poly: inOrder(sym.Inputs, in.Vars)},
		{Key: "Params", Label: "the parameters", Poly: inOrder(sym.Params, in.Vars)},
		{Key: "Outputs", Label: "the outputs", Poly: inOrder(sym.Outputs, in.Vars)},
	}
	for i, c := range sym.Candidates {
		words := []any{"candidate " + strconv.Itoa(i+1) + ", the live set at operation " + strconv.Itoa(c.Op)}
		if c.Label != "" {
			words = append(words, " (", doc.Code(c.Label), ")")
		}
		if c.Largest != nil {
			what := ", whose largest live buffer is "
			if len(c.Largest.Names) > 1 || c.Largest.Count > 1 {
				what = ", whose largest live buffers are "
			}
			if sym.Common != nil {
				// Named, as the chapter's table names it, apart from the
				// larger buffers live at every candidate.
				what = ", named by its largest buffer of those not live at every candidate, "
			}
			words = append(words, what, bufferWords(c.Largest))
		}
		label := inlines(words...)
		out = append(out, doc.NamedFormula{Key: "Peak" + letters(i), Label: doc.PlainText(label, " "), Words: label, Poly: inOrder(c.Poly, in.Vars), Of: "Peak", OfLabel: "the peak"})
	}
	out = append(out, doc.NamedFormula{Key: "Needs", Label: "what is needed: the inputs and the peak", Poly: inOrder(sym.Inputs, in.Vars), PlusPeak: true})
	return append(out, w.stepFormulas()...)
}

// stepFormulas are the training step's polynomials: its terms, and under
// each remat what the forward keeps and the step's peak's candidates
// (StepPeakStoreA, ...), the step's peak (StepPeakStore) being the largest
// of them.
func (w *writer) stepFormulas() []doc.NamedFormula {
	st := w.in.Step
	if st == nil || st.Columns[0].Symbolic == nil {
		return nil
	}
	sym := st.Columns[0].Symbolic
	out := []doc.NamedFormula{
		{Key: "StepParams", Label: "the training step's parameters", Poly: sym.Params},
		{Key: "StepStates", Label: "the training step's optimizer's states", Poly: sym.States},
		{Key: "StepGradient", Label: "the training step's gradient", Poly: sym.Gradient},
		{Key: "StepBatch", Label: "the training step's batch", Poly: sym.Batch},
	}
	for _, c := range st.Columns {
		key, how := stepKey(c.Remat), rematWord(c.Remat)
		out = append(out, doc.NamedFormula{Key: "StepKept" + key, Label: "what the forward keeps for the backward, " + how, Poly: c.Symbolic.Kept})
		for i, k := range c.Symbolic.Peak {
			label := "candidate " + strconv.Itoa(i+1) + " of the step's peak, " + how + ", the sum at operation " + strconv.Itoa(k.Op) + " (" + k.Label + "), in the " + k.Phase + " phase"
			out = append(out, doc.NamedFormula{Key: "StepPeak" + key + letters(i), Label: label, Poly: k.Poly, Of: "StepPeak" + key, OfLabel: "the training step's peak, " + how})
		}
	}
	return out
}

// stepNumbers are the training step's numbers at the point: its terms,
// under each remat what the forward keeps and the step's peak with its
// operation, and the first value at which the kept activations outweigh
// the optimizer's states.
func (w *writer) stepNumbers() []doc.NamedNumber {
	st := w.in.Step
	if st == nil {
		return nil
	}
	var out []doc.NamedNumber
	if at := st.Columns[0].At; at != nil {
		where := "at every call"
		if len(at.At) > 0 {
			where = "at " + point(at.At).Plain(" ")
		}
		out = append(out,
			doc.NamedNumber{Key: "StepParamsAtPoint", Label: "the training step's parameters' bytes " + where, Value: at.Params},
			doc.NamedNumber{Key: "StepStatesAtPoint", Label: "the training step's optimizer's states' bytes " + where, Value: at.States},
			doc.NamedNumber{Key: "StepGradientAtPoint", Label: "the training step's gradient's bytes " + where, Value: at.Gradient},
			doc.NamedNumber{Key: "StepBatchAtPoint", Label: "the training step's batch's bytes " + where, Value: at.Batch},
		)
		for _, c := range st.Columns {
			key, how := stepKey(c.Remat), rematWord(c.Remat)
			out = append(out,
				doc.NamedNumber{Key: "StepKept" + key + "AtPoint", Label: "what the forward keeps for the backward, " + how + ", in bytes " + where, Value: c.At.Kept},
				doc.NamedNumber{Key: "StepPeak" + key + "AtPoint", Label: "the training step's peak, " + how + ", in bytes " + where, Value: c.At.Peak.Bytes()},
				doc.NamedNumber{Key: "StepPeakOp" + key + "AtPoint", Label: "the operation at which the training step's peak, " + how + ", is first reached " + where, Value: poly.Int(int64(c.At.Peak.Op))},
			)
		}
	}
	for _, c := range st.Columns {
		if c.Symbolic == nil || c.Symbolic.Cross == nil {
			continue
		}
		cr := c.Symbolic.Cross
		for _, seg := range cr.Segments {
			if seg.Holder != 1 {
				continue
			}
			label := "the first " + cr.Along + " at which the kept activations outweigh the optimizer's states, " + rematWord(c.Remat)
			if seg.To == 0 {
				label = "the first " + cr.Along + " from which on the kept activations outweigh the optimizer's states, " + rematWord(c.Remat)
			}
			if len(cr.Fixed) > 0 {
				label += ", at " + point(cr.Fixed).Plain(" ")
			}
			if r := cr.Reach; r.Last > 0 && seg.From > r.Last {
				label += fmt.Sprintf(", by the polynomials: past %s = %d, where the program stops running", cr.Along, r.Last)
			}
			out = append(out, doc.NamedNumber{Key: "StepCrossover" + stepKey(c.Remat), Label: label, Value: poly.Int(seg.From)})
			break
		}
	}
	return out
}

// numbers are the exact numbers a paper may quote: the constants, the
// counts at the point, and every crossover.
func (w *writer) numbers() []doc.NamedNumber {
	in := w.in
	var out []doc.NamedNumber
	for _, c := range in.Consts {
		if v, err := poly.ParseRat(c.Value); err == nil {
			out = append(out, doc.NamedNumber{Key: "Const" + c.Name, Label: "the constant " + c.Name, Value: v})
		}
	}
	if pc := in.Point; pc != nil {
		where := "at every call"
		if len(pc.At) > 0 {
			where = "at " + point(pc.At).Plain(" ")
		}
		for _, d := range pc.At {
			out = append(out, doc.NamedNumber{Key: "Point" + d.Name, Label: "the counted point's " + d.Name, Value: poly.Int(d.Value)})
		}
		out = append(out,
			doc.NamedNumber{Key: "ParamsAtPoint", Label: "the parameters' bytes " + where, Value: pc.Params},
			doc.NamedNumber{Key: "InputsAtPoint", Label: "the inputs' bytes, the parameters among them, " + where, Value: pc.Inputs},
			doc.NamedNumber{Key: "PeakAtPoint", Label: "the peak's bytes " + where, Value: pc.Peak},
			doc.NamedNumber{Key: "PeakOpAtPoint", Label: "the operation at which the peak is first reached " + where, Value: poly.Int(int64(pc.PeakOp))},
			doc.NamedNumber{Key: "OutputsAtPoint", Label: "the outputs' bytes " + where, Value: pc.Outputs},
			doc.NamedNumber{Key: "NeedsAtPoint", Label: "what is needed, the inputs and the peak, in bytes " + where, Value: pc.Needs},
		)
	}
	k := 0
	crossovers := func(consts []NameValue, cands []CandidateRow, c *CrossRows) {
		if c == nil {
			return
		}
		for i, seg := range c.Segments {
			if i == 0 {
				continue
			}
			out = append(out, doc.NamedNumber{Key: "Crossover" + letters(k), Label: crossoverLabel(consts, cands, c, seg), Value: poly.Int(seg.From)})
			k++
		}
	}
	if in.Symbolic != nil {
		crossovers(in.Consts, in.Symbolic.Candidates, in.Symbolic.Cross)
	}
	for _, e := range in.Elsewhere {
		crossovers(e.Consts, e.Candidates, e.Cross)
	}
	return append(out, w.stepNumbers()...)
}

// letters names the i-th item with letters alone: A, B, ..., Z, AA, AB, ...
func letters(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// caveats says what qualifies the formulas for a reader who has them
// without the chapter: polynomials checked at no point off their grid, a
// buffer's polynomial negative somewhere.
func (w *writer) caveats() []string {
	var out []string
	if sym := w.in.Symbolic; sym != nil {
		if len(sym.Checked) == 0 {
			out = append(out, "The polynomials are UNCHECKED: no recording off the grid was checked against them.")
		}
		if n := sym.Negative; n != nil {
			out = append(out, fmt.Sprintf("The polynomial of %s's bytes, %s, is %s at %s: where some buffer's polynomial is negative, the polynomials are not the program's bytes.",
				n.Name, inOrder(n.Bytes, w.in.Vars), doc.NumberText(doc.Number{Value: n.There}, " "), n.At))
		}
	}
	if st := w.in.Step; st != nil && len(st.Columns) > 0 && st.Columns[0].Symbolic != nil && len(st.Columns[0].Symbolic.Checked) == 0 {
		out = append(out, "The training step's polynomials are UNCHECKED: no recording of the step off the grid was checked against them.")
	}
	return out
}
