package model

import (
	"context"
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// gptDepth builds the model of the bundled gpt-depth (its training step
// when step is set) on a small grid, its width D = 16: L ∈ {2, 3, 4}, so
// that it holds for every L ≥ 2.
func gptDepth(t *testing.T, step bool) (*Model, source.Source) {
	t.Helper()
	p, err := programs.Lookup("gpt-depth")
	if err != nil {
		t.Fatal(err)
	}
	if step {
		if p, err = p.Step(programs.StepOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	src := &source.Program{P: p, Consts: map[string]int64{"D": 16, "H": 2}}
	spec := source.Spec{Grid: []source.GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}, {Name: "T", Values: [3]int64{4, 8, 12}}}}
	m, err := Build(context.Background(), src, spec)
	if err != nil {
		t.Fatal(err)
	}
	return m, src
}

// recordedPeak records src at p and returns its peak and operation.
func recordedPeak(t *testing.T, src source.Source, p record.Point) (poly.Rat, int) {
	t.Helper()
	rec, err := src.Record(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	c := count.At(rec)
	return c.Peak, c.PeakOp
}

// checkTotals checks the symbolic step s's totals at the point at against
// the step c counted there: parameters, states, batch, gradient, kept.
func checkTotals(t *testing.T, name string, s *Step, c *count.Step, at record.Point) {
	t.Helper()
	for _, x := range []struct {
		what string
		p    poly.Poly
		want poly.Rat
	}{{"parameters", s.Params, c.Params}, {"states", s.States, c.States}, {"batch", s.Batch, c.Batch}, {"gradient", s.Gradient, c.Gradient}, {"kept", s.Kept, c.Kept}} {
		if got, err := x.p.EvalInt(at.Map()); err != nil || !got.Equal(x.want) {
			t.Errorf("%s at %s: %s %s gives %s, recorded %s", name, at, x.what, x.p, got, x.want)
		}
	}
}

// recordedStep records src at p and counts its training step exactly.
func recordedStep(t *testing.T, src source.Source, p record.Point) *count.Step {
	t.Helper()
	rec, err := src.Record(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := count.StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDomainFromTwo: a model whose block count L starts at 2 says so, and
// refuses L = 1 where it would be asked for a value.
func TestDomainFromTwo(t *testing.T) {
	m, _ := gptDepth(t, false)
	if got, want := m.DomainString(), "every B, T ≥ 1 and L ≥ 2"; got != want {
		t.Errorf("DomainString %q, want %q", got, want)
	}
	if _, err := m.PointOf(map[string]int64{"B": 2, "T": 3, "L": 1}); err == nil || !strings.Contains(err.Error(), "L = 1: the model holds for every L ≥ 2") {
		t.Errorf("PointOf at L = 1: %v", err)
	}
	if _, _, err := m.Peak(m.Point([]int64{2, 3, 1})); err == nil {
		t.Errorf("Peak at L = 1: no error")
	}
	if _, err := m.Crossovers("T", map[string]int64{"B": 2, "L": 1}); err == nil {
		t.Errorf("Crossovers at L = 1: no error")
	}
	for pair, w := range m.Front.Witnesses() {
		if l, ok := w["L"]; ok && l < 2 {
			t.Errorf("the witness for %v is at L = %d, outside the model", pair, w["L"])
		}
	}
	// The parameters grow by one block's for each block.
	if d := m.Params.Degree("L"); d != 1 {
		t.Errorf("parameters %s: degree %d in L, want 1", m.Params, d)
	}
}

// TestDomainCrossovers: along L the segments start at 2, and at each
// segment's ends (L = 2 among them) the holder's bytes and operation are
// a fresh recording's; along T, L free, the holders hold at L = 2 too.
func TestDomainCrossovers(t *testing.T) {
	for _, step := range []bool{false, true} {
		m, src := gptDepth(t, step)
		for _, c := range []struct {
			along string
			fixed map[string]int64
			at    []int64 // values of the dimension left free, to check at
		}{
			{"L", map[string]int64{"B": 3, "T": 5}, nil},
			{"L", map[string]int64{"B": 1, "T": 40}, nil},
			{"T", map[string]int64{"B": 2}, []int64{2, 3, 9}},
			{"T", map[string]int64{"B": 2, "L": 2}, nil},
		} {
			if _, ok := c.fixed["L"]; step && !ok {
				continue // the step's holder along T depends on L
			}
			cr, err := m.Crossovers(c.along, c.fixed)
			if err != nil {
				t.Fatalf("step %v, along %s at %v: %v", step, c.along, c.fixed, err)
			}
			if want := m.Least(c.along); cr.Segments[0].From != want {
				t.Errorf("step %v, along %s: the first segment starts at %d, want %d", step, c.along, cr.Segments[0].From, want)
			}
			if len(cr.Fixed) != len(c.fixed) || cr.Fixed["B"] != c.fixed["B"] {
				t.Errorf("step %v, along %s: Fixed %v, want %v", step, c.along, cr.Fixed, c.fixed)
			}
			frees := c.at
			if frees == nil {
				frees = []int64{0}
			}
			for _, s := range cr.Segments {
				xs := []int64{s.From, s.From + 1}
				if s.To != 0 {
					xs = append(xs, s.To)
				}
				for _, x := range xs {
					for _, free := range frees {
						vals := map[string]int64{c.along: x}
						for k, v := range c.fixed {
							vals[k] = v
						}
						if free != 0 {
							vals["L"] = free
						}
						p, err := m.PointOf(vals)
						if err != nil {
							t.Fatal(err)
						}
						want, err := m.Cands[s.Holder].Poly.EvalInt(p.Map())
						if err != nil {
							t.Fatal(err)
						}
						peak, op := recordedPeak(t, src, p)
						if !peak.Equal(want) || m.OpAt(m.Cands[s.Holder].Op, p.Map()) != op {
							t.Errorf("step %v, along %s at %s: the holder gives %s at operation %d, recorded %s at %d", step, c.along, p, want, m.OpAt(m.Cands[s.Holder].Op, p.Map()), peak, op)
						}
						if got, _, err := m.Peak(p); err != nil || !got.Equal(want) {
							t.Errorf("step %v, along %s at %s: Peak %s (%v), the holder %s", step, c.along, p, got, err, want)
						}
					}
				}
			}
		}
	}
}

// TestDomainFit: along L the fit starts at 2: nothing fitting says so at
// L = 2, and an answer and one past it are recorded as predicted.
func TestDomainFit(t *testing.T) {
	m, src := gptDepth(t, false)
	f, err := m.Fit("L", map[string]int64{"B": 2, "T": 8}, poly.Int(1))
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != FitsNone || f.Past == nil || f.Past.Point.Map()["L"] != 2 {
		t.Fatalf("a budget of 1 byte: %v, past %v; want nothing fitting, L = 2 past it", f.Kind, f.Past)
	}
	at, err := m.Eval(m.Point([]int64{2, 8, 40}))
	if err != nil {
		t.Fatal(err)
	}
	f, err = m.Fit("L", map[string]int64{"B": 2, "T": 8}, at.Needs)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != FitsUpTo || f.Largest != 40 || len(f.Gaps) != 0 {
		t.Fatalf("the needs at L = 40 as the budget: %v, largest %d, gaps %v", f.Kind, f.Largest, f.Gaps)
	}
	checks, err := m.ConfirmFit(context.Background(), src, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if !c.OK(f.Budget) {
			t.Errorf("the fit's check at %s: %+v", c.Point, c)
		}
	}
}

// TestStepFolded: the training step of a GPT whose block count is a
// dimension: its parameters, states, gradient and kept activations are
// linear in L, and each phase's peak, its operation and its terms are a
// fresh recording's at L = 2 (no middle block), 3 (one) and beyond.
func TestStepFolded(t *testing.T) {
	m, src := gptDepth(t, true)
	s, err := StepOf(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		what string
		p    poly.Poly
	}{{"parameters", s.Params}, {"states", s.States}, {"gradient", s.Gradient}, {"kept", s.Kept}} {
		if d := x.p.Degree("L"); d != 1 {
			t.Errorf("%s %s: degree %d in L, want 1", x.what, x.p, d)
		}
	}
	for _, v := range [][3]int64{{2, 5, 2}, {5, 3, 2}, {1, 9, 3}, {4, 13, 3}, {3, 7, 8}, {6, 2, 11}} {
		at := m.Point(v[:])
		c := recordedStep(t, src, at)
		checkTotals(t, "gpt-depth", s, c, at)
		for k, part := range s.StateParts {
			if got, _ := part.Bytes.EvalInt(at.Map()); !got.Equal(c.StateParts[k].Bytes) {
				t.Errorf("at %s: the states %q give %s, recorded %s", at, part.Name, got, c.StateParts[k].Bytes)
			}
		}
		for i, ph := range s.Phases {
			bytes, op, terms, err := ph.PeakAt(at)
			if err != nil {
				t.Fatal(err)
			}
			want := c.Phases[i]
			if !bytes.Equal(want.Terms.Sum()) || m.OpAt(op, at.Map()) != want.Op || !sameTerms(terms, want.Terms) {
				t.Errorf("at %s: the %s phase's peak from the polynomials is %s at operation %d (%+v); recorded, %s at %d (%+v)",
					at, ph.Phase, bytes, m.OpAt(op, at.Map()), terms, want.Terms.Sum(), want.Op, want.Terms)
			}
		}
	}
}
