package interp

import (
	"fmt"
	"io"
	"slices"

	"memsym/record"
)

// structure is the first grid point's recording, which every other
// recording must repeat record by record but for its dimensions' values and
// its sizes.
type structure struct {
	rec        *record.Recording
	kinds      []record.Kind // each record's kind, in the stream's order
	name       string        // the source's name
	point      string        // "B = 16, T = 256"
	headerLine int
	resultLine int
}

// at writes a position for messages: "file:line", or the name alone when
// the line is unknown.
func at(name string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", name, line)
	}
	return name
}

// open opens src's stream, naming src in the error.
func open(src Source) (record.Stream, error) {
	s, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
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
		return record.Header{}, 0, fmt.Errorf("%s: the recording is empty: expected the header on its first line", src.Name)
	}
	r := s.Record()
	if r.Kind != record.KindHeader {
		return record.Header{}, 0, fmt.Errorf("%s: a %s before the header: the first line must be the header", at(src.Name, r.Line), r.Kind)
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
	st := &structure{name: src.Name, point: point}
	b := record.NewBuilder()
	nbuf := 0
	for s.Scan() {
		r := s.Record() // the Builder keeps copies of its slices
		if err := b.Add(r); err != nil {
			return nil, fmt.Errorf("%s: %w", at(src.Name, r.Line), err)
		}
		st.kinds = append(st.kinds, r.Kind)
		switch r.Kind {
		case record.KindHeader:
			st.headerLine = r.Line
		case record.KindResult:
			st.resultLine = r.Line
		case record.KindBuffer, record.KindView:
			value(nbuf, &r.Buffer)
			nbuf++
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if st.rec, err = b.Finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	st.kinds = slices.Clip(st.kinds)
	return st, nil
}
