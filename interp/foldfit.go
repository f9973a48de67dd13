package interp

import (
	"fmt"
	"slices"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// interpolate finds every term's polynomial: the totals over the grid,
// and each slot's by fitSlots.
func (f *fold) interpolate(g *grid, j int, lays []*layout) error {
	vals := make([]map[place]poly.Rat, len(lays))
	vectors := make([][]poly.Rat, 3)
	for _, i := range g.order {
		c := count.At(lays[i].rec)
		vals[i] = lays[i].byIter(c)
		vectors[0], vectors[1], vectors[2] = append(vectors[0], c.Params), append(vectors[1], c.Inputs), append(vectors[2], c.Outputs)
	}
	polys, err := Interpolate(g.vars, g.values, vectors)
	if err != nil {
		return err
	}
	f.params, f.inputs, f.outputs = polys[0], polys[1], polys[2]
	f.slotPolys, err = f.fitSlots(g, j, lays, vals, "live bytes")
	return err
}

// slotPolys are a value's polynomials per slot, operations' then
// buffers': the first iteration's (a fixed slot's), the base and the step
// of the middle ones, and the peeled last iteration's (nil unless peeled).
type slotPolys struct {
	first, base, step, last []poly.Poly
}

// fitSlots interpolates each slot's values, vals[i] being the grid
// recording lays[i]'s by place: the first and the peeled last iteration's
// over the whole grid, the steps from the recording with two middle
// iterations, the bases from those with one or more. what names the
// values of operations' slots in messages.
func (f *fold) fitSlots(g *grid, j int, lays []*layout, vals []map[place]poly.Rat, what string) (slotPolys, error) {
	var sp slotPolys
	n := f.tmpl.slots()
	k := n
	if f.peeled() {
		k += n
	}
	vectors := make([][]poly.Rat, k)
	for _, i := range g.order {
		for s := range n {
			vectors[s] = append(vectors[s], vals[i][place{s, 0}])
			if f.peeled() {
				last := place{s, 0}
				if f.tmpl.inRun(s) {
					last.iter = int(lays[i].n - 1)
				}
				vectors[n+s] = append(vectors[n+s], vals[i][last])
			}
		}
	}
	polys, err := Interpolate(g.vars, g.values, vectors)
	if err != nil {
		return sp, err
	}
	sp.first = polys[:n]
	if f.peeled() {
		sp.last = polys[n:]
	}
	// The steps, in the other dimensions.
	others := otherDims(g, j)
	steps := map[string][]poly.Rat{} // by the point of the other dimensions
	stepVectors := make([][]poly.Rat, n)
	for _, i := range g.order {
		l := lays[i]
		mid := f.lastMiddle(l.n)
		if mid < 2 {
			continue
		}
		st, err := l.steps(vals[i], f.dim, mid, what)
		if err != nil {
			return sp, err
		}
		key := pointName(others.of(g.dims[i]))
		if prev, ok := steps[key]; ok {
			for s := range st {
				if !st[s].Equal(prev[s]) {
					return sp, l.offLine(s, mid, vals[i][place{s, mid}], vals[i][place{s, mid - 1}].Add(prev[s]), f.dim, what)
				}
			}
			continue
		}
		steps[key] = st
		for s := range st {
			stepVectors[s] = append(stepVectors[s], st[s])
		}
	}
	if sp.step, err = Interpolate(others.vars, others.values, stepVectors); err != nil {
		return sp, err
	}
	sp.base, err = f.bases(g, j, lays, vals, sp.step)
	return sp, err
}

// bases interpolates each run slot's base, its value at the first middle
// iteration less one step, from the recordings with a middle iteration:
// the folding dimension's two grid values above the least, so linearly in
// it.
func (f *fold) bases(g *grid, j int, lays []*layout, vals []map[place]poly.Rat, step []poly.Poly) ([]poly.Poly, error) {
	n := f.tmpl.slots()
	ns := g.values[j][1:] // the values with a middle iteration
	others := otherDims(g, j)
	// vectors[k][s]: slot s's base at each point of the other dimensions,
	// at the folding dimension's value ns[k].
	vectors := make([][][]poly.Rat, len(ns))
	for k := range vectors {
		vectors[k] = make([][]poly.Rat, n)
	}
	for _, i := range g.order {
		l := lays[i]
		k := slices.Index(ns, l.n)
		if k < 0 {
			continue
		}
		at := record.Point(g.dims[i]).Map()
		for s := range n {
			var b poly.Rat
			if f.tmpl.inRun(s) {
				st, err := step[s].EvalInt(at)
				if err != nil {
					return nil, err
				}
				b = vals[i][place{s, 1}].Sub(st)
			}
			vectors[k][s] = append(vectors[k][s], b)
		}
	}
	lo, err := Interpolate(others.vars, others.values, vectors[0])
	if err != nil {
		return nil, err
	}
	hi, err := Interpolate(others.vars, others.values, vectors[1])
	if err != nil {
		return nil, err
	}
	x := poly.Var(f.dim).Sub(poly.Const(poly.Int(ns[0])))
	base := make([]poly.Poly, n)
	for s := range n {
		slope := hi[s].Sub(lo[s]).Scale(poly.Frac(1, ns[1]-ns[0]))
		base[s] = lo[s].Add(slope.Mul(x))
	}
	return base, nil
}

// others is the grid without the folding dimension.
type others struct {
	vars   []string
	values [][3]int64
	j      int
}

func otherDims(g *grid, j int) others {
	o := others{j: j}
	for i, v := range g.vars {
		if i != j {
			o.vars, o.values = append(o.vars, v), append(o.values, g.values[i])
		}
	}
	return o
}

// of returns a point without the folding dimension.
func (o others) of(dims []record.Dim) []record.Dim {
	return slices.Delete(slices.Clone(dims), o.j, o.j+1)
}

// steps returns, for a recording whose last middle iteration is last ≥ 2,
// each run slot's step: that iteration's value less the one before, after
// checking that every middle iteration lies on that line.
func (l *layout) steps(vals map[place]poly.Rat, dim string, last int, what string) ([]poly.Rat, error) {
	out := make([]poly.Rat, l.tmpl.slots())
	for s := range out {
		if !l.tmpl.inRun(s) {
			continue
		}
		end := vals[place{s, last}]
		out[s] = end.Sub(vals[place{s, last - 1}])
		for it := 1; it < last-1; it++ {
			want := end.Sub(out[s].Mul(poly.Int(int64(last - it))))
			if got := vals[place{s, it}]; !got.Equal(want) {
				return nil, l.offLine(s, it, got, want, dim, what)
			}
		}
	}
	return out, nil
}

// offLine refuses an iteration whose bytes are not on the line of the
// middle ones.
func (l *layout) offLine(s, it int, got, want poly.Rat, dim, what string) error {
	nops := len(l.tmpl.opKeys)
	if s < nops {
		for i, p := range l.ops {
			if p.slot == s && p.iter == it {
				o := l.rec.Ops.At(i)
				return fmt.Errorf("%s: operation %d (%q%s) has %s %s, but the middle iterations of %s step by equal bytes to %s there: the blocks that %s counts must each keep the same bytes",
					at(l.name, o.Line), i+1, o.Label, inPath(o.Path), got, what, l.prefix, want, dim)
			}
		}
	}
	for i, p := range l.bufs {
		if p.slot == s-nops && p.iter == it {
			b := l.rec.Buffers.At(i)
			return fmt.Errorf("%s: buffer %d%s has %s bytes, but the middle iterations of %s step by equal bytes to %s there: the blocks that %s counts must each hold the same buffers",
				at(l.name, b.Line), b.ID, quoted(b.Name), got, l.prefix, want, dim)
		}
	}
	return fmt.Errorf("%s: iteration %d of %s is off the line of the others", record.ShowFile(l.name), it, l.prefix)
}

// nonnegative reports whether p ≥ 0 at every point with its variables ≥ 1,
// by a sufficient test: every coefficient of p with each x set to 1 + x is
// ≥ 0.
func nonnegative(p poly.Poly) bool {
	q := p.Shift(poly.Int(1))
	for i := range q.Len() {
		if c, _ := q.Term(i); c.Sign() < 0 {
			return false
		}
	}
	return true
}
