package record

import (
	"fmt"

	"memsym/poly"
)

// Recorder builds a Recording from Go code: an executor that computes
// nothing and writes down what a program would do with memory.
//
// Each method checks what it is given as the format's reader would; the first
// mistake is kept, later calls do nothing, and Finish returns it. So a
// program reads as a plain sequence of calls:
//
//	r := record.NewRecorder("GPT.apply", dims, consts, "f64")
//	x := r.Input("tokens", "", record.MustDType("i64"), b, t)
//	y := r.Temp("%0", "tok_emb", f64, b, t, d)
//	r.Op("Embedding.apply/%0", "tok_emb", []int64{x, w}, []int64{y})
//	r.Result(y)
//	rec, err := r.Finish()
type Recorder struct {
	to     Sink
	b      *Builder  // to, when the Recorder builds a Recording
	live   *liveSink // to, when it is a Live stream's maker's
	err    error
	nextID int64
	line   int
	phase  Phase // the phase of the operations recorded from now on
	// The record being handed to the sink, which copies what it keeps,
	// and its slices: so a program's calls allocate nothing of their own.
	rec  Record
	ints []int64
}

// NewRecorder starts a recording of one call with the given header, in
// the format's version 1.
func NewRecorder(entry string, dims []Dim, consts []Const, realization string) *Recorder {
	return newRecorder(Version, entry, dims, consts, realization)
}

// NewStepRecorder starts a recording of a training step, in the format's
// version 2: its operations have phases (SetPhase) and its optimizer's
// states are declared with State.
func NewStepRecorder(entry string, dims []Dim, consts []Const, realization string) *Recorder {
	return newRecorder(StepVersion, entry, dims, consts, realization)
}

// Sink takes the records a Recorder makes, in order. A Builder is one; a
// Live stream's is another.
type Sink interface {
	Add(r *Record) error
}

// NewRecorderTo is NewRecorder, or NewStepRecorder when step is true, handing
// each record to sink as it is made instead of building a Recording: Finish
// is not for it; Err says whether sink refused a record. Its records are
// not checked as a Builder checks them: that is for whoever reads sink.
func NewRecorderTo(sink Sink, step bool, entry string, dims []Dim, consts []Const, realization string) *Recorder {
	version := Version
	if step {
		version = StepVersion
	}
	r := &Recorder{to: sink, nextID: 1}
	r.live, _ = sink.(*liveSink)
	r.start(version, entry, dims, consts, realization)
	return r
}

func newRecorder(version int, entry string, dims []Dim, consts []Const, realization string) *Recorder {
	b := NewBuilder()
	r := &Recorder{to: b, b: b, nextID: 1}
	r.start(version, entry, dims, consts, realization)
	return r
}

func (r *Recorder) start(version int, entry string, dims []Dim, consts []Const, realization string) {
	r.next(KindHeader).Header = Header{
		Version: version, Entry: entry, Dims: dims, Consts: consts, Realization: realization,
	}
	r.put()
}

// SetPhase sets the phase of the operations recorded from now on.
func (r *Recorder) SetPhase(p Phase) { r.phase = p }

// Grow makes room for at least buffers more buffers and ops more operations,
// so that a recording whose size is known ahead is built without copying
// what it holds as it grows. Negative counts are taken as 0. A sink other
// than a Builder is told, if it has a Grow method: a Live stream passes it
// on to its reader (Live.Expected).
func (r *Recorder) Grow(buffers, ops int) {
	if g, ok := r.to.(interface{ Grow(buffers, ops int) }); ok {
		g.Grow(buffers, ops)
	}
}

// MustDType returns the named type; it panics on a name the format does not
// know, which is a mistake in the program's code, not in user input.
func MustDType(name string) DType {
	t, ok := LookupDType(name)
	if !ok {
		panic(fmt.Sprintf("record: unknown dtype %q", name))
	}
	return t
}

// put hands r's record to the sink, as the last next made it: no record is
// allocated or copied for it.
func (r *Recorder) put() {
	if r.err == nil {
		r.add(&r.rec)
	}
	r.ints = r.ints[:0]
}

// next returns r's record for one of kind k, whose part the caller fills:
// the part a record of another kind filled before is cleared.
func (r *Recorder) next(k Kind) *Record {
	rec := &r.rec
	switch rec.Kind {
	case KindHeader:
		rec.Header = Header{}
	case KindBuffer, KindView:
		if k != KindBuffer && k != KindView {
			rec.Buffer = Buffer{}
		}
	case KindOp:
		if k != KindOp {
			rec.Op = Op{}
		}
	case KindResult:
		rec.Result = nil
	}
	rec.Kind, rec.Line = k, 0
	return rec
}

// own copies s into r's integers, for the record being made; nil stays nil.
func (r *Recorder) own(s []int64) []int64 {
	if s == nil {
		return nil
	}
	return keepInts(&r.ints, s)
}

// following is the maker's liveSink.following, when r makes a Live
// stream's records and has made no mistake: a call the same as the
// reader's next template but for its size is told to the sink (took,
// tookBuffer, tookOp), with no record made for it, and numbered as add
// numbers a record's line.
func (r *Recorder) following() *liveTemplate {
	if r.live == nil || r.err != nil {
		return nil
	}
	return r.live.following()
}

func (r *Recorder) add(rec *Record) {
	if r.err != nil {
		return
	}
	r.line++
	rec.Line = r.line
	if err := r.to.Add(rec); err != nil {
		r.err = fmt.Errorf("record %d: %w", r.line, err)
	}
}

func (r *Recorder) buffer(role Role, name, group string, t DType, shape []int64) int64 {
	id := r.nextID
	r.nextID++
	k := r.following()
	same := k != nil && k.kind == KindBuffer && k.sameBuffer(id, 0, false, int32(len(shape)), role, t, name, group)
	if same {
		if n, ok := sizeInt(t.Bits, shape); ok { // no axis negative
			r.line++
			r.live.tookBuffer(n)
			return id
		}
	}
	for _, n := range shape {
		if n < 0 && r.err == nil {
			r.err = fmt.Errorf("buffer %q: axis of %d elements", name, n)
		}
	}
	if same && r.err == nil { // bytes that are not an int64 integer
		r.line++
		r.live.took(sizeOf(t, shape), true)
		return id
	}
	s := r.own(shape)
	if s == nil {
		s = []int64{} // a scalar: a shape, empty
	}
	r.next(KindBuffer).Buffer = Buffer{
		ID: id, DType: t, Shape: s, Bytes: sizeOf(t, s), Role: role, Name: name, Group: group,
	}
	r.put()
	return id
}

// Param declares a parameter of type t and the given shape and returns its id.
func (r *Recorder) Param(name, group string, t DType, shape ...int64) int64 {
	return r.buffer(Param, name, group, t, shape)
}

// Input declares a caller-held input other than the parameters.
func (r *Recorder) Input(name, group string, t DType, shape ...int64) int64 {
	return r.buffer(Input, name, group, t, shape)
}

// State declares an optimizer's state, which the training loop holds
// across steps; only a step's recording (NewStepRecorder) has states.
func (r *Recorder) State(name, group string, t DType, shape ...int64) int64 {
	return r.buffer(State, name, group, t, shape)
}

// Temp declares a buffer that the program's operations make.
func (r *Recorder) Temp(name, group string, t DType, shape ...int64) int64 {
	return r.buffer(Temp, name, group, t, shape)
}

// Bytes declares a buffer by its exact size in bytes rather than a shape.
func (r *Recorder) Bytes(role Role, name, group string, bytes poly.Rat) int64 {
	id := r.nextID
	r.nextID++
	r.next(KindBuffer).Buffer = Buffer{ID: id, Bytes: bytes, Role: role, Name: name, Group: group}
	r.put()
	return id
}

// View declares a view of the buffer or view of, with an optional type and
// shape for display, and returns its id.
func (r *Recorder) View(of int64, name string, t DType, shape ...int64) int64 {
	id := r.nextID
	r.nextID++
	rank := int32(-1)
	if shape != nil {
		rank = int32(len(shape))
	}
	if k := r.following(); k != nil && k.kind == KindView &&
		k.sameBuffer(id, of, true, rank, Temp, t, name, "") {
		r.line++
		r.live.took(poly.Rat{}, true)
		return id
	}
	r.next(KindView).Buffer = Buffer{
		ID: id, IsView: true, Of: of, DType: t, Shape: r.own(shape), Name: name,
	}
	r.put()
	return id
}

// Op records an operation that launches work.
func (r *Recorder) Op(label, path string, reads, writes []int64) {
	r.op(label, path, reads, writes, true)
}

// NoLaunch records an operation that launches nothing, such as making a view.
func (r *Recorder) NoLaunch(label, path string, reads, writes []int64) {
	r.op(label, path, reads, writes, false)
}

// op records an operation.
func (r *Recorder) op(label, path string, reads, writes []int64, launch bool) {
	if k := r.following(); k != nil && k.kind == KindOp &&
		k.sameOp(r.live.ints, launch, r.phase, label, path, reads, writes) {
		r.line++
		r.live.tookOp()
		return
	}
	r.next(KindOp).Op = Op{Label: label, Path: path, Reads: r.own(reads), Writes: r.own(writes), Launch: launch, Phase: r.phase}
	r.put()
}

// Result records the buffers the program returns; it must come last.
func (r *Recorder) Result(ids ...int64) {
	r.next(KindResult).Result = r.own(ids)
	r.put()
}

// Err returns the first mistake so far, if any.
func (r *Recorder) Err() error { return r.err }

// Finish returns the checked Recording, or the first mistake.
func (r *Recorder) Finish() (*Recording, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.b == nil {
		return nil, fmt.Errorf("record: Finish of a Recorder made by NewRecorderTo")
	}
	return r.b.Finish()
}
