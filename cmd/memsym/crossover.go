package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"memsym/dominance"
	"memsym/programs"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "crossover",
		short: "say from which value of a dimension each peak candidate holds the peak",
		run:   crossoverCmd,
	})
}

const crossoverUsage = `--along T [--at B=1] [--confirm] [source flags] [R1.jsonl ...]

Builds the symbolic model as memsym symbolic does, then, along one dimension,
gives the exact integers from which each candidate holds the peak. The other
dimensions are fixed by --at or, where the order of the candidates does not
depend on them, hold for all their values >= 1. --confirm records at the
integers on both sides of each crossover (with --program or --recorder) and
shows where the recorded peak is.
`

func crossoverCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("crossover", crossoverUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	along := fs.String("along", "", "the `dimension` to go along (required)")
	var at assignments
	fs.Var(&at, "at", "fix other dimensions: `B=1` (repeatable, or B=1,S=2)")
	confirm := fs.Bool("confirm", false, "record on both sides of each crossover and show the recorded peak")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *along == "" {
		return usagef("crossover needs --along DIM, the dimension to go along")
	}
	if *confirm && len(files) > 0 {
		return usagef("--confirm records new points: use it with --program or --recorder")
	}
	m, err := buildModel(&sf, files, stderr)
	if err != nil {
		return err
	}
	if !contains(m.Vars, *along) {
		return usagef("--along %s: no dimension %s (the dimensions are %s)", *along, *along, strings.Join(m.Vars, ", "))
	}
	fixed := at.values()
	for k := range fixed {
		if !contains(m.Vars, k) || k == *along {
			return usagef("--at %s: expected one of the other dimensions (%s)", k, strings.Join(without(m.Vars, *along), ", "))
		}
	}
	c, err := dominance.Along(m.cands, m.front.Kept, *along, fixed)
	var dep *dominance.DependsError
	if errors.As(err, &dep) {
		at := make([]string, len(dep.Vars))
		for i, v := range dep.Vars {
			at[i] = v + "=N"
		}
		return usagef("along %s the candidate holding the peak may depend on %s: give a value with --at %s", dep.Dim, andList(dep.Vars), strings.Join(at, ","))
	}
	if err != nil {
		return err
	}
	io.WriteString(stdout, crossoverText(m, c))
	if !*confirm {
		return nil
	}
	return confirmCrossovers(stdout, &sf, m, c)
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
func fixedString(m *model, c *dominance.Crossovers) string {
	others := without(m.Vars, c.Dim)
	if len(others) == 0 {
		return ""
	}
	var fixed, free []string
	for _, v := range others {
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
		parts = append(parts, "for every "+strings.Join(free, ", ")+" ≥ 1")
	}
	return ", " + strings.Join(parts, " and ")
}

func crossoverText(m *model, c *dominance.Crossovers) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memsym crossover: %s, along %s%s:\n", entryName(m.Structure.Header.Entry, m.Structure.Header.Realization), c.Dim, fixedString(m, c))
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
		cand := m.cands[s.Holder]
		fmt.Fprintf(&b, "  %-16s %s, %s\n", span, cand.Poly, m.opString(cand.Op))
	}
	for i := 1; i < len(c.Segments); i++ {
		s := c.Segments[i]
		fmt.Fprintf(&b, "from %s = %d the candidate at operation %d holds the peak, taking over from operation %d\n",
			c.Dim, s.From, m.cands[s.Holder].Op, m.cands[c.Segments[i-1].Holder].Op)
	}
	if len(c.Segments) == 1 {
		fmt.Fprintf(&b, "the candidate at operation %d holds the peak for every %s ≥ 1\n", m.cands[c.Segments[0].Holder].Op, c.Dim)
	}
	return b.String()
}

// confirmCrossovers records the program on both sides of each crossover and
// prints where the recorded peak is, with a verdict.
func confirmCrossovers(w io.Writer, sf *sourceFlags, m *model, c *dominance.Crossovers) error {
	if len(c.Segments) < 2 {
		fmt.Fprintf(w, "nothing to confirm: no crossover along %s\n", c.Dim)
		return nil
	}
	base, err := confirmBase(sf, m, c)
	if err != nil {
		return err
	}
	bad := 0
	for i := 1; i < len(c.Segments); i++ {
		x := c.Segments[i].From
		for _, side := range []struct {
			x      int64
			holder int
		}{{x - 1, c.Segments[i-1].Holder}, {x, c.Segments[i].Holder}} {
			point := make([]record.Dim, len(m.Vars))
			for j, v := range m.Vars {
				point[j] = record.Dim{Name: v, Value: base[v]}
				if v == c.Dim {
					point[j].Value = side.x
				}
			}
			rec, err := recordAt(sf, point)
			if err != nil {
				return err
			}
			counts := record.Count(rec)
			want := m.cands[side.holder]
			verdict := "as predicted"
			if counts.PeakOp != want.Op {
				verdict = fmt.Sprintf("NOT as predicted: expected operation %d", want.Op)
				bad++
			}
			predicted, _ := want.Poly.EvalInt(pointMap(point))
			if !predicted.Equal(counts.Peak) {
				verdict += fmt.Sprintf("; the candidate predicts %s bytes", predicted)
				bad++
			}
			fmt.Fprintf(w, "confirmed at %s: recorded peak %s bytes at operation %d, %s\n",
				record.PointString(point), counts.Peak, counts.PeakOp, verdict)
		}
	}
	if bad > 0 {
		return fmt.Errorf("the recordings contradict %s of the crossovers", plural(bad, "point", "points"))
	}
	return nil
}

func pointMap(point []record.Dim) map[string]int64 {
	m := make(map[string]int64)
	for _, d := range point {
		m[d.Name] = d.Value
	}
	return m
}

// confirmBase picks the other dimensions' values for --confirm: --at's, or
// else the bundled program's defaults, or else the smallest grid value.
func confirmBase(sf *sourceFlags, m *model, c *dominance.Crossovers) (map[string]int64, error) {
	base := map[string]int64{}
	var prog *programs.Program
	if sf.program != "" {
		prog, _ = programs.Lookup(sf.program)
	}
	for i, v := range m.Vars {
		if x, ok := c.Fixed[v]; ok {
			base[v] = x
			continue
		}
		base[v] = m.Grid[i][0]
		if prog != nil {
			for _, d := range prog.Dims {
				if d.Name == v {
					base[v] = d.Default
				}
			}
		}
	}
	return base, nil
}

// recordAt makes one recording at point from the bundled program or the
// recorder command.
func recordAt(sf *sourceFlags, point []record.Dim) (*record.Recording, error) {
	if sf.program != "" {
		p, err := programs.Lookup(sf.program)
		if err != nil {
			return nil, err
		}
		return p.Record(pointMap(point), sf.consts.values())
	}
	cmd, err := record.ParseCommand(sf.recorder)
	if err != nil {
		return nil, err
	}
	cmd.Timeout = sf.timeout
	var out bytes.Buffer
	if err := cmd.Run(context.Background(), point, &out); err != nil {
		return nil, err
	}
	name := sourceName("recorder", point)
	rec, err := record.Read(&out, name)
	if err != nil {
		return nil, err
	}
	if got, want := record.PointString(rec.Header.Dims), record.PointString(point); got != want {
		return nil, fmt.Errorf("%s:1: the recorder was asked for %s but its header says %s", name, want, got)
	}
	return rec, nil
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
