package programs

import (
	"errors"

	"memsym/record"
)

// stepBuilder records a training step from a recording of the forward
// pass: the forward pass again (its phase forward), the loss, the backward
// pass (each operation's vector-Jacobian product, in reverse order, under
// the remat asked for) and the optimizer. Buffers are known by their
// position in the forward recording; the gradient of a buffer is the
// gradient of its base, so a view's gradient is written into its base's.
type stepBuilder struct {
	fwd  *record.Recording
	r    *record.Recorder
	spec *stepSpec
	dt   record.DType // the activations' type, the scalars' by default

	id       []int64 // by forward position: the buffer's or view's id in the step
	base     []int   // by forward position: its base's position
	first    []int   // by position: the forward operation that first writes it, -1 for none
	writers  []int   // by base position: the forward operations that write it
	requires []bool  // by base position: depends on a trained parameter
	needs    []bool  // by base position: the loss depends on it through a product that gives it a gradient
	grad     []int64 // by base position: its gradient's id, 0 until written
	result   []int64 // the forward pass's result, forward ids
	copies   map[int]int64
	segment  [2]int // the operations (0-based, both included) copies hold the recomputation of
}

func newStepBuilder(fwd *record.Recording, r *record.Recorder, s *stepSpec, dt record.DType) *stepBuilder {
	n := fwd.Buffers.Len()
	return &stepBuilder{
		fwd: fwd, r: r, spec: s, dt: dt,
		id: make([]int64, n), base: make([]int, n), first: make([]int, n),
		writers: make([]int, n), requires: make([]bool, n), needs: make([]bool, n), grad: make([]int64, n),
		segment: [2]int{-1, -1},
	}
}

func (b *stepBuilder) build() error {
	b.r.SetPhase(record.Forward)
	b.copyForward()
	b.analyse()
	loss := b.loss()
	if len(b.trained()) == 0 {
		return errors.New("the loss depends on no floating parameter: there is nothing to train")
	}
	b.r.SetPhase(record.Backward)
	b.emitLossVJP(loss)
	b.backward()
	b.r.SetPhase(record.Optimizer)
	b.r.Result(b.optimize(b.trained())...)
	return nil
}

// pos returns the forward position of id.
func (b *stepBuilder) pos(id int64) int {
	p, _ := b.fwd.Position(id)
	return p
}

// copyForward records the forward pass as it was recorded: its buffers,
// views and operations in their order, the result kept aside.
func (b *stepBuilder) copyForward() {
	s := b.fwd.Replay()
	for s.Scan() {
		rec := s.Record()
		switch rec.Kind {
		case record.KindBuffer, record.KindView:
			buf := &rec.Buffer
			p := b.pos(buf.ID)
			if buf.IsView {
				b.id[p] = b.r.View(b.id[b.pos(buf.Of)], buf.Name, buf.DType, buf.Shape...)
				b.base[p] = b.base[b.pos(buf.Of)]
			} else {
				b.id[p] = b.declare(buf, buf.Role, buf.Name)
				b.base[p] = p
			}
			b.first[p] = -1
		case record.KindOp:
			b.record(&rec.Op, rec.Op.Label, b.ids(rec.Op.Reads), b.ids(rec.Op.Writes))
		case record.KindResult:
			b.result = append([]int64(nil), rec.Result...)
		}
	}
	for k := range b.fwd.Ops.Len() {
		seen := map[int]bool{}
		for _, w := range b.fwd.Ops.Writes(k) {
			p := b.base[b.pos(w)]
			if b.first[p] < 0 {
				b.first[p] = k
			}
			if !seen[p] {
				seen[p] = true
				b.writers[p]++
			}
		}
	}
}

// declare declares a buffer like the forward's buf, of the given role and
// name.
func (b *stepBuilder) declare(buf *record.Buffer, role record.Role, name string) int64 {
	if buf.DType.IsZero() {
		return b.r.Bytes(role, name, buf.Group, buf.Bytes)
	}
	switch role {
	case record.Param:
		return b.r.Param(name, buf.Group, buf.DType, buf.Shape...)
	case record.Input:
		return b.r.Input(name, buf.Group, buf.DType, buf.Shape...)
	}
	return b.r.Temp(name, buf.Group, buf.DType, buf.Shape...)
}

// record records an operation as op is (launching work or not), with
// the given label and ids.
func (b *stepBuilder) record(op *record.Op, label string, reads, writes []int64) {
	if op.Launch {
		b.r.Op(label, op.Path, reads, writes)
	} else {
		b.r.NoLaunch(label, op.Path, reads, writes)
	}
}

// ids returns the step's ids of forward ids.
func (b *stepBuilder) ids(fwd []int64) []int64 {
	out := make([]int64, len(fwd))
	for i, id := range fwd {
		out[i] = b.id[b.pos(id)]
	}
	return out
}

// rule returns op's vector-Jacobian product.
func rule(op *record.Op) vjp {
	if r, ok := vjps[op.Label]; ok {
		return r
	}
	return defaultVJP(len(op.Reads))
}

func (r vjp) gives(i int) bool {
	for _, j := range r.nograd {
		if j == i {
			return false
		}
	}
	return true
}

// analyse finds what depends on a trained parameter, going forward.
func (b *stepBuilder) analyse() {
	for p := range b.fwd.Buffers.Len() {
		if buf := b.fwd.Buffers.At(p); !buf.IsView && buf.Role == record.Param && isFloat(buf.DType) {
			b.requires[p] = true
		}
	}
	for k := range b.fwd.Ops.Len() {
		op := b.fwd.Ops.At(k)
		r := rule(&op)
		depends := false
		for i, id := range op.Reads {
			if r.gives(i) && b.requires[b.base[b.pos(id)]] {
				depends = true
			}
		}
		if !depends {
			continue
		}
		for _, id := range op.Writes {
			if p := b.base[b.pos(id)]; b.fwd.Buffers.Role(p) == record.Temp && isFloat(b.fwd.Buffers.At(p).DType) {
				b.requires[p] = true
			}
		}
	}
}

// propagate marks, going backward from the loss's inputs, what needs a
// gradient.
func (b *stepBuilder) propagate(lossReads []int64) {
	for _, id := range lossReads {
		b.needs[b.base[b.pos(id)]] = true
	}
	for k := b.fwd.Ops.Len() - 1; k >= 0; k-- {
		op := b.fwd.Ops.At(k)
		if !b.anyNeeds(op.Writes) {
			continue
		}
		r := rule(&op)
		for i, id := range op.Reads {
			if p := b.base[b.pos(id)]; r.gives(i) && b.requires[p] {
				b.needs[p] = true
			}
		}
	}
}

func (b *stepBuilder) anyNeeds(ids []int64) bool {
	for _, id := range ids {
		if b.needs[b.base[b.pos(id)]] {
			return true
		}
	}
	return false
}

// trained returns the positions of the parameters that get a gradient, in
// their order of declaration.
func (b *stepBuilder) trained() []int {
	var out []int
	for p := range b.fwd.Buffers.Len() {
		if b.needs[p] && b.fwd.Buffers.Role(p) == record.Param {
			out = append(out, p)
		}
	}
	return out
}

// gradType is the type of buffer p's gradient: the step's gradient type
// for a parameter, when one is set, else the buffer's own.
func (b *stepBuilder) gradType(p int) record.DType {
	buf := b.fwd.Buffers.At(p)
	if g := b.spec.opts.Types.Gradient; buf.Role == record.Param && !g.IsZero() {
		return g
	}
	return buf.DType
}

// gradOf returns the gradient of base p for an operation that writes it,
// declaring it when none has been written, and whether it was written
// before (so that the operation adds to it).
func (b *stepBuilder) gradOf(p int) (int64, bool) {
	if g := b.grad[p]; g != 0 {
		return g, true
	}
	buf := b.fwd.Buffers.At(p)
	b.grad[p] = b.r.Temp("d "+buf.Name, buf.Group, b.gradType(p), buf.Shape...)
	return b.grad[p], false
}

// emitVJP records forward operation k's vector-Jacobian product, if the
// loss depends on its outputs through an input that gets a gradient.
func (b *stepBuilder) emitVJP(k int) {
	op := b.fwd.Ops.At(k)
	r := rule(&op)
	var reads []int64
	seen := map[int]bool{}
	for _, id := range op.Writes {
		if p := b.base[b.pos(id)]; b.grad[p] != 0 && !seen[p] {
			seen[p] = true
			reads = append(reads, b.grad[p])
		}
	}
	if len(reads) == 0 {
		return
	}
	var inputs []int
	gets := map[int]bool{}
	for i, id := range op.Reads {
		if p := b.base[b.pos(id)]; r.gives(i) && b.needs[p] && !gets[p] {
			gets[p] = true
			inputs = append(inputs, p)
		}
	}
	if len(inputs) == 0 {
		return
	}
	for _, s := range r.saves {
		list := op.Reads
		if s.out {
			list = op.Writes
		}
		if s.i < len(list) {
			reads = append(reads, b.mapped(list[s.i]))
		}
	}
	if r.through {
		b.passOn(&op, inputs[0])
	}
	var writes []int64
	for _, p := range inputs {
		g, adds := b.gradOf(p)
		if adds {
			reads = append(reads, g)
		}
		writes = append(writes, g)
	}
	b.r.Op(op.Label+" (vjp)", op.Path, unique(reads), writes)
}

// passOn makes the gradient of op's output the gradient of input p, to
// be updated in place, when op alone writes its one output, p has no
// gradient yet and both are of the same bytes and type.
func (b *stepBuilder) passOn(op *record.Op, p int) {
	if len(op.Writes) != 1 || b.grad[p] != 0 {
		return
	}
	o := b.base[b.pos(op.Writes[0])]
	in, out := b.fwd.Buffers.At(p), b.fwd.Buffers.At(o)
	if b.writers[o] != 1 || b.grad[o] == 0 || !in.Bytes.Equal(out.Bytes) || b.gradType(p) != b.gradType(o) {
		return
	}
	b.grad[p] = b.grad[o]
}

func unique(ids []int64) []int64 {
	out := ids[:0:0]
	seen := map[int64]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// backward records the vector-Jacobian products in reverse order; under
// recompute, each block's forward runs again before its products.
func (b *stepBuilder) backward() {
	segs := b.segments()
	for k := b.fwd.Ops.Len() - 1; k >= 0; k-- {
		if s := segs[k]; s[0] >= 0 && s != b.segment {
			b.recompute(s)
		} else if s[0] < 0 {
			b.segment, b.copies = [2]int{-1, -1}, nil
		}
		b.emitVJP(k)
	}
}
