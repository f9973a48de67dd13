// Package model is memsym's memory model of a program: the polynomials
// interp derives from its recordings, the peak's candidates dominance
// prunes, and the questions asked of them (where each candidate holds the
// peak, whether fresh recordings agree). The CLI, the chapter and the page
// all work from it.
package model

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

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

// A buffer's bytes are never negative, but the polynomial the grid gives
// them may be, away from the grid: a program defined only from some size
// on (a convolution's output N − K + 1 for N ≥ K) has bytes that are
// negative below it, and bytes recorded falling on the grid (20 − T) go
// negative past it. Where some buffer's bytes are negative, the
// polynomials are not the program's: Eval refuses such a point, and
// NegativeBytes finds one for symbolic to say.

// hasNegative reports whether some coefficient of p is negative; a
// polynomial without one is not negative where every dimension is ≥ 1.
func hasNegative(p poly.Poly) bool {
	for i := 0; i < p.Len(); i++ {
		if c, _ := p.Term(i); c.Sign() < 0 {
			return true
		}
	}
	return false
}

// NegativeError is Eval's refusal of a point where some buffer's bytes are
// negative.
type NegativeError struct{ msg string }

func (e *NegativeError) Error() string { return e.msg }

// negativeAt returns an error naming the first buffer whose bytes are
// negative at p, or nil.
func (m *Model) negativeAt(p record.Point) error {
	at := p.Map()
	var err error
	m.DistinctBytes(func(q poly.Poly, pos int) bool {
		if !hasNegative(q) {
			return true
		}
		if v, e := q.EvalInt(at); e == nil && v.Sign() < 0 {
			err = &NegativeError{fmt.Sprintf("at %s, %s has bytes %s, which is −%s there: a buffer's bytes are never negative, so the polynomials are not the program's at this point (it is below the sizes the program has, or the grid does not show how its sizes behave here)",
				p, m.bufferWhat(pos), q, v.Neg())}
			return false
		}
		return true
	})
	return err
}

// NegativeBytes says where some buffer's bytes are negative in the
// domain, as "buffer 4 "conv", made by operation 1 (...), has bytes
// 64 · B · N − 128 · B, which is −64 at B = 1, N = 1"; "" when every
// buffer's bytes are proven not negative there, or are not refuted so.
func (m *Model) NegativeBytes() string {
	n := m.negative()
	if n == nil {
		return ""
	}
	return fmt.Sprintf("%s has bytes %s, which is −%s at %s", m.bufferWhat(n.Pos), n.Bytes, n.There.Neg(), n.At)
}

// NegativeBuffer is a buffer whose bytes are negative at a point of the
// domain: its position Pos in the structure's buffers, its bytes, the
// point At and its bytes There.
type NegativeBuffer struct {
	Pos   int
	Bytes poly.Poly
	At    record.Point
	There poly.Rat
}

// Negative returns the first buffer, in the order of DistinctBytes, whose
// bytes are refuted to be at least zero in the domain, with the witness;
// nil when there is none. NegativeBytes says it in words.
func (m *Model) Negative() *NegativeBuffer { return m.negative() }

// negative finds the first buffer, in the order of DistinctBytes, whose
// bytes are refuted to be at least zero in the domain, with the witness;
// nil when there is none.
func (m *Model) negative() *NegativeBuffer {
	zero := poly.New(m.Vars, nil)
	var out *NegativeBuffer
	m.DistinctBytes(func(q poly.Poly, pos int) bool {
		if !hasNegative(q) {
			return true
		}
		a := m.dominates(q, zero)
		if a.Verdict != dominance.Refuted {
			return true
		}
		v, _ := q.EvalInt(a.Witness)
		out = &NegativeBuffer{Pos: pos, Bytes: q, At: pointOf(a.Witness), There: v}
		return false
	})
	return out
}

// bufferWhat names the buffer at position pos and says where it comes
// from: `buffer 1 "x", made by operation 1 (`F.apply`)`.
func (m *Model) bufferWhat(pos int) string {
	b := m.Structure.Buffers.At(pos)
	name := ""
	if b.Name != "" {
		name = fmt.Sprintf(" %q", b.Name)
	}
	made := "which no operation writes"
	switch {
	case b.Role == record.Param:
		made = "a parameter"
	case b.Role == record.Input:
		made = "an input"
	case b.Role == record.State:
		made = "an optimizer's state"
	case m.Lives[pos].First > 0:
		made = "made by " + m.opWhere(int(m.Lives[pos].First))
	}
	return fmt.Sprintf("buffer %d%s, %s,", b.ID, name, made)
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
func (m *Model) Op(op int) record.Op { return m.Structure.Ops.At(op - 1) }

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

// GridString writes the model's grid: "B ∈ {16, 32, 48}, T ∈ {256, 512,
// 768}".
func (m *Model) GridString() string { return gridText(m.Vars, m.Grid) }

// gridText writes a grid, each dimension's values in braces: "B ∈ {16, 32,
// 48}, T ∈ {256, 512, 768}".
func gridText(vars []string, grid [][]int64) string {
	var parts []string
	for i, v := range vars {
		var xs []string
		for _, x := range grid[i] {
			xs = append(xs, strconv.FormatInt(x, 10))
		}
		parts = append(parts, v+" ∈ {"+strings.Join(xs, ", ")+"}")
	}
	return strings.Join(parts, ", ")
}

// BelowGrid returns the values of p that lie below every value recorded
// along their dimension, on the grid or at a check point, in the model's
// order. The polynomials answer there as anywhere, but nothing was
// recorded there, and a program may run other operations there than on
// the grid: PyTorch does where a size is 1.
func (m *Model) BelowGrid(p record.Point) []record.Dim {
	var out []record.Dim
	for i, v := range m.Vars {
		x, ok := p.Value(v)
		if !ok || x >= m.Recorded(i) {
			continue
		}
		out = append(out, record.Dim{Name: v, Value: x})
	}
	return out
}

// UnrecordedAtOne names the dimensions at 1 that a query speaks of where
// nothing was recorded: those of fixed at 1 below every value recorded
// along them (BelowGrid), and those of ranges the model holds from 1
// whose recorded values start above it. A program may run other
// operations where a size is 1 than on the grid (PyTorch does: a size-1
// axis broadcasts, and views stand for copies), and nothing shows that it
// does not there. A bundled program's operations are the same at every
// size it takes: nil for src one.
func (m *Model) UnrecordedAtOne(src source.Source, fixed record.Point, ranges []string) []string {
	if _, bundled := src.(*source.Program); bundled {
		return nil
	}
	var dims []string
	for _, d := range m.BelowGrid(fixed) {
		if d.Value == 1 {
			dims = append(dims, d.Name)
		}
	}
	for _, v := range ranges {
		if i := slices.Index(m.Vars, v); i >= 0 && m.Least(v) == 1 && m.Recorded(i) > 1 && !slices.Contains(dims, v) {
			dims = append(dims, v)
		}
	}
	return dims
}

// AtOneJSON is UnrecordedAtOne in the JSON of eval, fit and crossover:
// the dimensions at 1 that the answer speaks of where nothing was recorded
// (a program may run other operations where a size is 1); absent when
// there are none, and for a bundled program.
type AtOneJSON struct {
	UnrecordedAtOne []string `json:"unrecorded_at_1,omitempty"`
}

// Recorded returns the least value recorded along dimension i, on the grid
// or at a check point.
func (m *Model) Recorded(i int) int64 {
	least := m.Grid[i][0]
	for _, c := range m.Checked {
		least = min(least, c[i])
	}
	return least
}

// CheckPoints returns the points off the grid the model was checked at.
func (m *Model) CheckPoints() []record.Point {
	var out []record.Point
	for _, c := range m.Checked {
		if p := m.Point(c); !slices.ContainsFunc(out, p.Equal) {
			out = append(out, p) // two recordings at one point check it once
		}
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

// Where names the model's operation op as it is in the recording the
// model's structure is: "operation 19 (`Linear.apply/%5` in
// blocks[0].ff.up)". The number is op's own, unless a dimension counts
// blocks of operations and op stands there for an operation further on
// (StructureOp).
func (m *Model) Where(op int) string { return m.WhereAt(op, nil) }

// StructureOp returns the number, in the recording the model's structure
// is, of the operation the model's operation op stands for there: op
// itself, unless a dimension counts blocks of operations and op is in a
// first middle block that stands for the last (NumberAt at the
// structure's point).
func (m *Model) StructureOp(op int) int { return m.NumberAt(op, nil) }

// OpInStructure returns StructureOp(op) and that operation of the
// structure's recording, whose label and call name the model's op there.
func (m *Model) OpInStructure(op int) (int, record.Op) {
	n := m.StructureOp(op)
	return n, m.Op(n)
}

// NumberAt returns the number of the model's operation op in a recording
// at the point at (interp.Model.OpAt), the structure's values standing for
// the dimensions at does not give.
func (m *Model) NumberAt(op int, at map[string]int64) int { return m.OpAt(op, m.completed(at)) }

// WhereAt names the model's operation op as it is in a recording at the
// point at, the structure's values standing for the dimensions at does not
// give: its number there (NumberAt) and its call there (PathAt).
func (m *Model) WhereAt(op int, at map[string]int64) string {
	full := m.completed(at)
	return where(m.OpAt(op, full), m.Op(op).Label, m.PathAt(op, full))
}

// completed returns the structure's point with at's values in place.
func (m *Model) completed(at map[string]int64) map[string]int64 {
	full := m.Structure.Header.Dims.Map()
	maps.Copy(full, at)
	return full
}

// opWhere names the structure's own operation n.
func (m *Model) opWhere(n int) string {
	o := m.Op(n)
	return where(n, o.Label, o.Path)
}

// where writes "operation 19 (`Linear.apply/%5` in blocks[0].ff.up)",
// the label and the path quoted where they hold what would break a line.
func where(n int, label, path string) string {
	label = record.Show(label)
	if path == "" {
		return fmt.Sprintf("operation %d (%s)", n, label)
	}
	if record.Show(path) != "`"+path+"`" {
		path = strconv.Quote(path)
	}
	return fmt.Sprintf("operation %d (%s in %s)", n, label, path)
}
