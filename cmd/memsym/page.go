package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"memsym/explain"
	"memsym/model"
	"memsym/page"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "page",
		short: "write the interactive memory page: one HTML file, sliders and exact counts",
		run:   pageCmd,
	})
}

const pageUsage = `-o DIR [--name NAME] [--at B=2,T=16] [--max T=65536] [--step [--remat both]] [source flags] [R1.jsonl ...]

Writes NAME.html into DIR: one self-contained page (its style, script and
data inline; it fetches nothing) with a slider and a number box per
dimension, a stored type per parameter group and a memory budget. It shows
the parameters, inputs, outputs, the peak and the operation that reaches
it, the needs and where they cross the budget, the live bytes over the
operations and the network coloured by each call's share of the peak, all
counted exactly from the model's polynomials by the page's own script.
A bundled program's sliders stop where it stops running (T ≤ P, N ≥ K),
and the page says why beside them. The model is at one set of constants,
--const's or the program's defaults (memsym programs lists them; the
course GPT's are D = 64, H = 2, L = 2, and --const D=384,H=6,L=6 gives the
course's own). memsym explain --format page writes the same
page beside the chapter.

With --step (a bundled program), the page shows its training step too,
store and recompute side by side with --remat both: the parameters, the
optimizer's states, the gradient, the batch, what the forward keeps, each
phase's peak and the step's with its six terms, against the budget.
`

func pageCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("page", pageUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	out := fs.String("o", "", "the `directory` to write into (required)")
	name := fs.String("name", "", "the page's file `name` (default: the program's name, or memory)")
	var at, maxes assignments
	fs.Var(&at, "at", "the sliders' first values: `B=2,T=16` (default: a bundled program's own point, else the first grid point)")
	fs.Var(&maxes, "max", "a dimension's largest value on the page: `T=65536` (default: 512 for B, 32768 for the others, or twice the largest recorded)")
	var step stepFlags
	step.registerStep(fs, "show the program's training step too (a bundled program's): its terms, store and recompute with --remat both, counted from its polynomials (docs/step.md)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("page needs -o DIR, the directory to write the page into")
	}
	if err := step.check(false); err != nil {
		return err
	}
	switch {
	case step.step && sf.torch != "":
		return usagef("--step shows a bundled program's training step: a PyTorch module's is recorded by memsym_torch: put --step adamw inside --torch's quotes and leave out the page's --step")
	case step.step && sf.program == "":
		return usagef("--step shows a bundled program's training step: use it with --program")
	}
	// The page's script holds each value as a JavaScript number, exact
	// only up to 2^53 − 1: a larger one would show, and count, another.
	for _, f := range []struct {
		flag string
		as   assignments
	}{{"--at", at}, {"--max", maxes}} {
		for _, a := range f.as {
			if a.value > page.MaxValue {
				return usagef("%s %s=%d: too large for the page, whose sliders are JavaScript numbers: expected at most %d (2^53 − 1)", f.flag, a.name, a.value, int64(page.MaxValue))
			}
		}
	}
	for _, a := range maxes {
		if a.value < 1 {
			return usagef("--max %s=%d: dimensions are integers of at least 1", a.name, a.value)
		}
	}
	if *name == "" {
		*name = "memory"
		if sf.program != "" {
			*name = sf.program
		}
	}
	if _, err := page.FileName(*name); err != nil {
		return usagef("--name %s: expected a file name without a directory", *name)
	}
	atGiven := len(at) > 0
	if sf.program != "" && !atGiven {
		p, err := source.NewProgram(sf.program, nil)
		if err != nil {
			return err
		}
		for _, d := range p.Default() {
			at = append(at, assignment{d.Name, d.Value})
		}
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	opt := page.Options{Title: pageTitle(&sf, m), Max: maxes.values(), Runs: programRuns(src)}
	if step.step {
		models, done, err := openStepModels(&step, &sf, files, stderr, false)
		done()
		if err != nil {
			return err
		}
		for _, sm := range models {
			opt.Steps = append(opt.Steps, page.Step{Name: sm.name, Model: sm.st})
		}
	}
	if len(at) > 0 {
		// An unknown dimension is said before a missing one.
		p, err := m.PointOf(at.values())
		if err != nil {
			return usagef("--at %s: %v", at.String(), err)
		}
		// A point the program does not run at is the flag's mistake, or
		// calls for one when it is the program's own point.
		if err := source.NotRunning(src, p); err != nil {
			if !atGiven {
				return usagef("%v: give the page's first point with --at", err)
			}
			return usagef("--at %s: %v", p.Key(), err)
		}
		opt.At = p
	}
	for _, a := range maxes {
		if !contains(m.Vars, a.name) {
			return usagef("--max %s: no dimension %s", a.name, a.name)
		}
	}
	for i, v := range m.Vars {
		hi, ok := opt.Max[v]
		first := m.Grid[i][0]
		if opt.At != nil {
			first, _ = opt.At.Value(v)
		}
		if ok && hi < first {
			return usagef("--max %s=%d: below %s's first value on the page, %d: expected at least %d", v, hi, v, first, first)
		}
	}
	// The page is made before its directory, so that a page refused
	// leaves none behind.
	pg, err := page.New(m, opt)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	path, err := pg.WriteFile(*out, *name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "memsym page: wrote %s into %s\n", filepath.Base(path), *out)
	return nil
}

// pageTitle names the program at the top of its page: recordings read
// from files by the grid's first point's, whatever the order they were
// given in or where they lie.
func pageTitle(sf *sourceFlags, m *model.Model) string {
	switch {
	case sf.program != "":
		return sf.program
	case sf.recorder == "" && sf.torch == "":
		return filepath.Base(m.First)
	}
	return "the recorder's program"
}

// writeExplainPage writes the page beside explain's chapter, as
// STEM-page.html, with the training steps the chapter has, and adds its
// name to written.
func writeExplainPage(written []string, m *model.Model, dir, stem, program string, at record.Point, steps []explain.StepContent) ([]string, error) {
	runs, err := explainRuns(m, program)
	if err != nil {
		return written, fmt.Errorf("writing the page: %w", err)
	}
	opt := page.Options{Title: program, At: at, Runs: runs}
	for _, s := range steps {
		opt.Steps = append(opt.Steps, page.Step{Name: s.Options.Remat.String(), Model: s.Model})
	}
	path, err := page.Write(m, dir, stem+"-page", opt)
	if err != nil {
		return written, fmt.Errorf("writing the page: %w", err)
	}
	return append(written, filepath.Base(path)), nil
}

// programRuns says where src's program runs, for its page (page.Options'
// Runs): nil for a source other than a bundled program (recording files,
// a recorder), which cannot say.
func programRuns(src source.Source) func(record.Point) error {
	p, ok := src.(*source.Program)
	if !ok {
		return nil
	}
	return func(pt record.Point) error { return source.Limit(p, pt) }
}

// explainRuns says where the program of explain's page runs, as memsym
// page does: explain names the program alone, so the bundled program is
// made again at the model's constants; nil when the model was not
// recorded from a bundled program (recording files, a recorder).
func explainRuns(m *model.Model, program string) (func(record.Point) error, error) {
	if m.Source != program {
		return nil, nil
	}
	if _, err := programs.Lookup(program); err != nil {
		return nil, nil
	}
	consts := map[string]int64{}
	for _, c := range m.Header().Consts {
		v, err := strconv.ParseInt(c.Value, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s's constant %s = %s: expected an integer", program, c.Name, c.Value)
		}
		consts[c.Name] = v
	}
	src, err := source.NewProgram(program, consts)
	if err != nil {
		return nil, err
	}
	return programRuns(src), nil
}
