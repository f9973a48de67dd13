package interp

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"memsym/count"
	"memsym/poly"
)

// lastMiddlePoly returns slot s's polynomial in sp at the last middle iteration:
// base + t·step, t being L − 1, or L − 2 when the last is peeled.
func (f *fold) lastMiddlePoly(sp *slotPolys, s int) poly.Poly {
	t := poly.Var(f.dim).Sub(poly.Const(poly.Int(f.lo)))
	return sp.base[s].Add(sp.step[s].Mul(t))
}

// standsLast reports whether the structure's first middle iteration
// stands for the last middle one in slot s: when its step is proven ≥ 0,
// so that the last is the largest of the middle ones, and is not zero:
// where every middle iteration has the same bytes, the first reaches them
// first, and stands for itself (at lo = 2, for the peeled last).
func (f *fold) standsLast(s int) bool { return !f.step[s].IsZero() && nonnegative(f.step[s]) }

// at returns the polynomial of slot s at iteration t of the structure, a
// run of lo + 2 iterations, by what that iteration stands for: the first,
// the first middle one (base + step; the last middle one when standsLast),
// the last middle one, or the peeled last; a fixed slot's for a fixed one.
// The middle ones' bytes being linear in their iteration, the largest of
// them is the first's or the last's.
func (f *fold) at(s, t int) poly.Poly { return f.atIn(&f.slotPolys, s, t) }

// atIn is at for the polynomials sp of another value, iteration t standing
// for what it does for the bytes.
func (f *fold) atIn(sp *slotPolys, s, t int) poly.Poly {
	switch {
	case t == 0 || !f.tmpl.inRun(s):
		return sp.first[s]
	case t == 1 && !f.standsLast(s):
		return sp.base[s].Add(sp.step[s])
	case f.isLast(t, f.refN()):
		return sp.last[s]
	}
	return f.lastMiddlePoly(sp, s)
}

// model assembles the Model on the structure l, the recording at the
// folding dimension's value lo + 2: its first iteration's operations and
// buffers stand for the first, its two middle ones' for the first and the
// last middle iterations, and its last's, peeled, for the last.
func (f *fold) model(g *grid, l *layout) *Model {
	rec := l.rec
	nops := len(f.tmpl.opKeys)
	m := &Model{
		Vars: g.vars, Structure: rec, Lives: count.Lifetimes(rec),
		polys:  make([]poly.Poly, rec.Buffers.Len()),
		Params: f.params, Inputs: f.inputs, Outputs: f.outputs,
		LiveAt: make([]int32, rec.Ops.Len()),
		fold:   f,
	}
	for _, v := range g.values {
		m.Grid = append(m.Grid, []int64{v[0], v[1], v[2]})
	}
	for i, p := range l.bufs {
		m.polys[i] = f.at(nops+p.slot, p.iter)
	}
	f.opPerUnit = make([]int, rec.Ops.Len())
	f.opShift = make([]int, rec.Ops.Len())
	perUnit := 0 // operations more per unit of the dimension, of the runs before
	all := []poly.Poly{m.Params, m.Inputs, m.Outputs}
	for i, p := range l.ops {
		run := f.tmpl.opRun[p.slot]
		live := f.at(p.slot, p.iter)
		f.opPerUnit[i] = perUnit
		if run >= 0 && p.iter > 0 {
			// The last middle iteration and the peeled last move with
			// the run's length; the first middle one does not, unless
			// it stands for the last, one iteration further.
			width := f.tmpl.runs[run].width
			if p.iter > 1 || f.standsLast(p.slot) {
				f.opPerUnit[i] = perUnit + width
			}
			if p.iter == 1 && f.standsLast(p.slot) {
				f.opShift[i] = width
			}
			if i+1 == len(l.ops) || l.ops[i+1].iter == 0 || f.tmpl.opRun[l.ops[i+1].slot] != run {
				perUnit += width // the run ends here
			}
		}
		c := slices.IndexFunc(m.Candidates, func(c Candidate) bool { return c.Poly.Equal(live) })
		if c < 0 {
			c = len(m.Candidates)
			m.Candidates = append(m.Candidates, Candidate{Poly: live, Op: i + 1})
			all = append(all, live)
		}
		m.LiveAt[i] = int32(c)
	}
	m.den = denominator(all)
	return m
}

// OpAt returns the number, in a recording at the point at, of the
// structure's operation op: op itself unless a dimension counts blocks of
// operations, whose value moves the operations after the first iteration.
func (m *Model) OpAt(op int, at map[string]int64) int {
	if m.fold == nil || op < 1 || op > len(m.fold.opPerUnit) {
		return op
	}
	n, ok := at[m.fold.dim]
	if !ok {
		return op
	}
	return op + m.fold.opShift[op-1] + m.fold.opPerUnit[op-1]*int(n-m.fold.refN())
}

// PathAt returns the call path, in a recording at the point at, of the
// structure's operation op as OpAt numbers it there: its own path, unless
// a dimension counts blocks of operations and op is in a block, whose
// iteration at moves (the last middle block's, the last's) or which stands
// for another (a first middle block standing for the last).
func (m *Model) PathAt(op int, at map[string]int64) string {
	path := m.Structure.Ops.Path(op - 1)
	f := m.fold
	if f == nil || op > len(f.ref.ops) {
		return path
	}
	n, ok := at[f.dim]
	if !ok || n < 1 {
		return path
	}
	p := f.ref.ops[op-1]
	run := f.tmpl.opRun[p.slot]
	if run < 0 || foldIndex(path, f.prefix) < 0 {
		return path
	}
	var t int // the iteration at n, in the order they run
	switch {
	case p.iter == 0:
		t = 0
	case f.isLast(p.iter, f.refN()):
		t = int(n - 1)
	case p.iter == 1 && !f.standsLast(p.slot):
		t = 1
	default:
		t = f.lastMiddle(n)
	}
	t = min(t, int(n-1))
	if f.tmpl.runs[run].down {
		t = int(n-1) - t
	}
	_, rest, _ := strings.Cut(path[len(f.prefix):], "]")
	return f.prefix + "[" + strconv.Itoa(t) + "]" + rest
}

// FoldDim returns the dimension that counts blocks of operations, or "".
func (m *Model) FoldDim() string {
	if m.fold == nil {
		return ""
	}
	return m.fold.dim
}

// Least returns the least value of dimension v that the model holds for:
// 2 for a dimension that counts blocks whose last stands apart (the grid
// starting at 2), else 1.
func (m *Model) Least(v string) int64 {
	if m.fold == nil || m.fold.dim != v {
		return 1
	}
	return m.fold.lo
}

// denominator returns the least common multiple of the denominators of the
// polynomials' coefficients.
func denominator(ps []poly.Poly) *big.Int {
	d := big.NewInt(1)
	for _, p := range ps {
		for i := range p.Len() {
			c, _ := p.Term(i)
			den := c.Den()
			g := new(big.Int).GCD(nil, nil, d, den)
			d.Mul(d, den.Quo(den, g))
		}
	}
	return d
}
