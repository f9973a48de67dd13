package model

import (
	"fmt"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// StepTerms are a step's terms at one point, from its polynomials alone:
// nothing is recorded. They are what count.StepAt counts in a recording at
// the point.
type StepTerms struct {
	Point                                 record.Point
	Params, States, Batch, Gradient, Kept poly.Rat
	StateParts                            []count.Part
	Phases                                []StepPeak // the phases the step has, in order
	Peak                                  StepPeak   // the first of the phases' largest
}

// StepPeak is a phase's peak at a point: its bytes, the first operation
// that reaches them and the terms there.
type StepPeak struct {
	Phase record.Phase
	Bytes poly.Rat
	// Op is the operation numbered as in a recording at the point;
	// ModelOp the same operation in the model's recordings (Model.Op).
	Op, ModelOp int
	// Poly is the sum at ModelOp as a polynomial: what the loop holds
	// in the phase and what is live there.
	Poly  poly.Poly
	Terms count.Terms
}

// Eval returns the step's terms at p, a value for each dimension.
func (s *Step) Eval(p record.Point) (*StepTerms, error) {
	if err := s.negativeAt(p); err != nil {
		return nil, err
	}
	at := p.Map()
	t := &StepTerms{Point: p}
	for _, x := range []struct {
		dst *poly.Rat
		p   poly.Poly
	}{{&t.Params, s.Params}, {&t.States, s.States}, {&t.Batch, s.Batch}, {&t.Gradient, s.Gradient}, {&t.Kept, s.Kept}} {
		v, err := x.p.EvalInt(at)
		if err != nil {
			return nil, err
		}
		*x.dst = v
	}
	for _, part := range s.StateParts {
		v, err := part.Bytes.EvalInt(at)
		if err != nil {
			return nil, err
		}
		t.StateParts = append(t.StateParts, count.Part{Name: part.Name, Bytes: v})
	}
	for i := range s.Phases {
		pk, err := s.phaseAt(&s.Phases[i], p)
		if err != nil {
			return nil, err
		}
		t.Phases = append(t.Phases, pk)
		if i == 0 || pk.Bytes.Cmp(t.Peak.Bytes) > 0 {
			t.Peak = pk
		}
	}
	return t, nil
}

// Counts returns the terms as count.StepAt counts them in a recording at
// the point (but the buffers' classes).
func (t *StepTerms) Counts() *count.Step {
	c := &count.Step{Params: t.Params, States: t.States, StateParts: t.StateParts, Batch: t.Batch, Gradient: t.Gradient, Kept: t.Kept}
	peak := func(p StepPeak) count.PhasePeak {
		return count.PhasePeak{Phase: p.Phase, Op: p.Op, Terms: p.Terms}
	}
	for _, p := range t.Phases {
		c.Phases = append(c.Phases, peak(p))
	}
	c.Peak = peak(t.Peak)
	return c
}

// phaseAt returns a phase's peak at p: the largest of its sums, at the
// first operation whose sum reaches it, as a recording's peak is.
func (s *Step) phaseAt(sp *StepPhase, p record.Point) (StepPeak, error) {
	at := p.Map()
	best := -1
	var top poly.Rat
	for i, c := range sp.Cands {
		v, err := c.Poly.EvalInt(at)
		if err != nil {
			return StepPeak{}, err
		}
		if best < 0 || v.Cmp(top) > 0 {
			best, top = i, v
		}
	}
	if best < 0 {
		return StepPeak{}, fmt.Errorf("the %s phase has no operations", sp.Phase)
	}
	c := sp.Cands[best]
	terms, err := s.termsAt(c.Op, sp.Batch).At(p)
	if err != nil {
		return StepPeak{}, err
	}
	return StepPeak{Phase: sp.Phase, Bytes: top, Op: s.OpAt(c.Op, at), ModelOp: c.Op, Poly: c.Poly, Terms: terms}, nil
}

// PeakPolys returns the step's peak's kept candidates: the step's peak is
// the largest of them at every point.
func (s *Step) PeakPolys() []poly.Poly {
	var out []poly.Poly
	for _, k := range s.Peak.Front.Kept {
		out = append(out, s.Peak.Cands[k].Poly)
	}
	return out
}

// StepEvalJSON is `memsym eval --step --json`'s object.
type StepEvalJSON struct {
	Entry      string          `json:"entry"`
	Point      OrderedPoint    `json:"point"`
	Params     TermJSON        `json:"params"`
	States     TermJSON        `json:"states"`
	StateParts []NamedTermJSON `json:"state_parts"`
	Gradient   TermJSON        `json:"gradient"`
	Batch      TermJSON        `json:"batch"`
	Kept       TermJSON        `json:"kept"`
	Phases     []StepPeakJSON  `json:"phases"`
	Peak       StepPeakJSON    `json:"peak"`
	Checked    []OrderedPoint  `json:"checked"`
	AtOneJSON
}

// NamedTermJSON is a term of a name: one of the optimizer's states.
type NamedTermJSON struct {
	Name string `json:"name"`
	TermJSON
}

// StepPeakJSON is a phase's peak at a point (or the step's): its bytes,
// the first operation reaching them, its label and call, the sum there as
// a polynomial, and its terms, which sum to the bytes.
type StepPeakJSON struct {
	Phase     string        `json:"phase"`
	Bytes     string        `json:"bytes"`
	Operation int           `json:"operation"`
	Label     string        `json:"label"`
	Path      string        `json:"path"`
	Poly      string        `json:"poly"`
	Terms     StepTermsJSON `json:"terms"`
}

// StepTermsJSON are the six terms of the memory at one operation of a
// step, in bytes.
type StepTermsJSON struct {
	Params   string `json:"params"`
	States   string `json:"states"`
	Batch    string `json:"batch"`
	Gradient string `json:"gradient"`
	Kept     string `json:"kept"`
	Own      string `json:"own"`
}

// EvalJSON returns the step's terms t as JSON.
func (s *Step) EvalJSON(t *StepTerms) *StepEvalJSON {
	out := &StepEvalJSON{
		Entry: s.Header().Entry, Point: OrderedPoint(t.Point),
		Params:   TermJSON{s.Params.ASCII(), t.Params.String()},
		States:   TermJSON{s.States.ASCII(), t.States.String()},
		Gradient: TermJSON{s.Gradient.ASCII(), t.Gradient.String()},
		Batch:    TermJSON{s.Batch.ASCII(), t.Batch.String()},
		Kept:     TermJSON{s.Kept.ASCII(), t.Kept.String()},
		Peak:     s.peakJSON(t.Peak, t.Point),
		Checked:  s.CheckedJSON(),
	}
	if out.Point == nil {
		out.Point = OrderedPoint{}
	}
	out.StateParts = []NamedTermJSON{}
	for i, part := range s.StateParts {
		out.StateParts = append(out.StateParts, NamedTermJSON{part.Name, TermJSON{part.Bytes.ASCII(), t.StateParts[i].Bytes.String()}})
	}
	for _, ph := range t.Phases {
		out.Phases = append(out.Phases, s.peakJSON(ph, t.Point))
	}
	return out
}

func (s *Step) peakJSON(p StepPeak, at record.Point) StepPeakJSON {
	op := s.Op(p.ModelOp)
	t := p.Terms
	return StepPeakJSON{
		Phase: p.Phase.String(), Bytes: p.Bytes.String(), Operation: p.Op, Label: op.Label, Path: s.PathAt(p.ModelOp, at.Map()), Poly: p.Poly.ASCII(),
		Terms: StepTermsJSON{t.Params.String(), t.States.String(), t.Batch.String(), t.Gradient.String(), t.Kept.String(), t.Own.String()},
	}
}
