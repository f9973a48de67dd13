package model

import (
	"context"
	"sort"

	"memsym/count"
	"memsym/poly"
	"memsym/source"
)

// StepFit is the answer to "what is the largest value of Along whose
// training step's peak fits Budget", the other dimensions fixed. Fit says
// which values fit, its At and Past left nil: the step's terms there are
// At and Past.
type StepFit struct {
	Fit *Fit
	// At is the step at Fit.Largest (FitsUpTo) or Fit.From (FitsFrom);
	// Past one beyond, as Fit says. Either may be nil.
	At, Past *StepTerms
	// BeyondAt is the step at Fit.Beyond(), as Fit.BeyondAt; nil when
	// there is no such value.
	BeyondAt *StepTerms
}

// Fit finds, exactly, the largest value of along ≥ 1 whose step's peak is
// at most budget, the other dimensions at fixed (which must give each a
// value). The step's peak is the largest of its kept candidates, each a
// polynomial, and no assumption is made that it grows: every value below
// the answer that does not fit is listed in Gaps. The loop's parameters,
// states and batch are in the peak: nothing is added to it.
func (s *Step) Fit(along string, fixed map[string]int64, budget poly.Rat) (*StepFit, error) {
	return s.FitFrom(along, fixed, budget, 0)
}

// FitFrom is Fit over the values of along from from on, as Model.FitFrom.
func (s *Step) FitFrom(along string, fixed map[string]int64, budget poly.Rat, from int64) (*StepFit, error) {
	f, err := s.fitAll(along, fixed, budget, s.PeakPolys(), from)
	if err != nil {
		return nil, err
	}
	out := &StepFit{Fit: f}
	at, past := f.atPast()
	eval := func(x int64) (*StepTerms, error) { return unlessNegative(s.Eval(f.Point(s.Model, x))) }
	if at > 0 {
		if out.At, err = eval(at); err != nil {
			return nil, err
		}
	}
	if past > 0 {
		if out.Past, err = eval(past); err != nil {
			return nil, err
		}
	}
	if x := f.Beyond(); x > 0 {
		if out.BeyondAt, err = eval(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ConfirmFit records src, a source of the step's recordings, at the fit's
// answer and one past it, and returns what each recording's step peaks at:
// a FitCheck whose needs are the step's peak, and how the recording is not
// the step model's there, if it is not; a point whose recording fails is
// returned Unrecorded.
func (s *Step) ConfirmFit(ctx context.Context, src source.Source, f *StepFit) ([]FitCheck, error) {
	var out []FitCheck
	for _, t := range []*StepTerms{f.At, f.Past} {
		if t == nil || !runsAt(src, t.Point) {
			continue
		}
		fits := t.Peak.Bytes.Cmp(f.Fit.Budget) <= 0
		rec, failed, err := confirming(ctx, src, t.Point)
		if err != nil {
			return nil, err
		}
		if failed != nil {
			out = append(out, FitCheck{Point: t.Point, Predicted: t.Peak.Bytes, PredictedOp: t.Peak.Op, Fits: fits, Unrecorded: failed})
			continue
		}
		c, err := count.StepAt(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, FitCheck{
			Point: t.Point, Predicted: t.Peak.Bytes, PredictedOp: t.Peak.Op,
			Needs: c.Peak.Terms.Sum(), PeakOp: c.Peak.Op, Fits: fits,
			Differs: s.differs(rec, src.Name(), t.Point),
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := out[i].Point.Value(f.Fit.Along)
		b, _ := out[j].Point.Value(f.Fit.Along)
		return a < b
	})
	return out, nil
}

// BudgetFitJSON returns the step's fit f, and its confirmations if any, as
// JSON: its needs are the step's peak, and its holder the candidate (the
// loop's terms and what is live) at the peak's operation.
func (s *Step) BudgetFitJSON(f *StepFit, checks []FitCheck) BudgetFitJSON {
	out := s.Model.BudgetFitJSON(f.Fit, checks)
	out.At, out.Past, out.Beyond = s.needsJSON(f.At), s.needsJSON(f.Past), s.needsJSON(f.BeyondAt)
	return out
}

func (s *Step) needsJSON(t *StepTerms) *NeedsJSON {
	if t == nil {
		return nil
	}
	pk := t.Peak
	op := s.Op(pk.ModelOp)
	return &NeedsJSON{
		Point: OrderedPoint(t.Point), Needs: pk.Bytes.String(), Peak: pk.Bytes.String(), Operation: pk.Op, Phase: pk.Phase.String(),
		Holder: CandidateJSON{Poly: pk.Poly.ASCII(), Op: pk.ModelOp, Label: op.Label, Path: op.Path},
	}
}
