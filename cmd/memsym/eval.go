package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "eval",
		short: "evaluate the model at a point, or the peak piece by piece along a dimension, without recording",
		run:   evalCmd,
	})
}

const evalUsage = `--at B=8,T=4096 [--step [--remat store|recompute|both]] | --along T [--at B=8] [--units iec|si|bytes] [--json] [source flags] [R1.jsonl ...]

Builds the symbolic model as memsym symbolic does, then evaluates it from
its polynomials alone; nothing more is recorded.

With --at giving every dimension a value: the parameters, inputs, outputs,
each kept peak candidate, the peak and the candidate that holds it (the
first operation whose live bytes reach it, as in a recording) and the
needs (the inputs and the peak), each in bytes with its polynomial.

With --step, a training step's terms at --at (docs/step.md), of recordings
of a step or of a bundled program's step under --remat (both: side by
side), --optimizer and --types: the parameters, the optimizer's states, the
gradient, the batch, what the forward keeps for the backward, each phase's
peak and the step's, whose terms sum to it, and the step's peak's formula.

With --along DIM: the peak along DIM as one table of pieces, from–to, the
candidate holding the peak there and the peak's and the needs' polynomials
on it, the other dimensions fixed by --at or, where the holder does not
depend on them, free. Then the kept candidates proven never to hold the
peak alone: at every point with dimensions >= 1 they are at most the
largest of the others.
`

func evalCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("eval", evalUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	var at assignments
	fs.Var(&at, "at", "the point, `B=8,T=4096` (repeatable); with --along, the other dimensions to fix")
	along := fs.String("along", "", "the `dimension` to follow the peak along, piece by piece")
	units := addUnits(fs)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	var step stepFlags
	step.registerStep(fs, "the terms of a training step at --at: the parameters, the optimizer's states, the gradient, the batch, what the forward keeps, each phase's peak and the step's (docs/step.md)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if step.step {
		if *along != "" {
			return usagef("--along goes without --step: eval --step gives the step's terms at --at")
		}
		if len(at) == 0 {
			return usagef("eval --step needs --at B=N,T=N, a value for each dimension")
		}
		return evalStep(stdout, stderr, &step, &sf, files, at, *units, *asJSON)
	}
	if err := step.check(false); err != nil {
		return err
	}
	if *along == "" && len(at) == 0 {
		// Without dimensions the model has one point, which needs no
		// --at; else the hint names the source's dimensions where they
		// are known without recording.
		dims, known := sf.dimNames(files)
		if !known || len(dims) > 0 {
			hint := "B=N,T=N"
			if known {
				hint = strings.Join(dims, "=N,") + "=N"
			}
			return usagef("eval needs --at %s, a value for each dimension, or --along DIM", hint)
		}
	}
	sf.before = func(dims []string, _ bool) error {
		if *along != "" {
			return beforeAlong(dims, *along, at, "")
		}
		return beforePoint(dims, at)
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	if *along != "" {
		return evalAlong(stdout, m, src, *along, at, *asJSON)
	}
	p, err := m.PointOf(at.values())
	if err != nil {
		return usagef("--at %s: %v", at.String(), err)
	}
	if err := source.NotRunning(src, p); err != nil {
		// The flag's mistake, as page and explain say it.
		return usagef("--at %s: %v", at.String(), err)
	}
	t, err := m.Eval(p)
	var neg *model.NegativeError
	if errors.As(err, &neg) {
		return usagef("%v", err) // a point refused, as where the program does not run
	}
	if err != nil {
		return err
	}
	atOne := m.UnrecordedAtOne(src, p, nil)
	if *asJSON {
		out := m.EvalJSON(t)
		out.UnrecordedAtOne = atOne
		return writeJSON(stdout, out)
	}
	_, err = io.WriteString(stdout, evalText(m, t, *units, belowLine(atOne, checkFlag(src, p))))
	return err
}

// checkFlag writes the --check that records src's program at p, "" for a
// source that records nothing (files).
func checkFlag(src source.Source, p record.Point) string {
	if _, files := src.(*source.Files); files {
		return ""
	}
	var parts []string
	for _, d := range p {
		parts = append(parts, fmt.Sprintf("%s=%d", d.Name, d.Value))
	}
	return "--check " + strings.Join(parts, ",")
}

// bytesCells writes a figure as two cells of a table: "98328576 bytes"
// and "(93.8 MiB)", the second empty when the units add nothing.
func bytesCells(x poly.Rat, units doc.Units) []string {
	approx := units.Approx(x)
	if approx != "" {
		approx = "(" + approx + ")"
	}
	return []string{doc.ByteCount(x), approx}
}

// evalText writes the terms at a point as a table.
func evalText(m *model.Model, t *model.Terms, units doc.Units, below string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memsym eval: %s at %s, from the polynomials (in bytes); nothing recorded:\n", entryName(m.Header()), pointOrNone(t.Point.String()))
	b.WriteString(uncheckedLine(m))
	b.WriteString(below)
	row := func(what string, x poly.Rat, formula string) []string {
		return append(append([]string{"  " + what}, bytesCells(x, units)...), formula)
	}
	peakWhere := "no operations"
	if t.PeakOp > 0 {
		peakWhere = "at " + m.WhereAt(t.Op, t.Point.Map())
	}
	holder := "0"
	if t.Holder >= 0 {
		holder = m.Cands[t.Holder].Poly.String()
	}
	rows := [][]string{
		row("parameters", t.Params, m.Params.String()),
		row("inputs", t.Inputs, m.Inputs.String()),
		row("outputs", t.Outputs, m.Outputs.String()),
		row("peak", t.Peak, holder+", "+peakWhere),
		row("needs", t.Needs, "the inputs and the peak"),
	}
	b.WriteString(alignColumns(rows, "lrll"))
	if len(m.Front.Kept) > 1 {
		fmt.Fprintf(&b, "the peak is the largest of %d candidates there:\n", len(m.Front.Kept))
		rows = nil
		for i, k := range m.Front.Kept {
			c := m.Cands[k]
			mark := ""
			switch {
			case k == t.Holder:
				mark = "  ← the peak"
			case t.Holder >= 0 && t.Kept[i].Equal(t.Peak):
				// Ties the peak; the holder named above reaches it first.
				mark = fmt.Sprintf("  ← as large (operation %d reaches it first)", t.PeakOp)
			}
			rows = append(rows, append(append([]string{fmt.Sprintf("  operation %d", m.NumberAt(c.Op, t.Point.Map()))}, bytesCells(t.Kept[i], units)...), c.Poly.String()+mark))
		}
		b.WriteString(alignColumns(rows, "lrll"))
	}
	return b.String()
}

func pointOrNone(s string) string {
	if s == "" {
		return "its one point"
	}
	return s
}

// evalAlong prints the peak along a dimension piece by piece, and the
// candidates never holding it alone.
func evalAlong(stdout io.Writer, m *model.Model, src source.Source, along string, at assignments, asJSON bool) error {
	if err := checkLine(m.Vars, along, at, ""); err != nil {
		return err
	}
	fixed := at.values()
	if err := at.atLeastOne(); err != nil {
		return err
	}
	if len(at) == len(m.Vars)-1 { // a line, which the program may run nowhere on, as crossover refuses it
		if err := m.RunsOnLine(src, along, fixed); err != nil {
			return usagef("--at %s: %v", at.String(), err)
		}
	}
	pw, err := m.Piecewise(along, fixed)
	var dep *model.DependsError
	if errors.As(err, &dep) {
		return usagef("along %s the candidate holding the peak may depend on %s: give a value with --at %s", dep.Dim, doc.AndList(dep.Vars), strings.Join(placeholders(dep.Vars), ","))
	}
	if err != nil {
		return err
	}
	cov := m.Coverage()
	reach := m.RunsTo(src, along, m.Base(fixed, programDefault(src)))
	atOne := m.UnrecordedAtOne(src, pw.Fixed, append([]string{along}, pw.Free...))
	if asJSON {
		out := m.PiecewiseJSON(pw, cov)
		out.UnrecordedAtOne = atOne
		out.ReachJSON = reach.JSON()
		return writeJSON(stdout, out)
	}
	_, err = io.WriteString(stdout, piecewiseText(m, pw, cov, belowLine(atOne, ""))+reachLine(reach, along))
	return err
}

func placeholders(vars []string) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = v + "=N"
	}
	return out
}

// piecewiseText writes the pieces as a table, the holders' operations
// named below it, then the candidates never holding the peak alone.
func piecewiseText(m *model.Model, pw *model.Piecewise, cov []model.Coverage, below string) string {
	var b strings.Builder
	var where []string
	if len(pw.Fixed) > 0 {
		where = append(where, "at "+pw.Fixed.String())
	}
	if len(pw.Free) > 0 {
		where = append(where, "for every "+m.AtLeast(pw.Free))
	}
	ctx := ""
	if len(where) > 0 {
		ctx = ", " + strings.Join(where, " and ")
	}
	fmt.Fprintf(&b, "memsym eval: %s, the peak along %s%s, in bytes; nothing recorded:\n", entryName(m.Header()), pw.Dim, ctx)
	b.WriteString(uncheckedLine(m))
	b.WriteString(negativeLine(m))
	b.WriteString(below)
	rows := [][]string{{"  " + pw.Dim, "holder", "peak", "needs"}}
	// Operations are named as in a recording at the fixed values, the
	// structure's standing for the others (model.Model.WhereAt).
	at := pw.Fixed.Map()
	var ops []int
	for _, p := range pw.Pieces {
		op := m.Cands[p.Holder].Op
		if !containsInt(ops, op) {
			ops = append(ops, op)
		}
		rows = append(rows, []string{"  " + spanString(p.From, p.To), fmt.Sprintf("operation %d", m.NumberAt(op, at)), p.Peak.String(), p.Needs.String()})
	}
	b.WriteString(alignColumns(rows, "llll"))
	for _, op := range ops {
		fmt.Fprintf(&b, "%s\n", m.WhereAt(op, at))
	}
	covered := m.Covered(cov)
	if len(covered) > 0 {
		fmt.Fprintf(&b, "never holding the peak alone, proven for %s:\n", m.DomainString())
		for _, c := range covered {
			fmt.Fprintf(&b, "  %s, %s: %s\n", m.WhereAt(m.Cands[c.Cand].Op, at), m.Cands[c.Cand].Poly, coverageProof(m, c, at))
		}
	}
	for _, c := range cov {
		if c.Undecided() {
			fmt.Fprintf(&b, "undecided whether it ever holds the peak alone: %s, at %s\n", m.Cands[c.Cand].Poly, m.WhereAt(m.Cands[c.Cand].Op, at))
		}
	}
	return b.String()
}

// coverageProof says why a covered candidate never holds the peak alone,
// naming operations as in a recording at the point at (NumberAt).
func coverageProof(m *model.Model, c model.Coverage, at map[string]int64) string {
	var ops []string
	for _, k := range c.By {
		ops = append(ops, fmt.Sprint(m.NumberAt(m.Cands[k].Op, at)))
	}
	which := "operation " + ops[0]
	if len(ops) > 1 {
		which = "the largest of operations " + doc.AndList(ops)
		if len(ops) == 2 {
			which = "the larger of operations " + doc.AndList(ops)
		}
	}
	if c.Along != "" {
		hold := "hold"
		if len(ops) == 1 {
			hold = "holds"
		}
		if len(m.Vars) == 1 {
			return fmt.Sprintf("at most %s, which %s the peak along %s", which, hold, c.Along) // no other dimension to prove it for
		}
		return fmt.Sprintf("at most %s, which %s the peak along %s on stretches proven for every other dimension", which, hold, c.Along)
	}
	if len(c.Weights) == 0 {
		return "at most " + which
	}
	var terms []string
	for i := range c.By {
		terms = append(terms, fmt.Sprintf("%s × operation %s's", c.Weights[i], ops[i]))
	}
	return fmt.Sprintf("at most %s, a weighted mean, so at most %s", strings.Join(terms, " + "), which)
}

// spanString writes "1 to 149", "150", or "≥ 150" (to 0: without end).
func spanString(from, to int64) string {
	switch {
	case to == 0:
		return fmt.Sprintf("≥ %d", from)
	case from == to:
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d to %d", from, to)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
