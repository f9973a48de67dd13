package explain

import (
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
		label := "candidate " + strconv.Itoa(i+1) + ", the live set at operation " + strconv.Itoa(c.Op)
		if c.Label != "" {
			label += " (" + c.Label + ")"
		}
		if c.Largest != nil {
			label += ", whose largest live buffer is " + doc.PlainText(bufferWords(c.Largest), " ")
		}
		out = append(out, doc.NamedFormula{Key: "Peak" + letters(i), Label: label, Poly: inOrder(c.Poly, in.Vars), Candidate: true})
	}
	out = append(out, doc.NamedFormula{Key: "Needs", Label: "what is needed: the inputs and the peak", Poly: inOrder(sym.Inputs, in.Vars), PlusPeak: true})
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
