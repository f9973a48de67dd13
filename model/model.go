// Package model is memsym's memory model of a program: the polynomials
// interp derives from its recordings, the peak's candidates dominance
// prunes, and the questions asked of them (where each candidate holds the
// peak, whether fresh recordings agree). The CLI, the chapter and the page
// all work from it.
package model

import (
	"context"
	"fmt"

	"memsym/dominance"
	"memsym/interp"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// Model is a program's memory as exact polynomials in its dimensions, with
// the peak's candidates pruned.
type Model struct {
	*interp.Model
	// Source names where the recordings came from.
	Source string
	// Cands are all the distinct live-bytes polynomials, with the first
	// operation of each, in the order of interp's Candidates.
	Cands []dominance.Candidate
	// Front says which candidates are kept for the peak and why.
	Front *dominance.Frontier
}

// Build records (or reads) the grid and check points spec asks of src,
// interpolates every buffer's bytes and prunes the peak's candidates.
func Build(ctx context.Context, src source.Source, spec source.Spec) (*Model, error) {
	recs, err := src.Recordings(ctx, spec)
	if err != nil {
		return nil, err
	}
	im, err := interp.Build(recs.Grid, recs.Checks)
	if err != nil {
		return nil, err
	}
	return FromInterp(im, src.Name()), nil
}

// FromInterp prunes the candidates of an interpolated model.
func FromInterp(im *interp.Model, name string) *Model {
	cands := make([]dominance.Candidate, len(im.Candidates))
	for i, c := range im.Candidates {
		cands[i] = dominance.Candidate{Poly: c.Poly, Op: c.Op}
	}
	m := &Model{Model: im, Source: name, Cands: cands}
	m.Front = m.prune(cands)
	return m
}

// Kept returns the kept candidates: those no other is proven to dominate,
// the peak being the largest of them at every point.
func (m *Model) Kept() []dominance.Candidate {
	out := make([]dominance.Candidate, len(m.Front.Kept))
	for i, k := range m.Front.Kept {
		out[i] = m.Cands[k]
	}
	return out
}

// Op returns operation op (numbered from 1) of the recordings.
func (m *Model) Op(op int) *record.Op { return &m.Structure.Ops[op-1] }

// Header returns the recordings' header (its dimensions' values are the
// first grid point's).
func (m *Model) Header() *record.Header { return &m.Structure.Header }

// GridValues returns each dimension's three grid values.
func (m *Model) GridValues() [][3]int64 {
	out := make([][3]int64, len(m.Grid))
	for i, g := range m.Grid {
		copy(out[i][:], g)
	}
	return out
}

// CheckPoints returns the points off the grid the model was checked at.
func (m *Model) CheckPoints() []record.Point {
	var out []record.Point
	for _, c := range m.Checked {
		out = append(out, m.Point(c))
	}
	return out
}

// Point names values aligned with the model's dimensions.
func (m *Model) Point(values []int64) record.Point {
	p := make(record.Point, len(m.Vars))
	for i, v := range m.Vars {
		p[i] = record.Dim{Name: v, Value: values[i]}
	}
	return p
}

// Peak returns the peak's bytes at p and the first operation that reaches
// it, from the polynomials: the largest of the kept candidates, and the
// first operation whose live bytes equal it.
func (m *Model) Peak(p record.Point) (poly.Rat, int, error) {
	if err := m.InDomain(p); err != nil {
		return poly.Rat{}, 0, err
	}
	at := p.Map()
	var top poly.Rat
	for _, c := range m.Kept() {
		v, err := c.Poly.EvalInt(at)
		if err != nil {
			return poly.Rat{}, 0, err
		}
		if v.Cmp(top) > 0 {
			top = v
		}
	}
	values := make(map[int32]poly.Rat)
	for op := 1; op <= len(m.LiveAt); op++ {
		c := m.LiveAt[op-1]
		v, ok := values[c]
		if !ok {
			var err error
			if v, err = m.Candidates[c].Poly.EvalInt(at); err != nil {
				return poly.Rat{}, 0, err
			}
			values[c] = v
		}
		if v.Equal(top) {
			return top, op, nil
		}
	}
	if top.IsZero() {
		return top, 0, nil
	}
	return poly.Rat{}, 0, fmt.Errorf("no operation's live bytes reach the largest kept candidate's %s bytes at %s", top, p)
}

// Where names an operation: "operation 19 (`Linear.apply/%5` in
// blocks[0].ff.up)".
func (m *Model) Where(op int) string {
	o := m.Op(op)
	if o.Path == "" {
		return fmt.Sprintf("operation %d (`%s`)", op, o.Label)
	}
	return fmt.Sprintf("operation %d (`%s` in %s)", op, o.Label, o.Path)
}
