package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"time"

	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// sourceFlags are the flags that say where a program's recordings come from:
// files, a recorder command run per point, or a bundled program.
type sourceFlags struct {
	program  string
	recorder string
	torch    string
	timeout  time.Duration
	jobs     int
	consts   assignments
	grid     gridFlag
	checks   listFlag
	// noDefaults leaves memsym's own check points out (--no-default-checks).
	noDefaults bool
	fs         *flag.FlagSet // where they were registered, to see which were given
	// before, when set, checks the command's flags against the source's
	// dimensions before anything is recorded (checkBefore); slow is true
	// where recording the grid takes long (a recorder's, PyTorch's).
	before func(dims []string, slow bool) error
}

// notWithFiles refuses the flags that recording files have no use for:
// they carry their own points and constants, and run no recorder.
func (s *sourceFlags) notWithFiles() error {
	with := map[string]string{
		"grid":    "--program, --recorder or --torch",
		"const":   "--program",
		"jobs":    "--recorder or --torch",
		"timeout": "--recorder or --torch",

		"no-default-checks": "--program, --recorder or --torch",
	}
	set := map[string]bool{"grid": len(s.grid) > 0, "const": len(s.consts) > 0, "no-default-checks": s.noDefaults}
	for _, name := range []string{"grid", "const", "jobs", "timeout", "no-default-checks"} {
		if set[name] || s.fs != nil && given(s.fs, name) {
			return usagef("--%s goes with %s; recording files carry their own points and constants, and run no recorder", name, with[name])
		}
	}
	return nil
}

func (s *sourceFlags) register(fs *flag.FlagSet) {
	s.registerSources(fs)
	fs.Var(&s.checks, "check", "a check point off the grid: `B=65,T=1025` with --program, --recorder or --torch, else a recording file (repeatable)")
	fs.BoolVar(&s.noDefaults, "no-default-checks", false, "check at the --check points given only, not at memsym's own (with --program, --recorder or --torch): for a recorder that runs at some sizes only")
}

// registerSources registers the flags of register but --check, for a
// command that chooses its own points.
func (s *sourceFlags) registerSources(fs *flag.FlagSet) {
	s.fs = fs
	fs.StringVar(&s.program, "program", "", "a bundled program's `name` (memsym programs lists them), recorded at each point")
	fs.StringVar(&s.recorder, "recorder", "", "a shell `command` run once per point, with {NAME} replaced by each dimension's value ({{ and }} for braces as they are), writing a recording to stdout")
	fs.StringVar(&s.torch, "torch", "", "a PyTorch model, `FILE.py:FUNCTION [recorder flags]`, recorded on the meta device by the recorder memsym ships (docs/torch.md)")
	fs.DurationVar(&s.timeout, "timeout", 10*time.Minute, "how long one --recorder command, or one --torch process recording its share of the points, may run; 0 for no limit")
	fs.IntVar(&s.jobs, "jobs", source.DefaultJobs(), "how many recorder commands run at once")
	fs.Var(&s.consts, "const", "a bundled program's constant `K=V` (repeatable)")
	fs.Var(&s.grid, "grid", "a dimension's three grid values `D=a,b,c` (repeatable; with --program, --recorder or --torch)")
}

// assignmentArg is a point's values as --at takes them, T=3 or B=8,T=3.
var assignmentArg = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*=-?[0-9]+(,[A-Za-z][A-Za-z0-9_]*=-?[0-9]+)*$`)

// strayAssignment returns the first of args that reads as a point's
// values, NAME=N, and names no file, as "T=3" left after a space in
// "--at B=8 T=3"; "" when there is none.
func strayAssignment(args []string) string {
	for _, a := range args {
		if !assignmentArg.MatchString(a) {
			continue
		}
		if _, err := os.Stat(a); !os.IsNotExist(err) {
			continue
		}
		return a
	}
	return ""
}

// dimNames returns the dimensions of the source the flags and files give,
// where they are known without recording: a bundled program's, the
// grid's, or the first file's header; known is false otherwise.
func (s *sourceFlags) dimNames(files []string) (names []string, known bool) {
	switch {
	case s.program != "":
		p, err := programs.Lookup(s.program)
		if err != nil {
			return nil, false
		}
		for _, d := range p.Dims {
			names = append(names, d.Name)
		}
		return names, true
	case len(s.grid) > 0:
		for _, g := range s.grid {
			names = append(names, g.name)
		}
		return names, true
	case len(files) > 0 && files[0] != "-": // the standard input is read once, later
		st, err := record.OpenFile(files[0])
		if err != nil {
			return nil, false
		}
		defer st.Close()
		if !st.Scan() || st.Record().Kind != record.KindHeader {
			return nil, false
		}
		return st.Record().Header.Dims.Names(), true
	}
	return nil, false
}

// open turns the flags and the positional files into a source and what is
// asked of its grid. The caller closes the source.
func (s *sourceFlags) open(files []string, stderr io.Writer) (source.Source, source.Spec, error) {
	var spec source.Spec
	if a := strayAssignment(files); a != "" {
		return nil, spec, usagef("%s is not a recording file: a point's values go in one flag, comma-separated, as --at B=8,T=3", a)
	}
	// A source flag given empty is a mistake to say as one, not a source
	// left out.
	for _, f := range []struct{ name, value, want string }{
		{"program", s.program, "a bundled program's name (memsym programs lists them)"},
		{"recorder", s.recorder, "a shell command that writes a recording, such as 'python3 rec.py {B} {T}'"},
		{"torch", s.torch, "FILE.py:FUNCTION, such as model.py:build"},
	} {
		if f.value == "" && s.fs != nil && given(s.fs, f.name) {
			return nil, spec, usagef("--%s is empty: expected %s", f.name, f.want)
		}
	}
	n := 0
	for _, set := range []bool{s.program != "", s.recorder != "", s.torch != "", len(files) > 0} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, spec, usagef("no recordings: give recording files, --recorder COMMAND, --torch FILE.py:FUNCTION or --program NAME")
	case n > 1:
		return nil, spec, usagef("give recording files, --recorder, --torch or --program, not more than one of them")
	case len(files) > 0:
		if err := s.notWithFiles(); err != nil {
			return nil, spec, err
		}
		var checks []string
		for _, c := range s.checks {
			if err := checkFile(c); err != nil {
				return nil, spec, err
			}
			if !slices.Contains(checks, c) {
				checks = append(checks, c) // a file given twice is read once
			}
		}
		return &source.Files{Grid: files, Checks: checks}, spec, nil
	}
	for _, g := range s.grid {
		spec.Grid = append(spec.Grid, source.GridDim{Name: g.name, Values: [3]int64(g.values)})
	}
	for _, c := range s.checks {
		p, err := parsePoint(c)
		if err != nil {
			return nil, spec, usagef("--check %s: %v", c, err)
		}
		spec.Checks = append(spec.Checks, p)
	}
	spec.NoDefaultChecks = s.noDefaults
	// Refused for every source that records: a value that cannot be is a
	// mistake anywhere (and --program refuses them given at all, below).
	if s.timeout < 0 {
		return nil, spec, usagef("--timeout %v: expected a duration of at least 0 (0 for no limit)", s.timeout)
	}
	if s.jobs < 1 {
		return nil, spec, usagef("--jobs %d: expected at least 1", s.jobs)
	}
	if s.program != "" {
		for _, name := range []string{"jobs", "timeout"} {
			if s.fs != nil && given(s.fs, name) {
				return nil, spec, usagef("--%s goes with --recorder or --torch; a bundled program runs no recorder", name)
			}
		}
		src, err := source.NewProgram(s.program, s.consts.values())
		return src, spec, err
	}
	if len(s.consts) > 0 {
		return nil, spec, usagef("--const goes with --program; a recorder sets its own constants (--torch 'FILE.py:FUNCTION --const D=64')")
	}
	bar := newProgress(stderr, "recording")
	note := noteTo(stderr)
	if s.torch != "" {
		return &source.Torch{Args: s.torch, Jobs: s.jobs, Timeout: s.timeout, Progress: bar.update, Note: note}, spec, nil
	}
	cmd, err := source.ParseCommand(s.recorder)
	if err != nil {
		return nil, spec, usagef("%v", err)
	}
	cmd.Timeout = s.timeout
	return &source.Recorder{Cmd: cmd, Jobs: s.jobs, Progress: bar.update, Note: note}, spec, nil
}

// noteTo returns a recorder's Note, which says on stderr, in one line
// once the source is closed, what the recorder wrote to its standard error
// where it succeeded (its warnings).
func noteTo(stderr io.Writer) func(msg string) {
	return func(msg string) { fmt.Fprintf(stderr, "memsym: note: %s\n", msg) }
}

// checkFile refuses a --check given beside recording files that names no
// file but reads as a point, "B=5,T=17": with files, a check is a
// recording made off the grid, and memsym records no point of its own.
func checkFile(c string) error {
	if _, err := os.Stat(c); err == nil || !errors.Is(err, os.ErrNotExist) {
		return nil // opening it says what is wrong, if anything
	}
	if _, err := parsePoint(c); err != nil {
		return nil
	}
	return usagef("--check %s: with recording files a check is a recording file off the grid; a point goes with --program, --recorder or --torch, which record it", c)
}

// parsePoint reads a point written "B=64,T=1024".
func parsePoint(s string) (record.Point, error) {
	var a assignments
	if err := a.Set(s); err != nil {
		return nil, err
	}
	return a.point(), nil
}
