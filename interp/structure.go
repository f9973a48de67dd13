package interp

import (
	"fmt"
	"io"
	"slices"

	"memsym/internal/pages"
	"memsym/record"
)

// structure is the first grid point's recording, which every other
// recording must repeat record by record but for its dimensions' values and
// its sizes.
type structure struct {
	rec        *record.Recording
	uses       []record.Use  // by position, as the Builder found them
	held       []int32       // the positions of the caller-held buffers, in order
	nbuf       int           // the buffers and views noted
	kinds      []record.Kind // each record's kind, in the stream's order
	name       string        // the source's name
	point      string        // "B = 16, T = 256"
	headerLine int
	resultLine int
}

// note notes a record the Builder took: its kind, the header's and the
// result's lines, and the caller-held buffers.
func (st *structure) note(r *record.Record) {
	st.kinds = append(st.kinds, r.Kind)
	switch r.Kind {
	case record.KindHeader:
		st.headerLine = r.Line
	case record.KindResult:
		st.resultLine = r.Line
	case record.KindBuffer, record.KindView:
		if r.Buffer.Role.Held() { // a view's is Temp
			st.held = append(st.held, int32(st.nbuf))
		}
		st.nbuf++
	}
}

// grow makes room to note about buffers and views and ops more
// records, in one array (pages.Grow) rather than copied as they come: a
// million operations' kinds are megabytes.
func (st *structure) grow(buffers, ops int) {
	st.kinds = pages.Grow(st.kinds, buffers+ops)
}

// at writes a position for messages: "file:line", or the name alone when
// the line is unknown.
func at(name string, line int) string {
	name = record.ShowFile(name) // quoted where it would break the line
	if line > 0 {
		return fmt.Sprintf("%s:%d", name, line)
	}
	return name
}

// open opens src's stream, naming src in the error.
func open(src Source) (record.Stream, error) {
	s, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", record.ShowFile(src.Name), err)
	}
	return s, nil
}

// release closes s if it can be closed.
func release(s record.Stream) {
	if c, ok := s.(io.Closer); ok {
		c.Close()
	}
}

// readHeader returns the header of src and its line.
func readHeader(src Source) (record.Header, int, error) {
	s, err := open(src)
	if err != nil {
		return record.Header{}, 0, err
	}
	defer release(s)
	if !s.Scan() {
		if err := s.Err(); err != nil {
			return record.Header{}, 0, err
		}
		// As the Builder says it of an empty recording read alone.
		return record.Header{}, 0, fmt.Errorf("%s: the recording ends without the header and the result line {\"result\": [...]}", at(src.Name, 1))
	}
	r := s.Record()
	if r.Kind != record.KindHeader {
		return record.Header{}, 0, fmt.Errorf("%s: %s before the header: the first line must be the header", at(src.Name, r.Line), r.Kind.WithArticle())
	}
	h := r.Header
	h.Dims = slices.Clone(h.Dims)
	h.Consts = slices.Clone(h.Consts)
	return h, r.Line, nil
}

// readStructure reads src whole through a record.Builder and calls value
// for each buffer and view, by its position, in order.
func readStructure(src Source, point string, value func(pos int, b *record.Buffer)) (*structure, error) {
	s, err := open(src)
	if err != nil {
		return nil, err
	}
	defer release(s)
	return readStructureOf(s, src, point, value, nil)
}

// readStructureOf is readStructure reading the stream s of src; when keep
// is not nil, it is called with each record after the header as it is
// read, and an error it returns stops the reading.
func readStructureOf(s record.Stream, src Source, point string, value func(pos int, b *record.Buffer), keep func(r *record.Record) error) (*structure, error) {
	st := &structure{name: src.Name, point: point}
	b := record.NewBuilder()
	if sized, ok := s.(interface{ Size() int64 }); ok {
		b.GrowFor(sized.Size())
	}
	nbuf := 0
	for s.Scan() {
		r := s.Record() // the Builder keeps copies of its slices
		if err := b.Add(r); err != nil {
			return nil, fmt.Errorf("%s: %w", at(src.Name, r.Line), err)
		}
		st.note(r)
		switch r.Kind {
		case record.KindBuffer, record.KindView:
			if value != nil {
				value(nbuf, &r.Buffer)
			}
			nbuf++
		}
		if keep != nil && r.Kind != record.KindHeader {
			if err := keep(r); err != nil {
				return nil, err
			}
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	rec, err := b.Finish()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", record.ShowFile(src.Name), err)
	}
	st.rec, st.uses = rec, b.Uses()
	st.kinds = slices.Clip(st.kinds)
	return st, nil
}

// readStructurePiped is readStructureOf without value, reading and
// building at once: this goroutine scans the records and calls keep with
// each, and another adds them to the Builder, batches of them handed over
// as they are read. Its result and its errors are readStructureOf's: the
// first mistake in the order of the records. When the start of the
// recording tells about how many buffers and views and operations it holds
// (estimate), expect, if not nil, is called with them, from this
// goroutine.
func readStructurePiped(s record.Stream, src Source, point string, keep func(r *record.Record) error, expect func(buffers, ops int)) (*structure, error) {
	st := &structure{name: src.Name, point: point}
	b := record.NewBuilder()
	var est estimate
	p := record.Pipe{
		Scanned: func(r *record.Record) (grow [2]int, err error) {
			grow, ok := est.count(s, r.Kind) // zero until the start tells
			if ok && expect != nil {
				expect(grow[0], grow[1])
			}
			if r.Kind != record.KindHeader {
				err = keep(r)
			}
			return grow, err
		},
		Took:    st.note,
		Grew:    st.grow,
		Mistake: func(line int, err error) error { return fmt.Errorf("%s: %w", at(src.Name, line), err) },
	}
	if err := p.Build(s, b); err != nil {
		return nil, err
	}
	rec, err := b.Finish()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", record.ShowFile(src.Name), err)
	}
	st.rec, st.uses = rec, b.Uses()
	st.kinds = slices.Clip(st.kinds)
	return st, nil
}

// estimate makes room in the Builder for the whole recording once the
// start of it tells its mix of lines: a guess from the file's size alone
// (record.Builder.GrowFor) reserves too much or too little, and too much
// costs page faults and the collector's time as much as too little costs
// copies.
type estimate struct {
	n, buffers, ops int
	done            bool
}

// estimateAfter is how many records the estimate reads first.
const estimateAfter = 8192

// count counts a record of kind k read from s, and when the start of the
// recording has been read, returns room to make for the rest of it: its
// buffers and views, and its operations, with 3% to spare.
func (e *estimate) count(s record.Stream, k record.Kind) ([2]int, bool) {
	if e.done {
		return [2]int{}, false
	}
	e.n++
	switch k {
	case record.KindBuffer, record.KindView:
		e.buffers++
	case record.KindOp:
		e.ops++
	}
	if e.n < estimateAfter {
		return [2]int{}, false
	}
	e.done = true
	if g, ok := s.(interface{ Expected() (int, int) }); ok {
		// A stream made by Go code (record.Live) may say.
		if b, o := g.Expected(); b > 0 || o > 0 {
			return [2]int{b, o}, true
		}
	}
	f, ok := s.(interface {
		Size() int64
		Offset() int64
	})
	if !ok || f.Offset() <= 0 || f.Size() <= f.Offset() {
		return [2]int{}, false
	}
	scale := float64(f.Size()) / float64(f.Offset()) * 1.03
	return [2]int{int(float64(e.buffers) * scale), int(float64(e.ops) * scale)}, true
}
