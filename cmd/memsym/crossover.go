package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "crossover",
		short: "say from which value of a dimension each peak candidate holds the peak",
		run:   crossoverCmd,
	})
}

const crossoverUsage = `--along T [--at B=1] [--confirm] [--json] [source flags] [R1.jsonl ...]

Builds the symbolic model as memsym symbolic does, then, along one dimension,
gives the exact integers from which each candidate holds the peak. The other
dimensions are fixed by --at or, where the order of the candidates does not
depend on them, hold for all their values >= 1. --confirm records at the
integers on both sides of each crossover (with --program, --recorder or
--torch) and shows where the recorded peak is.
`

func crossoverCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("crossover", crossoverUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	along := fs.String("along", "", "the `dimension` to go along (required)")
	var at assignments
	fs.Var(&at, "at", "fix other dimensions: `B=1` (repeatable, or B=1,S=2)")
	confirm := fs.Bool("confirm", false, "record on both sides of each crossover and show the recorded peak")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	units := addUnits(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *along == "" {
		return usagef("crossover needs --along DIM, the dimension to go along")
	}
	if *confirm && len(files) > 0 {
		return usagef("--confirm records new points: use it with --program, --recorder or --torch")
	}
	sf.before = func(dims []string, _ bool) error {
		return beforeAlong(dims, *along, at, ", so nothing crosses over")
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	c, err := crossovers(m, src, *along, at)
	if err != nil {
		return err
	}
	var confirmed []model.Confirmation
	var notConfirmed string // why the crossovers were not recorded beside
	base := m.ConfirmBase(c, programDefault(src))
	reach := m.RunsTo(src, c.Dim, base)
	fixedAt, ranges := crossoverSpan(m, c)
	atOne := m.UnrecordedAtOne(src, fixedAt, ranges)
	if *confirm && len(c.Segments) > 1 {
		confirmed, err = m.Confirm(context.Background(), src, c, base)
		var past *model.NotRunningError
		if errors.As(err, &past) {
			notConfirmed = "not confirmed: " + past.Error()
			err = nil
		}
		if err != nil {
			return err
		}
	}
	if *asJSON {
		out := m.CrossoverJSON(c, confirmed)
		out.UnrecordedAtOne = atOne
		out.NotConfirmed = notConfirmed
		out.ReachJSON = reach.JSON()
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
	} else {
		io.WriteString(stdout, crossoverText(m, c, reach, belowLine(atOne, "")))
		switch {
		case notConfirmed != "":
			fmt.Fprintf(stdout, "%s\n", notConfirmed)
		case *confirm:
			io.WriteString(stdout, confirmText(m, c, confirmed, *units))
		}
	}
	return confirmError("crossovers", contradicted(m, confirmed), model.UnrecordedConfirmations(confirmed))
}

// confirmError says how many recordings made to confirm an answer (the
// crossovers, the fit) contradict it and how many failed; nil for none.
func confirmError(what string, bad, failed int) error {
	switch {
	case bad > 0 && failed > 0:
		return fmt.Errorf("the recordings contradict the %s at %s, and %s failed", what, doc.Plural(bad, "point", "points"), doc.Plural(failed, "recording", "recordings"))
	case bad > 0:
		return fmt.Errorf("the recordings contradict the %s at %s", what, doc.Plural(bad, "point", "points"))
	case failed > 0:
		where := "they did"
		if failed == 1 {
			where = "it did"
		}
		return fmt.Errorf("%s failed: nothing was confirmed where %s", doc.Plural(failed, "recording", "recordings"), where)
	}
	return nil
}

// crossovers checks --along and --at against the model's dimensions, and
// the line --at fixes against where src's program runs, and finds the
// crossovers.
func crossovers(m *model.Model, src source.Source, along string, at assignments) (*model.Crossovers, error) {
	if err := checkLine(m.Vars, along, at, ", so nothing crosses over"); err != nil {
		return nil, err
	}
	if err := at.atLeastOne(); err != nil {
		return nil, err
	}
	if err := m.InDomain(at.point()); err != nil {
		return nil, usagef("--at %s: %v", at.String(), err)
	}
	if len(at) == len(m.Vars)-1 { // a line, which the program may run nowhere on
		if err := m.RunsOnLine(src, along, at.values()); err != nil {
			return nil, usagef("--at %s: %v", at.String(), err)
		}
	}
	fixed := at.values()
	c, err := m.Crossovers(along, fixed)
	var dep *model.DependsError
	if errors.As(err, &dep) {
		at := make([]string, len(dep.Vars))
		for i, v := range dep.Vars {
			at[i] = v + "=N"
		}
		return nil, usagef("along %s the candidate holding the peak may depend on %s: give a value with --at %s", dep.Dim, doc.AndList(dep.Vars), strings.Join(at, ","))
	}
	return c, err
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// fixedString says what the other dimensions are: "for every B ≥ 1",
// "at B = 1", or "" when there are none.
func fixedString(m *model.Model, c *model.Crossovers) string {
	var fixed, free []string
	for _, v := range without(m.Vars, c.Dim) {
		if x, ok := c.Fixed[v]; ok {
			fixed = append(fixed, fmt.Sprintf("%s = %d", v, x))
		} else {
			free = append(free, v)
		}
	}
	var parts []string
	if len(fixed) > 0 {
		parts = append(parts, "at "+strings.Join(fixed, ", "))
	}
	if len(free) > 0 {
		parts = append(parts, "for every "+m.AtLeast(free))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, " and ")
}

// crossoverSpan returns crossovers' fixed values, and the dimensions they
// range over: their own and the free others.
func crossoverSpan(m *model.Model, c *model.Crossovers) (record.Point, []string) {
	var fixed record.Point
	ranges := []string{c.Dim}
	for _, v := range m.Vars {
		if x, ok := c.Fixed[v]; ok {
			fixed = append(fixed, record.Dim{Name: v, Value: x})
		} else if v != c.Dim {
			ranges = append(ranges, v)
		}
	}
	return fixed, ranges
}

func crossoverText(m *model.Model, c *model.Crossovers, reach model.Reach, below string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memsym crossover: %s, along %s%s, in bytes:\n", entryName(m.Header()), c.Dim, fixedString(m, c))
	b.WriteString(uncheckedLine(m))
	b.WriteString(negativeLine(m))
	b.WriteString(below)
	for _, s := range c.Segments {
		var span string
		switch {
		case s.To == 0:
			span = fmt.Sprintf("%s ≥ %d", c.Dim, s.From)
		case s.From == s.To:
			span = fmt.Sprintf("%s = %d", c.Dim, s.From)
		default:
			span = fmt.Sprintf("%s = %d to %d", c.Dim, s.From, s.To)
		}
		// Named as in a recording at the fixed values, where a dimension
		// that counts blocks is among them.
		cand := m.Cands[s.Holder]
		fmt.Fprintf(&b, "  %-16s %s, at %s\n", span, cand.Poly, m.WhereAt(cand.Op, c.Fixed))
	}
	opOf := func(seg int) int { return m.NumberAt(m.Cands[c.Segments[seg].Holder].Op, c.Fixed) }
	for i := 1; i < len(c.Segments); i++ {
		past := ""
		switch {
		case reach.Last > 0 && c.Segments[i].From > reach.Last:
			past = ", past the sizes the program takes"
		case reach.First > 0 && c.Segments[i].From <= reach.First:
			past = ", the stretch before it below the sizes the program takes"
		}
		fmt.Fprintf(&b, "from %s = %d the candidate at operation %d holds the peak, taking over from operation %d%s\n",
			c.Dim, c.Segments[i].From, opOf(i), opOf(i-1), past)
	}
	if len(c.Segments) == 1 {
		fmt.Fprintf(&b, "the candidate at operation %d holds the peak for every %s\n", opOf(0), m.AtLeast([]string{c.Dim}))
	}
	if neg, err := m.NegativeAlong(c.Dim, c.Fixed); err == nil && len(neg) > 0 {
		fmt.Fprintf(&b, "some buffer's bytes are negative at %s: there the pieces are the polynomials', not the program's\n", spansWords(c.Dim, neg))
	}
	b.WriteString(reachLine(reach, c.Dim))
	return b.String()
}

// confirmText says, for each recording beside a crossover, where its peak
// is and whether that is as predicted.
func confirmText(m *model.Model, c *model.Crossovers, confirmed []model.Confirmation, units doc.Units) string {
	if len(c.Segments) < 2 {
		return fmt.Sprintf("nothing to confirm: no crossover along %s\n", c.Dim)
	}
	var b strings.Builder
	for i := range confirmed {
		f := &confirmed[i]
		if f.Unrecorded != nil {
			fmt.Fprintf(&b, "not recorded at %s, so not confirmed there: %v\n", f.Point, f.Unrecorded)
			continue
		}
		want := m.NumberAt(m.Cands[f.Predicted].Op, f.Point.Map())
		lead, verdict := "confirmed", "as predicted"
		if !f.OK(m) {
			lead = "checked"
			var diffs []string
			if f.PeakOp != want {
				diffs = append(diffs, fmt.Sprintf("expected operation %d", want))
			}
			if !f.Peak.Equal(f.PredictedPeak) {
				diffs = append(diffs, fmt.Sprintf("the candidate predicts %s", units.Bytes(f.PredictedPeak)))
			}
			if f.Differs != "" {
				diffs = append(diffs, "the recording is not the model's there: "+f.Differs)
			}
			verdict = "NOT as predicted: " + strings.Join(diffs, "; ")
		}
		// Beside its neighbours', with the digits that tell it from each:
		// the two sides of a crossover are often within a rounding.
		peak := units.Bytes(f.Peak)
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(confirmed) && confirmed[j].Unrecorded == nil {
				if p := units.BytesBeside(f.Peak, confirmed[j].Peak); len(p) > len(peak) {
					peak = p
				}
			}
		}
		fmt.Fprintf(&b, "%s at %s: recorded peak %s at operation %d, %s\n", lead, f.Point, peak, f.PeakOp, verdict)
	}
	return b.String()
}

// contradicted counts the points whose recording, made, contradicts the
// crossovers.
func contradicted(m *model.Model, confirmed []model.Confirmation) int {
	bad := 0
	for i := range confirmed {
		if confirmed[i].Unrecorded == nil && !confirmed[i].OK(m) {
			bad++
		}
	}
	return bad
}

// reachLine says where the program stops running along dim, and that the
// pieces past it are the polynomials', not the program's; "" where it does
// not stop.
func reachLine(r model.Reach, dim string) string {
	from := fmt.Sprintf("from %s = %d (not at %s: %s)", dim, r.First, r.Below, r.BelowWhy)
	upTo := fmt.Sprintf("up to %s = %d (not at %s: %s)", dim, r.Last, r.At, r.Why)
	var runs, outside string
	switch {
	case r.First > 0 && r.Last > 0:
		runs, outside = from+" "+upTo, "outside that"
	case r.First > 0:
		runs, outside = from, "below it"
	case r.Last > 0:
		runs, outside = upTo, "past it"
	default:
		return ""
	}
	return fmt.Sprintf("the program runs along %s %s; %s, the pieces are the polynomials', not the program's\n", dim, runs, outside)
}

// programDefault is a bundled program's default point, nil for another
// source.
func programDefault(src source.Source) record.Point {
	if p, ok := src.(*source.Program); ok {
		return p.Default()
	}
	return nil
}
