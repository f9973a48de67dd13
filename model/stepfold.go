package model

import (
	"memsym/count"
	"memsym/interp"
	"memsym/poly"
	"memsym/record"
)

// foldTerms replaces, for a model whose dimension counts blocks of
// operations (a layer count L), the step's sums that StepOf takes over the
// structure's buffers, which hold a few blocks only, by polynomials
// interpolated from every recording of the grid as the live bytes are:
// the parameters, the states in all and by name, the gradient and what the
// forward keeps, and at each operation the live bytes of the gradient, of
// what was kept and of the other temps. Each block holding the same
// parameters, states and kept activations, those come out linear in L. It
// does nothing for other models, whose structure holds every buffer.
func (s *Step) foldTerms() error {
	if s.FoldDim() == "" {
		return nil
	}
	names := make([]string, len(s.StateParts))
	for k, p := range s.StateParts {
		names[k] = p.Name
	}
	got, err := s.Model.Model.Measure(func(rec *record.Recording) interp.Measures { return stepMeasures(rec, names) })
	if err != nil {
		return err
	}
	t := got.Totals
	s.Params, s.States, s.Gradient, s.Kept = t[0], t[1], t[2], t[3]
	for k := range s.StateParts {
		s.StateParts[k].Bytes = t[4+k]
	}
	for op := range s.live {
		s.live[op] = [3]poly.Poly{got.PerOp[0][op], got.PerOp[1][op], got.PerOp[2][op]}
	}
	return nil
}

// stepMeasures returns what foldTerms interpolates, at one recording: the
// totals (the parameters, the states, the gradient, what the forward
// keeps, then the states of each name in names), and at each operation
// the live bytes of the gradient, of what was kept and of the other temps,
// as count.StepAt counts them.
func stepMeasures(rec *record.Recording, names []string) interp.Measures {
	lives := count.Lifetimes(rec)
	class, parts := count.Classify(rec, lives, count.PhaseBounds(rec))
	totals := make([]poly.Rat, 4+len(names))
	for i, c := range class {
		k := -1
		switch c {
		case count.ClassParam:
			k = 0
		case count.ClassState:
			k = 1
		case count.ClassGradient:
			k = 2
		case count.ClassKept:
			k = 3
		}
		if k >= 0 {
			totals[k] = totals[k].Add(rec.Buffers.Bytes(i))
		}
	}
	for _, p := range parts {
		for k, name := range names {
			if p.Name == name {
				totals[4+k] = totals[4+k].Add(p.Bytes)
			}
		}
	}
	// The live bytes by class at each operation.
	live := count.LiveByClass(rec, lives, class)
	perOp := [][]poly.Rat{make([]poly.Rat, len(live)), make([]poly.Rat, len(live)), make([]poly.Rat, len(live))}
	for op, l := range live {
		for k := range l {
			perOp[k][op] = l[k]
		}
	}
	return interp.Measures{Totals: totals, PerOp: perOp}
}
