package record

import (
	"io"
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
	b := &Builder{light: true}
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
