// Package record reads, writes and builds recordings of what a program does
// with memory at one setting of its dimensions.
//
// A recording is a JSON Lines file (docs/recording-format.md): a header, the
// buffers and views, the operations in order, and the result. Scanner reads
// one record at a time, Read assembles and checks a whole Recording, Writer
// writes one, and Recorder builds one from Go code, or hands its records to
// a Live stream, which Go code makes as it is read and never holds whole.
// A Scanner and a Live stream can both read another point's recording of
// the same program by comparison with the first's (Keep, Follow): only
// the sizes are read of a record that is the same but for them.
package record

import "memsym/poly"

// Version is the recording format's version, written in every header.
const Version = 1

// Role says who holds a buffer.
type Role uint8

const (
	Temp  Role = iota // made by the program's operations; counted in the live bytes
	Param             // a parameter, held by the caller
	Input             // an input other than the parameters, held by the caller
	State             // an optimizer's state, held by the training loop across steps (version 2)
)

var roleNames = [...]string{Temp: "temp", Param: "param", Input: "input", State: "state"}

func (r Role) String() string { return roleNames[r] }

// Held reports whether the caller holds buffers of this role (parameters and
// inputs), so that they are counted apart and never in the live bytes.
func (r Role) Held() bool { return r != Temp }

// Dim is one dimension's name and its value in a recording (at least 1).
type Dim struct {
	Name  string
	Value int64
}

// Const is one constant's name and value, as the header gives it. Constants
// are not variables of the polynomials; Value is the JSON number's text.
type Const struct {
	Name  string
	Value string
}

// Header is a recording's first line.
type Header struct {
	Version     int
	Entry       string // the entry point's name, such as "GPT.apply"; may be empty
	Dims        Point  // in the header's order, which is the polynomials' variable order
	Consts      []Const
	Realization string // the stored types' realization, such as "f64"; may be empty
}

// Dim returns the value of the dimension named name, and whether there is one.
func (h *Header) Dim(name string) (int64, bool) {
	for _, d := range h.Dims {
		if d.Name == name {
			return d.Value, true
		}
	}
	return 0, false
}

// Buffer is a buffer or a view as declared.
//
// A buffer has bytes, given by DType and Shape or directly. A view (IsView)
// has no bytes of its own: reading or writing it reads or writes its base,
// the buffer at the end of its chain of Of links.
type Buffer struct {
	ID     int64
	Of     int64    // for a view: the buffer or view it is a view of
	DType  DType    // zero when the size was given as bytes
	Shape  []int64  // the elements along each axis; nil when the size was given as bytes
	Bytes  poly.Rat // exact; zero for a view
	Name   string
	Group  string
	Line   int  // the line it was declared on, 0 when built in memory
	Role   Role // Temp for a view
	IsView bool // beside Role: a million buffers take 8 MB less
}

// Op is one operation, in program order. Operations are numbered from 1.
type Op struct {
	Label  string  // such as "Linear.apply/%5"
	Path   string  // the call path, such as "blocks[0].ff.up"; empty for the entry's own
	Reads  []int64 // buffer or view ids
	Writes []int64
	Launch bool  // false for an operation that launches nothing, such as a view
	Phase  Phase // the part of a training step it belongs to; NoPhase outside a step (version 2)
	Line   int
}

// Recording is one whole recording, checked.
type Recording struct {
	Header  Header
	Buffers Buffers // in declaration order, views among them
	Ops     Ops
	Result  []int64
	index   idIndex // buffer id → position in Buffers
}

// Buffer returns the buffer or view with the given id.
func (r *Recording) Buffer(id int64) (Buffer, bool) {
	i, ok := r.index.get(id)
	if !ok {
		return Buffer{}, false
	}
	return r.Buffers.At(i), true
}

// Position returns the position in r.Buffers of the buffer or view with the
// given id, and whether there is one.
func (r *Recording) Position(id int64) (int, bool) { return r.index.get(id) }

// Base returns the buffer that id stands for: id itself, or the base of the
// view id. A Recording's chains of views are checked when it is built.
func (r *Recording) Base(id int64) Buffer {
	return r.Buffers.At(r.BasePosition(id))
}

// BasePosition returns the position in r.Buffers of the buffer that id
// stands for, as Base does.
func (r *Recording) BasePosition(id int64) int {
	i := r.index.at(id)
	for r.Buffers.rows[i].flags&isView != 0 {
		i = r.index.at(r.Buffers.rows[i].of())
	}
	return i
}

// Kind is the kind of one record (one line) of a recording.
type Kind uint8

const (
	KindHeader Kind = iota + 1
	KindBuffer      // a buffer; Record.Buffer holds it
	KindView        // a view; Record.Buffer holds it with IsView set
	KindOp
	KindResult
)

var kindNames = [...]string{KindHeader: "header", KindBuffer: "buffer", KindView: "view", KindOp: "op", KindResult: "result"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "record"
}

// Record is one line of a recording. Only the field of its Kind is set.
type Record struct {
	Kind   Kind
	Line   int
	Header Header
	Buffer Buffer
	Op     Op
	Result []int64
}
