package count

import (
	"errors"
	"strconv"

	"memsym/poly"
	"memsym/record"
)

// Step is a training step's memory at its one point, from a recording whose
// operations have phases (docs/step.md).
//
// The training loop holds the parameters and the optimizer's states across
// the step, and the batch (the inputs) through the last phase that reads
// it. What the operations make is live by the usual rules. At every
// operation the memory is the sum of six terms (Terms); each phase's peak is
// the largest sum among its operations, the step's peak the largest of all.
type Step struct {
	Params     poly.Rat
	States     poly.Rat
	StateParts []Part // the states by name, in order of first declaration
	Batch      poly.Rat
	// Gradient is what the backward phase makes that is live where the
	// optimizer phase starts: the gradient the optimizer reads.
	Gradient poly.Rat
	// Kept is what the forward phase makes that is live where the
	// backward phase starts: what the forward pass keeps for the
	// backward one.
	Kept   poly.Rat
	Phases []PhasePeak // the phases the recording has, in order
	Peak   PhasePeak   // the step's peak: the first of the phases' largest
	Class  []Class     // by position in the recording's Buffers: how each counts
}

// Part is the bytes of the buffers of one name.
type Part struct {
	Name  string
	Bytes poly.Rat
}

// PhasePeak is one phase's peak: the first of its operations where the
// loop and the operations hold the most, and what they hold there.
type PhasePeak struct {
	Phase       record.Phase
	First, Last int // the phase's operations, numbered from 1
	Op          int // the peak's operation
	Terms       Terms
}

// Terms is the memory at one operation, in six parts.
type Terms struct {
	Params   poly.Rat // the parameters
	States   poly.Rat // the optimizer's states
	Batch    poly.Rat // the inputs the loop holds in this phase
	Gradient poly.Rat // of the gradient, what is live here
	Kept     poly.Rat // of what the forward kept for the backward, what is live here
	Own      poly.Rat // the other temps live here: the phase's own working memory
}

// Sum returns the terms' sum: the memory at the operation.
func (t Terms) Sum() poly.Rat {
	return t.Params.Add(t.States).Add(t.Batch).Add(t.Gradient).Add(t.Kept).Add(t.Own)
}

// Class is how a buffer counts in a step.
type Class uint8

const (
	ClassNone     Class = iota // a view, or a temp no operation writes
	ClassParam                 // a parameter
	ClassState                 // an optimizer's state
	ClassBatch                 // an input
	ClassGradient              // made in the backward phase, live where the optimizer starts
	ClassKept                  // made in the forward phase, live where the backward starts
	ClassOwn                   // any other temp
)

// ErrNoPhases is StepAt's error on a recording whose operations have no
// phases: a recording of one call, not of a training step.
var ErrNoPhases = errors.New("the recording's operations have no phases: it records one call, not a training step (version 2 gives each operation its phase)")

// StepAt counts rec's training step: its terms at every operation, each
// phase's peak and the step's.
func StepAt(rec *record.Recording) (*Step, error) {
	if rec.Ops.Len() == 0 || rec.Ops.Phase(0) == record.NoPhase {
		return nil, ErrNoPhases
	}
	lives := Lifetimes(rec)
	s := &Step{}
	bounds := PhaseBounds(rec)
	s.Class, s.StateParts = Classify(rec, lives, bounds)
	lastPhase := InputPhases(rec)
	for i, c := range s.Class {
		bytes := rec.Buffers.Bytes(i)
		switch c {
		case ClassParam:
			s.Params = s.Params.Add(bytes)
		case ClassState:
			s.States = s.States.Add(bytes)
		case ClassBatch:
			s.Batch = s.Batch.Add(bytes)
		case ClassGradient:
			s.Gradient = s.Gradient.Add(bytes)
		case ClassKept:
			s.Kept = s.Kept.Add(bytes)
		}
	}
	live := LiveByClass(rec, lives, s.Class)
	for _, ph := range record.Phases {
		b := bounds[ph]
		if b[0] == 0 {
			continue
		}
		peak := PhasePeak{Phase: ph, First: b[0], Last: b[1]}
		var batch poly.Rat
		for i, c := range s.Class {
			if c == ClassBatch && lastPhase[i] >= ph {
				batch = batch.Add(rec.Buffers.Bytes(i))
			}
		}
		for op := b[0]; op <= b[1]; op++ {
			t := Terms{Params: s.Params, States: s.States, Batch: batch,
				Gradient: live[op-1][0], Kept: live[op-1][1], Own: live[op-1][2]}
			if peak.Op == 0 || t.Sum().Cmp(peak.Terms.Sum()) > 0 {
				peak.Op, peak.Terms = op, t
			}
		}
		s.Phases = append(s.Phases, peak)
		if s.Peak.Op == 0 || peak.Terms.Sum().Cmp(s.Peak.Terms.Sum()) > 0 {
			s.Peak = peak
		}
	}
	return s, nil
}

// PhaseBounds returns each phase's first and last operation (numbered
// from 1), {0, 0} for a phase the recording lacks. Phases come in order.
func PhaseBounds(rec *record.Recording) [4][2]int {
	var b [4][2]int
	for n := range rec.Ops.Len() {
		ph := rec.Ops.Phase(n)
		if b[ph][0] == 0 {
			b[ph][0] = n + 1
		}
		b[ph][1] = n + 1
	}
	return b
}

// Classify says how each buffer of rec counts in its step, and sums the
// states by name. Lives are rec's Lifetimes, bounds its PhaseBounds.
func Classify(rec *record.Recording, lives []Life, bounds [4][2]int) ([]Class, []Part) {
	class := make([]Class, rec.Buffers.Len())
	var parts []Part
	byName := map[string]int{}
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		switch {
		case b.IsView:
		case b.Role == record.Param:
			class[i] = ClassParam
		case b.Role == record.State:
			class[i] = ClassState
			name := StateName(b)
			k, ok := byName[name]
			if !ok {
				k = len(parts)
				byName[name] = k
				parts = append(parts, Part{Name: name})
			}
			parts[k].Bytes = parts[k].Bytes.Add(b.Bytes)
		case b.Role.Held():
			class[i] = ClassBatch
		case lives[i].First == 0:
		default:
			class[i] = ClassOwn
			made := rec.Ops.Phase(int(lives[i].First) - 1)
			switch {
			case made == record.Forward && crosses(lives[i], bounds[record.Backward][0]):
				class[i] = ClassKept
			case made == record.Backward && crosses(lives[i], bounds[record.Optimizer][0]):
				class[i] = ClassGradient
			}
		}
	}
	return class, parts
}

// crosses reports whether a life reaches operation op, the first of the
// next phase (0 when there is none).
func crosses(l Life, op int) bool { return op != 0 && l.Live(op) }

// InputPhases returns, by position, the last phase in which the loop holds
// each caller-held input: the last that reads or writes it, and at least
// the forward phase.
func InputPhases(rec *record.Recording) []record.Phase {
	last := make([]record.Phase, rec.Buffers.Len())
	base := record.BasePositions(rec)
	for i := range last {
		last[i] = record.Forward
	}
	for n := range rec.Ops.Len() {
		op := rec.Ops.At(n)
		for _, ids := range [][]int64{op.Reads, op.Writes} {
			for _, id := range ids {
				if i := base[position(rec, id)]; op.Phase > last[i] {
					last[i] = op.Phase
				}
			}
		}
	}
	return last
}

// LiveByClass returns, at each operation, the live bytes of the gradient,
// of what was kept, and of the other temps, by one sweep over the lives.
func LiveByClass(rec *record.Recording, lives []Life, class []Class) [][3]poly.Rat {
	return LiveByClassOf(rec.Ops.Len(), lives, class, func(i int) poly.Rat { return rec.Buffers.Bytes(i) }, poly.Rat{})
}

// Summable is what LiveByClassOf sums: bytes at a point (poly.Rat) or as
// polynomials in the dimensions (poly.Poly).
type Summable[T any] interface {
	Add(T) T
	Sub(T) T
}

// LiveByClassOf is LiveByClass over n operations for sizes of any kind:
// bytes(i) is buffer i's, zero the sum of none.
func LiveByClassOf[T Summable[T]](n int, lives []Life, class []Class, bytes func(int) T, zero T) [][3]T {
	delta := make([][3]T, n+2)
	for i := range delta {
		delta[i] = [3]T{zero, zero, zero}
	}
	for i, l := range lives {
		if l.First == 0 {
			continue
		}
		k := 2
		switch class[i] {
		case ClassGradient:
			k = 0
		case ClassKept:
			k = 1
		}
		b := bytes(i)
		delta[l.First][k] = delta[l.First][k].Add(b)
		delta[int(l.Last)+1][k] = delta[int(l.Last)+1][k].Sub(b)
	}
	out := make([][3]T, n)
	cur := [3]T{zero, zero, zero}
	for op := 1; op <= n; op++ {
		for k := range cur {
			cur[k] = cur[k].Add(delta[op][k])
		}
		out[op-1] = cur
	}
	return out
}

// StateName is the name an optimizer's state is counted under, with the
// others of that name: its own, or "buffer N" for one without a name.
func StateName(b record.Buffer) string {
	if b.Name != "" {
		return b.Name
	}
	return "buffer " + strconv.FormatInt(b.ID, 10)
}
