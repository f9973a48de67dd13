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

// verifyOne builds one program's model and checks it at n points off its
// grid; a bundled program that memsym must refuse passes when it is
// refused.
func verifyOne(run *sourceFlags, n int, seed uint64, stderr io.Writer) (r *model.VerifyProgramJSON, err error) {
	r = &model.VerifyProgramJSON{Program: run.program, Points: []model.VerifyPointJSON{}}
	switch {
	case run.torch != "":
		r.Program = (&source.Torch{Args: run.torch}).Name()
	case r.Program == "":
		r.Program = "recorder"
	}
	var expected string
	var prog *programs.Program
	if run.program != "" {
		if prog, err = programs.Lookup(run.program); err != nil {
			return nil, usagef("%v", err)
		}
		expected = prog.RefusalWith(run.consts.values())
	}
	ctx := context.Background()
	var m *model.Model
	src, spec, err := run.open(nil, stderr)
	if err == nil {
		m, err = model.Build(ctx, src, spec)
	} else {
		src = &source.Files{} // nothing to close
	}
	defer src.Close()
	if err != nil {
		if isUsage(err) {
			return nil, err
		}
		c, atCheck := model.FailedCheck(src, spec, err)
		if atCheck {
			r.At = model.OrderedPoint(c.Point)
		}
		switch {
		case expected != "":
			r.Refused = oneLine(err)
		case atCheck && c.Recording && c.Chosen:
			r.Failed = oneLine(err) + "; " + c.Point.String() + " is a check point of memsym's own choosing, which --check adds to but does not replace: give smaller --grid values, whose check points the recorder can record"
		default:
			r.Failed = oneLine(err)
		}
		return r, nil
	}
	points, why := m.FreshPoints(src, n, seed)
	r.Asked = n
	if len(points) < n {
		r.Fewer = fmt.Sprintf("%d of the %s asked for were found off the grid where the program runs: %s", len(points), doc.Plural(n, "point", "points"), why)
	}
	checks := m.CheckEach(ctx, src, points)
	for _, c := range checks {
		p := model.VerifyPointJSON{Point: model.OrderedPoint(c.Point), OK: c.Err == nil, Unrecorded: c.Unrecorded}
		if c.Err != nil {
			p.Error = oneLine(c.Err)
		}
		r.Points = append(r.Points, p)
	}
	switch {
	case expected != "":
		r.Failed = modelledRefused(prog, run, m, checks, why)
	case len(r.Points) == 0: // nothing checked is no pass
		r.Failed = "no point off the grid was found where the program runs, so none was checked: " + why + "; give a grid with room beside it (--grid)"
	}
	return r, nil
}

// modelledRefused says why a bundled program listed as refused fails
// when it is modelled: the listing's reason, which its description gives
// for the program's default grid (and constants), and what this run's grid,
// its check points and the fresh points checks show.
func modelledRefused(p *programs.Program, run *sourceFlags, m *model.Model, checks []model.Check, why string) string {
	var b strings.Builder
	var grid []string
	for _, d := range p.Dims {
		grid = append(grid, fmt.Sprintf("%s ∈ {%d, %d, %d}", d.Name, d.Grid[0], d.Grid[1], d.Grid[2]))
	}
	fmt.Fprintf(&b, "modelled, but memsym must refuse it: memsym programs lists %s as refused, with the reason, written for its default grid %s", p.Name, strings.Join(grid, ", "))
	if len(run.consts) > 0 {
		b.WriteString(" and its default constants")
	}
	fmt.Fprintf(&b, ": \"%s\"; on this grid, %s, the model was built", p.Refusal, gridString(m))
	if cps := m.CheckPoints(); len(cps) > 0 {
		var parts []string
		for _, c := range cps {
			parts = append(parts, c.String())
		}
		fmt.Fprintf(&b, " and its check points (%s) did not contradict it", strings.Join(parts, "; "))
	} else {
		b.WriteString(", with no check point to test it")
	}
	wrong := 0
	for _, c := range checks {
		if c.Err != nil {
			wrong++
		}
	}
	switch {
	case len(checks) == 0:
		fmt.Fprintf(&b, "; no fresh point was found to check: %s", why)
	case len(checks) == 1 && wrong == 0:
		b.WriteString("; nor does the fresh point checked")
	case len(checks) == 1:
		b.WriteString("; the fresh point checked does")
	case wrong == 0:
		fmt.Fprintf(&b, "; nor does any of the %d fresh points checked", len(checks))
	case wrong == 1:
		fmt.Fprintf(&b, "; 1 of the %d fresh points checked does", len(checks))
	default:
		fmt.Fprintf(&b, "; %d of the %d fresh points checked do", wrong, len(checks))
	}
	return b.String()
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

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
