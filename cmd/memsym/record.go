package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"memsym/doc"
	"memsym/internal/outfile"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "record",
		short: "write a bundled program's recording at given dimensions",
		run:   runRecord,
	})
}

// recordLine is record's usage in one line, for its errors.
const recordLine = "--program NAME | --torch 'FILE.py:FUNCTION [recorder flags]' [--dim B=2,T=16] [--const D=64] [--step [--remat R] [--optimizer O] [--types T]] [-o FILE]"

const recordUsage = recordLine + "\n\n" +
	"Records a program at one point and writes the recording (docs/recording-format.md)\n" +
	"to stdout, or to -o's file: a bundled program (memsym programs lists them), or a\n" +
	"PyTorch model's function on the meta device (docs/torch.md). With --step, a\n" +
	"training step's recording (docs/step.md). memsym memory counts it.\n"

// runRecord records a bundled program and writes the recording in the
// canonical form to stdout, or to -o's file (see outfile.Write).
func runRecord(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("record", recordUsage, stderr)
	name := fs.String("program", "", "the bundled program's `name` (memsym programs lists them)")
	torchArgs := fs.String("torch", "", "record a PyTorch model instead: `FILE.py:FUNCTION [recorder flags]` (docs/torch.md)")
	var dims, consts assignments
	fs.Var(&dims, "dim", "dimensions' values `K=V` (repeatable, or B=2,T=16); the others take their defaults")
	fs.Var(&consts, "const", "constants' values `K=V` (repeatable, or D=64,H=2); the others take their defaults")
	out := fs.String("o", "", "write the recording to `FILE` instead of stdout (- is stdout); a regular file is replaced whole or not at all")
	var step stepFlags
	// A recording is of one step, the estimates are memory's and
	// symbolic's: no --compare, and --remat both left out.
	step.registerStep(fs, "record a training step: the forward pass, the loss, the backward pass and the optimizer (docs/step.md)")
	fs.Lookup("remat").Usage = "with --step and a bundled program: what the forward keeps for the backward, `store|recompute` (default store)"
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("record takes no arguments, found %q; usage: memsym record %s", rest[0], recordLine)
	}
	if *torchArgs != "" {
		if *name != "" || len(consts) > 0 {
			return usagef("--torch records a PyTorch model: drop --program and --const (give constants to the recorder: --torch 'FILE.py:FUNCTION --const D=64')")
		}
		var stepSet []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "step", "remat", "optimizer", "types":
				stepSet = append(stepSet, "--"+f.Name)
			}
		})
		if len(stepSet) > 0 {
			return usagef("%s goes with --program: a PyTorch model's training step is the recorder's own flag (--torch 'FILE.py:FUNCTION --step adamw', docs/torch.md)", stepSet[0])
		}
		if len(dims) == 0 {
			return usagef("record --torch needs the point: --dim B=2,T=16, a value for each of the function's dimensions, outside the quotes")
		}
		for _, d := range dims.point() {
			if d.Value < 1 {
				return usagef("--dim %s=%d: expected an integer of at least 1, as every dimension is", d.Name, d.Value)
			}
		}
		src := &source.Torch{Args: *torchArgs, Jobs: 1, Note: noteTo(stderr)}
		defer src.Close()
		rec, err := src.Record(context.Background(), dims.point())
		if err != nil {
			return err
		}
		return writeRecording(stdout, *out, rec)
	}
	if *name == "" {
		return usagef("record needs --program NAME or --torch FILE.py:FUNCTION; memsym programs lists the bundled programs")
	}
	src, err := programPoint(*name, dims, consts)
	if err != nil {
		return err
	}
	p := src.P
	if p, err = step.stepOf(p); err != nil {
		return err
	}
	rec, err := p.Record(dims.values(), consts.values())
	if err != nil {
		return err
	}
	return writeRecording(stdout, *out, rec)
}

// writeRecording writes rec to stdout when path is "" or "-", else to the
// file path (see outfile.Write).
func writeRecording(stdout io.Writer, path string, rec *record.Recording) error {
	if path == "" || path == "-" {
		_, err := rec.WriteTo(stdout)
		return err
	}
	err := outfile.Write(path, func(w io.Writer) error {
		_, err := rec.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("-o %w", err)
	}
	return nil
}

// programPoint checks the bundled program name's point given by --dim over
// its defaults, with --const, as the command line's mistakes: an unknown
// program, dimension or constant, a value out of range or a point the
// program does not run at.
func programPoint(name string, dims, consts assignments) (*source.Program, error) {
	src, err := source.NewProgram(name, consts.values()) // a usage error for an unknown program or constant
	if err != nil {
		return nil, err
	}
	for _, d := range dims {
		if _, ok := src.Default().Value(d.name); !ok {
			return nil, usagef("--dim %s: %s has no dimension %s; its dimensions are %s", d.name, name, d.name, doc.AndList(src.Default().Names()))
		}
	}
	p := src.Default()
	for _, d := range dims {
		p = p.With(d.name, d.value)
	}
	if err := source.Limit(src, p); err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	return src, nil
}
