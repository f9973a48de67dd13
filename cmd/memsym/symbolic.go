package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"memsym/dominance"
	"memsym/interp"
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
--program.
`

// model is a program's symbolic model with its pruned peak candidates.
type model struct {
	*interp.Model
	cands []dominance.Candidate
	front *dominance.Frontier
}

// buildModel records (or reads) the grid and the check points, interpolates
// and prunes.
func buildModel(sf *sourceFlags, files []string, stderr io.Writer) (*model, error) {
	grid, checks, cleanup, err := sf.sources(files, stderr)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	m, err := interp.Build(grid, checks)
	if err != nil {
		return nil, err
	}
	cands := make([]dominance.Candidate, len(m.Candidates))
	for i, c := range m.Candidates {
		cands[i] = dominance.Candidate{Poly: c.Poly, Op: c.Op}
	}
	return &model{Model: m, cands: cands, front: dominance.Prune(cands)}, nil
}

func symbolicCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("symbolic", symbolicUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	m, err := buildModel(&sf, files, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeSymbolicJSON(stdout, m)
	}
	_, err = io.WriteString(stdout, symbolicText(m))
	return err
}

// symbolicText writes the model as the seed's presk memory --symbolic does.
func symbolicText(m *model) string {
	var b strings.Builder
	rec := m.Structure
	fmt.Fprintf(&b, "memsym symbolic: %s, in %s: each buffer's bytes interpolated on %s, %s\n",
		entryName(rec.Header.Entry, rec.Header.Realization), andList(m.Vars), gridString(m.Vars, m.Grid), checkedString(m.Vars, m.Checked))
	fmt.Fprintf(&b, "  %-11s %s\n", "parameters", m.Params)
	fmt.Fprintf(&b, "  %-11s %s\n", "inputs", m.Inputs)
	fmt.Fprintf(&b, "  %-11s %s\n", "outputs", m.Outputs)
	kept := m.front.Kept
	if len(kept) == 1 {
		fmt.Fprintf(&b, "  %-11s %s, %s\n", "peak", m.cands[kept[0]].Poly, m.opString(m.cands[kept[0]].Op))
	} else {
		claim := "none of which dominates another"
		if n := len(m.front.Undecided); n > 0 {
			claim = fmt.Sprintf("none proven to dominate another; %s undecided (kept, neither proven nor refuted)", plural(n, "pair", "pairs"))
		}
		fmt.Fprintf(&b, "  %-11s the largest of %d, %s:\n", "peak", len(kept), claim)
		for _, i := range kept {
			fmt.Fprintf(&b, "                %s, %s\n", m.cands[i].Poly, m.opString(m.cands[i].Op))
		}
		for _, pr := range m.front.Undecided {
			fmt.Fprintf(&b, "              undecided: operation %d against operation %d\n", m.cands[pr[0]].Op, m.cands[pr[1]].Op)
		}
	}
	fmt.Fprintf(&b, "  %-11s %d live-bytes polynomials among %d operations, %d pruned by a proof of dominance\n",
		"candidates", len(m.cands), len(rec.Ops), len(m.cands)-len(kept))
	return b.String()
}

// opString names an operation: "at operation 19 (`Linear.apply/%5` in blocks[0].ff.up)".
func (m *model) opString(op int) string {
	o := &m.Structure.Ops[op-1]
	if o.Path == "" {
		return fmt.Sprintf("at operation %d (`%s`)", op, o.Label)
	}
	return fmt.Sprintf("at operation %d (`%s` in %s)", op, o.Label, o.Path)
}

func entryName(entry, realization string) string {
	s := "the recording"
	if entry != "" {
		s = "`" + entry + "`"
	}
	if realization != "" {
		s += " in " + realization
	}
	return s
}

// gridString writes "B ∈ {16, 32, 48}, T ∈ {256, 512, 768}".
func gridString(vars []string, grid [][]int64) string {
	var parts []string
	for i, v := range vars {
		var xs []string
		for _, x := range grid[i] {
			xs = append(xs, fmt.Sprint(x))
		}
		parts = append(parts, fmt.Sprintf("%s ∈ {%s}", v, strings.Join(xs, ", ")))
	}
	return strings.Join(parts, ", ")
}

func pointString(vars []string, p []int64) string {
	var parts []string
	for i, v := range vars {
		parts = append(parts, fmt.Sprintf("%s = %d", v, p[i]))
	}
	return strings.Join(parts, ", ")
}

func checkedString(vars []string, checked [][]int64) string {
	if len(checked) == 0 {
		return "checked at no point off the grid (give --check to check one)"
	}
	var parts []string
	for _, p := range checked {
		parts = append(parts, pointString(vars, p))
	}
	return "checked at " + strings.Join(parts, "; ")
}

// andList writes "B", "B and T", "B, S and T".
func andList(xs []string) string {
	switch len(xs) {
	case 0:
		return "no dimensions"
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

type polyJSON struct {
	Poly string `json:"poly"`
}

type candidateJSON struct {
	Poly  string `json:"poly"`
	Op    int    `json:"op"`
	Label string `json:"label"`
	Path  string `json:"path"`
}

type undecidedJSON struct {
	A candidateJSON `json:"a"`
	B candidateJSON `json:"b"`
}

type symbolicJSON struct {
	Entry       string             `json:"entry"`
	Realization string             `json:"realization"`
	Dims        []string           `json:"dims"`
	Grid        map[string][]int64 `json:"grid"`
	Checked     []map[string]int64 `json:"checked"`
	Operations  int                `json:"operations"`
	Params      polyJSON           `json:"params"`
	Inputs      polyJSON           `json:"inputs"`
	Outputs     polyJSON           `json:"outputs"`
	Peak        []candidateJSON    `json:"peak"`
	Undecided   []undecidedJSON    `json:"undecided"`
	Candidates  int                `json:"candidates"`
}

func (m *model) candidateJSON(i int) candidateJSON {
	c := m.cands[i]
	o := &m.Structure.Ops[c.Op-1]
	return candidateJSON{Poly: c.Poly.ASCII(), Op: c.Op, Label: o.Label, Path: o.Path}
}

func writeSymbolicJSON(w io.Writer, m *model) error {
	out := symbolicJSON{
		Entry:       m.Structure.Header.Entry,
		Realization: m.Structure.Header.Realization,
		Dims:        m.Vars,
		Grid:        map[string][]int64{},
		Checked:     []map[string]int64{},
		Operations:  len(m.Structure.Ops),
		Params:      polyJSON{m.Params.ASCII()},
		Inputs:      polyJSON{m.Inputs.ASCII()},
		Outputs:     polyJSON{m.Outputs.ASCII()},
		Peak:        []candidateJSON{},
		Undecided:   []undecidedJSON{},
		Candidates:  len(m.cands),
	}
	for i, v := range m.Vars {
		out.Grid[v] = m.Grid[i]
	}
	for _, p := range m.Checked {
		pt := map[string]int64{}
		for i, v := range m.Vars {
			pt[v] = p[i]
		}
		out.Checked = append(out.Checked, pt)
	}
	for _, i := range m.front.Kept {
		out.Peak = append(out.Peak, m.candidateJSON(i))
	}
	for _, pr := range m.front.Undecided {
		out.Undecided = append(out.Undecided, undecidedJSON{m.candidateJSON(pr[0]), m.candidateJSON(pr[1])})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
