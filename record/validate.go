package record

import (
	"io"
	"sync"
)

// Summary is what Validate says of a recording that follows the format.
type Summary struct {
	Header  Header // its slices are the Summary's own
	Buffers int    // the buffers, views apart
	Views   int
	Ops     int
}

// Validate reads a recording from r and checks it as Read does, record by
// record, but holds only what the checks need of each buffer and view (its
// id, its role, the buffer it stands for and whether it is written), not
// the recording: a few bytes a buffer, whatever the recording's size. Its
// errors are Read's, byte for byte.
func Validate(r io.Reader, file string) (*Summary, error) {
	s := NewScanner(r, file)
	b := lightBuilders.Get().(*Builder)
	defer lightBuilders.Put(b)
	*b = Builder{light: true, bufs: b.bufs[:0], uses: b.uses[:0]}
	sum := &Summary{}
	for s.Scan() {
		rec := s.Record()
		if err := b.Add(rec); err != nil {
			return nil, &SyntaxError{File: file, Line: rec.Line, Msg: err.Error()}
		}
		switch rec.Kind {
		case KindBuffer:
			sum.Buffers++
		case KindView:
			sum.Views++
		case KindOp:
			sum.Ops++
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	rec, err := b.Finish()
	if err != nil {
		return nil, &SyntaxError{File: file, Line: max(s.Line(), 1), Msg: err.Error()}
	}
	sum.Header = rec.Header
	return sum, nil
}

// ValidateFile validates the recording in the named file; "-" is the
// standard input. Its errors are ReadFile's.
func ValidateFile(path string) (*Summary, error) {
	return withFile(path, Validate)
}

// lightBuilders keeps the Builders Validate checked with, so that checking
// one file after another (memsym validate, a grid's files) reuses the
// checks' arrays, as large as the largest file's, rather than making new
// ones a file and leaving the old to the collector.
var lightBuilders = sync.Pool{New: func() any { return new(Builder) }}
