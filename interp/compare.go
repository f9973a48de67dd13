package interp

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"memsym/record"
)

// errStopped ends a reading that is no longer wanted.
var errStopped = errors.New("stopped")

// Why a difference between the grid's recordings is refused.
const (
	whyOps    = "a dimension that changes the operations (such as a fold's iteration count) cannot be interpolated: make it a constant"
	whyHeader = "the recordings must all be of one program, entry, realization and constants"
	whySize   = "a buffer's size must be written one way at every point, by a shape or in bytes, its values alone differing"
	whyPhase  = "a step's operations must be in the same phases at every point, as the phases' peaks are read from one recording"
	whyDecl   = "the recordings are matched declaration by declaration: a buffer's id, role, type, rank, name and group are the same at every point, only its sizes differing (number buffers as they are declared, not as they are allocated)"
)

// walker compares one more recording with the structure record by record.
type walker struct {
	st          *structure
	name, point string
	dims        []record.Dim // the point, as the header read first gave it
	nbuf, nop   int          // the structure's buffers and operations passed so far
}

// walk reads src, whose header gave the point dims when first read, and
// checks that it repeats the structure; it calls buffer with each buffer's
// position and record (views excepted). It stops with errStopped soon after
// stop is closed.
func (st *structure) walk(src Source, dims []record.Dim, stop <-chan struct{}, buffer func(pos int, b *record.Buffer, line int) error) error {
	s, err := open(src)
	if err != nil {
		return err
	}
	defer release(s)
	w := &walker{st: st, name: src.Name, point: pointName(dims), dims: dims}
	n := 0
	for s.Scan() {
		if n%4096 == 0 && stop != nil {
			select {
			case <-stop:
				return errStopped
			default:
			}
		}
		r := s.Record()
		if n == len(st.kinds) || r.Kind != st.kinds[n] {
			return w.differ(r.Line, w.line(n), fmt.Sprintf("record %d is", n+1), w.describe(n), describe(r))
		}
		if err := w.compare(r, buffer); err != nil {
			return err
		}
		n++
	}
	if err := s.Err(); err != nil {
		return err
	}
	if n < len(st.kinds) {
		return w.differ(0, w.line(n), fmt.Sprintf("record %d is", n+1), w.describe(n), "the end of the recording")
	}
	return nil
}

// compare checks one record of the same kind as the structure's next.
func (w *walker) compare(r *record.Record, buffer func(int, *record.Buffer, int) error) error {
	st := w.st
	switch r.Kind {
	case record.KindHeader:
		return w.compareHeader(&r.Header, r.Line)
	case record.KindBuffer, record.KindView:
		sb := st.rec.Buffers.At(w.nbuf)
		if err := w.compareBuffer(&r.Buffer, &sb, r.Line); err != nil {
			return err
		}
		w.nbuf++
		if r.Kind == record.KindBuffer {
			if r.Buffer.Bytes.Sign() < 0 {
				return fmt.Errorf("%s: buffer %d has %s bytes: sizes are not negative", at(w.name, r.Line), r.Buffer.ID, r.Buffer.Bytes)
			}
			return buffer(w.nbuf-1, &r.Buffer, r.Line)
		}
	case record.KindOp:
		if err := w.compareOp(&r.Op, st.rec.Ops.At(w.nop), r.Line); err != nil {
			return err
		}
		w.nop++
	case record.KindResult:
		if !slices.Equal(r.Result, st.rec.Result) {
			return w.differ(r.Line, st.resultLine, "the result is", ids(st.rec.Result), ids(r.Result))
		}
	}
	return nil
}

func (w *walker) compareHeader(h *record.Header, line int) error {
	sh := &w.st.rec.Header
	d := func(what, want, got string) error {
		return w.differWhy(line, w.st.headerLine, what, want, got, whyHeader)
	}
	switch {
	case h.Version != sh.Version:
		return d("the format version is", fmt.Sprint(sh.Version), fmt.Sprint(h.Version))
	case h.Entry != sh.Entry:
		return d("the entry is", fmt.Sprintf("%q", sh.Entry), fmt.Sprintf("%q", h.Entry))
	case h.Realization != sh.Realization:
		return d("the realization is", fmt.Sprintf("%q", sh.Realization), fmt.Sprintf("%q", h.Realization))
	case !slices.Equal(h.Consts, sh.Consts):
		return d("the constants are", consts(sh.Consts), consts(h.Consts))
	case dimNames(h.Dims) != dimNames(sh.Dims):
		return d("the dimensions are", dimNames(sh.Dims), dimNames(h.Dims))
	case !slices.Equal(h.Dims, w.dims):
		return fmt.Errorf("%s: the header is at %s but was at %s when first read: a source must give the same recording each time it is opened", at(w.name, line), pointName(h.Dims), w.point)
	}
	return nil
}

func (w *walker) compareBuffer(b, sb *record.Buffer, line int) error {
	kind := "buffer"
	if sb.IsView {
		kind = "view"
	}
	d := func(what, want, got string) error {
		return w.differWhy(line, sb.Line, fmt.Sprintf("%s %d%s", kind, sb.ID, what), want, got, whyDecl)
	}
	switch {
	case b.ID != sb.ID:
		return w.differWhy(line, sb.Line, fmt.Sprintf("declaration %d is", w.nbuf+1), fmt.Sprintf("%s %d", kind, sb.ID), fmt.Sprintf("%s %d", kind, b.ID), whyDecl)
	case sb.IsView && b.Of != sb.Of:
		// Named as declared: the ids declared before the view are the
		// same at both points, so the structure's names them.
		return w.differ(line, sb.Line, named(kind, *sb)+" is", "of "+w.declared(sb.Of), "of "+w.declared(b.Of))
	case !sb.IsView && b.Role != sb.Role:
		return d("'s role is", sb.Role.String(), b.Role.String())
	case (b.Shape == nil) != (sb.Shape == nil):
		return w.differWhy(line, sb.Line, fmt.Sprintf("%s %d's size is", kind, sb.ID), sizeForm(sb), sizeForm(b), whySize)
	case b.DType != sb.DType:
		return d("'s type is", typeName(sb.DType), typeName(b.DType))
	case len(b.Shape) != len(sb.Shape):
		return d("'s shape has rank", fmt.Sprint(len(sb.Shape)), fmt.Sprint(len(b.Shape)))
	case b.Name != sb.Name:
		return d("'s name is", fmt.Sprintf("%q", sb.Name), fmt.Sprintf("%q", b.Name))
	case b.Group != sb.Group:
		return d("'s group is", fmt.Sprintf("%q", sb.Group), fmt.Sprintf("%q", b.Group))
	}
	return nil
}

func (w *walker) compareOp(op *record.Op, so record.Op, line int) error {
	n := w.nop + 1
	d := func(what, want, got string) error {
		return w.differ(line, so.Line, fmt.Sprintf("operation %d%s", n, what), want, got)
	}
	switch {
	case op.Label != so.Label:
		return d(" is", fmt.Sprintf("%q", so.Label), fmt.Sprintf("%q", op.Label))
	case op.Path != so.Path:
		return d(fmt.Sprintf(" (%q)'s path is", so.Label), fmt.Sprintf("%q", so.Path), fmt.Sprintf("%q", op.Path))
	case !slices.Equal(op.Reads, so.Reads):
		return d(fmt.Sprintf(" (%q) reads", so.Label), ids(so.Reads), ids(op.Reads))
	case !slices.Equal(op.Writes, so.Writes):
		return d(fmt.Sprintf(" (%q) writes", so.Label), ids(so.Writes), ids(op.Writes))
	case op.Launch != so.Launch:
		return d(fmt.Sprintf(" (%q) launches", so.Label), launches(so.Launch), launches(op.Launch))
	case op.Phase != so.Phase:
		return w.differWhy(line, so.Line, fmt.Sprintf("operation %d (%q) is in", n, so.Label), phaseName(so.Phase), phaseName(op.Phase), whyPhase)
	}
	return nil
}

// phaseName writes a phase as "the forward phase", or "no phase".
func phaseName(p record.Phase) string {
	if p == record.NoPhase {
		return "no phase"
	}
	return "the " + p.String() + " phase"
}

// declared names the buffer or view id of the structure: `buffer 3 "w"`,
// or the id alone where the structure has none.
func (w *walker) declared(id int64) string {
	b, ok := w.st.rec.Buffer(id)
	if !ok {
		return fmt.Sprint(id)
	}
	kind := "buffer"
	if b.IsView {
		kind = "view"
	}
	return named(kind, b)
}

// differ reports that the recording read differs from the structure.
func (w *walker) differ(line, stLine int, what, want, got string) error {
	if len(w.st.rec.Header.Dims) == 0 {
		return w.differWhy(line, stLine, what, want, got, "a program without dimensions records the same operations every time")
	}
	return &opsDiffer{head: w.differHead(line, stLine, what, want, got), why: whyOps, at: w.dims}
}

// opsDiffer is a refusal of recordings whose operations differ: where,
// then the advice, which Build may put more precisely (sizeOne); at is
// the point of the recording found to differ from the structure's.
type opsDiffer struct {
	head, why string
	at        []record.Dim
}

func (e *opsDiffer) Error() string { return e.head + "; " + e.why }

func (w *walker) differWhy(line, stLine int, what, want, got, why string) error {
	return fmt.Errorf("%s; %s", w.differHead(line, stLine, what, want, got), why)
}

func (w *walker) differHead(line, stLine int, what, want, got string) string {
	return fmt.Sprintf("%s and %s differ: %s %s at %s but %s at %s",
		at(w.name, line), at(w.st.name, stLine), what, want, w.st.point, got, w.point)
}

// describe says what the structure's record n is, n being the record about
// to be compared (its buffers and operations before it passed).
func (w *walker) describe(n int) string {
	st := w.st
	if n == len(st.kinds) {
		return "the end of the recording"
	}
	switch st.kinds[n] {
	case record.KindHeader:
		return "the header"
	case record.KindBuffer:
		return named("buffer", st.rec.Buffers.At(w.nbuf))
	case record.KindView:
		return named("view", st.rec.Buffers.At(w.nbuf))
	case record.KindOp:
		return fmt.Sprintf("operation %d %q", w.nop+1, st.rec.Ops.Label(w.nop))
	}
	return "the result"
}

// line returns the line of the structure's record n, as describe finds it;
// 0 past its end.
func (w *walker) line(n int) int {
	st := w.st
	if n == len(st.kinds) {
		return 0
	}
	switch st.kinds[n] {
	case record.KindHeader:
		return st.headerLine
	case record.KindBuffer, record.KindView:
		return st.rec.Buffers.At(w.nbuf).Line
	case record.KindOp:
		return st.rec.Ops.At(w.nop).Line
	}
	return st.resultLine
}

// describe says what record r is.
func describe(r *record.Record) string {
	switch r.Kind {
	case record.KindHeader:
		return "the header"
	case record.KindBuffer:
		return named("buffer", r.Buffer)
	case record.KindView:
		return named("view", r.Buffer)
	case record.KindOp:
		return fmt.Sprintf("operation %q", r.Op.Label)
	}
	return "the result"
}

// named writes "buffer 82" or, when it has a name, `buffer 82
// "blocks[0].attn/clone"`: a recorder's names often say which operation
// made the buffer.
func named(kind string, b record.Buffer) string {
	if b.Name == "" {
		return fmt.Sprintf("%s %d", kind, b.ID)
	}
	return fmt.Sprintf("%s %d %q", kind, b.ID, b.Name)
}

func ids(x []int64) string {
	s := make([]string, len(x))
	for i, id := range x {
		s[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(s, ", ") + "]" // as the recording writes them
}

func consts(cs []record.Const) string {
	if len(cs) == 0 {
		return "none"
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Name + " = " + c.Value
	}
	return strings.Join(s, ", ")
}

func dimNames(ds []record.Dim) string {
	if len(ds) == 0 {
		return "none"
	}
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.Name
	}
	return strings.Join(s, ", ")
}

func typeName(t record.DType) string {
	if t.IsZero() {
		return "none"
	}
	return t.String()
}

func sizeForm(b *record.Buffer) string {
	if b.Shape == nil {
		return "given in bytes"
	}
	return "given by a shape"
}

func launches(l bool) string {
	if l {
		return "work"
	}
	return "nothing"
}
