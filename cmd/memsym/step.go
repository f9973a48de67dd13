package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"memsym/count"
	"memsym/doc"
	"memsym/model"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// stepFlags are the flags of a training step, on memory and symbolic.
type stepFlags struct {
	step      bool
	remat     string
	optimizer string
	types     string
	compare   bool
}

func (s *stepFlags) register(fs *flag.FlagSet) {
	s.registerStep(fs, "count a training step: the forward pass, the loss, the backward pass and the optimizer (docs/step.md)")
	fs.BoolVar(&s.compare, "compare", false, "with --step: the analytic estimates (the 14P rule, Korthikanti et al.'s activations) beside the exact terms")
}

// registerStep adds the step's flags but --compare to fs, --step said by
// what.
func (s *stepFlags) registerStep(fs *flag.FlagSet, what string) {
	fs.BoolVar(&s.step, "step", false, what)
	fs.StringVar(&s.remat, "remat", "", "with --step and a bundled program: what the forward keeps for the backward, `store|recompute|both` (default store)")
	fs.StringVar(&s.optimizer, "optimizer", "", "with --step and a bundled program: `adamw|adamw-inplace|sgd|lion|adafactor` (default adamw)")
	fs.StringVar(&s.types, "types", "", "with --step and a bundled program: stored types, `params=bf16,activations=bf16,gradient=f32,states=f32,master=f32` (any of them)")
}

// check refuses the step's flags without --step, and the flags that a
// recording file already settles.
func (s *stepFlags) check(fromFiles bool) error {
	set := map[string]bool{"--remat": s.remat != "", "--optimizer": s.optimizer != "", "--types": s.types != "", "--compare": s.compare}
	for _, name := range []string{"--remat", "--optimizer", "--types", "--compare"} {
		if set[name] && !s.step {
			return usagef("%s goes with --step", name)
		}
	}
	if fromFiles {
		for _, name := range []string{"--remat", "--optimizer", "--types"} {
			if set[name] {
				return usagef("%s goes with --program: a recording of a step was made with its own", name)
			}
		}
	}
	return nil
}

// options returns the step's options, one per remat asked for.
func (s *stepFlags) options() ([]programs.StepOptions, error) {
	var o programs.StepOptions
	var err error
	if s.optimizer != "" {
		if o.Optimizer, err = programs.ParseOptimizer(s.optimizer); err != nil {
			return nil, usagef("--optimizer: %v", err)
		}
	}
	if s.types != "" {
		if o.Types, err = programs.ParseTypes(s.types); err != nil {
			return nil, usagef("--types: %v", err)
		}
	}
	switch s.remat {
	case "", "store":
		return []programs.StepOptions{o}, nil
	case "recompute":
		o.Remat = programs.Recompute
		return []programs.StepOptions{o}, nil
	case "both":
		r := o
		r.Remat = programs.Recompute
		return []programs.StepOptions{o, r}, nil
	}
	return nil, usagef("--remat %s: expected store, recompute or both", s.remat)
}

// stepColumn is one counted step: its counts, how many operations a
// recording of it has and how to name one, and the estimates beside them
// when asked for.
type stepColumn struct {
	name  string // "store", "recompute", or "step" for a file's
	c     *count.Step
	ops   int
	where func(op int) string
	cmp   *model.Comparison
	// formula is the step's peak's candidate there, for a step evaluated
	// from its polynomials; "" for a recording's.
	formula string
}

// recordedColumn is the column of a step counted in its recording.
func recordedColumn(name string, rec *record.Recording, c *count.Step) stepColumn {
	return stepColumn{name: name, c: c, ops: rec.Ops.Len(), where: func(op int) string { return opWhere(rec.Ops.At(op - 1)) }}
}

// modelColumn is the column of a step's terms at a point, from its
// polynomials: its operations numbered as in a recording at the point.
func modelColumn(name string, s *model.Step, t *model.StepTerms) stepColumn {
	ops := map[int]int{}
	for _, p := range append(t.Phases, t.Peak) {
		ops[p.Op] = p.ModelOp
	}
	n := s.OpAt(s.Structure.Ops.Len(), t.Point.Map())
	at := t.Point.Map()
	return stepColumn{name: name, c: t.Counts(), ops: n, where: func(op int) string {
		o := s.Op(ops[op])
		o.Path = s.PathAt(ops[op], at) // its block's iteration at the point
		return opWhere(o)
	}}
}

// memoryStep runs memory --step: on a recording file of a step, or on a
// bundled program recorded at --dim and --const under each remat asked.
func memoryStep(stdout io.Writer, s *stepFlags, program string, dims, consts assignments, files []string, units doc.Units) error {
	var cols []stepColumn
	var trained string
	var h *record.Header
	switch {
	case program != "" && len(files) > 0:
		return usagef("give a recording file or --program, not both")
	case program != "":
		src, err := programPoint(program, dims, consts)
		if err != nil {
			return err
		}
		p := src.P
		opts, err := s.options()
		if err != nil {
			return err
		}
		for _, o := range opts {
			pt, err := model.RecordStepAt(p, dims.values(), consts.values(), o)
			if err != nil {
				return err
			}
			col := recordedColumn(o.Remat.String(), pt.Rec, pt.Count)
			h = &pt.Rec.Header
			if s.compare {
				if col.cmp, err = model.CompareAt(pt.Rec, pt.Count, p, o, model.ActType(p, o)); err != nil {
					return err
				}
			}
			cols = append(cols, col)
		}
		trained = ": trained with " + opts[0].Optimizer.String()
	case len(files) == 1:
		if len(dims) > 0 || len(consts) > 0 {
			return usagef("--dim and --const go with --program; a recording file carries its own point")
		}
		rec, err := record.ReadFile(files[0])
		if err != nil {
			return err
		}
		c, err := count.StepAt(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", files[0], err)
		}
		col := recordedColumn("step", rec, c)
		h = &rec.Header
		if s.compare {
			if col.cmp, err = model.CompareAt(rec, c, nil, programs.StepOptions{}, record.DType{}); err != nil {
				return err
			}
		}
		cols = append(cols, col)
	case len(files) > 1:
		return usagef("memory --step counts one recording, given %d: %s", len(files), strings.Join(files, " "))
	default:
		return usagef("memory --step needs a recording of a step, or --program NAME")
	}
	title := fmt.Sprintf("memsym memory --step: %s%s%s", memoryTitle(h), constsString(h), trained)
	_, err := io.WriteString(stdout, stepText(title, cols, units))
	return err
}

// symbolicStep runs symbolic --step on the model of each remat asked for.
func symbolicStep(stdout, stderr io.Writer, s *stepFlags, sf *sourceFlags, files []string, units doc.Units) error {
	if err := s.check(len(files) > 0); err != nil {
		return err
	}
	opts := []programs.StepOptions{{}}
	var p *programs.Program
	if sf.program != "" {
		var err error
		if p, err = programs.Lookup(sf.program); err != nil {
			return usagef("%v", err)
		}
		if opts, err = s.options(); err != nil {
			return err
		}
	}
	var b strings.Builder
	for i, o := range opts {
		st, err := buildStepModel(sf, files, stderr, o)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteString("\n")
		}
		var runs func(record.Point) error
		if p != nil {
			src := &source.Program{P: p, Consts: sf.consts.values()}
			runs = func(pt record.Point) error { return source.Limit(src, pt) }
		}
		b.WriteString(symbolicStepText(st, o, sf.program != "", units, runs))
		if s.compare {
			act := record.DType{}
			if p != nil {
				act = model.ActType(p, o)
			}
			rows, err := st.Compare(p, o, act)
			if err != nil {
				return err
			}
			b.WriteString(compareText(o.Remat.String(), rows, nil))
		}
	}
	_, err := io.WriteString(stdout, b.String())
	return err
}

// buildStepModel builds the step's model: from recording files of a step,
// or from a bundled program's step under o.
func buildStepModel(sf *sourceFlags, files []string, stderr io.Writer, o programs.StepOptions) (*model.Step, error) {
	st, src, err := openStepModel(sf, files, stderr, o)
	src.Close()
	return st, err
}

// openStepModel is buildStepModel leaving the source open for further
// recordings; the caller closes it, also when err is not nil.
func openStepModel(sf *sourceFlags, files []string, stderr io.Writer, o programs.StepOptions) (*model.Step, source.Source, error) {
	var step *programs.Program
	if sf.program != "" {
		p, err := programs.Lookup(sf.program)
		if err != nil {
			return nil, &source.Files{}, usagef("%v", err)
		}
		if step, err = p.Step(o); err != nil {
			return nil, &source.Files{}, err
		}
	}
	m, src, err := buildModelOf(sf, files, stderr, step)
	if err != nil {
		return nil, src, err
	}
	st, err := model.StepOf(m)
	switch {
	case err == nil:
	case len(files) > 0:
		err = fmt.Errorf("%s: %w", files[0], err)
	case sf.torch != "" && errors.Is(err, count.ErrNoPhases):
		err = fmt.Errorf("%w; a PyTorch model's training step is the recorder's own flag (--torch '%s --step adamw', docs/torch.md)", err, sf.torch)
	}
	return st, src, err
}

// memoryStepFlags are memory's flags for --step: the step's, and the
// bundled program to record with its point.
type memoryStepFlags struct {
	stepFlags
	program      string
	dims, consts assignments
}

// registerMemoryStep adds memory's --step flags to fs.
func registerMemoryStep(fs *flag.FlagSet) *memoryStepFlags {
	f := &memoryStepFlags{}
	f.stepFlags.register(fs)
	fs.StringVar(&f.program, "program", "", "with --step: a bundled program's `name`, its step recorded at --dim and --const")
	fs.Var(&f.dims, "dim", "with --step --program: dimensions' values `K=V` (repeatable, or B=16,T=256)")
	fs.Var(&f.consts, "const", "with --step --program: constants' values `K=V` (repeatable, or D=384,H=6,L=6)")
	return f
}

// run runs memory --step and reports true when --step (or one of its
// flags) was given; memory's own counting runs otherwise.
func (f *memoryStepFlags) run(stdout io.Writer, files []string, asJSON bool, units doc.Units) (bool, error) {
	if !f.step {
		if f.program != "" || len(f.dims) > 0 || len(f.consts) > 0 {
			return true, usagef("--program, --dim and --const go with --step; memory counts a recording file")
		}
		return f.check(false) != nil, f.check(false)
	}
	if asJSON {
		return true, usagef("--json does not go with --step")
	}
	if err := f.check(f.program == ""); err != nil {
		return true, err
	}
	return true, memoryStep(stdout, &f.stepFlags, f.program, f.dims, f.consts, files, units)
}

// buildModelOf is buildModel with the bundled program's recordings made by
// step, when not nil: its training step.
func buildModelOf(sf *sourceFlags, files []string, stderr io.Writer, step *programs.Program) (*model.Model, source.Source, error) {
	src, spec, err := sf.open(files, stderr)
	if err != nil {
		return nil, &source.Files{}, err // nothing to close
	}
	if err := sf.checkBefore(src, spec); err != nil {
		return nil, src, err
	}
	if ps, ok := src.(*source.Program); ok && step != nil {
		ps.P = step
	}
	m, err := model.Build(context.Background(), src, spec)
	return m, src, err
}

// stepOf returns the program record writes: p, or with --step its
// training step under one remat.
func (s *stepFlags) stepOf(p *programs.Program) (*programs.Program, error) {
	if err := s.check(false); err != nil {
		return nil, err
	}
	if !s.step {
		return p, nil
	}
	opts, err := s.options()
	if err != nil {
		return nil, err
	}
	if len(opts) > 1 {
		return nil, usagef("--remat both: a recording is of one step; record store and recompute apart")
	}
	return p.Step(opts[0])
}
