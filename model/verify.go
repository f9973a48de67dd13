package model

import (
	"context"
	"fmt"

	"memsym/count"
	"memsym/interp"
	"memsym/record"
	"memsym/source"
)

// Check is the outcome of checking the model against a fresh recording at
// one point (statement M3).
type Check struct {
	Point record.Point
	// Err is nil when every buffer's bytes, the inputs, the outputs, the
	// live bytes at every operation and the peak (its bytes and its
	// operation) are the model's; else what differs.
	Err error
}

// CheckAt records src afresh at p and checks the model there exactly: every
// buffer, the inputs, the outputs, the live bytes at every operation, and
// the peak's bytes and operation.
func (m *Model) CheckAt(ctx context.Context, src source.Source, p record.Point) error {
	rec, err := src.Record(ctx, p)
	if err != nil {
		return err
	}
	return m.CheckRecording(rec, src.Name()+"("+p.Key()+")")
}

// CheckRecording checks the model against rec, a recording at a point off
// the grid, named name in messages.
func (m *Model) CheckRecording(rec *record.Recording, name string) error {
	if err := m.Model.Check(interp.Source{Name: name, Open: func() (record.Stream, error) { return rec.Replay(), nil }}); err != nil {
		return err
	}
	c := count.At(rec)
	peak, op, err := m.Peak(rec.Header.Dims)
	if err != nil {
		return err
	}
	if !peak.Equal(c.Peak) {
		return fmt.Errorf("the largest kept candidate gives %s bytes, the recorded peak is %s", peak, c.Peak)
	}
	if op = m.OpAt(op, rec.Header.Dims.Map()); op != c.PeakOp {
		return fmt.Errorf("the model puts the peak at operation %d, the recording at operation %d", op, c.PeakOp)
	}
	return nil
}

// Verify checks the model at n points off the grid chosen by
// source.OffGrid from seed, where src's program runs, recording each
// afresh.
func (m *Model) Verify(ctx context.Context, src source.Source, n int, seed uint64) []Check {
	var out []Check
	runs := func(p record.Point) bool { return source.Limit(src, p) == nil }
	for _, p := range source.OffGrid(m.GridValues(), m.Vars, n, seed, runs, m.CheckPoints()...) {
		out = append(out, Check{Point: p, Err: m.CheckAt(ctx, src, p)})
	}
	return out
}
