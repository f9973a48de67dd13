package source

import (
	"context"
	"fmt"
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
	for _, p := range append(append([]string(nil), f.Grid...), f.Checks...) {
		if err := rereadable(p); err != nil {
			return nil, err
		}
	}
	return &Recordings{Grid: fileSources(f.Grid), Checks: fileSources(f.Checks)}, nil
}

// rereadable refuses a recording that can be read only once, the standard
// input or a pipe: a model is built by reading each recording of its grid
// and each check recording more than once (its header first, then the
// whole, then again where two differ), and a second reading of a pipe
// finds it empty or begun. A file that cannot be examined is left for
// opening it to say why.
func rereadable(path string) error {
	refuse := func() error {
		return usagef("%s: memsym reads each recording of a grid more than once: give regular files, not standard input or a pipe", path)
	}
	if path == "-" {
		return refuse()
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	return refuse()
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
// file when it ends and refuses a recording cut short; its lines can be
// read by comparison with another point's (record.File).
func OpenFile(path string) (record.Stream, error) { return record.OpenFile(path) }

// pointStream checks that a recording was made at the point it was asked
// for.
type pointStream struct {
	*record.File
	want    record.Point
	checked bool
	err     error
}

func (s *pointStream) Scan() bool {
	if s.err != nil || !s.File.Scan() {
		return false
	}
	if r := s.Record(); !s.checked && r.Kind == record.KindHeader {
		s.checked = true
		if !r.Header.Dims.Equal(s.want) {
			s.err = wrongPoint(s.File.Name(), r.Line, s.want, r.Header.Dims)
			return false
		}
	}
	return true
}

func (s *pointStream) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.File.Err()
}
