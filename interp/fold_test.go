package interp

import (
	"fmt"
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// deepMLP records L layers of a linear layer and a ReLU on x [B, 8], as
// the bundled layers-as-dim does; extra, when set, adds an operation to
// the layers it is true of.
func deepMLP(extra func(layer, layers int64) bool) program {
	return func(r *record.Recorder, at map[string]int64) {
		b, l := at["B"], at["L"]
		const d = 8
		x := r.Input("x", "", f64, b, d)
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", g, f64, d, d)
			z := r.Temp("z", g, f64, b, d)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			y := r.Temp("relu", g, f64, b, d)
			r.Op("Relu.apply", g, []int64{z}, []int64{y})
			if extra != nil && extra(i, l) {
				y2 := r.Temp("again", g, f64, b, d)
				r.Op("Relu.apply", g, []int64{y}, []int64{y2})
				y = y2
			}
			x = y
		}
		r.Result(x)
	}
}

var blGrid = [][3]int64{{1, 2, 3}, {1, 2, 3}}

func TestFoldLayers(t *testing.T) {
	vars := []string{"B", "L"}
	checks := []Source{pointSource(t, vars, []int64{5, 5}, deepMLP(nil)), pointSource(t, vars, []int64{4, 11}, deepMLP(nil))}
	m := mustBuild(t, gridSources(t, vars, blGrid, deepMLP(nil)), checks)
	if m.FoldDim() != "L" {
		t.Fatalf("FoldDim = %q, want L", m.FoldDim())
	}
	if got, want := m.Params.String(), "512 · L"; got != want {
		t.Errorf("params %s, want %s (8 × 8 f64 per layer)", got, want)
	}
	if got, want := m.Inputs.String(), "64 · B + 512 · L"; got != want {
		t.Errorf("inputs %s, want %s", got, want)
	}
	// The peak, the largest candidate, is the recording's at points far
	// off the grid, and the operation numbers map to the recording's.
	for _, p := range [][2]int64{{7, 9}, {2, 1}, {3, 40}} {
		rec := recordAt(t, vars, p[:], deepMLP(nil))
		c := count.At(rec)
		at := map[string]int64{"B": p[0], "L": p[1]}
		top, topOp := poly.Rat{}, 0
		for op := 1; op <= len(m.LiveAt); op++ {
			v := evalAt(t, m.Candidates[m.LiveAt[op-1]].Poly, vars, p[:])
			if v.Cmp(top) > 0 {
				top, topOp = v, op
			}
		}
		if !top.Equal(c.Peak) || m.OpAt(topOp, at) != c.PeakOp {
			t.Errorf("at B = %d, L = %d: model peak %s at operation %d (%d there), recorded %s at %d", p[0], p[1], top, topOp, m.OpAt(topOp, at), c.Peak, c.PeakOp)
		}
		if err := m.Check(pointSource(t, vars, p[:], deepMLP(nil))); err != nil && p[1] > 3 && p[0] > 3 {
			t.Errorf("Check at %v: %v", p, err)
		}
	}
	// A recording that is not the model's program is caught.
	wrong := pointSource(t, vars, []int64{5, 6}, deepMLP(func(layer, _ int64) bool { return layer == 4 }))
	if err := m.Check(wrong); err == nil || !strings.Contains(err.Error(), "does not align") {
		t.Errorf("Check of a recording with an extra operation: %v", err)
	}
}

// TestFoldRefusesUnevenBlocks: when the blocks a dimension counts are not
// one block repeated, memsym names the first operation that does not
// align.
func TestFoldRefusesUnevenBlocks(t *testing.T) {
	vars := []string{"B", "L"}
	for _, c := range []struct {
		extra func(layer, layers int64) bool
		want  string
	}{
		{func(layer, _ int64) bool { return layer == 1 }, `B = 1, L = 2:14: operation 5 ("Relu.apply" in layers[1]) does not align: iteration 1 of layers holds more operations than the first, 2`},
		{func(_, layers int64) bool { return layers == 3 }, `B = 1, L = 3:9: operation 3 ("Relu.apply" in layers[0]) does not align: the recording at B = 1, L = 2 has no operation there`},
	} {
		_, err := Build(gridSources(t, vars, blGrid, deepMLP(c.extra)), nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got  %v\nwant %s...", err, c.want)
		}
	}
}

// TestFoldCourseGPT: the course GPT with its layer count L as a dimension
// is refused, saying why: its last block is the last to read the causal
// mask and frees it, so the last block's live bytes are not those of the
// blocks before, and at L = 1 the one block is both the first and the
// last, which no maximum of polynomials in L states exactly.
func TestFoldCourseGPT(t *testing.T) {
	gpt, err := programs.Lookup("gpt-course")
	if err != nil {
		t.Fatal(err)
	}
	at := func(b, tt, l int64) *record.Recording {
		rec, err := gpt.Record(map[string]int64{"B": b, "T": tt}, map[string]int64{"D": 16, "H": 2, "L": l})
		if err != nil {
			t.Fatal(err)
		}
		// L from the constants to the dimensions.
		rec.Header.Dims = append(rec.Header.Dims, record.Dim{Name: "L", Value: l})
		var consts []record.Const
		for _, c := range rec.Header.Consts {
			if c.Name != "L" {
				consts = append(consts, c)
			}
		}
		rec.Header.Consts = consts
		return rec
	}
	var grid []Source
	for _, b := range []int64{1, 2, 3} {
		for _, tt := range []int64{4, 8, 12} {
			for _, l := range []int64{1, 2, 3} {
				grid = append(grid, source(fmt.Sprintf("B = %d, T = %d, L = %d", b, tt, l), at(b, tt, l)))
			}
		}
	}
	_, err = Build(grid, nil)
	want := `operation "SelfAttention.apply/%21" in blocks[*].attn: its live bytes step by −8 · T² from one of blocks's iterations to the next after the first`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got  %v\nwant %s...", err, want)
	}
}
