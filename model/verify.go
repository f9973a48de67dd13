package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"memsym/count"
	"memsym/doc"
	"memsym/interp"
	"memsym/record"
	"memsym/source"
)

// Check is the outcome of checking the model against a fresh recording at
// one point (statement M3).
type Check struct {
	Point record.Point
	// Err is nil when every buffer's bytes, the inputs, the outputs, the
	// live bytes at every operation and the peak (its bytes and its
	// operation) are the model's; else what differs, or why no recording
	// was made.
	Err error
	// Unrecorded says the recording at Point failed (its recorder, say):
	// nothing was checked there, and Err says why.
	Unrecorded bool
}

// CheckAt records src afresh at p and checks the model there exactly: every
// buffer, the inputs, the outputs, the live bytes at every operation, and
// the peak's bytes and operation.
func (m *Model) CheckAt(ctx context.Context, src source.Source, p record.Point) error {
	rec, err := src.Record(ctx, p)
	if err != nil {
		return err
	}
	return m.CheckRecording(rec, src.Name()+"("+p.Key()+")")
}

// CheckRecording checks the model against rec, a recording at a point off
// the grid, named name in messages.
func (m *Model) CheckRecording(rec *record.Recording, name string) error {
	if err := m.Model.Check(interp.Source{Name: name, Open: func() (record.Stream, error) { return rec.Replay(), nil }}); err != nil {
		return err
	}
	c := count.At(rec)
	peak, op, err := m.Peak(rec.Header.Dims)
	if err != nil {
		return err
	}
	if !peak.Equal(c.Peak) {
		return fmt.Errorf("the largest kept candidate gives %s bytes, the recorded peak is %s", peak, c.Peak)
	}
	if op = m.OpAt(op, rec.Header.Dims.Map()); op != c.PeakOp {
		return fmt.Errorf("the model puts the peak at operation %d, the recording at operation %d", op, c.PeakOp)
	}
	return nil
}

// Verify checks the model at n points off the grid chosen by FreshPoints
// from seed, where src's program runs, recording each afresh.
func (m *Model) Verify(ctx context.Context, src source.Source, n int, seed uint64) []Check {
	return m.CheckEach(ctx, src, m.VerifyPoints(src, n, seed))
}

// VerifyPoints returns the points Verify records src at, in the order it
// records them: a source that records several points at once can record
// them ahead of Verify (source.Prefetcher).
func (m *Model) VerifyPoints(src source.Source, n int, seed uint64) []record.Point {
	points, _ := m.freshPoints(src, n, seed, false)
	return points
}

// CheckEach checks the model at each of points, recording each afresh.
func (m *Model) CheckEach(ctx context.Context, src source.Source, points []record.Point) []Check {
	var out []Check
	for _, p := range points {
		rec, err := src.Record(ctx, p)
		if err != nil {
			out = append(out, Check{Point: p, Err: err, Unrecorded: true})
			continue
		}
		out = append(out, Check{Point: p, Err: m.CheckRecording(rec, src.Name()+"("+p.Key()+")")})
	}
	return out
}

// FreshPoints returns up to n distinct points off the grid in every
// coordinate, deterministically from seed, where src's program runs
// (source.Limit), none of them a point the model was checked at: first
// source.OffGrid's, spread from below the grid to far past it; where those
// are fewer than n, more from a wider search (moreOffGrid), which also goes
// along a dimension where nothing near the grid runs below it down to the
// least value the model holds for (bert-encoder on T ∈ {510, 511, 512}
// runs at no T past the grid, T ≤ P = 512, but at every T below it).
// Where it finds fewer than n, why says what was searched: "it runs at none
// of T = 4 to 192 (T = 4 is more than P = 3)" when it finds none, "no more
// were found searching B = 1 to 192, off the grid in every coordinate,
// where the program runs, and not at the 2 check points already checked"
// when it finds some.
func (m *Model) FreshPoints(src source.Source, n int, seed uint64) (points []record.Point, why string) {
	return m.freshPoints(src, n, seed, true)
}

// freshPoints is FreshPoints, reaching far past the grid where far is
// set, else up to twice its largest value (source.OffGridNear): a chapter
// checks where a recorder that really runs the program runs as on the
// grid, verify far past it.
func (m *Model) freshPoints(src source.Source, n int, seed uint64, far bool) (points []record.Point, why string) {
	runs := func(p record.Point) bool { return source.Limit(src, p) == nil }
	avoid := m.CheckPoints()
	offGrid := source.OffGridNear
	if far {
		offGrid = source.OffGrid
	}
	points = offGrid(m.GridValues(), m.Vars, n, seed, runs, avoid...)
	if len(points) >= n {
		return points, ""
	}
	more, why := m.moreOffGrid(src, n-len(points), seed, append(avoid, points...), far)
	points = append(points, more...)
	if len(points) > 0 && len(points) < n {
		why = m.searched(len(avoid), far)
	}
	return points, why
}

// searched says where freshPoints looked when it found some points but
// fewer than asked for, with checked the number of check points it left
// out.
func (m *Model) searched(checked int, far bool) string {
	var dims []string
	for d, v := range m.Vars {
		g := m.GridValues()[d]
		lo, hi := source.OffGridRanges(g)
		if !far && g[2] <= math.MaxInt64/2 {
			hi = 2 * g[2]
		}
		dims = append(dims, fmt.Sprintf("%s = %d to %d", v, max(lo, m.Least(v)), hi))
	}
	s := "no more were found searching " + strings.Join(dims, ", ") + ", off the grid in every coordinate, where the program runs"
	if checked > 0 {
		s += ", and not at the " + doc.Plural(checked, "check point", "check points") + " already checked"
	}
	return s
}

// The wider search's values along one dimension: a range of at most
// wholeRange values is tried whole, a longer one at its edgeValues values
// nearest each end and randomValues more drawn from it.
const (
	wholeRange   = 256
	edgeValues   = 32
	randomValues = 64
	// sweepPoints: where the combinations of the values that run are at
	// most this many, each is tried, after the random draws.
	sweepPoints = 4096
)

// offValue is a value off the grid along one dimension, and where it lies:
// below the grid (0), between its values (1), above them up to twice the
// largest (3) or further, up to source.FarFactor times it (2), in the
// order source.OffGrid draws from them.
type offValue struct {
	x     int64
	where int
}

// moreOffGrid returns up to n points off the grid in every coordinate where
// src's program runs, none of them one of taken. Along each dimension it
// tries the values off the grid from one grid gap below the grid (as
// source.OffGrid does, never below the model's least value) to
// source.FarFactor times the largest grid value (twice it, without far),
// with the other dimensions
// at their middle grid values; where none of them runs, the values further
// below, down to the model's least value. It then draws points from the
// values that run, below, between, far above and just above the grid in
// turn. When it finds none, why says
// what was searched.
func (m *Model) moreOffGrid(src source.Source, n int, seed uint64, taken []record.Point, far bool) (points []record.Point, why string) {
	rng := rand.New(rand.NewPCG(seed, 0x6d6f7265))
	runs := func(p record.Point) bool { return source.Limit(src, p) == nil }
	values := m.GridValues()
	base := make(record.Point, len(m.Vars))
	for d, v := range m.Vars {
		base[d] = record.Dim{Name: v, Value: values[d][1]}
	}
	good := make([][]offValue, len(m.Vars))
	for d, v := range m.Vars {
		g := values[d]
		least := m.Least(v)
		twice := int64(math.MaxInt64)
		if g[2] <= math.MaxInt64/2 {
			twice = 2 * g[2]
		}
		low, top := source.OffGridRanges(g)
		low = max(least, low)
		if !far {
			top = twice
		}
		var tried []int64
		whole := true
		try := func(lo, hi int64, where int) {
			xs, all := rangeValues(rng, max(lo, least), hi, g)
			whole = whole && all
			for _, x := range xs {
				tried = append(tried, x)
				if runs(base.With(v, x)) {
					good[d] = append(good[d], offValue{x, where})
				}
			}
		}
		try(low, g[0]-1, 0)
		try(g[0]+1, g[2]-1, 1)
		try(g[2]+1, twice, 3)
		if twice < math.MaxInt64 {
			try(twice+1, top, 2)
		}
		if len(good[d]) == 0 {
			try(least, low-1, 0) // further below, where nothing nearer runs
		}
		if len(good[d]) > 0 {
			continue
		}
		if len(tried) == 0 {
			return nil, fmt.Sprintf("%s has no value off the grid from %d to %d", v, least, top)
		}
		slices.Sort(tried)
		return nil, fmt.Sprintf("it runs at none of %s (%v)", valuesString(v, tried, whole), source.Limit(src, base.With(v, tried[0])))
	}
	tries, ranAtTaken := 16*n+64, false
	var firstMiss record.Point
	// consider takes p where the program runs and it is not taken, and
	// notes why not otherwise.
	consider := func(p record.Point) {
		switch {
		case !runs(p):
			if firstMiss == nil {
				firstMiss = p
			}
		case slices.ContainsFunc(taken, p.Equal) || slices.ContainsFunc(points, p.Equal):
			ranAtTaken = true
		default:
			points = append(points, p)
		}
	}
	for i := 0; i < tries && len(points) < n; i++ {
		p := make(record.Point, len(m.Vars))
		for d, v := range m.Vars {
			var pick []offValue
			for _, o := range good[d] {
				if o.where == i%4 {
					pick = append(pick, o)
				}
			}
			if len(pick) == 0 {
				pick = good[d]
			}
			p[d] = record.Dim{Name: v, Value: pick[rng.IntN(len(pick))].x}
		}
		consider(p)
	}
	if len(points) < n {
		// Where the values that run are few, every combination of them,
		// in order: the draws above may miss some.
		combos := 1
		for _, g := range good {
			combos *= len(g)
			if combos > sweepPoints {
				break
			}
		}
		for k := 0; combos <= sweepPoints && k < combos && len(points) < n; k++ {
			p := make(record.Point, len(m.Vars))
			for d, j := len(m.Vars)-1, k; d >= 0; d-- {
				p[d] = record.Dim{Name: m.Vars[d], Value: good[d][j%len(good[d])].x}
				j /= len(good[d])
			}
			consider(p)
		}
	}
	switch {
	case len(points) > 0:
		return points, ""
	case ranAtTaken || firstMiss == nil:
		return nil, fmt.Sprintf("of the %d points tried, those where it runs are points it was checked at already", tries)
	}
	return nil, fmt.Sprintf("it runs at none of the %d points tried that put each dimension at a value off the grid where it runs (%v)", tries, source.Limit(src, firstMiss))
}

// rangeValues returns the values from lo to hi that are none of grid's, in
// order: all of them when they are at most wholeRange (whole is then true),
// else the edgeValues nearest each end and randomValues drawn between.
func rangeValues(rng *rand.Rand, lo, hi int64, grid [3]int64) (xs []int64, whole bool) {
	off := func(x int64) bool { return x != grid[0] && x != grid[1] && x != grid[2] }
	if lo > hi {
		return nil, true
	}
	if uint64(hi-lo) < wholeRange {
		for x := lo; x <= hi; x++ {
			if off(x) {
				xs = append(xs, x)
			}
		}
		return xs, true
	}
	for k := int64(0); k < edgeValues; k++ {
		xs = append(xs, lo+k, hi-k)
	}
	for range randomValues {
		xs = append(xs, lo+edgeValues+rng.Int64N(hi-lo+1-2*edgeValues))
	}
	xs = slices.DeleteFunc(xs, func(x int64) bool { return !off(x) })
	slices.Sort(xs)
	return slices.Compact(xs), false
}

// valuesString writes the values of dimension v tried, ascending: "T = 4
// to 6", "T = 1, 2, 700 to 1024" when every value of their ranges was
// tried, else "the 160 values of T tried from 1 to 2048".
func valuesString(v string, xs []int64, whole bool) string {
	if !whole {
		return fmt.Sprintf("the %d values of %s tried from %d to %d", len(xs), v, xs[0], xs[len(xs)-1])
	}
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			parts = append(parts, fmt.Sprintf("%d to %d", xs[i], xs[j]))
		case j == i+1:
			parts = append(parts, fmt.Sprint(xs[i]), fmt.Sprint(xs[j]))
		default:
			parts = append(parts, fmt.Sprint(xs[i]))
		}
		i = j + 1
	}
	return v + " = " + strings.Join(parts, ", ")
}
