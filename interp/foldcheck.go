package interp

import (
	"fmt"
	"slices"
	"strings"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// atLeast proves that at the folding dimension's least value lo, where no
// middle iteration runs, no middle polynomial misstates the peak. Each
// middle operation of the structure stands, at lo, for the operation
// OpAt gives: of the first iteration's slot, or of the peeled last's for
// the first middle one when lo is 2. Its polynomial there must be that
// operation's live bytes, or else at most those of an operation of its
// phase that runs there and comes before it, or less than those of one
// that runs there and comes after. Then the peak and its operation, the
// first to reach it, are a real one's, each phase's too. l is the
// structure's layout.
func (f *fold) atLeast(l *layout) error {
	lo := func(p poly.Poly) poly.Poly { return p.Subst(f.dim, poly.Int(f.lo)) }
	middle := func(p place) bool {
		return f.tmpl.opRun[p.slot] >= 0 && p.iter > 0 && !f.isLast(p.iter, f.refN())
	}
	// The live bytes at lo of every structure operation that runs there:
	// the fixed ones, the first iteration's and the peeled last's.
	real := make([]*poly.Poly, len(l.ops))
	for i, p := range l.ops {
		if !middle(p) {
			r := lo(f.at(p.slot, p.iter))
			real[i] = &r
		}
	}
	for i, p := range l.ops {
		if !middle(p) {
			continue
		}
		mine := lo(f.at(p.slot, p.iter))
		// The iteration it stands for at lo: 1 for the first middle one
		// (the peeled last when lo is 2), else the first.
		// A middle operation that passes counts as one that runs for
		// those after it: where one after it ties it, it comes first and
		// holds the peak in its place, at the operation it stands for.
		if p.iter == 1 && !f.standsLast(p.slot) {
			if f.peeled() && mine.Equal(lo(f.last[p.slot])) {
				real[i] = &mine
				continue
			}
		} else if mine.Equal(lo(f.first[p.slot])) {
			real[i] = &mine
			continue
		}
		if f.covered(l, real, i, mine) {
			real[i] = &mine
		} else {
			o := l.rec.Ops.At(i)
			return fmt.Errorf("operation %q%s: at %s = %d no middle iteration of %s runs, and the polynomial of its live bytes, %s, is not proven there at most those of an operation that runs before it, nor less than those of one that runs after it: where it is the largest, it would place the peak at an operation that does not run; memsym cannot state the peak as the largest of polynomials for every %s ≥ %d",
				o.Label, inPath(pattern(o.Path, f.prefix)), f.dim, f.lo, f.prefix, f.at(p.slot, p.iter), f.dim, f.lo)
		}
	}
	return nil
}

// covered reports whether mine, the polynomial of structure operation i at
// the least value, is proven at most real[k] for some operation k of its
// phase before it, or less than real[k] for one after it; real[k] is nil
// for an operation that does not run there.
func (f *fold) covered(l *layout, real []*poly.Poly, i int, mine poly.Poly) bool {
	for k, r := range real {
		if r == nil || l.rec.Ops.Phase(k) != l.rec.Ops.Phase(i) {
			continue
		}
		d := r.Sub(mine)
		if k > i {
			// Strictly less: d is a multiple of 1/den at every integer
			// point, so d > 0 there when d − 1/den ≥ 0.
			den := denominator([]poly.Poly{d})
			d = d.Sub(poly.Const(poly.Int(1).Quo(poly.FromBigInt(den))))
		}
		if nonnegative(d) {
			return true
		}
	}
	return false
}

// checkPoint is Model.Check (Model.Agrees unless offGrid) for a folded
// model.
func (f *fold) checkPoint(m *Model, src Source, offGrid bool) error {
	h, line, err := readHeader(src)
	if err != nil {
		return err
	}
	if got, want := dimNames(h.Dims), strings.Join(m.Vars, ", "); got != want {
		return fmt.Errorf("%s: the check point's dimensions are %s but the grid's are %s", at(src.Name, line), got, want)
	}
	for j, d := range h.Dims {
		if d.Value < 1 {
			return fmt.Errorf("%s: dimension %s = %d: dimensions are integers of at least 1", at(src.Name, line), d.Name, d.Value)
		}
		if d.Name == f.dim && d.Value < f.lo {
			return fmt.Errorf("%s: %s = %d: the model holds for every %s ≥ %d, its grid's least value, the first and the last block standing apart", at(src.Name, line), d.Name, d.Value, d.Name, f.lo)
		}
		if offGrid && slices.Contains(m.Grid[j], d.Value) {
			return fmt.Errorf("%s: the check point %s has %s = %d, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value", at(src.Name, line), record.Point(h.Dims).String(), d.Name, d.Value)
		}
	}
	_, err = f.check(m, src, h.Dims)
	return err
}

// check checks the model against the recording of src at the point dims:
// it must align, and every term must be the polynomials' value there. It
// returns the recording's layout.
func (f *fold) check(m *Model, src Source, dims []record.Dim) (*layout, error) {
	st, err := readStructure(src, pointName(dims), nil)
	if err != nil {
		return nil, err
	}
	vals := record.Point(dims).Map()
	n := vals[f.dim]
	if n < f.lo {
		return nil, fmt.Errorf("%s: %s = %d: the model holds for every %s ≥ %d, its grid's least value, the first and the last block standing apart", src.Name, f.dim, n, f.dim, f.lo)
	}
	l, err := layoutOf(st.rec, src.Name, n, f.prefix, &f.tmpl)
	if err != nil {
		return nil, err
	}
	l.resultLine = st.resultLine
	if err := l.alignTo(&layout{rec: m.Structure, n: f.refN(), tmpl: f.tmpl}); err != nil {
		return nil, err
	}
	if err := f.flow.clone().add(f, l); err != nil {
		return nil, err
	}
	point := pointName(dims)
	value := func(p poly.Poly) poly.Rat {
		v, _ := p.EvalInt(vals)
		return v
	}
	// want returns slot s's value at iteration t.
	want := func(s, t int) poly.Rat {
		switch {
		case t == 0:
			return value(f.first[s])
		case f.isLast(t, n):
			return value(f.last[s])
		}
		return value(f.base[s]).Add(value(f.step[s]).Mul(poly.Int(int64(t))))
	}
	c := count.At(st.rec)
	for _, t := range []struct {
		what string
		p    poly.Poly
		got  poly.Rat
	}{{"the parameters", f.params, c.Params}, {"the inputs", f.inputs, c.Inputs}, {"the outputs", f.outputs, c.Outputs}} {
		if w := value(t.p); !w.Equal(t.got) {
			return nil, fmt.Errorf("%s: %s are %s bytes at %s but their polynomial %s gives %s: %s", src.Name, t.what, t.got, point, t.p, w, notPolynomial(st.rec.Header.Dims))
		}
	}
	// A last block off the line of the middle ones, in a model from 1,
	// is the likely cause of any term the model misses: the grid's least
	// value is a block both first and last.
	lastApart := func(why string) string {
		if f.lastApart(l, c) {
			return fmt.Sprintf("at %s the middle iterations of %s step by equal bytes but the last does not: the last block differs from the others (as when it is the last to read a buffer that every block reads, and frees it), and at %s = 1 the one block is both the first and the last, so no maximum of polynomials states the peak for every %s ≥ 1; memsym models such blocks for every %s ≥ 2, the first and the last standing apart, from the grid %s ∈ {2, 3, 4} (--grid %s=2,3,4 where memsym records)",
				point, f.prefix, f.dim, f.dim, f.dim, f.dim, f.dim)
		}
		return why
	}
	nops := len(f.tmpl.opKeys)
	for i, p := range l.bufs {
		b := st.rec.Buffers.At(i)
		if w := want(nops+p.slot, p.iter); !b.Bytes.Equal(w) {
			return nil, fmt.Errorf("%s: buffer %d%s has %s bytes at %s but the model gives %s: %s", at(src.Name, b.Line), b.ID, quoted(b.Name), b.Bytes, point, w, lastApart(notPolynomial(st.rec.Header.Dims)))
		}
	}
	for i, p := range l.ops {
		if w := want(p.slot, p.iter); !c.Live[i].Equal(w) {
			o := st.rec.Ops.At(i)
			why := lastApart(fmt.Sprintf("the blocks that %s counts must each keep the same bytes, and every term be a polynomial of degree ≤ 2 %s", f.dim, inEach(st.rec.Header.Dims)))
			return nil, fmt.Errorf("%s: operation %d (%q%s) has %s live bytes at %s but the model gives %s: %s",
				at(src.Name, o.Line), i+1, o.Label, inPath(o.Path), c.Live[i], point, w, why)
		}
	}
	return l, nil
}

// lastApart reports whether, in a model from 1 that does not peel the last
// iteration, the recording l, whose counts are c, shows a last iteration
// off the line of its middle ones, which are on one: the case of a model
// from 2.
func (f *fold) lastApart(l *layout, c *count.Counts) bool {
	if f.peeled() || l.n < 4 {
		return false
	}
	vals := l.byIter(c)
	mid := int(l.n - 2)
	st, err := l.steps(vals, f.dim, mid, "live bytes")
	if err != nil {
		return false
	}
	last := int(l.n - 1)
	for s := range st {
		if f.tmpl.inRun(s) && !vals[place{s, last}].Equal(vals[place{s, mid}].Add(st[s])) {
			return true
		}
	}
	return false
}
