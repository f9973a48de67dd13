package source

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"memsym/doc"
	"memsym/interp"
	"memsym/programs"
	"memsym/record"
)

// Program is a bundled program, recorded in memory at each point with its
// constants set.
type Program struct {
	P      *programs.Program
	Consts map[string]int64 // constants other than the defaults
}

// NewProgram looks up a bundled program and checks the constants given for
// it, before anything is recorded.
func NewProgram(name string, consts map[string]int64) (*Program, error) {
	p, err := programs.Lookup(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	var names []string
	for _, c := range p.Consts {
		names = append(names, c.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(consts)) {
		if contains(names, k) {
			continue
		}
		for _, d := range p.Dims {
			if d.Name == k {
				return nil, usagef("--const %s: %s is a dimension of %s, not a constant: give it as one, --dim %s=N to record a point, --at %s=N to evaluate one, --grid %s=a,b,c for the model's grid", k, k, p.Name, k, k, k)
			}
		}
		if len(names) == 0 {
			return nil, usagef("--const %s: %s has no constants", k, p.Name)
		}
		return nil, usagef("--const %s: %s has no constant %s; its constants are %s", k, p.Name, k, doc.AndList(names))
	}
	if err := p.CheckConsts(consts); err != nil {
		return nil, usagef("--const: %v", programWords(p, err))
	}
	return &Program{P: p, Consts: consts}, nil
}

func (s *Program) Name() string { return s.P.Name }

// Allows returns nil when the program runs at p with its constants, else
// why not (programs.Program.Allows).
func (s *Program) Allows(p record.Point) error { return s.P.Allows(p.Map(), s.Consts) }

// Limit returns nil where src's program runs at p, or where src cannot
// say (only a bundled program knows its limits: a dimension's largest
// value, a constraint such as T ≤ P); else why it does not, in the
// program's words: "T = 513 is more than P = 512".
func Limit(src Source, p record.Point) error {
	s, ok := src.(*Program)
	if !ok {
		return nil
	}
	err := s.Allows(p)
	if err == nil {
		return nil
	}
	return programWords(s.P, err)
}

// programWords is one of p's errors in the program's words, without the
// "program NAME: " the programs package says it with.
func programWords(p *programs.Program, err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "program "+p.Name+": "))
}

// NotRunning is Limit as a sentence: "bert-encoder does not run at B = 1,
// T = 513: T = 513 is more than P = 512"; nil where Limit is.
func NotRunning(src Source, p record.Point) error {
	if why := Limit(src, p); why != nil {
		return fmt.Errorf("%s does not run at %s: %v", src.Name(), p, why)
	}
	return nil
}

// Plan returns the grid and check points: the program's defaults, which
// spec overrides.
func (s *Program) Plan(spec Spec) (*Plan, error) {
	var vars []string
	grid := map[string][3]int64{}
	var own record.Point
	for _, d := range s.P.Dims {
		vars = append(vars, d.Name)
		grid[d.Name] = d.Grid
		own = append(own, record.Dim{Name: d.Name, Value: d.Check})
	}
	pl, err := plan(vars, grid, own, spec)
	if err != nil {
		return nil, err
	}
	// Nothing is recorded where the program does not run: a grid or a
	// check point given there is refused before anything is recorded; a
	// check point of memsym's own choosing there is left out, and when
	// none is left, one between the grid's values is tried.
	points := pl.Points()
	for _, p := range points {
		if err := NotRunning(s, p); err != nil {
			// Where it runs at other points of the grid, the grid reaches
			// past its sizes (bert-encoder's T ≤ P below the grid's T):
			// another grid serves. Where it runs at none, the constants
			// may be the cause (gpt-course's D not divisible by H).
			if slices.ContainsFunc(points, func(q record.Point) bool { return Limit(s, q) == nil }) {
				return nil, usagef("%v; the grid's every point is recorded: give --grid values where it runs", err)
			}
			return nil, usagef("%v", err)
		}
	}
	for _, c := range spec.Checks {
		p, err := align(c, vars) // plan took it
		if err == nil {
			err = NotRunning(s, p)
		}
		if err != nil {
			return nil, usagef("--check %s: %v", c.Key(), err)
		}
	}
	var checks []record.Point
	defaults := 0
	for i, p := range pl.Checks {
		if NotRunning(s, p) == nil {
			checks = append(checks, p) // else one of memsym's own, left out
			if i < pl.Defaults {
				defaults++
			}
		}
	}
	if len(checks) == 0 && pl.Defaults > 0 {
		if p, ok := innerCheck(pl.Vars, pl.Values); ok && NotRunning(s, p) == nil {
			checks = append(checks, p)
			defaults++
		}
	}
	pl.Checks, pl.Defaults = checks, defaults
	return pl, nil
}

func (s *Program) Recordings(ctx context.Context, spec Spec) (*Recordings, error) {
	pl, err := s.Plan(spec)
	if err != nil {
		return nil, err
	}
	// Each point is recorded as it is read, and again each time it is
	// read: a recording of millions of operations is never held whole.
	src := func(p record.Point) interp.Source {
		return interp.Source{
			Name: pointName(s.P.Name, p),
			Open: func() (record.Stream, error) { return s.P.Stream(p.Map(), s.Consts) },
		}
	}
	out := &Recordings{}
	for _, p := range pl.Points() {
		out.Grid = append(out.Grid, src(p))
	}
	for _, p := range pl.Checks {
		out.Checks = append(out.Checks, src(p))
	}
	return out, nil
}

func (s *Program) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	return s.P.Record(p.Map(), s.Consts)
}

func (s *Program) Close() error { return nil }

// Default returns the program's default point.
func (s *Program) Default() record.Point {
	var p record.Point
	for _, d := range s.P.Dims {
		p = append(p, record.Dim{Name: d.Name, Value: d.Default})
	}
	return p
}
