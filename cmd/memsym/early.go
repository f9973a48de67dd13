package main

import (
	"sort"
	"strings"

	"memsym/source"
)

// Checking --along and --at before anything is recorded. With --recorder
// and --torch every dimension is named by --grid, and a bundled program
// names its own: a flag that names no dimension, or leaves one without a
// value, is said at once, in the words the model's checks use once the
// grid is recorded, not minutes later. Recordings given as files are left
// to those checks.

// plannedDims returns the dimensions src names without recording
// anything, as it plans its grid: a bundled program's, or --grid's for
// --recorder and --torch; known is false for files, and where the plan
// fails, which recording the grid then says.
func plannedDims(src source.Source, spec source.Spec) (dims []string, known bool) {
	p, ok := src.(interface {
		Plan(source.Spec) (*source.Plan, error)
	})
	if !ok {
		return nil, false
	}
	pl, err := p.Plan(spec)
	if err != nil {
		return nil, false
	}
	return pl.Vars, true
}

// checkBefore calls s.before, if set, with src's dimensions when src
// names them without recording (plannedDims): what buildModel asks of
// --along and --at before recording the grid.
func (s *sourceFlags) checkBefore(src source.Source, spec source.Spec) error {
	if s.before == nil {
		return nil
	}
	if dims, ok := plannedDims(src, spec); ok {
		_, quick := src.(*source.Program)
		return s.before(dims, !quick)
	}
	return nil
}

// beforeLine is checkAlong before recording, on the dimensions dims: fit's
// --along and --at. A dimension left without a value is said only when
// recording is slow (a recorder's, PyTorch's), and why it is asked then: a
// bundled program's model, built at once, says it knowing the needs.
func beforeLine(dims []string, along string, at assignments, slow bool) error {
	if err := checkLine(dims, along, at, ""); err != nil {
		return err
	}
	if err := at.atLeastOne(); err != nil {
		return err
	}
	flag := strings.TrimSpace("--at " + at.String())
	fixed := at.values()
	for _, v := range dims {
		if _, ok := fixed[v]; !ok && v != along && slow {
			return usagef("%s: no value for %s: every dimension but %s needs one%s", flag, v, along, beforeWhy)
		}
	}
	return nil
}

// beforeWhy says why a value is asked for before the recordings, which
// alone say which dimensions the needs depend on.
const beforeWhy = " (asked before the grid is recorded, which alone says which dimensions the needs depend on)"

// beforePoint is eval's check of --at before recording.
func beforePoint(dims []string, at assignments) error { // every dimension needs one, as model.PointOf asks
	fixed := at.values()
	if u := unknownDim(dims, fixed); u != "" {
		return usagef("--at %s: no dimension %s (the dimensions are %s)", at.String(), u, strings.Join(dims, ", "))
	}
	var missing []string
	for _, v := range dims {
		if _, ok := fixed[v]; !ok {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return usagef("--at %s: no value for %s: every dimension (%s) needs one", at.String(), strings.Join(missing, ", "), strings.Join(dims, ", "))
	}
	return nil
}

// beforeAlong is the check of --along and --at before recording for
// crossover and eval --along, which leave other dimensions free; none is
// what crossover says of a program without dimensions.
func beforeAlong(dims []string, along string, at assignments, none string) error {
	if err := checkLine(dims, along, at, none); err != nil {
		return err
	}
	return at.atLeastOne()
}

// unknownDim returns the first, by name, of values' names that is not one
// of dims, as model.PointOf finds it; "" when there is none.
func unknownDim(dims []string, values map[string]int64) string {
	var unknown []string
	for k := range values {
		if !contains(dims, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	sort.Strings(unknown)
	return unknown[0]
}
