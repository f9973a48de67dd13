package page

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"memsym/model"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// modelled returns the bundled programs memsym models symbolically and
// the page draws: not those with a dimension that counts blocks.
func modelled() []*programs.Program {
	var out []*programs.Program
	for _, p := range programs.All() {
		if p.Refusal == "" && !slices.ContainsFunc(p.Dims, func(d programs.Dim) bool { return d.Blocks }) {
			out = append(out, p)
		}
	}
	return out
}

type built struct {
	m   *model.Model
	src *source.Program
	err error
}

var (
	buildMu sync.Mutex
	builds  = map[string]*built{}
)

// buildModel returns the model of a bundled program at its default
// constants, built once per test binary.
func buildModel(t testing.TB, name string) (*model.Model, *source.Program) {
	t.Helper()
	return buildModelAt(t, name, nil)
}

// buildModelAt returns the model of a bundled program at constants
// (the defaults for the others), built once per test binary.
func buildModelAt(t testing.TB, name string, consts map[string]int64) (*model.Model, *source.Program) {
	t.Helper()
	key := fmt.Sprint(name, consts) // fmt sorts a map's keys
	buildMu.Lock()
	b, ok := builds[key]
	if !ok {
		b = &built{}
		b.src, b.err = source.NewProgram(name, consts)
		if b.err == nil {
			b.m, b.err = model.Build(context.Background(), b.src, source.Spec{})
		}
		builds[key] = b
	}
	buildMu.Unlock()
	if b.err != nil {
		t.Fatalf("%s: %v", name, b.err)
	}
	return b.m, b.src
}

// runsOf says where a bundled program runs, as memsym page tells its
// page.
func runsOf(src *source.Program) func(record.Point) error {
	return func(p record.Point) error { return source.Limit(src, p) }
}

// newPage returns the page of a bundled program, its sliders stopping
// where the program does.
func newPage(t testing.TB, name string) *Page {
	t.Helper()
	m, src := buildModel(t, name)
	pg, err := New(m, Options{Runs: runsOf(src)})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return pg
}

var (
	stepMu sync.Mutex
	steps  = map[string][]Step{}
)

// hasStep reports whether memsym models p's training step.
func hasStep(p *programs.Program) bool { return p.StepRefusal() == "" }

// stepsOf returns a bundled program's training step, stored and
// recomputed, modelled at its default constants, built once per test
// binary.
func stepsOf(t testing.TB, name string) []Step {
	t.Helper()
	stepMu.Lock()
	defer stepMu.Unlock()
	if s, ok := steps[name]; ok {
		return s
	}
	p, err := programs.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []Step
	for _, r := range []programs.Remat{programs.Store, programs.Recompute} {
		sp, err := p.Step(programs.StepOptions{Remat: r})
		if err != nil {
			t.Fatal(err)
		}
		st, err := model.BuildStep(context.Background(), &source.Program{P: sp}, source.Spec{})
		if err != nil {
			t.Fatalf("%s, %s: %v", name, r, err)
		}
		out = append(out, Step{Name: r.String(), Model: st})
	}
	steps[name] = out
	return out
}

// newStepPage returns the page of a bundled program with its training
// step, stored and recomputed, when memsym models one; else its page.
func newStepPage(t testing.TB, p *programs.Program) *Page {
	t.Helper()
	if !hasStep(p) {
		return newPage(t, p.Name)
	}
	m, src := buildModel(t, p.Name)
	pg, err := New(m, Options{Steps: stepsOf(t, p.Name), Runs: runsOf(src)})
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	return pg
}

// recorded returns every group stored as recorded.
func recorded(pg *Page) []StoredType {
	types := make([]StoredType, len(pg.groups))
	for i := range types {
		types[i] = Recorded
	}
	return types
}
