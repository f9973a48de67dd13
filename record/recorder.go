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
	b      *Builder
	err    error
	nextID int64
	line   int
	phase  Phase // the phase of the operations recorded from now on
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

func newRecorder(version int, entry string, dims []Dim, consts []Const, realization string) *Recorder {
	r := &Recorder{b: NewBuilder(), nextID: 1}
	r.add(&Record{Kind: KindHeader, Header: Header{
		Version: version, Entry: entry, Dims: dims, Consts: consts, Realization: realization,
	}})
	return r
}

// SetPhase sets the phase of the operations recorded from now on.
func (r *Recorder) SetPhase(p Phase) { r.phase = p }

// Grow makes room for at least buffers more buffers and ops more operations,
// so that a recording whose size is known ahead is built without copying
// what it holds as it grows. Negative counts are taken as 0.
func (r *Recorder) Grow(buffers, ops int) { r.b.Grow(buffers, ops) }

// MustDType returns the named type; it panics on a name the format does not
// know, which is a mistake in the program's code, not in user input.
func MustDType(name string) DType {
	t, ok := LookupDType(name)
	if !ok {
		panic(fmt.Sprintf("record: unknown dtype %q", name))
	}
	return t
}

func (r *Recorder) add(rec *Record) {
	if r.err != nil {
		return
	}
	r.line++
	rec.Line = r.line
	if err := r.b.Add(rec); err != nil {
		r.err = fmt.Errorf("record %d: %w", r.line, err)
	}
}

func (r *Recorder) buffer(role Role, name, group string, t DType, shape []int64) int64 {
	id := r.nextID
	r.nextID++
	for _, n := range shape {
		if n < 0 && r.err == nil {
			r.err = fmt.Errorf("buffer %q: axis of %d elements", name, n)
		}
	}
	s := append([]int64(nil), shape...)
	r.add(&Record{Kind: KindBuffer, Buffer: Buffer{
		ID: id, DType: t, Shape: s, Bytes: SizeOf(t, s), Role: role, Name: name, Group: group,
	}})
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
	r.add(&Record{Kind: KindBuffer, Buffer: Buffer{ID: id, Bytes: bytes, Role: role, Name: name, Group: group}})
	return id
}

// View declares a view of the buffer or view of, with an optional type and
// shape for display, and returns its id.
func (r *Recorder) View(of int64, name string, t DType, shape ...int64) int64 {
	id := r.nextID
	r.nextID++
	r.add(&Record{Kind: KindView, Buffer: Buffer{
		ID: id, IsView: true, Of: of, DType: t, Shape: append([]int64(nil), shape...), Name: name,
	}})
	return id
}

// Op records an operation that launches work.
func (r *Recorder) Op(label, path string, reads, writes []int64) {
	r.add(&Record{Kind: KindOp, Op: Op{Label: label, Path: path, Reads: reads, Writes: writes, Launch: true, Phase: r.phase}})
}

// NoLaunch records an operation that launches nothing, such as making a view.
func (r *Recorder) NoLaunch(label, path string, reads, writes []int64) {
	r.add(&Record{Kind: KindOp, Op: Op{Label: label, Path: path, Reads: reads, Writes: writes, Phase: r.phase}})
}

// Result records the buffers the program returns; it must come last.
func (r *Recorder) Result(ids ...int64) {
	r.add(&Record{Kind: KindResult, Result: ids})
}

// Err returns the first mistake so far, if any.
func (r *Recorder) Err() error { return r.err }

// Finish returns the checked Recording, or the first mistake.
func (r *Recorder) Finish() (*Recording, error) {
	if r.err != nil {
		return nil, r.err
	}
	return r.b.Finish()
}
