package page

import (
	"fmt"
	"slices"

	"memsym/model"
	"memsym/poly"
)

// Step is a training step the page shows beside the model (memsym page
// --step): its model, of the same program and dimensions, and its name
// ("store", "recompute").
type Step struct {
	Name  string
	Model *model.Step
}

// StepNumbers are what the page shows of a step at an assignment: its
// terms from its polynomials, as model.Step.Eval counts them. The step
// keeps its own stored types: the page's types re-type the forward's
// parameters only.
type StepNumbers struct {
	Terms *model.StepTerms
	// Fits is whether the step's peak is at most the budget; Margin is
	// by how much it is under or over it.
	Fits   bool
	Margin poly.Rat
}

// stepData is a step as the page's script reads it; every polynomial an
// index into Polys.
type stepData struct {
	Name     string      `json:"name"`
	Params   int         `json:"params"`
	States   int         `json:"states"`
	Gradient int         `json:"gradient"`
	Batch    int         `json:"batch"`
	Kept     int         `json:"kept"`
	Parts    []partData  `json:"parts"` // the states by name
	Phases   []phaseData `json:"phases"`
}

type partData struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// phaseData is one phase: the batch the loop holds in it and its sums,
// each distinct one at the first operation that has it, in the order of
// the operations, as [sum, operation, gradient, kept, own]: the sum is
// the parameters, the states, the phase's batch and the three live terms,
// the operation is numbered as in a recording, and its label follows.
type phaseData struct {
	Phase  string   `json:"phase"`
	Batch  int      `json:"batch"`
	Cands  [][5]int `json:"cands"`
	Labels []string `json:"labels"`
}

// checkSteps refuses steps of other dimensions than the model's.
func checkSteps(m *model.Model, steps []Step) error {
	for _, s := range steps {
		if !slices.Equal(s.Model.Vars, m.Vars) {
			return fmt.Errorf("the step %s has the dimensions %v, the model %v: a page shows one program", s.Name, s.Model.Vars, m.Vars)
		}
		if d := s.Model.FoldDim(); d != "" {
			return fmt.Errorf("the page cannot yet draw a step whose %s counts blocks of operations", d)
		}
	}
	return nil
}

// stepsData assembles the steps' data into t's polynomials.
func (pg *Page) stepsData(t *polyTable) []stepData {
	out := []stepData{}
	for _, s := range pg.steps {
		st := s.Model
		d := stepData{Name: s.Name, Params: t.add(st.Params), States: t.add(st.States), Gradient: t.add(st.Gradient),
			Batch: t.add(st.Batch), Kept: t.add(st.Kept), Parts: []partData{}}
		for _, p := range st.StateParts {
			d.Parts = append(d.Parts, partData{Name: p.Name, Bytes: t.add(p.Bytes)})
		}
		for i := range st.Phases {
			ph := &st.Phases[i]
			pd := phaseData{Phase: ph.Phase.String(), Batch: t.add(ph.Batch)}
			for _, c := range ph.Cands {
				live := st.LiveTerms(c.Op)
				pd.Cands = append(pd.Cands, [5]int{t.add(c.Poly), c.Op, t.add(live[0]), t.add(live[1]), t.add(live[2])})
				pd.Labels = append(pd.Labels, StepLabel(st, c.Op))
			}
			d.Phases = append(d.Phases, pd)
		}
		out = append(out, d)
	}
	return out
}

// stepsAt returns the steps' numbers at a.
func (pg *Page) stepsAt(a Assignment) ([]StepNumbers, error) {
	var out []StepNumbers
	for _, s := range pg.steps {
		t, err := s.Model.Eval(s.Model.Point(a.At))
		if err != nil {
			return nil, err
		}
		n := StepNumbers{Terms: t, Fits: t.Peak.Bytes.Cmp(a.Budget) <= 0}
		if n.Fits {
			n.Margin = a.Budget.Sub(t.Peak.Bytes)
		} else {
			n.Margin = t.Peak.Bytes.Sub(a.Budget)
		}
		out = append(out, n)
	}
	return out, nil
}

// StepLabel names operation op of a step's recordings as the page does:
// its label, and its call after " in ".
func StepLabel(st *model.Step, op int) string {
	o := st.Op(op)
	if o.Path == "" {
		return o.Label
	}
	return o.Label + " in " + o.Path
}
