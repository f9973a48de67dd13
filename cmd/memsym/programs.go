package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"memsym/programs"
)

func init() {
	register(&command{
		name:  "programs",
		short: "list the bundled programs: their dimensions, constants and grids",
		run:   runPrograms,
	})
}

// runPrograms lists the bundled programs, as text or as one JSON object.
func runPrograms(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("programs", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "write one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("programs takes no arguments, found %q", rest[0])
	}
	if *asJSON {
		return writeProgramsJSON(stdout, programs.All())
	}
	return writeProgramsText(stdout, programs.All())
}

// writeProgramsText writes each program: its name and summary, its entry,
// its dimensions with their default, grid and check point, its constants
// with their defaults, and why memsym refuses it, if it does.
func writeProgramsText(w io.Writer, ps []*programs.Program) error {
	fmt.Fprintf(w, "memsym programs: %d bundled programs; `memsym record --program NAME` records one at its defaults,\n", len(ps))
	fmt.Fprintf(w, "and its grid and check point are the symbolic model's defaults.\n")
	for _, p := range ps {
		fmt.Fprintf(w, "\n%s: %s\n", p.Name, p.Summary)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  entry\t%s, in %s\n", p.Entry, p.Realization)
		for _, d := range p.Dims {
			fmt.Fprintf(tw, "  dimension\t%s = %d\tgrid %d, %d, %d\tcheck %d\t%s\n",
				d.Name, d.Default, d.Grid[0], d.Grid[1], d.Grid[2], d.Check, withMax(d.Doc, d.Limit(), programs.MaxDim))
		}
		for _, c := range p.Consts {
			fmt.Fprintf(tw, "  constant\t%s = %d\t%s\n", c.Name, c.Default, withMax(c.Doc, c.Limit(), programs.MaxConst))
		}
		if p.Refusal != "" {
			fmt.Fprintf(tw, "  refused\t%s\n", p.Refusal)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// withMax is a dimension's or a constant's doc, with its limit when the
// program allows less than every program may (all): the bound the JSON
// form gives as "max".
func withMax(doc string, limit, all int64) string {
	if limit < all {
		return fmt.Sprintf("%s; at most %d", doc, limit)
	}
	return doc
}

// The JSON form of the listing; the fields' order is the keys' order.
type (
	programsJSON struct {
		Programs []programJSON `json:"programs"`
	}
	programJSON struct {
		Name        string      `json:"name"`
		Summary     string      `json:"summary"`
		Entry       string      `json:"entry"`
		Realization string      `json:"realization"`
		Dims        []dimJSON   `json:"dims"`
		Consts      []constJSON `json:"consts"`
		Refused     bool        `json:"refused"`
		Refusal     string      `json:"refusal,omitempty"`
	}
	dimJSON struct {
		Name    string   `json:"name"`
		Default int64    `json:"default"`
		Grid    [3]int64 `json:"grid"`
		Check   int64    `json:"check"`
		Max     int64    `json:"max"`
		Doc     string   `json:"doc"`
	}
	constJSON struct {
		Name    string `json:"name"`
		Default int64  `json:"default"`
		Max     int64  `json:"max"`
		Doc     string `json:"doc"`
	}
)

func writeProgramsJSON(w io.Writer, ps []*programs.Program) error {
	out := programsJSON{Programs: make([]programJSON, 0, len(ps))}
	for _, p := range ps {
		j := programJSON{
			Name: p.Name, Summary: p.Summary, Entry: p.Entry, Realization: p.Realization,
			Dims: make([]dimJSON, 0, len(p.Dims)), Consts: make([]constJSON, 0, len(p.Consts)),
			Refused: p.Refusal != "", Refusal: p.Refusal,
		}
		for _, d := range p.Dims {
			j.Dims = append(j.Dims, dimJSON{d.Name, d.Default, d.Grid, d.Check, d.Limit(), d.Doc})
		}
		for _, c := range p.Consts {
			j.Consts = append(j.Consts, constJSON{c.Name, c.Default, c.Limit(), c.Doc})
		}
		out.Programs = append(out.Programs, j)
	}
	return writeJSON(w, out)
}
