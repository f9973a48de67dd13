package explain

import (
	"context"
	"fmt"
	"strings"

	"memsym/count"
	"memsym/model"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// StepContent is a training step of the program under one set of
// options, as Gather makes it: the step's model at the chapter's
// constants, the step recorded and counted at the chapter's point, and
// the model's checks at further points.
type StepContent struct {
	// Of is the bundled program whose step it is (its forward pass);
	// Options say how the step was made.
	Of      *programs.Program
	Options programs.StepOptions
	Model   *model.Step
	// Recording is the step recorded at the chapter's point, Counted its
	// count; both nil when no point was counted.
	Recording *record.Recording
	Counted   *count.Step
	// Verified are the step model's checks at further points.
	Verified []model.Check
	// Cross says along one dimension, the others at Fixed, where the
	// optimizer's states (holder 0, which holds where they tie) and where
	// the kept activations (holder 1) are larger; Confirmed are
	// recordings of the step on both sides of each change.
	Cross     *model.Crossovers
	Fixed     record.Point
	Confirmed []StepCrossCheck
	// Reach is where the program stops running along Cross's dimension,
	// the others at Fixed (model.Model.RunsTo).
	Reach model.Reach
}

// StepCrossCheck is the step recorded beside a change of which of the
// states and the kept activations is larger.
type StepCrossCheck struct {
	Point record.Point
	// Predicted is the holder the crossover says is larger there: 0 the
	// states, 1 the kept activations.
	Predicted    int
	Kept, States poly.Rat
	// Refused says why the program could not be recorded there (a
	// value it does not take); "" when it was.
	Refused string
}

// OK reports whether the recording shows the predicted holder.
func (c StepCrossCheck) OK() bool {
	return c.Refused == "" && (c.Kept.Cmp(c.States) > 0) == (c.Predicted == 1)
}

// gatherSteps records and models the training step of r's program under
// each of r.Step's options.
func gatherSteps(ctx context.Context, r *Request) ([]StepContent, error) {
	ps, ok := r.Source.(*source.Program)
	if !ok {
		return nil, &source.UsageError{Msg: "--step records a bundled program's training step: use it with --program"}
	}
	var out []StepContent
	for _, o := range r.Step {
		sp, err := ps.P.Step(o)
		if err != nil {
			return nil, err
		}
		src := &source.Program{P: sp, Consts: ps.Consts}
		sm, err := model.Build(ctx, src, r.Spec)
		if err != nil {
			return nil, err
		}
		st, err := model.StepOf(sm)
		if err != nil {
			return nil, err
		}
		c := StepContent{Of: ps.P, Options: o, Model: st}
		switch {
		case len(st.Vars) == 0:
			c.Recording = st.Structure
		case r.At != nil:
			if c.Recording, err = src.Record(ctx, r.At); err != nil {
				return nil, err
			}
		}
		if c.Recording != nil {
			if c.Counted, err = count.StepAt(c.Recording); err != nil {
				return nil, err
			}
		}
		if len(st.Vars) > 0 {
			if r.Verify > 0 {
				c.Verified = st.Verify(ctx, src, r.Verify, 1)
			}
			if c.Cross, c.Fixed, err = stepCrossover(st, r.Along, r.At); err != nil {
				return nil, err
			}
			c.Reach = sm.RunsTo(src, c.Cross.Dim, sm.Base(nil, c.Fixed))
			if r.Confirm {
				if c.Confirmed, err = confirmStepCross(ctx, src, c.Cross, c.Fixed, st.Vars); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// StepInput is the program's training step under one remat or two, as
// the chapter writes it up.
type StepInput struct {
	// Optimizer names the optimizer ("adamw"); Types are the stored types
	// the step sets ("params=bf16, activations=bf16"), "" for the
	// program's own.
	Optimizer, Types string
	// Columns are the step under each remat, store before recompute.
	Columns []StepColumn
	// Shape names the dimensions and constants the activations' estimate
	// reads as s, b, h, a and L; nil for a program it does not fit.
	Shape *programs.Transformer
}

// StepColumn is the step under one remat.
type StepColumn struct {
	// Remat is "store" or "recompute".
	Remat string
	// At holds the step counted in a recording at the chapter's point;
	// nil when no point was counted.
	At *StepCounts
	// Symbolic holds the step's polynomials; nil for a program without
	// dimensions.
	Symbolic *StepPolys
	// Estimates are the analytic estimates beside the exact terms at the
	// point (constant polynomials; nil without a point) and as
	// polynomials (nil without dimensions); P is the parameters'
	// elements in each.
	EstimatesAt, Estimates []EstimateRow
	// EstimatesOmitted says which of Estimates' rows are left out and
	// why, or is "".
	EstimatesOmitted string
	PAt, P           poly.Poly
	// PSymbol is P's name in the estimates' rules: "P", or "Ψ" where
	// the program has a P of its own (model.Comparison.Symbol).
	PSymbol string
	// Verified are the step's polynomials' checks at further points.
	Verified []VerifyRow
}

// StepCounts are a step's terms in one recording (count.StepAt).
type StepCounts struct {
	At                                    record.Point
	Ops                                   int
	Params, States, Gradient, Batch, Kept poly.Rat
	StateParts                            []NamedBytes
	Phases                                []StepPeakRow
	Peak                                  StepPeakRow
}

// NamedBytes are the bytes of the buffers of one name.
type NamedBytes struct {
	Name  string
	Bytes poly.Rat
}

// StepPeakRow is a phase's peak (or the step's) in one recording: its
// operation, its label and call, and its six terms, which sum to it.
type StepPeakRow struct {
	Phase                                      string
	Op                                         int
	Label, Path                                string
	Params, States, Batch, Gradient, Kept, Own poly.Rat
}

// Bytes returns the peak's bytes: its terms' sum.
func (p StepPeakRow) Bytes() poly.Rat {
	return p.Params.Add(p.States).Add(p.Batch).Add(p.Gradient).Add(p.Kept).Add(p.Own)
}

// StepPolys is a step's model: its terms as polynomials, its peak's
// candidates and where the kept activations outweigh the states.
type StepPolys struct {
	// Grid and Checked are the step model's, as SymbolicModel's are.
	Grid    [][]int64
	Checked []record.Point
	Ops     int

	Params, States, Gradient, Batch, Kept poly.Poly
	StateParts                            []NamedPoly
	// PhaseKept counts each phase's kept candidates, in the order of the
	// phases; Peak are the step's peak's candidates, the largest of which
	// it is at every point, and Undecided the pairs of them memsym could
	// neither prove nor refute to dominate one another.
	PhaseKept []PhaseCount
	Peak      []StepCandidate
	Undecided int
	// Cross says along one dimension where the optimizer's states are at
	// least the kept activations (holder 0) and where the kept
	// activations outweigh them (holder 1); nil when it was not found.
	Cross *StepCross
}

// NamedPoly is the bytes of the buffers of one name, as a polynomial.
type NamedPoly struct {
	Name  string
	Bytes poly.Poly
}

// PhaseCount is how many kept candidates a phase's peak has.
type PhaseCount struct {
	Phase string
	Kept  int
}

// StepCandidate is one candidate for the step's peak: the loop's terms
// and what is live at an operation, as a polynomial.
type StepCandidate struct {
	Poly        poly.Poly
	Phase       string
	Op          int
	Label, Path string
}

// StepCross says, along one dimension, which of the optimizer's states
// (holder 0, at least as large) and the kept activations (holder 1,
// larger) is larger where.
type StepCross struct {
	Along    string
	Fixed    record.Point
	Segments []SegmentRow
	// Confirmed are recordings of the step on both sides of each change;
	// none when none was asked for.
	Confirmed []StepCrossCheck
	// Reach is where the program stops running along Along; zero where
	// it does not.
	Reach model.Reach
}

// EstimateRow is one analytic estimate beside the exact term.
type EstimateRow struct {
	Term, Rule      string
	Estimate, Exact poly.Poly
	Why             string
	WhyParts        []any // Why as words and numbers, when it has numbers
}

// stepCrossover finds along along (the last dimension when "") where the
// kept activations outweigh the optimizer's states, the other dimensions
// at at's values (else the grid's smallest), which it returns.
func stepCrossover(s *model.Step, along string, at record.Point) (*model.Crossovers, record.Point, error) {
	vars := s.Vars
	if along == "" {
		along = vars[len(vars)-1]
	}
	fixed := map[string]int64{}
	var point record.Point
	for i, v := range vars {
		if v == along {
			continue
		}
		x := s.Grid[i][0]
		if y, ok := at.Value(v); ok {
			x = y
		}
		fixed[v] = x
		point = append(point, record.Dim{Name: v, Value: x})
	}
	c, err := s.Crossover(s.States, s.Kept, along, fixed)
	if err != nil {
		return nil, nil, fmt.Errorf("the step's kept activations against its states along %s: %w", along, err)
	}
	return c, point, nil
}

// confirmStepCross records the step on both sides of each change of c,
// the other dimensions at fixed. A point the program does not take is
// said as such.
func confirmStepCross(ctx context.Context, src *source.Program, c *model.Crossovers, fixed record.Point, vars []string) ([]StepCrossCheck, error) {
	var out []StepCrossCheck
	for i := 1; i < len(c.Segments); i++ {
		x := c.Segments[i].From
		for k, v := range []int64{x - 1, x} {
			p := record.Point{}
			for _, name := range vars {
				if name == c.Dim {
					p = append(p, record.Dim{Name: name, Value: v})
				} else if y, ok := fixed.Value(name); ok {
					p = append(p, record.Dim{Name: name, Value: y})
				}
			}
			chk := StepCrossCheck{Point: p, Predicted: c.Segments[i-1+k].Holder}
			if why := source.Limit(src, p); why != nil {
				chk.Refused = why.Error() // in the program's words
				out = append(out, chk)
				continue
			}
			rec, err := src.Record(ctx, p)
			if err != nil {
				return nil, err
			}
			st, err := count.StepAt(rec)
			if err != nil {
				return nil, err
			}
			chk.Kept, chk.States = st.Kept, st.States
			out = append(out, chk)
		}
	}
	return out, nil
}

// stepInput turns the steps' content into the chapter's.
func stepInput(steps []StepContent) (*StepInput, error) {
	if len(steps) == 0 {
		return nil, nil
	}
	o := steps[0].Options
	in := &StepInput{Optimizer: o.Optimizer.String(), Types: strings.ReplaceAll(o.Types.String(), ",", ", "), Shape: steps[0].Of.Transformer}
	for _, s := range steps {
		col := StepColumn{Remat: s.Options.Remat.String()}
		act := model.ActType(s.Of, s.Options)
		if s.Counted != nil {
			col.At = stepCounts(s.Recording, s.Counted)
			cmp, err := model.CompareAt(s.Recording, s.Counted, s.Of, s.Options, act)
			if err != nil {
				return nil, err
			}
			col.PAt, col.EstimatesAt, col.PSymbol = cmp.P, estimateRows(cmp), cmp.Symbol
		}
		if len(s.Model.Vars) > 0 {
			sym := stepPolys(s.Model)
			if s.Cross != nil {
				sym.Cross = &StepCross{Along: s.Cross.Dim, Fixed: s.Fixed, Confirmed: s.Confirmed, Reach: s.Reach}
				for _, seg := range s.Cross.Segments {
					sym.Cross.Segments = append(sym.Cross.Segments, SegmentRow{From: seg.From, To: seg.To, Holder: seg.Holder})
				}
			}
			col.Symbolic = sym
			cmp, err := s.Model.Compare(s.Of, s.Options, act)
			if err != nil {
				return nil, err
			}
			col.P, col.Estimates, col.EstimatesOmitted, col.PSymbol = cmp.P, estimateRows(cmp), cmp.Omitted, cmp.Symbol
		}
		for _, chk := range s.Verified {
			row := VerifyRow{Point: chk.Point}
			if chk.Err != nil {
				row.Err = strings.ReplaceAll(chk.Err.Error(), "\n", " ")
			}
			col.Verified = append(col.Verified, row)
		}
		in.Columns = append(in.Columns, col)
	}
	return in, nil
}

func estimateRows(c *model.Comparison) []EstimateRow {
	var out []EstimateRow
	for _, r := range c.Rows {
		out = append(out, EstimateRow{Term: r.Term, Rule: r.Rule, Estimate: r.Estimate, Exact: r.Exact, Why: r.Why, WhyParts: r.WhyParts})
	}
	return out
}

// stepCounts turns a recorded step's count into the chapter's.
func stepCounts(rec *record.Recording, c *count.Step) *StepCounts {
	sc := &StepCounts{At: rec.Header.Dims, Ops: rec.Ops.Len(), Params: c.Params, States: c.States, Gradient: c.Gradient, Batch: c.Batch, Kept: c.Kept}
	for _, p := range c.StateParts {
		sc.StateParts = append(sc.StateParts, NamedBytes{p.Name, p.Bytes})
	}
	row := func(p count.PhasePeak) StepPeakRow {
		op := rec.Ops.At(p.Op - 1)
		t := p.Terms
		return StepPeakRow{Phase: p.Phase.String(), Op: p.Op, Label: op.Label, Path: op.Path,
			Params: t.Params, States: t.States, Batch: t.Batch, Gradient: t.Gradient, Kept: t.Kept, Own: t.Own}
	}
	for _, p := range c.Phases {
		sc.Phases = append(sc.Phases, row(p))
	}
	sc.Peak = row(c.Peak)
	return sc
}

// stepPolys turns a step's model into the chapter's, but for its
// crossover.
func stepPolys(s *model.Step) *StepPolys {
	order := func(p poly.Poly) poly.Poly { return inOrder(p, s.Vars) }
	sp := &StepPolys{Grid: s.Grid, Checked: s.CheckPoints(), Ops: s.Structure.Ops.Len(),
		Params: order(s.Params), States: order(s.States), Gradient: order(s.Gradient), Batch: order(s.Batch), Kept: order(s.Kept),
		Undecided: len(s.Peak.Front.Undecided)}
	for _, p := range s.StateParts {
		sp.StateParts = append(sp.StateParts, NamedPoly{p.Name, order(p.Bytes)})
	}
	for _, ph := range s.Phases {
		sp.PhaseKept = append(sp.PhaseKept, PhaseCount{ph.Phase.String(), len(ph.Front.Kept)})
	}
	for _, k := range s.Peak.Front.Kept {
		c := s.Peak.Cands[k]
		n, op := s.OpInStructure(c.Op)
		sp.Peak = append(sp.Peak, StepCandidate{Poly: order(c.Poly), Phase: op.Phase.String(), Op: n, Label: op.Label, Path: op.Path})
	}
	return sp
}
