// Package source obtains a program's recordings: from files, from a bundled
// program, or from a recorder command run once per point. It plans the grid
// of three values per dimension and the check points off it, runs recorders
// in parallel, and hands interp one stream per point.
package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"

	"memsym/internal/ending"
	"memsym/interp"
	"memsym/record"
)

// Source yields one program's recordings.
type Source interface {
	// Name names the program in messages: "gpt-course", "recorder",
	// "3 recordings".
	Name() string
	// Recordings returns the recordings on the grid and at the check points
	// that spec asks for, the source's own defaults where spec is silent.
	Recordings(ctx context.Context, spec Spec) (*Recordings, error)
	// Record makes a fresh recording at p; sources that cannot record new
	// points return an error wrapping ErrCannotRecord.
	Record(ctx context.Context, p record.Point) (*record.Recording, error)
	// Close removes what recording left behind.
	Close() error
}

// ErrCannotRecord is the error of a source that cannot record new points,
// as recording files cannot.
var ErrCannotRecord = errors.New("cannot record new points")

// Spec is what a user asked of the grid and the check points; its zero
// value takes the source's defaults.
type Spec struct {
	// Grid gives some dimensions' three grid values.
	Grid []GridDim
	// Checks are check points off the grid, checked besides the
	// defaults.
	Checks []record.Point
	// NoDefaultChecks leaves the source's own check points out: only
	// Checks are checked, for a recorder that runs at some sizes only.
	NoDefaultChecks bool
}

// GridDim is one dimension's three grid values, distinct.
type GridDim struct {
	Name   string
	Values [3]int64
}

// Recordings are a program's recordings on its grid and at its check
// points, ready for interp.Build.
type Recordings struct {
	Grid   []interp.Source
	Checks []interp.Source
}

// PointError is a failure to make the recording at one point: its
// recorder failed, or wrote nothing. Its message is Err's, which names the
// point.
type PointError struct {
	Point record.Point
	Err   error
}

func (e *PointError) Error() string { return e.Err.Error() }
func (e *PointError) Unwrap() error { return e.Err }

// UsageError is a request a source cannot meet as asked, such as a grid
// for a dimension the program does not have: the user's to correct.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// pointName names a recording made at a point, for messages that put a
// line number after it: "gpt-course(B=16,T=256):12".
func pointName(maker string, p record.Point) string {
	return maker + "(" + p.Key() + ")"
}

// scratch is a source's temporary folder, made on first use and removed
// whole by Close, or by a signal that ends memsym first (ending). The
// recordings made at once (Prefetch) ask for it together.
type scratch struct {
	mu  sync.Mutex
	dir string
	tmp *ending.Dir
}

func (s *scratch) folder() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tmp == nil {
		d, err := ending.MkdirTemp("memsym-recordings-")
		if err != nil {
			return "", err
		}
		s.tmp, s.dir = d, d.Path
	}
	return s.dir, nil
}

func (s *scratch) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tmp == nil {
		return nil
	}
	err := s.tmp.Remove()
	s.tmp, s.dir = nil, ""
	return err
}

// readAt reads a recording a recorder made at p, named name in messages,
// and refuses one made at another point.
func readAt(r io.Reader, name string, p record.Point) (*record.Recording, error) {
	rec, err := record.Read(r, name)
	if err != nil {
		return nil, err
	}
	if !rec.Header.Dims.Equal(p) {
		return nil, wrongPoint(name, 1, p, rec.Header.Dims)
	}
	return rec, nil
}

func wrongPoint(name string, line int, want, got record.Point) error {
	if maps.Equal(want.Map(), got.Map()) {
		// The same values, in another order: the grid's order is --grid's.
		return fmt.Errorf("%s:%d: the recorder writes its dimensions in the order %s, where the grid has them %s: give --grid in the recorder's order",
			name, line, dimOrder(got), dimOrder(want))
	}
	return fmt.Errorf("%s:%d: the recorder was asked for %s but its header says %s", name, line, want, got)
}

// dimOrder writes a point's dimensions' names, "B, T".
func dimOrder(p record.Point) string {
	names := make([]string, len(p))
	for i, d := range p {
		names[i] = d.Name
	}
	return strings.Join(names, ", ")
}
