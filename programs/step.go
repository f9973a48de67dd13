package programs

import (
	"fmt"
	"strings"

	"memsym/record"
)

// A training step, as a training loop makes it: the objective's value and
// gradient (the forward pass, the loss and the backward pass), the learning
// rate, and the optimizer's step. The loop holds the parameters and the
// optimizer's states across steps. Step turns a bundled program into the
// program of its step; its recordings are in the format's version 2, each
// operation with its phase.

// Optimizer names an optimizer of the step.
type Optimizer uint8

const (
	AdamW        Optimizer = iota // two moments; its update makes new parameters and moments
	AdamWInPlace                  // two moments, updated in place with the parameters
	SGD                           // momentum SGD, in place
	Lion                          // one moment, in place
	Adafactor                     // a factored second moment (rows and columns), in place
)

var optimizerNames = [...]string{
	AdamW: "adamw", AdamWInPlace: "adamw-inplace", SGD: "sgd", Lion: "lion", Adafactor: "adafactor",
}

func (o Optimizer) String() string { return optimizerNames[o] }

// Optimizers lists the optimizers in their listing order.
var Optimizers = []Optimizer{AdamW, AdamWInPlace, SGD, Lion, Adafactor}

// ParseOptimizer returns the optimizer named s.
func ParseOptimizer(s string) (Optimizer, error) {
	for _, o := range Optimizers {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown optimizer %q: expected %s", s, strings.Join(optimizerNames[:], ", "))
}

// Remat says what the forward pass keeps for the backward one.
type Remat uint8

const (
	// Store keeps every value a vector-Jacobian product reads.
	Store Remat = iota
	// Recompute keeps of each block only its input (what lies outside the
	// blocks is kept as by Store): the backward pass runs each block's
	// forward again, then its vector-Jacobian products, reading what the
	// second run made.
	Recompute
)

func (r Remat) String() string {
	if r == Recompute {
		return "recompute"
	}
	return "store"
}

// ParseRemat returns the remat named s, "store" or "recompute".
func ParseRemat(s string) (Remat, error) {
	switch s {
	case "store":
		return Store, nil
	case "recompute":
		return Recompute, nil
	}
	return 0, fmt.Errorf("unknown remat %q: expected store or recompute", s)
}

// Types are a step's stored types, each the zero DType for the program's
// own: the realization's for the parameters and activations, the
// parameter's for its gradient, and the gradient's for the states.
type Types struct {
	Params      record.DType // the parameters the program declares in its realization's type
	Activations record.DType // the activations the program makes in its realization's type
	Gradient    record.DType // the parameters' gradient
	States      record.DType // the optimizer's states and its scalars
	Master      record.DType // a master copy of the parameters among the states; zero for none
}

// TypeKeys are the names ParseTypes reads, in Types's order.
var TypeKeys = []string{"params", "activations", "gradient", "states", "master"}

// ParseTypes reads "params=bf16,activations=bf16,gradient=f32,states=f32,
// master=f32": any of the keys, each a floating type of the format.
func ParseTypes(s string) (Types, error) {
	var t Types
	fields := []*record.DType{&t.Params, &t.Activations, &t.Gradient, &t.States, &t.Master}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return t, fmt.Errorf("expected KIND=TYPE, found %q", part)
		}
		i := indexOf(TypeKeys, strings.TrimSpace(k))
		if i < 0 {
			return t, fmt.Errorf("unknown kind %q: expected %s", k, strings.Join(TypeKeys, ", "))
		}
		d, ok := record.LookupDType(strings.TrimSpace(v))
		if !ok || !isFloat(d) {
			return t, fmt.Errorf("%s=%s: expected a floating type: f64, f32, f16, bf16 or f8", k, v)
		}
		if !fields[i].IsZero() {
			return t, fmt.Errorf("%s is given twice", k)
		}
		*fields[i] = d
	}
	return t, nil
}

// String writes the types given, as ParseTypes reads them.
func (t Types) String() string {
	var parts []string
	for i, d := range []record.DType{t.Params, t.Activations, t.Gradient, t.States, t.Master} {
		if !d.IsZero() {
			parts = append(parts, TypeKeys[i]+"="+d.Name)
		}
	}
	return strings.Join(parts, ",")
}

// StepOptions say how a step is made; the zero value is AdamW, storing
// the activations, in the program's types.
type StepOptions struct {
	Optimizer Optimizer
	Remat     Remat
	Types     Types
}

// Transformer names a program's dimensions and constants as the analytic
// estimates of a transformer's activations (Korthikanti et al.) read them:
// S tokens in each of B sequences, width H, A attention heads and L
// layers, each a dimension's or a constant's name; L is "" for a program
// of one layer. Layer is the call whose iterations are the layers.
type Transformer struct {
	S, B, H, A, L string
	Layer         string
}

// stepSpec is a step program's: what it is the step of, and how.
type stepSpec struct {
	of   *Program
	opts StepOptions
}

// Step returns the program of p's training step: p's forward pass, a loss,
// the backward pass, the learning rate and the optimizer's step, each
// operation with its phase. It has p's name, dimensions and constants. A
// program that cannot be trained this way (one that records a training
// step already) is refused, saying why.
func (p *Program) Step(o StepOptions) (*Program, error) {
	if p.step != nil {
		return nil, fmt.Errorf("%s is a training step already", p.Name)
	}
	if p.stepRefusal != "" {
		return nil, fmt.Errorf("%s has no --step: %s", p.Name, p.stepRefusal)
	}
	q := *p
	q.Summary = fmt.Sprintf("a training step of %s with %s, the activations %s", p.Name, o.Optimizer, remembered(o.Remat))
	q.step = &stepSpec{of: p, opts: o}
	q.build = nil
	return &q, nil
}

// StepRefusal is why p has no training step, or "" when it has one.
func (p *Program) StepRefusal() string { return p.stepRefusal }

// StepOf returns the options of a program made by Step, and whether it is
// one.
func (p *Program) StepOf() (StepOptions, bool) {
	if p.step == nil {
		return StepOptions{}, false
	}
	return p.step.opts, true
}

func remembered(r Remat) string {
	if r == Recompute {
		return "recomputed block by block"
	}
	return "stored"
}

// record records the step at v: the forward pass as the program records
// it, in the step's types, then what follows from it.
func (s *stepSpec) record(p *Program, v values, dims []record.Dim, consts []record.Const) (*record.Recording, error) {
	t := s.opts.Types
	fr := record.NewRecorder(p.Entry, dims, consts, p.Realization)
	n := newNet(fr, p.Realization)
	if !t.Activations.IsZero() {
		n.dt = t.Activations
	}
	if !t.Params.IsZero() {
		n.pt = t.Params
	}
	s.of.build(n, v)
	fwd, err := fr.Finish()
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", p.Name, err)
	}
	r := record.NewStepRecorder(p.Entry, dims, consts, s.realization(p.Realization))
	b := newStepBuilder(fwd, r, s, n.dt)
	if err := b.build(); err != nil {
		return nil, fmt.Errorf("program %s: %w", p.Name, err)
	}
	rec, err := r.Finish()
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", p.Name, err)
	}
	return rec, nil
}

// realization describes the step's types in the header: the program's
// realization, and the types the step sets.
func (s *stepSpec) realization(own string) string {
	if t := s.opts.Types.String(); t != "" {
		return own + "; " + strings.ReplaceAll(t, ",", ", ")
	}
	return own
}

// isFloat reports whether t is a floating type, whose values have
// gradients.
func isFloat(t record.DType) bool {
	switch t.Name {
	case "f64", "f32", "f16", "bf16", "f8":
		return true
	}
	return false
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
