package model

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"memsym/count"
	"memsym/dominance"
	"memsym/interp"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// Crossovers says which candidate holds the peak along one dimension, the
// others fixed or, where it was proven not to matter, free. Holder indices
// are into Cands.
type Crossovers = dominance.Crossovers

// DependsError is the error of Crossovers when which candidate holds the
// peak may depend on a dimension left free: it needs a value.
type DependsError = dominance.DependsError

// Crossovers finds exactly from which integer along dim each candidate
// holds the peak, the dimensions in fixed set to their values: at each
// integer the largest candidate, and of those tied for largest the one at
// the earliest operation, as a recording's peak is the first operation that
// reaches it (so a pruned candidate holds it where it ties a kept one at an
// earlier operation). It returns
// a *DependsError when the holder may depend on a free dimension.
func (m *Model) Crossovers(dim string, fixed map[string]int64) (*Crossovers, error) {
	if !contains(m.Vars, dim) {
		return nil, fmt.Errorf("no dimension %s (the dimensions are %s)", dim, m.varList())
	}
	if len(m.Front.Kept) == 0 {
		// As Piecewise says it: there is nothing to cross over.
		return nil, fmt.Errorf("the program has no operations, so no peak to follow along %s", dim)
	}
	return m.alongAll(m.Cands, m.Front, dim, fixed)
}

// NotRunningError is Confirm's refusal of a side of a crossover where the
// program does not run (a bundled program's limits): nothing is recorded.
type NotRunningError struct {
	Point   record.Point
	Program string
	Err     error // in the program's words (source.Limit)
}

func (e *NotRunningError) Error() string {
	return fmt.Sprintf("%s, one side of a crossover, lies past the sizes %s takes (%v)", e.Point, e.Program, e.Err)
}

// Confirmation is one recording made beside a crossover to confirm it.
type Confirmation struct {
	Point record.Point
	// Predicted is the candidate (an index into Cands) the crossovers say
	// holds the peak there, PredictedPeak its bytes.
	Predicted     int
	PredictedPeak poly.Rat
	// Peak and PeakOp are the recording's.
	Peak   poly.Rat
	PeakOp int
	// Differs says how the recording is not the model's there (its
	// operations or buffers, or some buffer's bytes, not the polynomials'),
	// "" when it is: a peak at the operation predicted means nothing in a
	// recording whose operations are not the model's.
	Differs string
	// Unrecorded is why no recording was made at Point (its recorder
	// failed, say): nothing was confirmed there, and Peak and PeakOp are
	// zero.
	Unrecorded error
}

// OK reports whether the recording is as predicted: the model's there,
// with the peak's bytes and its operation both.
func (c *Confirmation) OK(m *Model) bool {
	return c.Unrecorded == nil && c.Differs == "" && c.Peak.Equal(c.PredictedPeak) && c.PeakOp == m.OpAt(m.Cands[c.Predicted].Op, c.Point.Map())
}

// confirming records src at p to confirm an answer. A recording that
// fails there (its recorder, say) is failed, the answer standing, not
// confirmed there; err is what stops the confirming altogether: the run
// ending, or a source that records no new points.
func confirming(ctx context.Context, src source.Source, p record.Point) (rec *record.Recording, failed, err error) {
	rec, err = src.Record(ctx, p)
	switch {
	case err == nil:
		return rec, nil, nil
	case ctx.Err() != nil || errors.Is(err, source.ErrCannotRecord):
		return nil, nil, err
	}
	return nil, err, nil
}

// UnrecordedConfirmations counts the confirmations whose recording failed.
func UnrecordedConfirmations(confirmed []Confirmation) int {
	n := 0
	for i := range confirmed {
		if confirmed[i].Unrecorded != nil {
			n++
		}
	}
	return n
}

// differs checks rec, recorded at p to confirm an answer, against the model
// there, on the grid or off it (interp.Model.Agrees), and says how it
// differs; "" when it does not.
func (m *Model) differs(rec *record.Recording, name string, p record.Point) string {
	src := interp.Source{Name: name + "(" + p.Key() + ")", Open: func() (record.Stream, error) { return rec.Replay(), nil }}
	if err := m.Model.Agrees(src); err != nil {
		return err.Error()
	}
	return ""
}

// Confirm records src on both sides of each crossover, the other dimensions
// at base's values, and returns what each recording shows, each point once;
// a point whose recording fails is returned Unrecorded.
func (m *Model) Confirm(ctx context.Context, src source.Source, c *Crossovers, base record.Point) ([]Confirmation, error) {
	var out []Confirmation
	for _, side := range confirmSides(c, base) {
		p := side.point
		if why := source.Limit(src, p); why != nil {
			return nil, &NotRunningError{Point: p, Program: src.Name(), Err: why}
		}
		want, err := m.Cands[side.holder].Poly.EvalInt(p.Map())
		if err != nil {
			return nil, err
		}
		rec, failed, err := confirming(ctx, src, p)
		if err != nil {
			return nil, err
		}
		if failed != nil {
			out = append(out, Confirmation{Point: p, Predicted: side.holder, PredictedPeak: want, Unrecorded: failed})
			continue
		}
		counts := count.At(rec)
		out = append(out, Confirmation{Point: p, Predicted: side.holder, PredictedPeak: want, Peak: counts.Peak, PeakOp: counts.PeakOp, Differs: m.differs(rec, src.Name(), p)})
	}
	return out, nil
}

// ConfirmPoints returns the points Confirm records src at to confirm c,
// the other dimensions at base's values, in the order it records them:
// those before the first where the program does not run, where Confirm
// stops. A source that records several points at once can record them
// ahead of Confirm (source.Prefetcher).
func (m *Model) ConfirmPoints(src source.Source, c *Crossovers, base record.Point) []record.Point {
	var out []record.Point
	for _, side := range confirmSides(c, base) {
		if source.Limit(src, side.point) != nil {
			break
		}
		out = append(out, side.point)
	}
	return out
}

// confirmSide is a point beside a crossover and the candidate predicted to
// hold the peak there.
type confirmSide struct {
	point  record.Point
	holder int
}

// confirmSides returns both sides of each of c's crossovers, the other
// dimensions at base's values, each point once, in order: the points
// Confirm records.
func confirmSides(c *Crossovers, base record.Point) []confirmSide {
	var out []confirmSide
	for i := 1; i < len(c.Segments); i++ {
		x := c.Segments[i].From
		for _, side := range []struct {
			x      int64
			holder int
		}{{x - 1, c.Segments[i-1].Holder}, {x, c.Segments[i].Holder}} {
			p := base.With(c.Dim, side.x)
			if slices.ContainsFunc(out, func(s confirmSide) bool { return s.point.Equal(p) }) {
				// A stretch of one value is the right side of one
				// crossover and the left of the next, with one holder:
				// recorded and listed once.
				continue
			}
			out = append(out, confirmSide{point: p, holder: side.holder})
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ConfirmBase is the point at whose other dimensions the recordings that
// confirm c are made: c's fixed values, else prefer's (a bundled program's
// default point, say, or the point a chapter counts), else the grid's
// smallest.
func (m *Model) ConfirmBase(c *Crossovers, prefer record.Point) record.Point {
	return m.Base(c.Fixed, prefer)
}

// Base is a point of the model's dimensions: fixed's values, else prefer's,
// else the grid's smallest.
func (m *Model) Base(fixed map[string]int64, prefer record.Point) record.Point {
	base := make(record.Point, len(m.Vars))
	for i, v := range m.Vars {
		base[i] = record.Dim{Name: v, Value: m.Grid[i][0]}
		if x, ok := fixed[v]; ok {
			base[i].Value = x
		} else if x, ok := prefer.Value(v); ok {
			base[i].Value = x
		}
	}
	return base
}
