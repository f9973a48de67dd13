package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"memsym/doc"
	"memsym/interp"
	"memsym/record"
)

// Files are recordings already made: 3^k files forming the grid and any
// number of check files off it. They carry their own points; they cannot
// record new ones.
type Files struct {
	Grid, Checks []string
}

func (f *Files) Name() string { return doc.Plural(len(f.Grid), "recording", "recordings") }

func (f *Files) Recordings(ctx context.Context, spec Spec) (*Recordings, error) {
	if len(spec.Grid) > 0 || spec.Checks != nil {
		return nil, usagef("--grid and --check points go with --program or --recorder; recording files carry their own points (give check files with --check FILE)")
	}
	return &Recordings{Grid: fileSources(f.Grid), Checks: fileSources(f.Checks)}, nil
}

func (f *Files) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	return nil, fmt.Errorf("recording files %w: give --program or --recorder to record at %s", ErrCannotRecord, p)
}

func (f *Files) Close() error { return nil }

func fileSources(paths []string) []interp.Source {
	var out []interp.Source
	for _, p := range paths {
		out = append(out, interp.Source{Name: p, Open: func() (record.Stream, error) { return OpenFile(p) }})
	}
	return out
}

// OpenFile opens a recording file ("-" is stdin) as a stream that closes the
// file when it ends and refuses a recording cut short.
func OpenFile(path string) (record.Stream, error) {
	if path == "-" {
		return &closingStream{Stream: record.NewScanner(os.Stdin, "<stdin>"), name: "<stdin>"}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the caller names the file
		}
		return nil, fmt.Errorf("cannot read the recording: %w", err)
	}
	return &closingStream{Stream: record.NewScanner(f, path), c: f, name: path}, nil
}

// closingStream closes its file when the stream ends, and refuses a
// recording cut short: one whose records end before its result, as a
// recorder that died while writing leaves it.
type closingStream struct {
	record.Stream
	c      io.Closer
	name   string
	last   int // the line of the last record read
	result bool
	err    error
}

func (s *closingStream) Scan() bool {
	if s.err != nil {
		return false
	}
	if s.Stream.Scan() {
		r := s.Record()
		s.last = r.Line
		s.result = r.Kind == record.KindResult
		return true
	}
	if s.Stream.Err() == nil && s.last > 0 && !s.result {
		s.err = fmt.Errorf("%s:%d: the recording ends without the result line {\"result\": [...]}", s.name, s.last)
	}
	if s.c != nil {
		s.c.Close()
		s.c = nil
	}
	return false
}

func (s *closingStream) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.Stream.Err()
}

// pointStream checks that a recording was made at the point it was asked
// for.
type pointStream struct {
	closingStream
	want    record.Point
	checked bool
	err     error
}

func (s *pointStream) Scan() bool {
	if s.err != nil || !s.closingStream.Scan() {
		return false
	}
	if r := s.Record(); !s.checked && r.Kind == record.KindHeader {
		s.checked = true
		if !r.Header.Dims.Equal(s.want) {
			s.err = fmt.Errorf("%s:%d: the recorder was asked for %s but its header says %s", s.name, r.Line, s.want, r.Header.Dims)
			return false
		}
	}
	return true
}

func (s *pointStream) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.closingStream.Err()
}
