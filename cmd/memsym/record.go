package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"memsym/programs"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "record",
		short: "write a bundled program's recording at given dimensions",
		run:   runRecord,
	})
}

const recordUsage = "--program NAME [--dim B=2,T=16] [--const D=64] [-o FILE]"

// runRecord records a bundled program and writes the recording in the
// canonical form to stdout, or to a file replaced whole only on success.
func runRecord(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("record", recordUsage, stderr)
	name := fs.String("program", "", "the bundled program's `name` (memsym programs lists them)")
	var dims, consts assignments
	fs.Var(&dims, "dim", "dimensions' values `K=V` (repeatable, or B=2,T=16); the others take their defaults")
	fs.Var(&consts, "const", "constants' values `K=V` (repeatable, or D=64,H=2); the others take their defaults")
	out := fs.String("o", "", "write the recording to `FILE` instead of stdout")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("record takes no arguments, found %q; usage: memsym record %s", rest[0], recordUsage)
	}
	if *name == "" {
		return usagef("record needs --program NAME; memsym programs lists them")
	}
	p, err := programs.Lookup(*name)
	if err != nil {
		return err
	}
	rec, err := p.Record(dims.values(), consts.values())
	if err != nil {
		return err
	}
	if *out == "" {
		_, err := rec.WriteTo(stdout)
		return err
	}
	return writeFileAtomic(*out, rec)
}

// writeFileAtomic writes rec to a new file beside path and renames it to
// path, so that path is either left as it was or holds the whole recording.
func writeFileAtomic(path string, rec *record.Recording) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = rec.WriteTo(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
