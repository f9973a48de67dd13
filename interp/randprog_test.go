package interp

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// A randProgram is a random program whose memory is known by construction:
// each buffer's axes are linear forms in the dimensions (2·B + 1, T − 1,
// B + T, 3), so its bytes are their product times its type's bits over 8,
// a polynomial built here with poly's arithmetic, independently of interp.
// The program is fixed once generated; recording it at a point replays the
// same declarations and operations with the axes evaluated there.
type randProgram struct {
	vars   []string
	bufs   []randBuffer // in declaration order: position i is the Recorder's id i+1
	events []randEvent  // declarations and operations in order, then the result
	result []int        // buffer positions the result names
	nops   int
}

// randBuffer is one declared buffer or view.
type randBuffer struct {
	role    record.Role
	view    bool
	of      int // a view's target, a buffer or view position
	base    int // the buffer at the end of a view's chain; itself for a buffer
	dtype   record.DType
	axes    []linForm // a shape buffer's axes; a view's display shape
	byBytes bool      // the size is given as bytes: sized
	sized   poly.Poly // a byBytes buffer's bytes, any polynomial of degree ≤ 2 per dimension with non-negative coefficients
	name    string
}

// linForm is an axis's length: k + Σ c[j]·vars[j], never negative where
// every dimension is at least 1.
type linForm struct {
	k int64
	c []int64
}

// randEvent is a declaration (buf ≥ 0) or an operation (buf < 0).
type randEvent struct {
	buf           int
	label, path   string
	launch        bool
	reads, writes []int // buffer positions
}

// at evaluates f at a point.
func (f linForm) at(x []int64) int64 {
	v := f.k
	for j, c := range f.c {
		v += c * x[j]
	}
	return v
}

// poly returns f as a polynomial over vars.
func (f linForm) poly(vars []string) poly.Poly {
	p := poly.Const(poly.Int(f.k))
	for j, c := range f.c {
		if c != 0 {
			p = p.Add(poly.Var(vars[j]).Scale(poly.Int(c)))
		}
	}
	return poly.WithVars(p, vars)
}

// truth returns the exact bytes of buffer i as a polynomial: zero for a
// view, the product of the axes times bits/8 for a shape, or its sized
// polynomial.
func (p *randProgram) truth(i int) poly.Poly {
	b := &p.bufs[i]
	switch {
	case b.view:
		return poly.New(p.vars, nil)
	case b.byBytes:
		return b.sized
	}
	t := poly.Const(poly.Frac(int64(b.dtype.Bits), 8))
	for _, a := range b.axes {
		t = t.Mul(a.poly(p.vars))
	}
	return poly.WithVars(t, p.vars)
}

// record records the program at the point x (aligned with vars).
func (p *randProgram) record(x []int64) (*record.Recording, error) {
	dims := make([]record.Dim, len(p.vars))
	for j, v := range p.vars {
		dims[j] = record.Dim{Name: v, Value: x[j]}
	}
	r := record.NewRecorder("Random.apply", dims, []record.Const{{Name: "K", Value: "7"}}, "mixed")
	ids := func(pos []int) []int64 {
		out := make([]int64, len(pos))
		for k, i := range pos {
			out[k] = int64(i + 1)
		}
		return out
	}
	for _, e := range p.events {
		if e.buf < 0 {
			if e.launch {
				r.Op(e.label, e.path, ids(e.reads), ids(e.writes))
			} else {
				r.NoLaunch(e.label, e.path, ids(e.reads), ids(e.writes))
			}
			continue
		}
		b := &p.bufs[e.buf]
		shape := make([]int64, len(b.axes))
		for k, a := range b.axes {
			shape[k] = a.at(x)
		}
		var id int64
		switch {
		case b.view:
			id = r.View(int64(b.of+1), b.name, b.dtype, shape...)
		case b.byBytes:
			at := make(map[string]int64, len(p.vars))
			for j, v := range p.vars {
				at[v] = x[j]
			}
			v, err := b.sized.EvalInt(at)
			if err != nil {
				return nil, err
			}
			id = r.Bytes(b.role, b.name, "", v)
		default:
			id = declarer(r, b.role)(b.name, "g", b.dtype, shape...)
		}
		if id != int64(e.buf+1) {
			return nil, fmt.Errorf("buffer %d got id %d", e.buf, id)
		}
	}
	r.Result(ids(p.result)...)
	return r.Finish()
}

// lives returns each buffer's life under the seed's rules, computed from the
// events alone: a temp lives from its first write to its last read or
// write, the result's to the last operation; views and held buffers never.
func (p *randProgram) lives() []count.Life {
	lives := make([]count.Life, len(p.bufs))
	op := 0
	touch := func(i int, write bool) {
		b := p.bufs[i].base
		if p.bufs[b].role.Held() {
			return
		}
		l := &lives[b]
		if l.First == 0 {
			if !write {
				panic("the generator read a temp before writing it")
			}
			l.First = int32(op)
		}
		l.Last = int32(op)
	}
	for _, e := range p.events {
		if e.buf >= 0 {
			continue
		}
		op++
		for _, i := range e.writes {
			touch(i, true)
		}
		for _, i := range e.reads {
			touch(i, false)
		}
	}
	for _, i := range p.result {
		if l := &lives[p.bufs[i].base]; l.First != 0 {
			l.Last = int32(p.nops)
		}
	}
	return lives
}

// declarer returns the Recorder's method that declares a buffer of role.
func declarer(r *record.Recorder, role record.Role) func(name, group string, t record.DType, shape ...int64) int64 {
	switch role {
	case record.Param:
		return r.Param
	case record.Input:
		return r.Input
	}
	return r.Temp
}

// genOptions bound a random program's size and values.
type genOptions struct {
	maxDims int   // at most this many dimensions (0 to maxDims)
	maxOps  int   // at most this many operations
	coef    int64 // axes' coefficients in [0, coef]
	konst   int64 // axes' constants up to konst (and down to −Σc)
}

var smallPrograms = genOptions{maxDims: 3, maxOps: 30, coef: 3, konst: 5}

// generate returns a random program from the seed.
func generate(seed uint64, o genOptions) *randProgram {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), o: o, p: &randProgram{}}
	return g.program()
}

type generator struct {
	r *rand.Rand
	o genOptions
	p *randProgram
	// written: temps some operation has written so far (by position).
	written map[int]bool
}

var dimNamesPool = []string{"B", "T", "S", "H", "seq", "n_head", "L2"}

func (g *generator) program() *randProgram {
	r, p := g.r, g.p
	g.written = map[int]bool{}
	// Mostly one to three dimensions; none, or more, now and then.
	k := 1 + r.IntN(min(g.o.maxDims, 3))
	switch r.IntN(40) {
	case 0:
		k = 0
	case 1:
		k = max(g.o.maxDims, 4)
	}
	if k == 3 && g.o.maxDims == 3 && r.IntN(2) == 0 {
		k = 2 // 27 recordings each: fewer of them
	}
	names := slices.Clone(dimNamesPool)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	p.vars = names[:k]
	for range r.IntN(4) {
		g.declare(record.Param)
	}
	for range r.IntN(3) {
		g.declare(record.Input)
	}
	nops := 1 + r.IntN(g.o.maxOps)
	if r.IntN(50) == 0 {
		nops = 0
	}
	for range nops {
		g.op()
	}
	p.nops = nops
	var readable []int
	for i := range p.bufs {
		if g.readable(i) {
			readable = append(readable, i)
		}
	}
	for range r.IntN(4) {
		if len(readable) > 0 {
			p.result = append(p.result, readable[r.IntN(len(readable))])
		}
	}
	return p
}

// readable reports whether buffer or view i may be read now.
func (g *generator) readable(i int) bool {
	b := g.p.bufs[g.p.bufs[i].base]
	return b.role.Held() || g.written[g.p.bufs[i].base]
}

// declare adds a buffer of the given role and returns its position.
func (g *generator) declare(role record.Role) int {
	r, p := g.r, g.p
	i := len(p.bufs)
	b := randBuffer{role: role, base: i, name: fmt.Sprintf("b%d", i)}
	if r.IntN(8) == 0 {
		b.byBytes = true
		b.sized = g.sizedPoly()
	} else {
		b.dtype = g.dtype()
		b.axes = g.axes(true)
	}
	p.bufs = append(p.bufs, b)
	p.events = append(p.events, randEvent{buf: i})
	return i
}

// view adds a view of a random buffer or view and returns its position.
func (g *generator) view() int {
	r, p := g.r, g.p
	i := len(p.bufs)
	of := r.IntN(i)
	b := randBuffer{view: true, of: of, base: p.bufs[of].base, name: fmt.Sprintf("v%d", i)}
	if r.IntN(2) == 0 {
		b.dtype = g.dtype()
	}
	if r.IntN(2) == 0 {
		b.axes = g.axes(false)
	}
	p.bufs = append(p.bufs, b)
	p.events = append(p.events, randEvent{buf: i})
	return i
}

var namedTypes = []string{"f64", "f32", "f16", "bf16", "f8", "i64", "i32", "i16", "i8", "u8", "i4", "u4", "bool"}

// dtype returns a named type, i4 often, or an unnamed one of 1 to 2^20 bits.
func (g *generator) dtype() record.DType {
	r := g.r
	switch r.IntN(6) {
	case 0:
		return record.MustDType("i4")
	case 1:
		if r.IntN(8) == 0 {
			return record.Bits(1 + r.IntN(1<<20))
		}
		return record.Bits(1 + r.IntN(67))
	}
	return record.MustDType(namedTypes[r.IntN(len(namedTypes))])
}

// axes returns 0 to 4 axes whose product has degree ≤ 2 in each dimension
// when bounded (a buffer's), any when not (a view's, for display only).
func (g *generator) axes(bounded bool) []linForm {
	r := g.r
	n := r.IntN(5)
	deg := make([]int, len(g.p.vars))
	var out []linForm
	for range n {
		f := linForm{c: make([]int64, len(g.p.vars))}
		var sum int64
		for j := range f.c {
			if r.IntN(3) == 0 && (!bounded || deg[j] < 2) {
				f.c[j] = 1 + r.Int64N(g.o.coef)
				sum += f.c[j]
			}
		}
		switch {
		case sum == 0 && r.IntN(20) == 0:
			f.k = 0 // an empty axis
		case sum == 0:
			f.k = 1 + r.Int64N(g.o.konst)
		case r.IntN(3) == 0:
			// A negative constant, as in T − 1: still ≥ 0 where all are ≥ 1.
			f.k = -r.Int64N(sum + 1)
		default:
			f.k = r.Int64N(g.o.konst + 1)
		}
		for j, c := range f.c {
			if c != 0 {
				deg[j]++
			}
		}
		out = append(out, f)
	}
	return out
}

// sizedPoly returns a random polynomial of degree ≤ 2 in each dimension
// with non-negative rational coefficients: a size given in bytes.
func (g *generator) sizedPoly() poly.Poly {
	r := g.r
	var terms []poly.Term
	for range r.IntN(4) {
		exp := make([]int, len(g.p.vars))
		for j := range exp {
			exp[j] = r.IntN(3)
		}
		dens := []int64{1, 1, 2, 3, 4, 8}
		c := poly.Frac(r.Int64N(g.o.konst*g.o.coef+1), dens[r.IntN(len(dens))])
		terms = append(terms, poly.Term{Coef: c, Exp: exp})
	}
	return poly.New(g.p.vars, terms)
}

// op adds one operation: perhaps new temps and views first, then reads of
// what may be read and writes to new temps, old ones, views and now and
// then a parameter.
func (g *generator) op() {
	r, p := g.r, g.p
	var fresh []int
	for range r.IntN(3) {
		fresh = append(fresh, g.declare(record.Temp))
	}
	if r.IntN(10) == 0 {
		g.declare(record.Temp) // not written here: perhaps later, perhaps never
	}
	if len(p.bufs) > 0 {
		for range r.IntN(3) {
			if r.IntN(2) == 0 {
				g.view()
			}
		}
	}
	e := randEvent{buf: -1, launch: r.IntN(5) != 0}
	labels := []string{"Linear.apply/%4", "Linear.apply/%5", "SelfAttention.apply/%13", "gelu", "add"}
	paths := []string{"", "blocks[0].ff.up", "blocks[1].attn", "head", "enc[12].x"}
	e.label, e.path = labels[r.IntN(len(labels))], paths[r.IntN(len(paths))]
	var readable []int
	for i := range p.bufs {
		if g.readable(i) {
			readable = append(readable, i)
		}
	}
	for range r.IntN(4) {
		if len(readable) > 0 {
			e.reads = append(e.reads, readable[r.IntN(len(readable))])
		}
	}
	e.writes = append(e.writes, fresh...)
	for range r.IntN(3) {
		if len(p.bufs) > 0 {
			// Any buffer or view: a temp (its first write or a later one),
			// a view (its base is written), a parameter (a training step).
			e.writes = append(e.writes, r.IntN(len(p.bufs)))
		}
	}
	r.Shuffle(len(e.writes), func(i, j int) { e.writes[i], e.writes[j] = e.writes[j], e.writes[i] })
	for _, i := range e.writes {
		g.written[p.bufs[i].base] = true
	}
	p.events = append(p.events, e)
}
