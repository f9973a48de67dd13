package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "symbolic",
		short: "derive the memory model as exact polynomials in the dimensions",
		run:   symbolicCmd,
	})
}

const symbolicUsage = `[flags] [R1.jsonl R2.jsonl ...]

Interpolates every buffer's bytes exactly from recordings on a grid of three
values per dimension, checks the polynomials at points off the grid, and prints
the inputs, the outputs and the peak: the largest of the live-bytes polynomials
that no other is proven to dominate for dimensions >= 1.

The recordings come from files (3^k of them, forming the grid, with --check
files off it), from --recorder COMMAND run at each point, or from a bundled
--program. With --recorder or --torch the model is checked at two points off
the grid by default, chosen to share no divisor with the grid's steps; with
--program at the program's own check point (memsym programs lists it) and
the second such point. --no-default-checks leaves those out, for a recorder
that runs at some sizes only: then only the --check points given are checked.

With --step, a training step's model (docs/step.md): of recordings of a step,
or of a bundled program's step under --remat, --optimizer and --types; with
--compare, the analytic estimates as polynomials beside the exact terms.
--units writes the step's constant terms in units beside them; without
--step the polynomials are printed alone, one to a line, for tools that read
them back.
`

// buildModel records (or reads) the grid and the check points, interpolates
// and prunes. The source it returns stays open for further recordings; the
// caller closes it, also when err is not nil.
func buildModel(sf *sourceFlags, files []string, stderr io.Writer) (*model.Model, source.Source, error) {
	src, spec, err := sf.open(files, stderr)
	if err != nil {
		return nil, &source.Files{}, err // nothing to close
	}
	if err := sf.checkBefore(src, spec); err != nil {
		return nil, src, err
	}
	m, err := model.Build(context.Background(), src, spec)
	return m, src, err
}

func symbolicCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("symbolic", symbolicUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	var step stepFlags
	step.register(fs)
	units := addUnits(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if step.step {
		if *asJSON {
			return usagef("--json does not go with --step")
		}
		return symbolicStep(stdout, stderr, &step, &sf, files, *units)
	}
	if err := step.check(false); err != nil {
		return err
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, m.JSON())
	}
	_, err = io.WriteString(stdout, symbolicText(m))
	return err
}

// symbolicText writes the model as the seed's presk memory --symbolic does.
func symbolicText(m *model.Model) string {
	var b strings.Builder
	h := m.Header()
	if len(m.Vars) == 0 {
		fmt.Fprintf(&b, "memsym symbolic: %s has no dimensions: its bytes are the same at every point, read from one recording\n", entryName(h))
	} else {
		fmt.Fprintf(&b, "memsym symbolic: %s, in %s, in bytes: each buffer's bytes interpolated on %s, %s\n",
			entryName(h), doc.AndList(m.Vars), m.GridString(), checkedString(m))
	}
	for _, d := range m.Domain() {
		if d.Value > 1 {
			// Only a block count whose last block stands apart starts
			// above 1; every claim below holds where the model does.
			fmt.Fprintf(&b, "  %-11s %s: the model holds there, %s counting blocks whose first and last stand apart\n", "domain", m.DomainString(), d.Name)
			break
		}
	}
	if neg := m.NegativeBytes(); neg != "" {
		// The claims below are about the polynomials; where a buffer's
		// bytes are negative they are not the program's, and eval and
		// fit refuse such points.
		fmt.Fprintf(&b, "  %-11s %s: a buffer's bytes are never negative, so the polynomials are the program's only where its sizes are (eval refuses the points where some buffer's are negative)\n", "note", neg)
	}
	fmt.Fprintf(&b, "  %-11s %s\n", "parameters", m.Params)
	fmt.Fprintf(&b, "  %-11s %s\n", "inputs", m.Inputs)
	fmt.Fprintf(&b, "  %-11s %s\n", "outputs", m.Outputs)
	kept := m.Front.Kept
	switch {
	case len(kept) == 0:
		// No operation makes anything live: memory and eval say so too.
		fmt.Fprintf(&b, "  %-11s 0: no operations\n", "peak")
	case len(kept) == 1:
		fmt.Fprintf(&b, "  %-11s %s, at %s\n", "peak", m.Cands[kept[0]].Poly, m.Where(m.Cands[kept[0]].Op))
	default:
		claim := "none of which dominates another"
		if n := len(m.Front.Undecided); n > 0 {
			claim = fmt.Sprintf("none proven to dominate another; %s undecided (kept, neither proven nor refuted)", doc.Plural(n, "pair", "pairs"))
		}
		fmt.Fprintf(&b, "  %-11s the largest of %d, %s:\n", "peak", len(kept), claim)
		for _, i := range kept {
			fmt.Fprintf(&b, "                %s, at %s\n", m.Cands[i].Poly, m.Where(m.Cands[i].Op))
		}
		for _, pr := range m.Front.Undecided {
			fmt.Fprintf(&b, "              undecided: operation %d against operation %d\n", m.StructureOp(m.Cands[pr[0]].Op), m.StructureOp(m.Cands[pr[1]].Op))
		}
	}
	ops := doc.Plural(m.Structure.Ops.Len(), "operation", "operations")
	if m.FoldDim() != "" {
		// The operations' count grows with the blocks: say whose it is.
		ops = "the " + ops + " of the recording at " + m.Structure.Header.Dims.String()
	}
	fmt.Fprintf(&b, "  %-11s %s among %s, %d pruned by a proof of dominance\n", "candidates",
		doc.Plural(len(m.Cands), "live-bytes polynomial", "live-bytes polynomials"), ops, len(m.Cands)-len(kept))
	return b.String()
}

// entryName writes "`GPT.apply` in f64".
func entryName(h *record.Header) string {
	s := "the recording"
	if h.Entry != "" {
		s = record.Show(h.Entry) // quoted when it holds what would break a line
	}
	if h.Realization != "" {
		s += " in " + plainOrQuoted(h.Realization)
	}
	return s
}

// plainOrQuoted returns s as it is, or quoted when it holds a character
// that would break memsym's one-line output or show it out of order
// (doc.Hidden).
func plainOrQuoted(s string) string {
	if strings.ContainsFunc(s, doc.Hidden) {
		return strconv.Quote(s)
	}
	return s
}

// uncheckedLine is the line that says, under a query's title, that the
// polynomials it evaluates were checked at no point off the grid; "" for a
// model checked there, or without dimensions (its bytes read from one
// recording).
func uncheckedLine(m *model.Model) string {
	if len(m.Vars) == 0 || len(m.CheckPoints()) > 0 {
		return ""
	}
	return "  UNCHECKED: no point off the grid was recorded to check the polynomials (give --check)\n"
}

// belowLine is the note, under a query's title, that the query answers
// where a size is 1 and nothing was recorded there, along dims
// (model.Model.UnrecordedAtOne): the polynomials answer there, but a
// program may run other operations where a size is 1 than on the grid
// (PyTorch does: a size-1 axis broadcasts, and views stand for copies),
// and nothing shows it does not; "" for no dims. check, when not "", is
// the --check that would record the one point the query answers at.
func belowLine(dims []string, check string) string {
	if len(dims) == 0 {
		return ""
	}
	var where []string
	for _, v := range dims {
		where = append(where, v+" = 1")
	}
	hint := ""
	switch {
	case strings.Contains(check, " records "): // says itself what it records
		hint = "; " + check
	case check != "":
		hint = "; " + check + " records it"
	}
	return fmt.Sprintf("  note: the polynomials were made from no recording at %s: they answer there, but a program may run other operations where a size is 1 (PyTorch does)%s\n",
		strings.Join(where, " or "), hint)
}

// negativeLine is the line that says, under the title of a query along a
// dimension, where some buffer's polynomial is negative (model's
// NegativeBytes): past there the polynomials are not the program's bytes,
// whatever the query finds there; "" where none is.
func negativeLine(m *model.Model) string {
	neg := m.NegativeBytes()
	if neg == "" {
		return ""
	}
	return "  note: " + neg + ": where a buffer's bytes are negative, the polynomials are not the program's\n"
}

// withUnchecked returns title followed by uncheckedLine, without its last
// newline, for the writers that take a title.
func withUnchecked(title string, m *model.Model) string {
	if l := uncheckedLine(m); l != "" {
		return title + "\n" + strings.TrimSuffix(l, "\n")
	}
	return title
}

// checkedString writes "checked at B = 64, T = 1024 and B = 65, T = 1025",
// or says that the model is unchecked.
func checkedString(m *model.Model) string {
	checks := m.CheckPoints()
	if len(checks) == 0 {
		return "UNCHECKED: no point off the grid was recorded to check them (give --check)"
	}
	var parts []string
	for _, p := range checks {
		parts = append(parts, p.String())
	}
	return "checked at " + strings.Join(parts, "; ")
}
