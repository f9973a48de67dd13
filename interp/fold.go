package interp

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// The model of a grid whose operations repeat along one dimension, once
// align.go has placed every recording on one template.
//
// Each fixed operation's live bytes, each first iteration's, the
// parameters, the inputs and the outputs are interpolated over the whole
// grid, as in any model. The iterations after the first step by equal
// bytes: at iteration t ≥ 1 an operation's live bytes are base + t·step.
// The step, a polynomial in the other dimensions, is read from the
// recordings with three iterations or more; the base from those with two
// or more, in the folding dimension linearly when the grid holds 1 (whose
// recording has no second iteration), else as any term. The first
// iteration stands apart: it reads the caller's inputs where the others
// read the block before. Buffers are modelled the same way.
//
// The peak is the largest of the fixed operations', the first iteration's
// and the last's live bytes, base + (L − 1)·step, when every step is ≥ 0:
// the last is then the largest of the iterations after the first. A step
// that may be negative is refused. At L = 1 there is no iteration after
// the first, so each last-iteration polynomial must there be at most a
// real live set's, lest it overstate the peak; that is proven too.

// fold is a model's folding dimension and its terms, kept for checking
// recordings at other values and for numbering their operations.
type fold struct {
	dim    string // the folding dimension
	prefix string // the fold's call path
	tmpl   template
	// Per slot, operations' then buffers': the first iteration's bytes
	// (a fixed slot's), and the base and the step after it.
	first, base, step []poly.Poly
	params, inputs    poly.Poly
	outputs           poly.Poly
	// Per operation of the structure (the recording at the dimension's
	// value 2): how many operations more come before it at each unit of
	// the dimension beyond 2, in the recording at that value.
	opPerUnit []int
}

// foldDim returns the one dimension along which the grid's recordings'
// operation counts differ, or "" when there is no such one.
func foldDim(g *grid, recs []*record.Recording) string {
	var found []string
	for j, v := range g.vars {
		for i := range recs {
			for k := range recs {
				if len(recs[i].Ops) != len(recs[k].Ops) && sameBut(g.dims[i], g.dims[k], j) && !slices.Contains(found, v) {
					found = append(found, v)
				}
			}
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// sameBut reports whether two points differ in dimension j alone.
func sameBut(a, b []record.Dim, j int) bool {
	for i := range a {
		if i != j && a[i].Value != b[i].Value {
			return false
		}
	}
	return a[j].Value != b[j].Value
}

// buildFolded is Build for a grid whose operations differ: when they differ
// along one dimension alone, that dimension counts blocks of operations and
// the recordings align, it models them; it says which operation does not
// align; and when no dimension counts blocks it returns cause, why the
// recordings were refused record by record.
func buildFolded(grid, checks []Source, cause error) (*Model, error) {
	g, err := formGrid(grid)
	if err != nil {
		return nil, cause
	}
	recs := make([]*record.Recording, len(grid))
	for i, src := range grid {
		st, err := readStructure(src, pointName(g.dims[i]), nil)
		if err != nil {
			return nil, cause
		}
		recs[i] = st.rec
	}
	dim := foldDim(g, recs)
	if dim == "" {
		return nil, cause
	}
	j := slices.Index(g.vars, dim)
	var prefixes []string
	for i, rec := range recs {
		ps := foldPrefixes(rec, g.dims[i][j].Value)
		if i == 0 {
			prefixes = ps
		} else {
			prefixes = slices.DeleteFunc(prefixes, func(p string) bool { return !slices.Contains(ps, p) })
		}
	}
	if len(prefixes) == 0 {
		return nil, cause // no fold's iterations are counted by dim
	}
	if !slices.Contains(g.values[j][:], 2) {
		return nil, fmt.Errorf("%w; %s counts the iterations of %s, and memsym models such a count from a grid holding %s = 2 (as %s ∈ {1, 2, 3})", cause, dim, prefixes[0], dim, dim)
	}
	f := &fold{dim: dim, prefix: prefixes[0]}
	lays := make([]*layout, len(recs))
	ref := -1 // the structure: the first grid point at dim = 2
	for _, i := range g.order {
		if lays[i], err = layoutOf(recs[i], grid[i].Name, g.dims[i][j].Value, f.prefix); err != nil {
			return nil, err
		}
		if ref < 0 && lays[i].n == 2 {
			ref = i
		}
	}
	for _, i := range g.order {
		if err := lays[i].alignTo(lays[ref]); err != nil {
			return nil, err
		}
	}
	f.tmpl = lays[ref].tmpl
	if err := f.interpolate(g, j, lays); err != nil {
		return nil, err
	}
	if err := f.atOne(lays[g.order[0]]); err != nil {
		return nil, err
	}
	m := f.model(g, lays[ref])
	for _, src := range checks {
		dims, err := g.checkPoint(src)
		if err != nil {
			return nil, err
		}
		if err := f.check(m, src, dims); err != nil {
			return nil, err
		}
		m.Checked = append(m.Checked, dimValues(dims))
	}
	return m, nil
}

// slots returns the number of slots, operations' then buffers', and
// whether slot s lies in a run.
func (t *template) slots() int { return len(t.opKeys) + len(t.bufKeys) }

func (t *template) inRun(s int) bool {
	if s < len(t.opKeys) {
		return t.opRun[s] >= 0
	}
	return t.bufRun[s-len(t.opKeys)] >= 0
}

// byIter returns a recording's values by slot and iteration: live bytes
// for operations' slots, bytes for buffers'.
func (l *layout) byIter(c *count.Counts) map[place]poly.Rat {
	nops := len(l.tmpl.opKeys)
	out := map[place]poly.Rat{}
	for i, p := range l.ops {
		out[p] = c.Live[i]
	}
	for i, p := range l.bufs {
		out[place{nops + p.slot, p.iter}] = l.rec.Buffers[i].Bytes
	}
	return out
}

// interpolate finds every term's polynomial: the totals and the first
// iteration's over the grid, the steps from the recordings at the folding
// dimension's values ≥ 3, the bases from those ≥ 2.
func (f *fold) interpolate(g *grid, j int, lays []*layout) error {
	n := f.tmpl.slots()
	counts := make([]*count.Counts, len(lays))
	vals := make([]map[place]poly.Rat, len(lays))
	for i, l := range lays {
		counts[i] = count.At(l.rec)
		vals[i] = l.byIter(counts[i])
	}
	// The totals and the first iteration, over the whole grid.
	vectors := make([][]poly.Rat, 3+n)
	for _, i := range g.order {
		c := counts[i]
		vectors[0], vectors[1], vectors[2] = append(vectors[0], c.Params), append(vectors[1], c.Inputs), append(vectors[2], c.Outputs)
		for s := range n {
			vectors[3+s] = append(vectors[3+s], vals[i][place{s, 0}])
		}
	}
	polys, err := Interpolate(g.vars, g.values, vectors)
	if err != nil {
		return err
	}
	f.params, f.inputs, f.outputs, f.first = polys[0], polys[1], polys[2], polys[3:]
	// The steps, in the other dimensions.
	others := otherDims(g, j)
	steps := map[string][]poly.Rat{} // by the point of the other dimensions
	stepVectors := make([][]poly.Rat, n)
	for _, i := range g.order {
		l := lays[i]
		if l.n < 3 {
			continue
		}
		st, err := l.steps(vals[i], f.dim)
		if err != nil {
			return err
		}
		key := pointName(others.of(g.dims[i]))
		if prev, ok := steps[key]; ok {
			for s := range st {
				if !st[s].Equal(prev[s]) {
					return l.offLine(s, lastIter(l.n), vals[i][place{s, lastIter(l.n)}], vals[i][place{s, lastIter(l.n) - 1}].Add(prev[s]), f.dim)
				}
			}
			continue
		}
		steps[key] = st
		for s := range st {
			stepVectors[s] = append(stepVectors[s], st[s])
		}
	}
	if f.step, err = Interpolate(others.vars, others.values, stepVectors); err != nil {
		return err
	}
	for s := range n {
		if s < len(f.tmpl.opKeys) && f.tmpl.inRun(s) && !nonnegative(f.step[s]) {
			l := lays[g.order[0]]
			o := &l.rec.Ops[l.firstOp(s)]
			return fmt.Errorf("operation %q%s: its live bytes step by %s from one of %s's iterations to the next after the first, which may be negative (as when the last block is the last to read a buffer that every block reads, and frees it): memsym models the blocks that %s counts when, after the first, their live bytes stay or grow to the last", o.Label, inPath(pattern(o.Path, f.prefix)), f.step[s], f.prefix, f.dim)
		}
	}
	return f.bases(g, j, lays, vals)
}

// bases interpolates each run slot's base, its value at iteration 1 less
// one step, from the recordings at the folding dimension's values ≥ 2.
func (f *fold) bases(g *grid, j int, lays []*layout, vals []map[place]poly.Rat) error {
	n := f.tmpl.slots()
	var ns []int64 // the folding dimension's grid values ≥ 2
	for _, v := range g.values[j] {
		if v >= 2 {
			ns = append(ns, v)
		}
	}
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
				st, err := f.step[s].EvalInt(at)
				if err != nil {
					return err
				}
				b = vals[i][place{s, 1}].Sub(st)
			}
			vectors[k][s] = append(vectors[k][s], b)
		}
	}
	if len(ns) == 3 {
		var all [][]poly.Rat
		for s := range n {
			all = append(all, gridOrder(g, j, [][]poly.Rat{vectors[0][s], vectors[1][s], vectors[2][s]}))
		}
		var err error
		f.base, err = Interpolate(g.vars, g.values, all)
		return err
	}
	// Two values: linear in the folding dimension.
	lo, err := Interpolate(others.vars, others.values, vectors[0])
	if err != nil {
		return err
	}
	hi, err := Interpolate(others.vars, others.values, vectors[1])
	if err != nil {
		return err
	}
	x := poly.Var(f.dim).Sub(poly.Const(poly.Int(ns[0])))
	f.base = make([]poly.Poly, n)
	for s := range n {
		slope := hi[s].Sub(lo[s]).Scale(poly.Frac(1, ns[1]-ns[0]))
		f.base[s] = lo[s].Add(slope.Mul(x))
	}
	return nil
}

// gridOrder interleaves the values at the folding dimension's three grid
// values (each in the order of the other dimensions' points) into the
// grid's order.
func gridOrder(g *grid, j int, byValue [][]poly.Rat) []poly.Rat {
	var out []poly.Rat
	next := make([]int, 3)
	for p := range len(g.order) {
		d := digit(p, len(g.vars), j)
		out = append(out, byValue[d][next[d]])
		next[d]++
	}
	return out
}

// digit returns point p's grid index in dimension j of k, the first
// dimension's digit the most significant.
func digit(p, k, j int) int {
	for range k - 1 - j {
		p /= 3
	}
	return p % 3
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

// steps returns, for a recording with three iterations or more, each run
// slot's step: the last iteration's value less the one before, after
// checking that every iteration from the second lies on that line.
func (l *layout) steps(vals map[place]poly.Rat, dim string) ([]poly.Rat, error) {
	last := lastIter(l.n)
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
				return nil, l.offLine(s, it, got, want, dim)
			}
		}
	}
	return out, nil
}

// offLine refuses an iteration whose bytes are not on the line of the
// others after the first.
func (l *layout) offLine(s, it int, got, want poly.Rat, dim string) error {
	nops := len(l.tmpl.opKeys)
	if s < nops {
		for i, p := range l.ops {
			if p.slot == s && p.iter == it {
				o := &l.rec.Ops[i]
				return fmt.Errorf("%s: operation %d (%q%s) has %s live bytes, but the iterations of %s after the first step by equal bytes to %s there: the blocks that %s counts must each keep the same bytes",
					at(l.name, o.Line), i+1, o.Label, inPath(o.Path), got, l.prefix, want, dim)
			}
		}
	}
	for i, p := range l.bufs {
		if p.slot == s-nops && p.iter == it {
			b := &l.rec.Buffers[i]
			return fmt.Errorf("%s: buffer %d%s has %s bytes, but the iterations of %s after the first step by equal bytes to %s there: the blocks that %s counts must each hold the same buffers",
				at(l.name, b.Line), b.ID, quoted(b.Name), got, l.prefix, want, dim)
		}
	}
	return fmt.Errorf("%s: iteration %d of %s is off the line of the others", l.name, it, l.prefix)
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

// after returns slot s's polynomial at iteration t: base + t·step, t a
// polynomial (the last iteration's is L − 1).
func (f *fold) after(s int, t poly.Poly) poly.Poly {
	return f.base[s].Add(f.step[s].Mul(t))
}

// last returns slot s's polynomial at the last iteration.
func (f *fold) last(s int) poly.Poly {
	return f.after(s, poly.Var(f.dim).Sub(poly.Const(poly.Int(1))))
}

// atOne proves that at the folding dimension's value 1, where there is no
// iteration after the first, no last-iteration polynomial exceeds every
// real live set there, l being a recording whose layout names the
// operations.
func (f *fold) atOne(l *layout) error {
	one := func(p poly.Poly) poly.Poly { return p.Subst(f.dim, poly.Int(1)) }
	var real []poly.Poly // the fixed and first iterations' live bytes at 1
	for s := range f.tmpl.opKeys {
		real = append(real, one(f.first[s]))
	}
	for s := range f.tmpl.opKeys {
		if !f.tmpl.inRun(s) {
			continue
		}
		lastAtOne := one(f.last(s))
		if !slices.ContainsFunc(real, func(r poly.Poly) bool { return nonnegative(r.Sub(lastAtOne)) }) {
			o := &l.rec.Ops[l.firstOp(s)]
			return fmt.Errorf("operation %q%s: at %s = 1 there is no iteration after the first, yet the polynomial of its live bytes at the last iteration, %s, gives there more than any one live set is proven to: memsym cannot state the peak as the largest of polynomials for every %s ≥ 1",
				o.Label, inPath(pattern(o.Path, f.prefix)), f.dim, f.last(s), f.dim)
		}
	}
	return nil
}

// model assembles the Model on the structure l, the recording at the
// folding dimension's value 2: its first iteration's operations and
// buffers stand for the first, its second's for the last.
func (f *fold) model(g *grid, l *layout) *Model {
	rec := l.rec
	nops := len(f.tmpl.opKeys)
	m := &Model{
		Vars: g.vars, Structure: rec, Lives: count.Lifetimes(rec),
		Bytes:  make([]poly.Poly, len(rec.Buffers)),
		Params: f.params, Inputs: f.inputs, Outputs: f.outputs,
		LiveAt: make([]int32, len(rec.Ops)),
		fold:   f,
	}
	for _, v := range g.values {
		m.Grid = append(m.Grid, []int64{v[0], v[1], v[2]})
	}
	for i, p := range l.bufs {
		m.Bytes[i] = f.first[nops+p.slot]
		if p.iter > 0 {
			m.Bytes[i] = f.last(nops + p.slot)
		}
	}
	f.opPerUnit = make([]int, len(rec.Ops))
	perUnit := 0 // operations more per unit of the dimension, of the runs before
	all := []poly.Poly{m.Params, m.Inputs, m.Outputs}
	for i, p := range l.ops {
		run := f.tmpl.opRun[p.slot]
		live := f.first[p.slot]
		f.opPerUnit[i] = perUnit
		if run >= 0 && p.iter > 0 {
			live = f.last(p.slot)
			if !f.step[p.slot].IsZero() {
				// The last iteration's live bytes are the largest after
				// the first; with a step of 0 the second's are the same,
				// and the first to reach them.
				f.opPerUnit[i] = perUnit + f.tmpl.runs[run].width
			}
			if i+1 == len(l.ops) || l.ops[i+1].iter == 0 || f.tmpl.opRun[l.ops[i+1].slot] != run {
				perUnit += f.tmpl.runs[run].width // the run ends here
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
	return op + m.fold.opPerUnit[op-1]*int(n-2)
}

// FoldDim returns the dimension that counts blocks of operations, or "".
func (m *Model) FoldDim() string {
	if m.fold == nil {
		return ""
	}
	return m.fold.dim
}

// checkPoint is Model.Check for a folded model.
func (f *fold) checkPoint(m *Model, src Source) error {
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
		if slices.Contains(m.Grid[j], d.Value) {
			return fmt.Errorf("%s: the check point %s has %s = %d, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value", at(src.Name, line), record.Point(h.Dims).String(), d.Name, d.Value)
		}
	}
	return f.check(m, src, h.Dims)
}

// check checks the model against the recording of src at the point dims:
// it must align, and every term must be the polynomials' value there.
func (f *fold) check(m *Model, src Source, dims []record.Dim) error {
	st, err := readStructure(src, pointName(dims), nil)
	if err != nil {
		return err
	}
	n := record.Point(dims).Map()[f.dim]
	l, err := layoutOf(st.rec, src.Name, n, f.prefix)
	if err != nil {
		return err
	}
	if err := l.alignTo(&layout{rec: m.Structure, n: 2, tmpl: f.tmpl}); err != nil {
		return err
	}
	vals := record.Point(dims).Map()
	point := pointName(dims)
	value := func(p poly.Poly) poly.Rat {
		v, _ := p.EvalInt(vals)
		return v
	}
	// want returns slot s's value at iteration t.
	want := func(s, t int) poly.Rat {
		if t == 0 {
			return value(f.first[s])
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
			return fmt.Errorf("%s: %s are %s bytes at %s but their polynomial %s gives %s: %s", src.Name, t.what, t.got, point, t.p, w, notPolynomial)
		}
	}
	nops := len(f.tmpl.opKeys)
	for i, p := range l.bufs {
		b := &st.rec.Buffers[i]
		if w := want(nops+p.slot, p.iter); !b.Bytes.Equal(w) {
			return fmt.Errorf("%s: buffer %d%s has %s bytes at %s but the model gives %s: %s", at(src.Name, b.Line), b.ID, quoted(b.Name), b.Bytes, point, w, notPolynomial)
		}
	}
	for i, p := range l.ops {
		if w := want(p.slot, p.iter); !c.Live[i].Equal(w) {
			o := &st.rec.Ops[i]
			return fmt.Errorf("%s: operation %d (%q%s) has %s live bytes at %s but the model gives %s: the blocks that %s counts must each keep the same bytes, and every term be a polynomial of degree ≤ 2 in each dimension",
				at(src.Name, o.Line), i+1, o.Label, inPath(o.Path), c.Live[i], point, w, f.dim)
		}
	}
	return nil
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
