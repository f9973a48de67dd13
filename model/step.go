package model

import (
	"context"
	"fmt"

	"memsym/count"
	"memsym/dominance"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// Step is a training step's memory as exact polynomials in the
// dimensions (docs/step.md): the terms count.StepAt counts at a point, and
// each phase's peak as the largest of its candidates, pruned as the
// model's are. At every operation the loop holds the parameters, the
// states and the batch (through the last phase that reads it), and the
// operations what is live; the candidates are those sums.
type Step struct {
	*Model
	Class  []count.Class // by buffer position, as count.Classify says
	Bounds [4][2]int     // each phase's operations, as count.PhaseBounds says

	Params, States, Batch, Gradient, Kept poly.Poly
	StateParts                            []PolyPart
	Phases                                []StepPhase // the phases the recordings have, in order
	// Peak is the step's peak: the phases' kept candidates, pruned again.
	Peak StepPhase
	// live holds, at each operation, the live bytes of the gradient, of
	// what the forward kept and of the other temps.
	live [][3]poly.Poly
}

// PolyPart is the bytes of the buffers of one name.
type PolyPart struct {
	Name  string
	Bytes poly.Poly
}

// StepPhase is one phase's peak, or the step's (Phase is then NoPhase):
// the largest of Kept, each with its terms.
type StepPhase struct {
	Phase       record.Phase
	First, Last int // the phase's operations; 0 for the step's peak
	// Batch is what the loop holds of the inputs in the phase; zero for
	// the step's peak.
	Batch poly.Poly
	// Cands are the sums at the phase's operations, each distinct one at
	// the first operation that has it, in the order of the operations.
	Cands []dominance.Candidate
	Front *dominance.Frontier
	// Terms are the terms of each candidate in Front.Kept, in its order.
	Terms []PolyTerms
}

// PolyTerms are count.Terms as polynomials.
type PolyTerms struct {
	Params, States, Batch, Gradient, Kept, Own poly.Poly
}

// Sum returns the terms' sum.
func (t PolyTerms) Sum() poly.Poly {
	return t.Params.Add(t.States).Add(t.Batch).Add(t.Gradient).Add(t.Kept).Add(t.Own)
}

// At evaluates the terms at p.
func (t PolyTerms) At(p record.Point) (count.Terms, error) {
	var out count.Terms
	at := p.Map()
	for _, x := range []struct {
		p   poly.Poly
		dst *poly.Rat
	}{{t.Params, &out.Params}, {t.States, &out.States}, {t.Batch, &out.Batch}, {t.Gradient, &out.Gradient}, {t.Kept, &out.Kept}, {t.Own, &out.Own}} {
		v, err := x.p.EvalInt(at)
		if err != nil {
			return out, err
		}
		*x.dst = v
	}
	return out, nil
}

// Kept returns the kept candidates, each with its terms.
func (s *StepPhase) Kept() ([]dominance.Candidate, []PolyTerms) {
	out := make([]dominance.Candidate, len(s.Front.Kept))
	for i, k := range s.Front.Kept {
		out[i] = s.Cands[k]
	}
	return out, s.Terms
}

// BuildStep records (or reads) a step's grid and check points and models
// the step.
func BuildStep(ctx context.Context, src source.Source, spec source.Spec) (*Step, error) {
	m, err := Build(ctx, src, spec)
	if err != nil {
		return nil, err
	}
	return StepOf(m)
}

// StepOf models the step whose recordings m interpolated; they must have
// phases.
func StepOf(m *Model) (*Step, error) {
	rec := m.Structure
	if rec.Ops.Len() == 0 || rec.Ops.Phase(0) == record.NoPhase {
		return nil, count.ErrNoPhases
	}
	zero := poly.New(m.Vars, nil)
	s := &Step{Model: m, Bounds: count.PhaseBounds(rec),
		Params: zero, States: zero, Batch: zero, Gradient: zero, Kept: zero}
	s.Class, _ = count.Classify(rec, m.Lives, s.Bounds)
	s.live = liveByClass(m, s.Class)
	byName := map[string]int{}
	for i, c := range s.Class {
		b := m.Bytes(i)
		switch c {
		case count.ClassParam:
			s.Params = s.Params.Add(b)
		case count.ClassState:
			s.States = s.States.Add(b)
			name := count.StateName(rec.Buffers.At(i))
			k, ok := byName[name]
			if !ok {
				k = len(s.StateParts)
				byName[name] = k
				s.StateParts = append(s.StateParts, PolyPart{Name: name, Bytes: zero})
			}
			s.StateParts[k].Bytes = s.StateParts[k].Bytes.Add(b)
		case count.ClassBatch:
			s.Batch = s.Batch.Add(b)
		case count.ClassGradient:
			s.Gradient = s.Gradient.Add(b)
		case count.ClassKept:
			s.Kept = s.Kept.Add(b)
		}
	}
	if err := s.foldTerms(); err != nil {
		return nil, err
	}
	lastPhase := count.InputPhases(rec)
	var all []dominance.Candidate
	var allTerms []PolyTerms
	for _, ph := range record.Phases {
		bd := s.Bounds[ph]
		if bd[0] == 0 {
			continue
		}
		batch := zero
		for i, c := range s.Class {
			if c == count.ClassBatch && lastPhase[i] >= ph {
				batch = batch.Add(m.Bytes(i))
			}
		}
		held := s.Params.Add(s.States).Add(batch)
		sp := StepPhase{Phase: ph, First: bd[0], Last: bd[1], Batch: batch}
		seen := map[int32]bool{}
		for op := bd[0]; op <= bd[1]; op++ {
			c := m.LiveAt[op-1]
			if seen[c] {
				continue
			}
			seen[c] = true
			sp.Cands = append(sp.Cands, dominance.Candidate{Poly: held.Add(m.Candidates[c].Poly), Op: op})
		}
		sp.Front = m.prune(sp.Cands)
		for _, k := range sp.Front.Kept {
			t := s.termsAt(sp.Cands[k].Op, batch)
			sp.Terms = append(sp.Terms, t)
			all = append(all, sp.Cands[k])
			allTerms = append(allTerms, t)
		}
		s.Phases = append(s.Phases, sp)
	}
	s.Peak = StepPhase{Cands: all, Front: m.prune(all)}
	for _, k := range s.Peak.Front.Kept {
		s.Peak.Terms = append(s.Peak.Terms, allTerms[k])
	}
	return s, nil
}

// termsAt returns the terms at operation op, batch being what the loop
// holds of the inputs in its phase.
func (s *Step) termsAt(op int, batch poly.Poly) PolyTerms {
	l := s.live[op-1]
	return PolyTerms{Params: s.Params, States: s.States, Batch: batch, Gradient: l[0], Kept: l[1], Own: l[2]}
}

// LiveTerms returns, at operation op of the step's recordings, the live
// bytes of the gradient, of what the forward kept and of the other temps.
func (s *Step) LiveTerms(op int) [3]poly.Poly { return s.live[op-1] }

// liveByClass returns, at each operation of m's recordings, the live
// bytes of the gradient, of what the forward kept and of the other temps,
// as count does at a point: one sweep over the buffers' lives.
func liveByClass(m *Model, class []count.Class) [][3]poly.Poly {
	return count.LiveByClassOf(m.Structure.Ops.Len(), m.Lives, class, m.Bytes, poly.New(m.Vars, nil))
}

// PeakAt returns a phase's peak at p: its bytes, the first kept
// candidate that reaches them and that candidate's terms there.
func (s *StepPhase) PeakAt(p record.Point) (poly.Rat, int, count.Terms, error) {
	var top poly.Rat
	best := -1
	for i, k := range s.Front.Kept {
		v, err := s.Cands[k].Poly.EvalInt(p.Map())
		if err != nil {
			return top, 0, count.Terms{}, err
		}
		if best < 0 || v.Cmp(top) > 0 {
			top, best = v, i
		}
	}
	if best < 0 {
		return top, 0, count.Terms{}, fmt.Errorf("no candidates")
	}
	t, err := s.Terms[best].At(p)
	return top, s.Cands[s.Front.Kept[best]].Op, t, err
}

// Crossover finds along dim where polynomial a outweighs b and the other
// way, the other dimensions fixed: for instance from which T what the
// forward keeps outweighs the optimizer's states. Holder 0 is a, 1 is b.
func (s *Step) Crossover(a, b poly.Poly, dim string, fixed map[string]int64) (*Crossovers, error) {
	if !contains(s.Vars, dim) {
		return nil, fmt.Errorf("no dimension %s (the dimensions are %v)", dim, s.Vars)
	}
	cands := []dominance.Candidate{{Poly: a}, {Poly: b}}
	return s.alongKept(cands, []int{0, 1}, dim, fixed)
}

// StepPoint is a bundled program's step recorded and counted at one point.
type StepPoint struct {
	Rec   *record.Recording
	Count *count.Step
}

// RecordStepAt records p's training step under opts at the given
// dimensions and constants (the others at their defaults) and counts it.
func RecordStepAt(p *programs.Program, dims, consts map[string]int64, opts programs.StepOptions) (*StepPoint, error) {
	sp, err := p.Step(opts)
	if err != nil {
		return nil, err
	}
	rec, err := sp.Record(dims, consts)
	if err != nil {
		return nil, err
	}
	c, err := count.StepAt(rec)
	if err != nil {
		return nil, err
	}
	return &StepPoint{Rec: rec, Count: c}, nil
}

// ActType returns the stored type of p's activations in its step under
// opts: the step's, else its realization's (f32 for a realization that is
// not one type's name).
func ActType(p *programs.Program, opts programs.StepOptions) record.DType {
	if t := opts.Types.Activations; !t.IsZero() {
		return t
	}
	if t, ok := record.LookupDType(p.Realization); ok {
		return t
	}
	t, _ := record.LookupDType("f32")
	return t
}
