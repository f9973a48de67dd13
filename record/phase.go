package record

import "fmt"

// StepVersion is the format's version 2: version 1 and, for a training
// step, each operation's phase and the role "state". The Recorder and the
// Writer use it only for a recording that has phases or states, so that a
// recording of one call stays in version 1.
const StepVersion = 2

// Phase is the part of a training step an operation belongs to. A
// recording of one call has no phases; a recording of a step gives every
// operation one, in the order forward, backward, optimizer.
type Phase uint8

const (
	NoPhase   Phase = iota // a recording of one call, not of a step
	Forward                // the forward pass, which the objective's value needs
	Backward               // the backward pass: each operation's vector-Jacobian product
	Optimizer              // the optimizer: the learning rate and the update
)

var phaseNames = [...]string{NoPhase: "", Forward: "forward", Backward: "backward", Optimizer: "optimizer"}

// Phases lists the phases of a step in their order.
var Phases = []Phase{Forward, Backward, Optimizer}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase %d", p)
}

// LookupPhase returns the phase named name ("forward", "backward" or
// "optimizer"), and whether there is one.
func LookupPhase(name string) (Phase, bool) {
	for p := Forward; p <= Optimizer; p++ {
		if phaseNames[p] == name {
			return p, true
		}
	}
	return NoPhase, false
}

// phase reads the value of "phase".
func (s *Scanner) phase() (Phase, error) {
	l := &s.lex
	if l.peek() == '"' {
		at := l.i
		b, err := l.str()
		if err != nil {
			return 0, err
		}
		if p, ok := LookupPhase(string(b)); ok {
			return p, nil
		}
		l.i = at
	}
	return 0, l.errorf(`"phase" must be "forward", "backward" or "optimizer"`)
}

// phases is what the Builder knows of a recording's phases so far.
type phases struct {
	given   bool   // the first operation gave a phase
	current Phase  // the phase of the last operation
	began   [4]int // the operation each phase began at, 0 before it did
}

// checkPhase checks operation n's phase against the operations before it:
// a phase only in version 2, every operation's or none, and in the order
// forward, backward, optimizer.
func (b *Builder) checkPhase(op *Op, n int) error {
	ph := &b.phases
	if op.Phase != NoPhase && b.rec.Header.Version < StepVersion {
		return fmt.Errorf("operation %d (%s) gives a \"phase\", which is new in version %d: the header says version %d", n, Show(op.Label), StepVersion, b.rec.Header.Version)
	}
	if n == 1 {
		ph.given = op.Phase != NoPhase
	}
	switch {
	case ph.given && op.Phase == NoPhase:
		return fmt.Errorf("operation %d (%s) has no \"phase\", but operation 1 has one: in a recording of a step every operation gives its phase", n, Show(op.Label))
	case !ph.given && op.Phase != NoPhase:
		return fmt.Errorf("operation %d (%s) gives a \"phase\", but operation 1 has none: in a recording of a step every operation gives its phase", n, Show(op.Label))
	case op.Phase < ph.current:
		return fmt.Errorf("operation %d (%s) is in the %s phase, but the %s phase began at operation %d: a step's operations come forward, then backward, then optimizer",
			n, Show(op.Label), op.Phase, ph.current, ph.began[ph.current])
	}
	if op.Phase != ph.current || n == 1 {
		ph.current = op.Phase
		ph.began[op.Phase] = n
	}
	return nil
}

// checkState checks that operation n, which reads or writes the buffer at
// position i (perhaps through a view), may touch it if it is an
// optimizer's state: only the optimizer's operations do. The buffer's id
// is looked up for the refusal only.
func (b *Builder) checkState(op *Op, n, i int, verb string) error {
	if b.bufs[i].role != State || op.Phase == Optimizer {
		return nil
	}
	in := "an operation without a phase"
	if op.Phase != NoPhase {
		in = "in the " + op.Phase.String() + " phase"
	}
	return fmt.Errorf("operation %d (%s), %s, %s buffer %d, an optimizer's state: only the optimizer phase reads or writes the states", n, Show(op.Label), in, verb, b.idAt(i))
}

// unwrittenHint says, after "buffer 7 is read by operation 5 before any
// operation writes it", what the mistake may be in op's phase.
func unwrittenHint(op *Op) string {
	switch op.Phase {
	case Backward:
		return "; in the backward phase a gradient must be written (by the first vector-Jacobian product that reaches it) before it is read"
	case Optimizer:
		return "; an optimizer's state, held across steps, is declared with \"role\": \"state\", and a gradient is written by the backward phase before the optimizer reads it"
	}
	return "; a caller-held input is declared with \"role\": \"input\""
}
