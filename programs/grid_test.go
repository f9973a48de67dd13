package programs_test

import (
	"fmt"
	"slices"
	"testing"

	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// gridPoint is one point of a program's default grid (or its check point),
// and the recording there.
type gridPoint struct {
	dims map[string]int64
	rec  *record.Recording
}

// recordGrid records p at every point of its default grid, first dimension
// slowest, and at its check point.
func recordGrid(t *testing.T, p *programs.Program) (grid []gridPoint, check gridPoint) {
	t.Helper()
	k := len(p.Dims)
	for j := range pow3(k) {
		dims := map[string]int64{}
		rest := j
		for d := k - 1; d >= 0; d-- {
			dims[p.Dims[d].Name] = p.Dims[d].Grid[rest%3]
			rest /= 3
		}
		grid = append(grid, gridPoint{dims, record1(t, p, dims)})
	}
	dims := map[string]int64{}
	for _, d := range p.Dims {
		dims[d.Name] = d.Check
	}
	return grid, gridPoint{dims, record1(t, p, dims)}
}

func record1(t *testing.T, p *programs.Program, dims map[string]int64) *record.Recording {
	t.Helper()
	rec, err := p.Record(dims, nil)
	if err != nil {
		t.Fatalf("at %v: %v", dims, err)
	}
	return rec
}

// interpolate returns the value at the check point of the polynomial of
// degree at most 2 in each dimension that takes the values f(j) on the grid
// points j (in recordGrid's order): a tensor product of Lagrange bases.
func interpolate(p *programs.Program, f func(j int) poly.Rat) poly.Rat {
	k := len(p.Dims)
	var sum poly.Rat
	for j := range pow3(k) {
		w := poly.Int(1)
		rest := j
		for d := k - 1; d >= 0; d-- {
			w = w.Mul(lagrange(p.Dims[d].Grid, rest%3, p.Dims[d].Check))
			rest /= 3
		}
		sum = sum.Add(w.Mul(f(j)))
	}
	return sum
}

func pow3(k int) int {
	n := 1
	for range k {
		n *= 3
	}
	return n
}

// lagrange returns the i-th Lagrange basis polynomial of the grid g at x.
func lagrange(g [3]int64, i int, x int64) poly.Rat {
	w := poly.Int(1)
	for j := range 3 {
		if j != i {
			w = w.Mul(poly.Frac(x-g[j], g[i]-g[j]))
		}
	}
	return w
}

// structureDiff returns the first difference between a and b other than the
// dimensions' values and the sizes, or "" when they have the same structure.
func structureDiff(a, b *record.Recording) string {
	ha, hb := a.Header, b.Header
	if ha.Entry != hb.Entry || ha.Realization != hb.Realization || fmt.Sprint(ha.Consts) != fmt.Sprint(hb.Consts) || len(ha.Dims) != len(hb.Dims) {
		return "headers differ"
	}
	if a.Buffers.Len() != b.Buffers.Len() {
		return fmt.Sprintf("%d buffers against %d", a.Buffers.Len(), b.Buffers.Len())
	}
	for i := range a.Buffers.Len() {
		x, y := a.Buffers.At(i), b.Buffers.At(i)
		if x.ID != y.ID || x.IsView != y.IsView || x.Of != y.Of || x.DType != y.DType || len(x.Shape) != len(y.Shape) ||
			x.Role != y.Role || x.Name != y.Name || x.Group != y.Group {
			return fmt.Sprintf("buffer %d: %+v against %+v", i, x, y)
		}
	}
	if a.Ops.Len() != b.Ops.Len() {
		return fmt.Sprintf("%d operations against %d", a.Ops.Len(), b.Ops.Len())
	}
	for i := range a.Ops.Len() {
		x, y := a.Ops.At(i), b.Ops.At(i)
		if x.Label != y.Label || x.Path != y.Path || x.Launch != y.Launch || !slices.Equal(x.Reads, y.Reads) || !slices.Equal(x.Writes, y.Writes) {
			return fmt.Sprintf("operation %d: %+v against %+v", i+1, x, y)
		}
	}
	if !slices.Equal(a.Result, b.Result) {
		return "results differ"
	}
	return ""
}

// TestGridConsistent records every program at its 3^k grid points and its
// check point. For a program memsym models, the operations are the same at
// every point, and every buffer's bytes, the inputs, the outputs and the
// live bytes at every operation at the check point are what the grid's
// interpolation predicts. For a program it must refuse, one of the two
// fails, as its Refusal says.
func TestGridConsistent(t *testing.T) {
	for _, p := range programs.All() {
		t.Run(p.Name, func(t *testing.T) {
			grid, check := recordGrid(t, p)
			if slices.ContainsFunc(p.Dims, func(d programs.Dim) bool { return d.Blocks }) {
				// Its operations change along the grid, one block repeated:
				// interp aligns them (interp/fold_test.go checks the model).
				return
			}
			diff := ""
			for _, g := range append(grid[1:], check) {
				if diff = structureDiff(grid[0].rec, g.rec); diff != "" {
					diff = fmt.Sprintf("at %v: %s", g.dims, diff)
					break
				}
			}
			mismatch := ""
			if diff == "" {
				mismatch = checkPredictions(p, grid, check)
			}
			switch {
			case p.Refusal == "" && diff != "":
				t.Fatalf("the operations differ across the grid, %s", diff)
			case p.Refusal == "" && mismatch != "":
				t.Fatal(mismatch)
			case p.Refusal != "" && diff == "" && mismatch == "":
				t.Fatalf("refused (%s), yet its grid predicts its check point", p.Refusal)
			}
		})
	}
}

// checkPredictions returns the first quantity whose value at the check
// point is not the grid's interpolation, or "".
func checkPredictions(p *programs.Program, grid []gridPoint, check gridPoint) string {
	for i, b := range check.rec.Buffers.All() {
		if b.IsView {
			continue
		}
		want := interpolate(p, func(j int) poly.Rat { return grid[j].rec.Buffers.Bytes(i) })
		if !want.Equal(b.Bytes) {
			return fmt.Sprintf("buffer %d (%s in %q) has %s bytes at %v, the grid predicts %s", b.ID, b.Name, b.Group, b.Bytes, check.dims, want)
		}
	}
	tallies := make([]tally, len(grid))
	for j, g := range grid {
		tallies[j] = tallyOf(g.rec)
	}
	got := tallyOf(check.rec)
	for _, q := range []struct {
		what string
		got  poly.Rat
		of   func(t tally) poly.Rat
	}{
		{"inputs", got.inputs, func(t tally) poly.Rat { return t.inputs }},
		{"outputs", got.outputs, func(t tally) poly.Rat { return t.outputs }},
	} {
		if want := interpolate(p, func(j int) poly.Rat { return q.of(tallies[j]) }); !want.Equal(q.got) {
			return fmt.Sprintf("%s: %s at the check point, the grid predicts %s", q.what, q.got, want)
		}
	}
	for op := range got.live {
		if want := interpolate(p, func(j int) poly.Rat { return tallies[j].live[op] }); !want.Equal(got.live[op]) {
			return fmt.Sprintf("operation %d: %s live at the check point, the grid predicts %s", op+1, got.live[op], want)
		}
	}
	return ""
}

// TestRefusalsHold checks that layers-as-dim's operations change across
// the grid (its L counts blocks, which interp aligns), and that the refused
// strided-conv fails for the reason given: its operations are the same,
// but its convolution's output is mispredicted at N = 15.
func TestRefusalsHold(t *testing.T) {
	p := lookup(t, "layers-as-dim")
	grid, _ := recordGrid(t, p)
	if grid[0].rec.Ops.Len() == grid[1].rec.Ops.Len() {
		t.Errorf("layers-as-dim: %d operations at L = 1 and at L = 2", grid[0].rec.Ops.Len())
	}

	p = lookup(t, "strided-conv")
	grid, check := recordGrid(t, p)
	for _, g := range grid[1:] {
		if d := structureDiff(grid[0].rec, g.rec); d != "" {
			t.Fatalf("strided-conv: the operations differ: %s", d)
		}
	}
	got := checkPredictions(p, grid, check)
	want := `buffer 4 (conv in "conv") has 2240 bytes at map[B:5 N:15], the grid predicts 2080`
	if got != want {
		t.Errorf("strided-conv: %q, want %q", got, want)
	}
}
