package main

import (
	"context"
	"fmt"
	"io"
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

const verifyUsage = `[--program NAME | --all | --recorder CMD --grid ... | --torch FILE.py:FUNCTION --grid ...] [--check B=65,T=1025] [--points 3] [--seed 1] [--json]

For each program, builds its symbolic model on its grid, checked at its
check points as symbolic's (--check adds to them, as it does there), then
records it at --points more assignments, off the grid in every coordinate
and spread from small to large, and checks exactly: every buffer's bytes,
the inputs, the outputs, the live bytes at every operation and the peak (its
value and its operation). The assignments are drawn, from --seed, in turn
below the grid (by at most its first gap), between its values, far past it
(past twice its largest value, up to 64 times it, log-uniformly) and just
past it (up to twice its largest value): of the default 3 points, one is
far past the grid where the program runs there, T = 25 to 768 for a grid
T = 4, 8, 12. They are taken where the program runs (a far value where it
does not is drawn again nearer the grid), never at a check point, and
below the grid down to the least value the model holds for where nothing
nearer runs; where fewer than --points are found, verify says so.
Programs that memsym must refuse are counted as expected when it does.
Exits non-zero on any mismatch.
`

func verifyCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("verify", verifyUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
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
		if len(sf.consts) > 0 || len(sf.grid) > 0 || len(sf.checks) > 0 {
			return usagef("--const, --grid and --check go with one --program, not with --all")
		}
		for _, name := range []string{"jobs", "timeout"} {
			if given(fs, name) {
				return usagef("--%s goes with --recorder or --torch; --all verifies bundled programs, which run no recorder", name)
			}
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
		out.Asked += r.Asked
		switch {
		case r.Failed != "":
			out.Failed++
		case r.Refused != "":
			out.Refused++
		}
		for _, p := range r.Points {
			switch {
			case p.Unrecorded: // failed, and not checked
				out.Failed++
				out.Unrecorded++
			case !p.OK:
				out.Checked++
				out.Failed++
			default:
				out.Checked++
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

// verifyOne opens one program's source and verifies it (model.VerifyProgram)
// at n points off its grid; a bundled program that memsym must refuse
// passes when it is refused.
func verifyOne(run *sourceFlags, n int, seed uint64, stderr io.Writer) (*model.VerifyProgramJSON, error) {
	want := model.VerifyExpectation{Name: run.program}
	switch {
	case run.torch != "":
		want.Name = (&source.Torch{Args: run.torch}).Name()
	case want.Name == "":
		want.Name = "recorder"
	}
	if run.program != "" {
		p, err := programs.Lookup(run.program)
		if err != nil {
			return nil, usagef("%v", err)
		}
		want.Program, want.Consts = p, run.consts.values()
	}
	src, spec, err := run.open(nil, stderr)
	if err != nil {
		if isUsage(err) {
			return nil, err
		}
		src = nil
	} else {
		defer src.Close()
	}
	return model.VerifyProgram(context.Background(), src, spec, err, want, n, seed)
}

func verifyText(w io.Writer, out *model.VerifyJSON, programs int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "program\tpoint\tresult\n")
	for _, r := range out.Programs {
		// The program's own row is at the check point its model failed
		// or was refused at, else at the grid.
		at := "(grid)"
		if len(r.At) > 0 {
			at = record.Point(r.At).String() + " (check point)"
		}
		switch {
		case r.Failed != "":
			fmt.Fprintf(tw, "%s\t%s\tFAILED: %s\n", r.Program, at, r.Failed)
		case r.Refused != "":
			fmt.Fprintf(tw, "%s\t%s\trefused as expected: %s\n", r.Program, at, r.Refused)
		}
		for _, p := range r.Points {
			result := "ok"
			switch {
			case p.Unrecorded:
				result = "FAILED, not recorded: " + p.Error
			case !p.OK:
				result = "FAILED: " + p.Error
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Program, record.Point(p.Point), result)
		}
	}
	tw.Flush()
	// Fewer points than asked for are said, never left to the count: a
	// program's own line under the table (where none was found, its row
	// says so), and the summary.
	for _, r := range out.Programs {
		if r.Fewer != "" && len(r.Points) > 0 {
			fmt.Fprintf(w, "%s: %s\n", r.Program, r.Fewer)
		}
	}
	checked := doc.Plural(out.Checked, "point", "points") + " checked"
	if out.Checked < out.Asked {
		checked = fmt.Sprintf("%d of the %s asked for checked", out.Checked, doc.Plural(out.Asked, "point", "points"))
	}
	failed := fmt.Sprintf("%d failed", out.Failed)
	if out.Unrecorded > 0 {
		failed += fmt.Sprintf(" (%d of them not recorded, so not checked)", out.Unrecorded)
	}
	_, err := fmt.Fprintf(w, "%s: %s, %d refused as expected, %s\n",
		doc.Plural(programs, "program", "programs"), checked, out.Refused, failed)
	return err
}
