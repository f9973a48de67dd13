package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"memsym/doc"
	"memsym/model"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "verify",
		short: "check symbolic models against fresh recordings off the grid (the M3 runs)",
		run:   verifyCmd,
	})
}

const verifyUsage = `[--program NAME | --all | --recorder CMD --grid ... | --torch FILE.py:FUNCTION --grid ...] [--points 3] [--seed 1] [--json]

For each program, builds its symbolic model on its grid, then records it at
--points more assignments, off the grid in every coordinate and spread from
small to large, and checks exactly: every buffer's bytes, the inputs, the
outputs, the live bytes at every operation and the peak (its value and its
operation). Programs that memsym must refuse are counted as expected when it
does. Exits non-zero on any mismatch.
`

func verifyCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("verify", verifyUsage, stderr)
	var sf sourceFlags
	sf.registerSources(fs) // verify chooses its own points: no --check
	all := fs.Bool("all", false, "verify every bundled program")
	npoints := fs.Int("points", 3, "how many `n` assignments to check per program")
	seed := seedFlag(fs, "seed", 1, "the `seed` choosing the assignments, a non-negative integer")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("verify takes no files: it records new points with --program, --all, --recorder or --torch")
	}
	if *npoints < 1 {
		return usagef("--points must be at least 1")
	}
	var runs []*sourceFlags
	switch {
	case *all && (sf.program != "" || sf.recorder != "" || sf.torch != ""):
		return usagef("give --all, --program, --recorder or --torch, not more than one")
	case *all:
		if len(sf.consts) > 0 || len(sf.grid) > 0 {
			return usagef("--const and --grid go with one --program, not with --all")
		}
		for _, p := range programs.All() {
			runs = append(runs, &sourceFlags{program: p.Name, timeout: sf.timeout, jobs: sf.jobs})
		}
	case sf.program != "" || sf.recorder != "" || sf.torch != "":
		runs = append(runs, &sf)
	default:
		return usagef("verify needs --program NAME, --all, --recorder COMMAND or --torch FILE.py:FUNCTION")
	}

	var out model.VerifyJSON
	for _, run := range runs {
		r, err := verifyOne(run, *npoints, *seed, stderr)
		if err != nil {
			return err
		}
		out.Programs = append(out.Programs, *r)
		switch {
		case r.Failed != "":
			out.Failed++
		case r.Refused != "":
			out.Refused++
		}
		for _, p := range r.Points {
			out.Checked++
			if !p.OK {
				out.Failed++
			}
		}
	}
	if *asJSON {
		err = writeJSON(stdout, &out)
	} else {
		err = verifyText(stdout, &out, len(runs))
	}
	if err != nil {
		return err
	}
	if out.Failed > 0 {
		return fmt.Errorf("verify: %s", doc.Plural(out.Failed, "failure", "failures"))
	}
	return nil
}

// verifyOne builds one program's model and checks it at n points off its
// grid; a bundled program that memsym must refuse passes when it is refused.
func verifyOne(run *sourceFlags, n int, seed uint64, stderr io.Writer) (*model.VerifyProgramJSON, error) {
	r := &model.VerifyProgramJSON{Program: run.program, Points: []model.VerifyPointJSON{}}
	switch {
	case run.torch != "":
		r.Program = (&source.Torch{Args: run.torch}).Name()
	case r.Program == "":
		r.Program = "recorder"
	}
	var expected string
	if run.program != "" {
		p, err := programs.Lookup(run.program)
		if err != nil {
			return nil, usagef("%v", err)
		}
		expected = p.RefusalWith(run.consts.values())
	}
	m, src, err := buildModel(run, nil, stderr)
	defer src.Close()
	switch {
	case err != nil && isUsage(err):
		return nil, err
	case err != nil && expected != "":
		r.Refused = oneLine(err)
		return r, nil
	case err != nil:
		r.Failed = oneLine(err)
		return r, nil
	case expected != "":
		r.Failed = "modelled, but memsym must refuse it: " + expected
		return r, nil
	}
	for _, c := range m.Verify(context.Background(), src, n, seed) {
		p := model.VerifyPointJSON{Point: model.OrderedPoint(c.Point), OK: c.Err == nil}
		if c.Err != nil {
			p.Error = oneLine(c.Err)
		}
		r.Points = append(r.Points, p)
	}
	if len(r.Points) == 0 { // nothing checked is no pass
		r.Failed = "no point off the grid was found where the program runs, so none was checked: give a grid with room beside it (--grid)"
	}
	return r, nil
}

func verifyText(w io.Writer, out *model.VerifyJSON, programs int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "program\tpoint\tresult\n")
	for _, r := range out.Programs {
		switch {
		case r.Failed != "":
			fmt.Fprintf(tw, "%s\t(grid)\tFAILED: %s\n", r.Program, r.Failed)
		case r.Refused != "":
			fmt.Fprintf(tw, "%s\t(grid)\trefused as expected: %s\n", r.Program, r.Refused)
		}
		for _, p := range r.Points {
			result := "ok"
			if !p.OK {
				result = "FAILED: " + p.Error
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Program, record.Point(p.Point), result)
		}
	}
	tw.Flush()
	_, err := fmt.Fprintf(w, "%s: %d points checked, %d refused as expected, %d failed\n",
		doc.Plural(programs, "program", "programs"), out.Checked, out.Refused, out.Failed)
	return err
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
