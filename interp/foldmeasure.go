package interp

import (
	"fmt"

	"memsym/poly"
	"memsym/record"
)

// Measures are values a recording has beyond its buffers' bytes and live
// bytes, which a caller derives from it: totals, one value each, and
// values per operation, PerOp[k][op−1] the k-th at operation op (as a
// training step's gradient, kept and other live bytes are).
type Measures struct {
	Totals []poly.Rat
	PerOp  [][]poly.Rat
}

// Measured are Measures as polynomials: each total, and PerOp[k][op−1]
// the k-th value at the structure's operation op, at the iteration that
// operation stands for, as its candidate does.
type Measured struct {
	Totals []poly.Poly
	PerOp  [][]poly.Poly
}

// Measure interpolates measures of the recordings of a model whose
// dimension counts blocks of operations, whose structure holds only a
// few blocks, so that sums over its buffers do not count the others: each
// total over the grid, each value per operation as the live bytes are.
// It checks them at the check points Build was given. measure must give
// every recording the same number of totals and of values per operation.
// A model whose dimensions do not count blocks is refused: its structure
// holds every buffer.
func (m *Model) Measure(measure func(rec *record.Recording) Measures) (*Measured, error) {
	f := m.fold
	if f == nil {
		return nil, fmt.Errorf("the model's dimensions count no blocks: its structure holds every buffer")
	}
	g, lays := f.g, f.lays
	ms := make([]Measures, len(lays))
	for _, i := range g.order {
		ms[i] = measure(lays[i].rec)
		if err := sameShape(ms[i], ms[g.order[0]], lays[i]); err != nil {
			return nil, err
		}
	}
	out := &Measured{}
	// The totals, over the grid.
	first := ms[g.order[0]]
	vectors := make([][]poly.Rat, len(first.Totals))
	for _, i := range g.order {
		for k, v := range ms[i].Totals {
			vectors[k] = append(vectors[k], v)
		}
	}
	var err error
	if out.Totals, err = Interpolate(g.vars, g.values, vectors); err != nil {
		return nil, err
	}
	// The values per operation, slot by slot.
	sps := make([]slotPolys, len(first.PerOp))
	for k := range first.PerOp {
		vals := make([]map[place]poly.Rat, len(lays))
		for _, i := range g.order {
			vals[i] = lays[i].opValues(ms[i].PerOp[k])
		}
		if sps[k], err = f.fitSlots(g, f.j, lays, vals, fmt.Sprintf("as its %s value", ordinal(k+1))); err != nil {
			return nil, err
		}
		ops := make([]poly.Poly, len(m.LiveAt))
		for i, p := range f.ref.ops {
			ops[i] = f.atIn(&sps[k], p.slot, p.iter)
		}
		out.PerOp = append(out.PerOp, ops)
	}
	for _, l := range f.checked {
		if err := f.checkMeasures(l, measure(l.rec), first, out, sps); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// opValues returns per-operation values by place.
func (l *layout) opValues(vs []poly.Rat) map[place]poly.Rat {
	out := make(map[place]poly.Rat, len(vs))
	for i, p := range l.ops {
		out[p] = vs[i]
	}
	return out
}

// sameShape checks that a recording's measures have the shape of the
// first's: as many totals, as many values per operation, one per
// operation.
func sameShape(got, want Measures, l *layout) error {
	if len(got.Totals) != len(want.Totals) || len(got.PerOp) != len(want.PerOp) {
		return fmt.Errorf("%s: %d totals and %d values per operation measured, the first recording's %d and %d", l.name, len(got.Totals), len(got.PerOp), len(want.Totals), len(want.PerOp))
	}
	for k, vs := range got.PerOp {
		if len(vs) != l.rec.Ops.Len() {
			return fmt.Errorf("%s: %d values measured of the %s kind, for %d operations", l.name, len(vs), ordinal(k+1), l.rec.Ops.Len())
		}
	}
	return nil
}

// checkMeasures checks the measured polynomials against a check point's
// recording, laid out as l, whose measures are got.
func (f *fold) checkMeasures(l *layout, got, shape Measures, out *Measured, sps []slotPolys) error {
	if err := sameShape(got, shape, l); err != nil {
		return err
	}
	vals := record.Point(l.rec.Header.Dims).Map()
	point := pointName(l.rec.Header.Dims)
	for k, p := range out.Totals {
		if w, _ := p.EvalInt(vals); !w.Equal(got.Totals[k]) {
			return fmt.Errorf("%s: the %s total measured is %s at %s but its polynomial %s gives %s: %s", l.name, ordinal(k+1), got.Totals[k], point, p, w, notPolynomial(l.rec.Header.Dims))
		}
	}
	for k := range got.PerOp {
		sp := &sps[k]
		for i, p := range l.ops {
			var w poly.Rat
			switch {
			case p.iter == 0:
				w, _ = sp.first[p.slot].EvalInt(vals)
			case f.isLast(p.iter, l.n):
				w, _ = sp.last[p.slot].EvalInt(vals)
			default:
				b, _ := sp.base[p.slot].EvalInt(vals)
				st, _ := sp.step[p.slot].EvalInt(vals)
				w = b.Add(st.Mul(poly.Int(int64(p.iter))))
			}
			if !w.Equal(got.PerOp[k][i]) {
				o := l.rec.Ops.At(i)
				return fmt.Errorf("%s: operation %d (%q%s) has %s as its %s value at %s but the model gives %s: the blocks that %s counts must each keep the same bytes",
					at(l.name, o.Line), i+1, o.Label, inPath(o.Path), got.PerOp[k][i], ordinal(k+1), point, w, f.dim)
			}
		}
	}
	return nil
}
