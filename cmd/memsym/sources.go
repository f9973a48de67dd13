package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"memsym/interp"
	"memsym/programs"
	"memsym/record"
)

// sourceFlags are the flags that say where a program's recordings come from:
// files, a recorder command run per point, or a bundled program.
type sourceFlags struct {
	program  string
	recorder string
	timeout  time.Duration
	consts   assignments
	grid     gridFlag
	checks   listFlag
}

func (s *sourceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.program, "program", "", "a bundled program's `name` (memsym programs lists them), recorded at each point")
	fs.StringVar(&s.recorder, "recorder", "", "a `command` run once per point, with {NAME} replaced by each dimension's value, writing a recording to stdout")
	fs.DurationVar(&s.timeout, "timeout", 10*time.Minute, "how long one recorder command may run")
	fs.Var(&s.consts, "const", "a bundled program's constant `K=V` (repeatable)")
	fs.Var(&s.grid, "grid", "a dimension's three grid values `D=a,b,c` (repeatable; with --program or --recorder)")
	fs.Var(&s.checks, "check", "a check point off the grid: `B=64,T=1024` with --program or --recorder, else a recording file (repeatable)")
}

// describe says where the recordings come from, for messages.
func (s *sourceFlags) describe(files []string) string {
	switch {
	case s.program != "":
		return "the bundled program " + s.program
	case s.recorder != "":
		return "the recorder"
	}
	return fmt.Sprintf("%d recordings", len(files))
}

// sources turns the flags and the positional files into the grid's sources
// and the check points' sources. cleanup removes what recording left behind;
// it is never nil.
func (s *sourceFlags) sources(files []string, stderr io.Writer) (grid, checks []interp.Source, cleanup func(), err error) {
	cleanup = func() {}
	n := 0
	for _, set := range []bool{s.program != "", s.recorder != "", len(files) > 0} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, nil, cleanup, usagef("no recordings: give recording files, --recorder COMMAND or --program NAME")
	case n > 1:
		return nil, nil, cleanup, usagef("give recording files, --recorder or --program, not more than one of them")
	case len(files) > 0:
		if len(s.grid) > 0 || len(s.consts) > 0 {
			return nil, nil, cleanup, usagef("--grid and --const go with --program or --recorder; recording files carry their own points")
		}
		return fileSources(files), fileSources(s.checks), cleanup, nil
	case s.program != "":
		return s.programSources()
	case len(s.consts) > 0:
		return nil, nil, cleanup, usagef("--const goes with --program; a recorder command sets its own constants")
	}
	return s.recorderSources(stderr)
}

func fileSources(paths []string) []interp.Source {
	var out []interp.Source
	for _, p := range paths {
		out = append(out, interp.Source{Name: p, Open: func() (record.Stream, error) { return openStream(p) }})
	}
	return out
}

// openStream opens a recording file ("-" is stdin) as a stream that closes
// the file when it ends.
func openStream(path string) (record.Stream, error) {
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

// points returns the grid's points and the check points, from the defaults
// and the --grid and --check flags, in the order of vars.
func (s *sourceFlags) points(vars []string, defGrid map[string][3]int64, defCheck map[string]int64) (grid, checks [][]record.Dim, err error) {
	values := make(map[string][]int64)
	for name, v := range defGrid {
		values[name] = v[:]
	}
	for _, g := range s.grid {
		if !contains(vars, g.name) {
			return nil, nil, usagef("--grid %s: no dimension %s (the dimensions are %s)", g.name, g.name, strings.Join(vars, ", "))
		}
		values[g.name] = g.values
	}
	for _, v := range vars {
		if len(values[v]) != 3 {
			return nil, nil, usagef("--grid %s: give three values, as --grid %s=16,32,48", v, v)
		}
	}
	grid = [][]record.Dim{nil}
	for _, v := range vars {
		var next [][]record.Dim
		for _, p := range grid {
			for _, x := range values[v] {
				next = append(next, append(append([]record.Dim(nil), p...), record.Dim{Name: v, Value: x}))
			}
		}
		grid = next
	}
	if len(s.checks) == 0 && defCheck != nil {
		var p []record.Dim
		for _, v := range vars {
			p = append(p, record.Dim{Name: v, Value: defCheck[v]})
		}
		checks = append(checks, p)
	}
	for _, c := range s.checks {
		a, err := parseAssignments(c)
		if err != nil {
			return nil, nil, usagef("--check %s: %v", c, err)
		}
		var p []record.Dim
		for _, v := range vars {
			x, ok := a[v]
			if !ok {
				return nil, nil, usagef("--check %s: no value for %s", c, v)
			}
			p = append(p, record.Dim{Name: v, Value: x})
			delete(a, v)
		}
		for k := range a {
			return nil, nil, usagef("--check %s: no dimension %s", c, k)
		}
		checks = append(checks, p)
	}
	return grid, checks, nil
}

func (s *sourceFlags) programSources() (grid, checks []interp.Source, cleanup func(), err error) {
	cleanup = func() {}
	p, err := programs.Lookup(s.program)
	if err != nil {
		return nil, nil, cleanup, usagef("%v", err)
	}
	var vars []string
	defGrid := map[string][3]int64{}
	defCheck := map[string]int64{}
	for _, d := range p.Dims {
		vars = append(vars, d.Name)
		defGrid[d.Name] = d.Grid
		defCheck[d.Name] = d.Check
	}
	gp, cp, err := s.points(vars, defGrid, defCheck)
	if err != nil {
		return nil, nil, cleanup, err
	}
	if err := checkConsts(p, s.consts); err != nil {
		return nil, nil, cleanup, err
	}
	consts := map[string]int64(s.consts.values())
	src := func(point []record.Dim) interp.Source {
		var once sync.Once
		var rec *record.Recording
		var rerr error
		return interp.Source{
			Name: sourceName(p.Name, point),
			Open: func() (record.Stream, error) {
				once.Do(func() {
					dims := map[string]int64{}
					for _, d := range point {
						dims[d.Name] = d.Value
					}
					rec, rerr = p.Record(dims, consts)
				})
				if rerr != nil {
					return nil, rerr // Build puts the source's name, with the point, in front
				}
				return rec.Replay(), nil
			},
		}
	}
	for _, pt := range gp {
		grid = append(grid, src(pt))
	}
	for _, pt := range cp {
		checks = append(checks, src(pt))
	}
	return grid, checks, cleanup, nil
}

// checkConsts refuses a --const that names none of p's constants, before
// anything is recorded.
func checkConsts(p *programs.Program, consts assignments) error {
	var names []string
	for _, c := range p.Consts {
		names = append(names, c.Name)
	}
	for _, c := range consts {
		if contains(names, c.name) {
			continue
		}
		for _, d := range p.Dims {
			if d.Name == c.name {
				return usagef("--const %s: %s is a dimension of %s, not a constant: give its grid with --grid %s=a,b,c", c.name, c.name, p.Name, c.name)
			}
		}
		if len(names) == 0 {
			return usagef("--const %s: %s has no constants", c.name, p.Name)
		}
		return usagef("--const %s: %s has no constant %s; its constants are %s", c.name, p.Name, c.name, strings.Join(names, ", "))
	}
	return nil
}

func (s *sourceFlags) recorderSources(stderr io.Writer) (grid, checks []interp.Source, cleanup func(), err error) {
	cleanup = func() {}
	cmd, err := record.ParseCommand(s.recorder)
	if err != nil {
		return nil, nil, cleanup, usagef("%v", err)
	}
	cmd.Timeout = s.timeout
	var vars []string
	for _, g := range s.grid {
		vars = append(vars, g.name)
	}
	if len(vars) == 0 {
		return nil, nil, cleanup, usagef("--recorder needs the grid: --grid B=16,32,48 for each dimension")
	}
	for _, n := range cmd.Names {
		if !contains(vars, n) {
			return nil, nil, cleanup, usagef("the recorder command has {%s}, which no --grid gives", n)
		}
	}
	for _, v := range vars {
		if !contains(cmd.Names, v) {
			return nil, nil, cleanup, usagef("the recorder command has no {%s}: each point would record the same thing", v)
		}
	}
	gp, cp, err := s.points(vars, nil, nil)
	if err != nil {
		return nil, nil, cleanup, err
	}
	dir, err := os.MkdirTemp("", "memsym-recordings-")
	if err != nil {
		return nil, nil, cleanup, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	all := append(append([][]record.Dim(nil), gp...), cp...)
	paths, err := runRecorders(cmd, all, dir, stderr)
	if err != nil {
		return nil, nil, cleanup, err
	}
	mk := func(i int) interp.Source {
		point, path := all[i], paths[i]
		name := sourceName("recorder", point)
		return interp.Source{Name: name, Open: func() (record.Stream, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			return &pointStream{closingStream: closingStream{Stream: record.NewScanner(f, name), c: f, name: name}, want: point}, nil
		}}
	}
	for i := range gp {
		grid = append(grid, mk(i))
	}
	for i := range cp {
		checks = append(checks, mk(len(gp)+i))
	}
	return grid, checks, cleanup, nil
}

// sourceName names a recording made at a point, for messages that put a
// line number after it: "gpt-course(B=16,T=256):12".
func sourceName(maker string, point []record.Dim) string {
	parts := make([]string, len(point))
	for i, d := range point {
		parts[i] = fmt.Sprintf("%s=%d", d.Name, d.Value)
	}
	return maker + "(" + strings.Join(parts, ",") + ")"
}

// pointStream checks that a recorder's recording was made at the point it
// was asked for.
type pointStream struct {
	closingStream
	want    []record.Dim
	checked bool
	err     error
}

func (s *pointStream) Scan() bool {
	if s.err != nil || !s.closingStream.Scan() {
		return false
	}
	if r := s.Record(); !s.checked && r.Kind == record.KindHeader {
		s.checked = true
		if got := record.PointString(r.Header.Dims); got != record.PointString(s.want) {
			s.err = fmt.Errorf("%s:%d: the recorder was asked for %s but its header says %s", s.name, r.Line, record.PointString(s.want), got)
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

// runRecorders runs cmd at every point, as many at once as there are CPUs,
// each writing to a file in dir, with a progress bar on stderr when it is a
// terminal. The first failure stops the others and is the one returned.
func runRecorders(cmd *record.Command, points [][]record.Dim, dir string, stderr io.Writer) ([]string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	paths := make([]string, len(points))
	var mu sync.Mutex
	var first error // the first failure; those of the commands it stopped come later
	bar := newProgress(stderr, len(points), "recording")
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i, pt := range points {
		paths[i] = filepath.Join(dir, fmt.Sprintf("point-%d.jsonl", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			f, err := os.Create(paths[i])
			if err == nil {
				err = cmd.Run(ctx, pt, f)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
					cancel()
				}
				mu.Unlock()
			}
			bar.step()
		}()
	}
	wg.Wait()
	bar.done()
	if first != nil {
		return nil, first
	}
	return paths, nil
}
