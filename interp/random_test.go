package interp

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"memsym/count"
	"memsym/dominance"
	"memsym/poly"
	"memsym/record"
)

var long = flag.Bool("long", false, "check more and larger random programs")

// valueRange says where a random program's dimensions take their values:
// the grid's, the check points' and the peak's points, all in [lo, hi].
type valueRange struct{ lo, hi int64 }

var (
	smallValues = valueRange{1, 24}
	hugeValues  = valueRange{1_000_000_000 - 50, 1_000_000_000}
)

// TestRandomPrograms builds the model of random programs, recorded on a
// random grid, and compares every polynomial with the truth the generator
// built from the axes; then the peak of the pruned candidates with
// count.At's at random points off the grid.
func TestRandomPrograms(t *testing.T) {
	n, o := 1000, smallPrograms
	if *long {
		n, o = 5000, genOptions{maxDims: 4, maxOps: 80, coef: 5, konst: 9}
	}
	failed := 0
	for seed := range uint64(n) {
		if err := checkRandomProgram(seed, o, smallValues); err != nil {
			t.Errorf("seed %d: %v", seed, err)
			if failed++; failed == 5 {
				t.Fatal("stopping after 5 failures")
			}
		}
	}
}

// TestRandomProgramsSplit checks random programs with their candidates
// found in two halves at once, as a long program's are.
func TestRandomProgramsSplit(t *testing.T) {
	defer func(n int) { splitSweep = n }(splitSweep)
	splitSweep = 2
	for seed := range uint64(300) {
		if err := checkRandomProgram(seed, smallPrograms, smallValues); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// TestRandomProgramsCollide checks random programs with every live sum's
// hash the same, so that the candidates are told apart by their keys alone;
// the second half as long programs are.
func TestRandomProgramsCollide(t *testing.T) {
	defer func(f func(int) uint64) { hashFactor = f }(hashFactor)
	hashFactor = func(int) uint64 { return 0 }
	defer func(n int) { splitSweep = n }(splitSweep)
	for seed := range uint64(200) {
		splitSweep = 1 << 16
		if seed%2 == 1 {
			splitSweep = 2
		}
		if err := checkRandomProgram(seed, smallPrograms, smallValues); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	for seed := range uint64(10) {
		o := genOptions{maxDims: 3, maxOps: 20, coef: 1000, konst: 1_000_000_000_000}
		if err := checkRandomProgram(seed, o, hugeValues); err != nil {
			t.Fatalf("huge, seed %d: %v", seed, err)
		}
	}
}

// TestRandomProgramsHuge uses dimensions near 10^9, so that shapes' bytes
// exceed 2^63 and every number goes through math/big.
func TestRandomProgramsHuge(t *testing.T) {
	n := 30
	if *long {
		n = 500
	}
	o := genOptions{maxDims: 3, maxOps: 20, coef: 1000, konst: 1_000_000_000_000}
	for seed := range uint64(n) {
		vr := hugeValues // near 10^9: every value large
		if seed%2 == 1 {
			vr = valueRange{1, 1_000_000_000} // 1 to 10^9: values far apart
		}
		if err := checkRandomProgram(seed, o, vr); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// TestRandomProgramsHugeBytes makes sure the huge case does what it says:
// some buffer's bytes beyond 2^63 and the model exact there.
func TestRandomProgramsHugeBytes(t *testing.T) {
	vars := []string{"B", "T"}
	f := linForm{k: 7, c: []int64{3, 1}} // 3·B + T + 7
	p := &randProgram{vars: vars, nops: 1,
		bufs: []randBuffer{
			{role: record.Input, dtype: record.MustDType("i4"), axes: []linForm{{c: []int64{1, 0}}, {c: []int64{0, 1}}}},
			{role: record.Temp, base: 1, dtype: record.Bits(3), axes: []linForm{f, f, {k: 1_000_000_007}}},
		},
		events: []randEvent{{buf: 0}, {buf: 1}, {buf: -1, label: "big", launch: true, reads: []int{0}, writes: []int{1}}},
		result: []int{1},
	}
	x := []int64{999_999_999, 1_000_000_000}
	rec, err := p.record(x)
	if err != nil {
		t.Fatal(err)
	}
	got := count.At(rec).Peak
	if _, _, small := got.Small(); small {
		t.Fatalf("peak %s fits in int64: the case is not huge", got)
	}
	// 3 bits × (3·B + T + 7)² × (10^9 + 7) / 8, by hand.
	want := poly.Int(3*999_999_999 + 1_000_000_000 + 7)
	want = want.Mul(want).Mul(poly.Int(1_000_000_007)).Mul(poly.Frac(3, 8))
	if !got.Equal(want) {
		t.Fatalf("peak %s, want %s", got, want)
	}
	if err := checkProgram(p, rand.New(rand.NewPCG(1, 2)), hugeValues); err != nil {
		t.Fatal(err)
	}
}

// FuzzRandomProgram checks the program generated from each seed, larger
// than the default test's.
func FuzzRandomProgram(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, seed uint64, huge bool) {
		o, vr := genOptions{maxDims: 4, maxOps: 60, coef: 5, konst: 9}, smallValues
		if huge {
			o, vr = genOptions{maxDims: 3, maxOps: 30, coef: 1000, konst: 1 << 40}, hugeValues
		}
		if err := checkRandomProgram(seed, o, vr); err != nil {
			t.Fatal(err)
		}
	})
}

// checkRandomProgram generates the program of seed and checks it.
func checkRandomProgram(seed uint64, o genOptions, vr valueRange) error {
	p := generate(seed, o)
	return checkProgram(p, rand.New(rand.NewPCG(seed, 77)), vr)
}

// checkProgram records p on a random grid with one or two check points,
// builds its model and compares it with the truth: every buffer's bytes,
// the parameters, inputs and outputs, the lives, the live bytes at every
// operation; then, at five random points off the grid, the largest of
// dominance.Prune's kept candidates with count.At's peak.
func checkProgram(p *randProgram, r *rand.Rand, vr valueRange) error {
	k := len(p.vars)
	grid := make([][]int64, k)
	for j := range grid {
		grid[j] = distinctValues(r, vr, 3, nil)
	}
	var sources []Source
	var first *record.Recording // the program at the first grid point, shown on failure
	dump := func() string {
		var b strings.Builder
		first.WriteTo(&b)
		return b.String()
	}
	point := make([]int64, k)
	var walk func(j int) error
	walk = func(j int) error {
		if j == k {
			rec, err := p.record(point)
			if err != nil {
				return fmt.Errorf("recording at %v: %w", point, err)
			}
			if first == nil {
				first = rec
			}
			sources = append(sources, memSource(rec))
			return nil
		}
		for _, v := range grid[j] {
			point[j] = v
			if err := walk(j + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0); err != nil {
		return err
	}
	offGrid := func() ([]int64, *record.Recording, error) {
		x := make([]int64, k)
		for j := range x {
			x[j] = distinctValues(r, vr, 1, grid[j])[0]
		}
		rec, err := p.record(x)
		return x, rec, err
	}
	var checks []Source
	for range 1 + r.IntN(2) {
		_, rec, err := offGrid()
		if err != nil {
			return err
		}
		checks = append(checks, memSource(rec))
	}
	m, err := Build(sources, checks)
	if err != nil {
		return fmt.Errorf("Build: %w\nthe program at the first grid point:\n%s", err, dump())
	}
	if err := compareModel(p, m); err != nil {
		return fmt.Errorf("%w\nthe program at the first grid point:\n%s", err, dump())
	}
	cands := make([]dominance.Candidate, len(m.Candidates))
	for i, c := range m.Candidates {
		cands[i] = dominance.Candidate{Poly: c.Poly, Op: c.Op}
	}
	front := dominance.Prune(cands)
	for range 5 {
		x, rec, err := offGrid()
		if err != nil {
			return err
		}
		if err := comparePeak(m, front, x, rec); err != nil {
			return fmt.Errorf("%w\nthe program at the first grid point:\n%s", err, dump())
		}
		if err := m.Check(memSource(rec)); err != nil {
			return fmt.Errorf("Check at %v: %w", x, err)
		}
	}
	return nil
}

// memSource serves a recording from memory, named by its point.
func memSource(rec *record.Recording) Source {
	return Source{Name: record.Point(rec.Header.Dims).String(), Open: func() (record.Stream, error) { return rec.Replay(), nil }}
}

// distinctValues returns n distinct values of vr that are not in avoid;
// small values come often, 1 among them.
func distinctValues(r *rand.Rand, vr valueRange, n int, avoid []int64) []int64 {
	var out []int64
	for len(out) < n {
		v := vr.lo + r.Int64N(vr.hi-vr.lo+1)
		if r.IntN(4) == 0 {
			v = vr.lo + r.Int64N(4)
		}
		if !slices.Contains(out, v) && !slices.Contains(avoid, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// compareModel compares the model with the program's truth.
func compareModel(p *randProgram, m *Model) error {
	if !slices.Equal(m.Vars, p.vars) {
		return fmt.Errorf("variables %v, want %v", m.Vars, p.vars)
	}
	if m.Structure.Buffers.Len() != len(p.bufs) {
		return fmt.Errorf("%d buffers' bytes, want %d", m.Structure.Buffers.Len(), len(p.bufs))
	}
	zero := poly.New(p.vars, nil)
	params, inputs, outputs := zero, zero, zero
	for i := range p.bufs {
		want := p.truth(i)
		if !m.Bytes(i).Equal(want) {
			return fmt.Errorf("buffer %d (position %d): bytes %s, want %s", i+1, i, m.Bytes(i), want)
		}
		if b := &p.bufs[i]; !b.view && b.role.Held() {
			inputs = inputs.Add(want)
			if b.role == record.Param {
				params = params.Add(want)
			}
		}
	}
	var seen []int
	for _, i := range p.result {
		if b := p.bufs[i].base; !slices.Contains(seen, b) {
			seen = append(seen, b)
			outputs = outputs.Add(p.truth(b))
		}
	}
	for _, c := range []struct {
		what      string
		got, want poly.Poly
	}{{"parameters", m.Params, params}, {"inputs", m.Inputs, inputs}, {"outputs", m.Outputs, outputs}} {
		if !c.got.Equal(c.want) {
			return fmt.Errorf("%s %s, want %s", c.what, c.got, c.want)
		}
	}
	lives := p.lives()
	if !slices.Equal(m.Lives, lives) {
		return fmt.Errorf("lives %v, want %v", m.Lives, lives)
	}
	if len(m.LiveAt) != p.nops {
		return fmt.Errorf("%d operations' live bytes, want %d", len(m.LiveAt), p.nops)
	}
	firstOp := map[string]int{} // a live-bytes polynomial's ASCII → its first operation
	for op := 1; op <= p.nops; op++ {
		want := zero
		for i, l := range lives {
			if l.Live(op) {
				want = want.Add(p.truth(i))
			}
		}
		if got := m.Live(op); !got.Equal(want) {
			return fmt.Errorf("operation %d: live bytes %s, want %s", op, got, want)
		}
		if _, ok := firstOp[want.ASCII()]; !ok {
			firstOp[want.ASCII()] = op
		}
	}
	if len(m.Candidates) != len(firstOp) {
		return fmt.Errorf("%d candidates, want %d distinct live sets", len(m.Candidates), len(firstOp))
	}
	for i, c := range m.Candidates {
		if want := firstOp[c.Poly.ASCII()]; c.Op != want {
			return fmt.Errorf("candidate %d (%s) at operation %d, want its first, %d", i, c.Poly, c.Op, want)
		}
		if i > 0 && c.Op <= m.Candidates[i-1].Op {
			return fmt.Errorf("candidates out of order: operation %d after %d", c.Op, m.Candidates[i-1].Op)
		}
	}
	return nil
}

// comparePeak compares the model at the point x with count.At of the
// recording there: the largest of the kept candidates with the peak, and
// the totals and every operation's live bytes with Count's.
func comparePeak(m *Model, front *dominance.Frontier, x []int64, rec *record.Recording) error {
	c := count.At(rec)
	at := make(map[string]int64, len(x))
	for j, v := range m.Vars {
		at[v] = x[j]
	}
	eval := func(p poly.Poly) poly.Rat {
		v, err := p.EvalInt(at)
		if err != nil {
			panic(err) // the model's own variables: a broken test
		}
		return v
	}
	var peak poly.Rat
	var holders []string
	for _, i := range front.Kept {
		v := eval(m.Candidates[i].Poly)
		if v.Cmp(peak) > 0 {
			peak = v
		}
		holders = append(holders, fmt.Sprintf("%s = %s", m.Candidates[i].Poly, v))
	}
	where := record.Point(rec.Header.Dims).String()
	if !peak.Equal(c.Peak) {
		return fmt.Errorf("at %s: the largest kept candidate is %s (%s), but count.At's peak is %s at operation %d",
			where, peak, strings.Join(holders, "; "), c.Peak, c.PeakOp)
	}
	for _, t := range []struct {
		what      string
		got, want poly.Rat
	}{{"parameters", eval(m.Params), c.Params}, {"inputs", eval(m.Inputs), c.Inputs}, {"outputs", eval(m.Outputs), c.Outputs}} {
		if !t.got.Equal(t.want) {
			return fmt.Errorf("at %s: %s %s, count.At %s", where, t.what, t.got, t.want)
		}
	}
	for op := 1; op <= len(c.Live); op++ {
		if got := eval(m.Live(op)); !got.Equal(c.Live[op-1]) {
			return fmt.Errorf("at %s: live bytes at operation %d are %s, count.At %s", where, op, got, c.Live[op-1])
		}
	}
	return nil
}
