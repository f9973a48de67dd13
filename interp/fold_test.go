package interp

import (
	"fmt"
	"runtime"
	"slices"
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

// TestFoldNamesNumbered: a block's buffers may carry their iteration in
// their names (as PyTorch names a parameter blocks.0.weight): names are
// for display, and blocks differing only in them are one block repeated.
func TestFoldNamesNumbered(t *testing.T) {
	vars := []string{"B", "L"}
	numbered := func(r *record.Recorder, at map[string]int64) {
		b, l := at["B"], at["L"]
		const d = 8
		x := r.Input("x", "", f64, b, d)
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param(fmt.Sprintf("layers.%d.weight", i), g, f64, d, d)
			z := r.Temp(fmt.Sprintf("z%d", i), g, f64, b, d)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			y := r.Temp(fmt.Sprintf("relu%d", i), g, f64, b, d)
			r.Op("Relu.apply", g, []int64{z}, []int64{y})
			x = y
		}
		r.Result(x)
	}
	m := mustBuild(t, gridSources(t, vars, blGrid, numbered), []Source{pointSource(t, vars, []int64{5, 7}, numbered)})
	if m.FoldDim() != "L" {
		t.Fatalf("FoldDim = %q, want L", m.FoldDim())
	}
	if got, want := m.Params.String(), "512 · L"; got != want {
		t.Errorf("params %s, want %s", got, want)
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
		{func(_, layers int64) bool { return layers == 3 }, `B = 1, L = 3:9: operation 3 ("Relu.apply" in layers[0]) does not align: the recording at B = 1, L = 1 has no operation there`},
	} {
		_, err := Build(gridSources(t, vars, blGrid, deepMLP(c.extra)), nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got  %v\nwant %s...", err, c.want)
		}
	}
}

// gptDepthAt records the bundled gpt-depth (its training step when step is
// set) at a small width.
func gptDepthAt(t *testing.T, step bool) func(b, tt, l int64) *record.Recording {
	p, err := programs.Lookup("gpt-depth")
	if err != nil {
		t.Fatal(err)
	}
	if step {
		if p, err = p.Step(programs.StepOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return func(b, tt, l int64) *record.Recording {
		rec, err := p.Record(map[string]int64{"B": b, "T": tt, "L": l}, map[string]int64{"D": 16, "H": 2})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
}

func gptGrid(at func(b, tt, l int64) *record.Recording, ls [3]int64) []Source {
	var grid []Source
	for _, b := range []int64{1, 2, 3} {
		for _, tt := range []int64{4, 8, 12} {
			for _, l := range ls {
				rec := at(b, tt, l)
				grid = append(grid, source(pointName(rec.Header.Dims), rec))
			}
		}
	}
	return grid
}

// TestFoldCourseGPTFromOne: the course GPT with its block count L a
// dimension, modelled from L = 1, is refused at its check point, saying
// why and what to do: its last block is the last to read the causal mask
// and frees it, so the last block's live bytes are not those of the
// blocks before, and at L = 1 the one block is both the first and the
// last, which no maximum of polynomials in L states exactly.
func TestFoldCourseGPTFromOne(t *testing.T) {
	at := gptDepthAt(t, false)
	check := at(5, 7, 5)
	_, err := Build(gptGrid(at, [3]int64{1, 2, 3}), []Source{source("check", check)})
	for _, want := range []string{
		`check:33: operation 12 ("SelfAttention.apply/%21" in blocks[0].attn)`,
		"at B = 5, T = 7, L = 5 the middle iterations of blocks step by equal bytes but the last does not",
		"memsym models such blocks for every L ≥ 2", "(--grid L=2,3,4 where memsym records)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got  %v\nwant it to hold %s", err, want)
		}
	}
}

// A last block whose output is wider than the others', modelled from
// L = 1, is refused at its check point for a buffer's bytes, the first
// block's (at L = 1 it was the last too), with the same why and what to
// do; from L ∈ {2, 3, 4} it is modelled and holds there.
func TestFoldWideLastFromOne(t *testing.T) {
	wide := func(r *record.Recorder, at map[string]int64) {
		b, l := at["B"], at["L"]
		x := r.Input("x", "", f64, b, 8)
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", g, f64, 8, 8)
			z := r.Temp("z", g, f64, b, 8)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			width := int64(8)
			if i == l-1 {
				width = 32
			}
			y := r.Temp("act", g, f64, b, width)
			r.Op("Act.apply", g, []int64{z}, []int64{y})
			x = y
		}
		r.Result(x)
	}
	vars := []string{"B", "L"}
	_, err := Build(gridSources(t, vars, blGrid, wide), []Source{pointSource(t, vars, []int64{5, 7}, wide)})
	for _, want := range []string{
		`buffer 4 "act" has 320 bytes at B = 5, L = 7 but the model gives `,
		"the middle iterations of layers step by equal bytes but the last does not", "(--grid L=2,3,4 where memsym records)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got  %v\nwant it to hold %s", err, want)
		}
	}
	if strings.Contains(fmt.Sprint(err), "not a polynomial") {
		t.Errorf("the refusal blames the polynomials' degree: %v", err)
	}
	if _, err := Build(gridSources(t, vars, [][3]int64{{1, 2, 3}, {2, 3, 4}}, wide), []Source{pointSource(t, vars, []int64{5, 7}, wide)}); err != nil {
		t.Errorf("from L = 2: %v", err)
	}
}

// TestFoldCourseGPT: from the grid L ∈ {2, 3, 4} the course GPT is
// modelled for every L ≥ 2, its first and last blocks peeled: the
// parameters linear in L, and the peak and its operation the recording's
// at L = 2 (no middle block), 3 (one) and beyond, for the forward pass and
// for the training step.
func TestFoldCourseGPT(t *testing.T) {
	for _, step := range []bool{false, true} {
		at := gptDepthAt(t, step)
		checks := []Source{source("check 1", at(5, 7, 5)), source("check 2", at(4, 13, 9))}
		m, err := Build(gptGrid(at, [3]int64{2, 3, 4}), checks)
		if err != nil {
			t.Fatalf("step %v: %v", step, err)
		}
		if m.Least("L") != 2 || m.Least("B") != 1 {
			t.Errorf("step %v: least L %d, B %d; want 2 and 1", step, m.Least("L"), m.Least("B"))
		}
		// The parameters are linear in L: each block adds the same bytes.
		if d := m.Params.Degree("L"); d != 1 {
			t.Errorf("step %v: parameters %s: degree %d in L, want 1", step, m.Params, d)
		}
		for _, p := range [][3]int64{{2, 5, 2}, {7, 3, 2}, {1, 1, 3}, {6, 17, 3}, {3, 9, 7}, {9, 2, 12}} {
			rec := at(p[0], p[1], p[2])
			c := count.At(rec)
			vals := map[string]int64{"B": p[0], "T": p[1], "L": p[2]}
			if got, err := m.Params.EvalInt(vals); err != nil || !got.Equal(c.Params) {
				t.Errorf("step %v at %v: parameters %s, recorded %s", step, p, got, c.Params)
			}
			top, topOp := poly.Rat{}, 0
			for op := 1; op <= len(m.LiveAt); op++ {
				v, _ := m.Candidates[m.LiveAt[op-1]].Poly.EvalInt(vals)
				if v.Cmp(top) > 0 {
					top, topOp = v, op
				}
			}
			if !top.Equal(c.Peak) || m.OpAt(topOp, vals) != c.PeakOp {
				t.Errorf("step %v at %v: model peak %s at operation %d (%d there), recorded %s at %d", step, p, top, topOp, m.OpAt(topOp, vals), c.Peak, c.PeakOp)
			}
			if p[0] > 3 && p[1] > 12 && p[2] > 4 {
				if err := m.Check(source("off", rec)); err != nil {
					t.Errorf("step %v: Check at %v: %v", step, p, err)
				}
			}
		}
		if err := m.Check(source("one", at(5, 13, 1))); err == nil || !strings.Contains(err.Error(), "L = 1: the model holds for every L ≥ 2") {
			t.Errorf("step %v: Check at L = 1: %v", step, err)
		}
	}
}

// TestFoldGrids: a count of blocks is modelled from the grid {1, 2, 3} or
// {2, 3, 4} alone, and says where the model holds.
func TestFoldGrids(t *testing.T) {
	vars := []string{"B", "L"}
	for _, c := range []struct {
		ls    [3]int64
		least int64
		want  string
	}{
		{[3]int64{1, 2, 3}, 1, ""},
		{[3]int64{2, 3, 4}, 2, ""},
		{[3]int64{3, 4, 5}, 0, "memsym models such a count from the grid L ∈ {1, 2, 3}, for every L ≥ 1, or L ∈ {2, 3, 4}, for every L ≥ 2"},
		{[3]int64{1, 2, 4}, 0, "memsym models such a count from the grid L ∈ {1, 2, 3}"},
	} {
		m, err := Build(gridSources(t, vars, [][3]int64{{1, 2, 3}, c.ls}, deepMLP(nil)), []Source{pointSource(t, vars, []int64{5, 7}, deepMLP(nil))})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("L ∈ %v: %v", c.ls, err)
		case c.want == "" && m.Least("L") != c.least:
			t.Errorf("L ∈ %v: the model holds from L = %d, want %d", c.ls, m.Least("L"), c.least)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("L ∈ %v: got %v, want %s", c.ls, err, c.want)
		}
	}
}

// TestRefusalHoldsNoRecording checks that a grid refused for operations
// that differ, where no dimension counts blocks (one operation relabelled
// at one point), is refused without holding its recordings whole: the
// refusal allocates about what reading point 0 whole does, where holding
// every point's recording (to look for a fold) took ten times that.
func TestRefusalHoldsNoRecording(t *testing.T) {
	srcs := gridSources(t, attnVars, [][3]int64{{1, 2, 3}, {4, 8, 12}}, blocks(2000))
	last := srcs[len(srcs)-1]
	open := last.Open
	last.Open = func() (record.Stream, error) {
		s, err := open()
		return &relabelled{Stream: s, op: 7_000, label: "Other.apply/%1"}, err
	}
	srcs[len(srcs)-1] = last
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	one := allocated(func() {
		if _, err := readStructure(srcs[0], "point 0", nil); err != nil {
			t.Fatal(err)
		}
	})
	var err error
	refusal := allocated(func() { _, err = Build(srcs, nil) })
	if err == nil || !strings.Contains(err.Error(), "cannot be interpolated") {
		t.Fatalf("Build = %v, want the operations' difference", err)
	}
	t.Logf("the refusal allocated %.2f times what reading point 0 whole does", float64(refusal)/float64(one))
	if refusal > 3*one {
		t.Errorf("the refusal allocated %d bytes, %.1f times what reading point 0 whole does (%d): want at most 3 times", refusal, float64(refusal)/float64(one), one)
	}
}

// relabelled is a stream with operation op (from 1) relabelled, allocating
// nothing as it goes.
type relabelled struct {
	record.Stream
	op, ops int
	label   string
	cur     record.Record
	now     bool // the current record is the one relabelled
}

func (s *relabelled) Scan() bool {
	s.now = false
	if !s.Stream.Scan() {
		return false
	}
	if r := s.Stream.Record(); r.Kind == record.KindOp {
		if s.ops++; s.ops == s.op {
			s.cur, s.now = *r, true
			s.cur.Op.Label = s.label
		}
	}
	return true
}

func (s *relabelled) Record() *record.Record {
	if s.now {
		return &s.cur
	}
	return s.Stream.Record()
}

// TestFoldLayoutsAsWritten: the layers written as a recorder writes them
// without groups (the caller's input declared first, before the first
// layer's buffers), or with groups on the parameters alone, fold as the
// fully grouped layers do: the program's input is the caller's, and a
// buffer without a group belongs to the iteration it is declared in.
func TestFoldLayoutsAsWritten(t *testing.T) {
	vars := []string{"B", "L"}
	layers := func(groupParams, groupTemps bool) program {
		return func(r *record.Recorder, at map[string]int64) {
			b, l := at["B"], at["L"]
			const d = 8
			x := r.Input("x", "", f64, b, d)
			for i := range l {
				g := fmt.Sprintf("layers[%d]", i)
				pg, tg := "", ""
				if groupParams {
					pg = g
				}
				if groupTemps {
					tg = g
				}
				w := r.Param("weight", pg, f64, d, d)
				z := r.Temp("z", tg, f64, b, d)
				r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
				y := r.Temp("relu", tg, f64, b, d)
				r.Op("Relu.apply", g, []int64{z}, []int64{y})
				x = y
			}
			r.Result(x)
		}
	}
	want := mustBuild(t, gridSources(t, vars, blGrid, deepMLP(nil)), nil)
	for _, c := range []struct {
		name          string
		params, temps bool
	}{
		{"no groups", false, false},
		{"the parameters grouped", true, false},
		{"every buffer grouped", true, true},
	} {
		prog := layers(c.params, c.temps)
		checks := []Source{pointSource(t, vars, []int64{5, 5}, prog), pointSource(t, vars, []int64{4, 11}, prog)}
		m, err := Build(gridSources(t, vars, blGrid, prog), checks)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if m.FoldDim() != "L" || !m.Params.Equal(want.Params) || !m.Inputs.Equal(want.Inputs) {
			t.Errorf("%s: fold %q, params %s, inputs %s; want L, %s, %s", c.name, m.FoldDim(), m.Params, m.Inputs, want.Params, want.Inputs)
		}
	}
}

// TestFoldRefusesDifferentPhases: the course GPT's training step with its
// loss in the backward phase at one point, of the grid or a check point,
// is refused, as the phases' peaks are read from the structure's
// recording.
func TestFoldRefusesDifferentPhases(t *testing.T) {
	at := gptDepthAt(t, true)
	odd := func(b, tt, l int64) func(b, tt, l int64) *record.Recording {
		return func(b2, tt2, l2 int64) *record.Recording {
			rec := at(b2, tt2, l2)
			if b2 == b && tt2 == tt && l2 == l {
				last := 0
				for i, o := range rec.Ops.All() {
					if o.Phase == record.Forward {
						last = i
					}
				}
				ops := rec.Ops.Slice()
				ops[last].Phase = record.Backward
				rec.Ops = record.OpsOf(ops)
			}
			return rec
		}
	}
	const why = `("Loss.cross_entropy" in loss) does not align: it is in the backward phase, where the recording at %s has its operation in the forward phase`
	for _, c := range []struct {
		at    [3]int64
		check bool
		want  string
	}{
		{[3]int64{2, 4, 2}, false, "B = 2, T = 4, L = 2:127: operation 46 " + fmt.Sprintf(why, "B = 1, T = 4, L = 2")},
		{[3]int64{5, 7, 5}, true, "check:286: operation 106 " + fmt.Sprintf(why, "B = 1, T = 4, L = 4")},
	} {
		rec := odd(c.at[0], c.at[1], c.at[2])
		grid := gptGrid(at, [3]int64{2, 3, 4})
		if !c.check {
			grid = gptGrid(rec, [3]int64{2, 3, 4})
		}
		_, err := Build(grid, []Source{source("check", rec(5, 7, 5))})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("the loss in the backward phase at %v:\ngot  %v\nwant %s...", c.at, err, c.want)
		}
	}
}

// chainStep records a step of L linear layers on x [B, 8], the forward
// keeping nothing for the backward; at the point B = 2, L = oddL the last
// layer's forward operation is in the backward phase, as the first
// layer's is not.
func chainStep(oddL int64) func(b, l int64) *record.Recording {
	return func(b, l int64) *record.Recording {
		r := record.NewStepRecorder("Test.step", []record.Dim{{Name: "B", Value: b}, {Name: "L", Value: l}}, nil, "f64")
		const d = 8
		in := r.Input("tokens", "", f64, b, d)
		r.SetPhase(record.Forward)
		x := r.Temp("x", "", f64, b, d)
		r.Op("embed", "", []int64{in}, []int64{x})
		var ws []int64
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", g, f64, d, d)
			z := r.Temp("z", g, f64, b, d)
			if l == oddL && b == 2 && i == l-1 {
				r.SetPhase(record.Backward)
			}
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			ws = append(ws, w)
			x = z
		}
		r.SetPhase(record.Backward)
		gx := r.Temp("gloss", "", f64, b, d)
		r.Op("loss (vjp)", "", []int64{x}, []int64{gx})
		for i := l - 1; i >= 0; i-- {
			g := fmt.Sprintf("layers[%d]", i)
			gz := r.Temp("gz", g, f64, b, d)
			r.Op("Linear.apply (vjp)", g, []int64{gx, ws[i]}, []int64{gz})
			gx = gz
		}
		r.Result(gx)
		rec, err := r.Finish()
		if err != nil {
			panic(err)
		}
		return rec
	}
}

// TestFoldRefusesPhaseWithinRun: an iteration whose operation is in
// another phase than the first iteration's, at one point of the grid, is
// refused; the same step with its phases alike at every point is not.
func TestFoldRefusesPhaseWithinRun(t *testing.T) {
	for _, c := range []struct {
		oddL int64
		want string
	}{
		{0, ""},
		{3, `B = 2, L = 3:13: operation 4 ("Linear.apply" in layers[2]) does not align: it is in the backward phase, the first iteration's operation 2 in the forward phase`},
	} {
		at := chainStep(c.oddL)
		grid := gridBL(at)
		_, err := Build(grid, []Source{source("check", at(5, 7))})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("phases alike: %v", err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("the last layer in the backward phase at B = 2, L = 3:\ngot  %v\nwant %s...", err, c.want)
		}
	}
}

// alteredAt returns at with alter applied to its recording at the point p
// alone.
func alteredAt(at func(b, tt, l int64) *record.Recording, p [3]int64, alter func(*record.Recording)) func(b, tt, l int64) *record.Recording {
	return func(b, tt, l int64) *record.Recording {
		rec := at(b, tt, l)
		if [3]int64{b, tt, l} == p {
			alter(rec)
		}
		return rec
	}
}

// opNamed returns the operation label in path of ops.
func opNamed(t *testing.T, ops []record.Op, label, path string) *record.Op {
	t.Helper()
	for i := range ops {
		if o := &ops[i]; o.Label == label && o.Path == path {
			return o
		}
	}
	t.Fatalf("no operation %s in %s", label, path)
	return nil
}

// editOps applies edit to rec's operations.
func editOps(rec *record.Recording, edit func(ops []record.Op)) {
	ops := rec.Ops.Slice()
	edit(ops)
	rec.Ops = record.OpsOf(ops)
}

// TestFoldRefusesDifferentFlow: the course GPT with its block count L a
// dimension, one of whose operations at one point of the grid reads or
// writes another buffer than at the others, or launches nothing, is
// refused, naming the operation, as the walker refuses it without a
// folding dimension: else its live bytes there would be interpolated as
// the program's, and the model be wrong where only a check point shows
// it.
func TestFoldRefusesDifferentFlow(t *testing.T) {
	at := gptDepthAt(t, false)
	const odd = "B = 2, T = 8, L = 3"
	for _, c := range []struct {
		name  string
		alter func(ops []record.Op)
		want  string
	}{
		{"the head reads the mask too", func(ops []record.Op) {
			o := opNamed(t, ops, "Linear.apply/%4", "head")
			o.Reads = append(o.Reads, ops[0].Writes[0])
		}, odd + `:176: operation 65 ("Linear.apply/%4" in head) does not align: it reads 3 buffers, where its counterpart, operation 85 at B = 1, T = 4, L = 4, reads 2; a dimension that changes the operations must count blocks that repeat one block exactly`},
		{"the last block reads the first's output", func(ops []record.Op) {
			o := opNamed(t, ops, "LayerNorm.apply/%3", "blocks[2].ln1")
			o.Reads = slices.Clone(o.Reads)
			o.Reads[0] = opNamed(t, ops, "LayerNorm.apply/%3", "blocks[1].ln1").Reads[0]
		}, odd + `:120: operation 44 ("LayerNorm.apply/%3" in blocks[2].ln1) does not align: its first read is buffer 39 "x" in blocks[0], where its counterpart, operation 64 at B = 1, T = 4, L = 4, reads buffer 105 "x" in blocks[2] there: no one rule places the buffer at every iteration and point`},
		{"a middle block's softmax writes its input in place of its second output", func(ops []record.Op) {
			o := opNamed(t, ops, "SelfAttention.apply/%21", "blocks[1].attn")
			o.Writes = slices.Clone(o.Writes)
			o.Writes[1] = o.Reads[0]
		}, odd + `:86: operation 32 ("SelfAttention.apply/%21" in blocks[1].attn) does not align: its second write is buffer 51 "masked scores" in blocks[1], where its counterpart, operation 32 at B = 1, T = 4, L = 4, writes buffer 53 "exponentials" in blocks[1] there`},
		{"a middle block's operation launches nothing", func(ops []record.Op) {
			opNamed(t, ops, "SelfAttention.apply/%6", "blocks[1].attn").Launch = false
		}, odd + `:75: operation 27 ("SelfAttention.apply/%6" in blocks[1].attn) does not align: it launches nothing, where its counterpart, operation 27 at B = 1, T = 4, L = 4, launches work`},
	} {
		alter := func(rec *record.Recording) { editOps(rec, c.alter) }
		_, err := Build(gptGrid(alteredAt(at, [3]int64{2, 8, 3}, alter), [3]int64{2, 3, 4}), nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s at %s:\ngot  %v\nwant %s...", c.name, odd, err, c.want)
		}
	}
}

// TestFoldCheckRefusesDifferentFlow: a check point of the course GPT whose
// head reads a buffer more than the grid's is refused for that, naming the
// operation, by Build and by Check, before its live bytes are compared
// with the model's.
func TestFoldCheckRefusesDifferentFlow(t *testing.T) {
	at := gptDepthAt(t, false)
	check := at(5, 7, 5)
	var o *record.Op
	editOps(check, func(ops []record.Op) {
		o = opNamed(t, ops, "Linear.apply/%4", "head")
		o.Reads = append(o.Reads, ops[0].Writes[0])
	})
	const want = `check:%d: operation %d ("Linear.apply/%%4" in head) does not align: it reads 3 buffers, where its counterpart, operation 85 at B = 1, T = 4, L = 4, reads 2; a dimension that changes the operations must count blocks that repeat one block exactly`
	w := fmt.Sprintf(want, o.Line, check.Ops.Len())
	if _, err := Build(gptGrid(at, [3]int64{2, 3, 4}), []Source{source("check", check)}); err == nil || !strings.HasPrefix(err.Error(), w) {
		t.Errorf("Build:\ngot  %v\nwant %s...", err, w)
	}
	m := mustBuild(t, gptGrid(at, [3]int64{2, 3, 4}), nil)
	if err := m.Check(source("check", check)); err == nil || !strings.HasPrefix(err.Error(), w) {
		t.Errorf("Check:\ngot  %v\nwant %s...", err, w)
	}
	if err := m.Check(source("check", at(5, 7, 5))); err != nil {
		t.Errorf("Check of the program's own recording: %v", err)
	}
}

// sgdStep records a step of L linear layers on x [B, 8] and a plain SGD
// update, one operation reading every layer's weight and then every
// layer's gradient, as the backward pass makes them, and writing every
// weight. At B = 2, L = 3 the update leaves the first layer's gradient
// out when odd is "skip", and reads the gradients from the first layer's
// when it is "order".
func sgdStep(odd string) func(b, l int64) *record.Recording {
	return func(b, l int64) *record.Recording {
		r := record.NewStepRecorder("Test.step", []record.Dim{{Name: "B", Value: b}, {Name: "L", Value: l}}, nil, "f64")
		const d = 8
		in := r.Input("tokens", "", f64, b, d)
		r.SetPhase(record.Forward)
		x := r.Temp("x", "", f64, b, d)
		r.Op("embed", "", []int64{in}, []int64{x})
		var ws, xs, gws []int64
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", g, f64, d, d)
			z := r.Temp("z", g, f64, b, d)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			ws, xs = append(ws, w), append(xs, x)
			x = z
		}
		r.SetPhase(record.Backward)
		gx := r.Temp("gloss", "", f64, b, d)
		r.Op("loss (vjp)", "", []int64{x}, []int64{gx})
		for i := l - 1; i >= 0; i-- {
			g := fmt.Sprintf("layers[%d]", i)
			gz := r.Temp("gz", g, f64, b, d)
			gw := r.Temp("gw", g, f64, d, d)
			r.Op("Linear.apply (vjp)", g, []int64{gx, ws[i], xs[i]}, []int64{gz, gw})
			gws = append(gws, gw)
			gx = gz
		}
		switch {
		case odd == "skip" && b == 2 && l == 3:
			gws = gws[:len(gws)-1]
		case odd == "order" && b == 2 && l == 3:
			slices.Reverse(gws)
		}
		r.SetPhase(record.Optimizer)
		r.Op("SGD.update", "sgd", append(slices.Clone(ws), gws...), ws)
		r.Result(gx)
		rec, err := r.Finish()
		if err != nil {
			panic(err)
		}
		return rec
	}
}

// weightsNorm records L layers on x [B, 8], as deepMLP does, and
// then one operation reading every layer's weight (a norm of the
// parameters); with skip, that operation at B = 2, L = 2 leaves the first
// layer's out.
func weightsNorm(skip bool) program {
	return func(r *record.Recorder, at map[string]int64) {
		b, l := at["B"], at["L"]
		const d = 8
		x := r.Input("x", "", f64, b, d)
		var ws []int64
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", g, f64, d, d)
			z := r.Temp("z", g, f64, b, d)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			y := r.Temp("relu", g, f64, b, d)
			r.Op("Relu.apply", g, []int64{z}, []int64{y})
			ws, x = append(ws, w), y
		}
		if skip && b == 2 && l == 2 {
			ws = ws[1:]
		}
		n := r.Temp("norm", "", f64, 1)
		r.Op("Norm.apply", "", ws, []int64{n})
		r.Result(x, n)
	}
}

// TestFoldEveryBlock: an operation outside the blocks that reads or
// writes every block's buffers in turn, as an optimizer's update does,
// folds, its reads growing with L: a norm of the weights from the grid
// L ∈ {1, 2, 3}, a training step's update from {2, 3, 4}. One that leaves
// a block out at one point of the grid, or takes the blocks in another
// order there, is refused.
func TestFoldEveryBlock(t *testing.T) {
	vars := []string{"B", "L"}
	for _, skip := range []bool{false, true} {
		m, err := Build(gridSources(t, vars, blGrid, weightsNorm(skip)), []Source{pointSource(t, vars, []int64{5, 7}, weightsNorm(skip))})
		const want = `B = 2, L = 2:14: operation 5 ("Norm.apply", the entry's own) does not align: it reads 1 buffer, where its counterpart, operation 7 at B = 1, L = 3, reads 3, every block's of some slots among them, as many as 2 at L = 2`
		switch {
		case !skip && err != nil:
			t.Errorf("the norm of the weights: %v", err)
		case !skip && m.FoldDim() != "L":
			t.Errorf("the norm of the weights: FoldDim = %q, want L", m.FoldDim())
		case skip && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("the norm of the weights, the first layer's left out at B = 2, L = 2:\ngot  %v\nwant %s...", err, want)
		}
	}
	for _, c := range []struct{ odd, want string }{
		{"", ""},
		{"skip", `B = 2, L = 3:25: operation 9 ("SGD.update" in sgd) does not align: it reads 5 buffers, where its counterpart, operation 11 at B = 1, L = 4, reads 8, every block's of some slots among them, as many as 6 at L = 3`},
		{"order", `B = 2, L = 3:25: operation 9 ("SGD.update" in sgd) does not align: its 4th read is buffer 15 "gw" in layers[0], where its counterpart, operation 11 at B = 1, L = 4, reads every block's buffers in turn from its 5th read on, putting there a buffer "gw" in layers[2]`},
	} {
		at := sgdStep(c.odd)
		grid := gridBL(at)
		m, err := Build(grid, []Source{source("check", at(5, 7))})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("the step's update: %v", err)
		case c.want == "" && m.FoldDim() != "L":
			t.Errorf("the step's update: FoldDim = %q, want L", m.FoldDim())
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("the step's update, its gradients at B = 2, L = 3 as %q says:\ngot  %v\nwant %s...", c.odd, err, c.want)
		}
	}
}

// gridBL records at on the grid B ∈ {1, 2, 3}, L ∈ {2, 3, 4}.
func gridBL(at func(b, l int64) *record.Recording) []Source {
	var grid []Source
	for _, b := range []int64{1, 2, 3} {
		for _, l := range []int64{2, 3, 4} {
			rec := at(b, l)
			grid = append(grid, source(pointName(rec.Header.Dims), rec))
		}
	}
	return grid
}

// viewsInBlocks records L blocks on x [B, 8], each viewing its own
// block's output and a fixed table, and the last block's output as the
// result. At the point odd, the view of block k (k ≥ 1) views the block
// before's output instead, when base is set, and the result lists the
// first block's output too, when result is set.
func viewsInBlocks(odd [2]int64, k int64, base, result bool) func(b, l int64) *record.Recording {
	return func(b, l int64) *record.Recording {
		r := record.NewRecorder("Test.apply", []record.Dim{{Name: "B", Value: b}, {Name: "L", Value: l}}, nil, "f64")
		const d = 8
		in := r.Input("tokens", "", f64, b, d)
		table := r.Param("table", "", f64, d, d)
		x := r.Temp("x", "", f64, b, d)
		r.Op("embed", "", []int64{in, table}, []int64{x})
		var zs []int64
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("weight", "", f64, d, d)
			z := r.Temp("z", "", f64, b, d)
			r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
			of := z
			if base && [2]int64{b, l} == odd && i == k {
				of = zs[k-1]
			}
			v := r.View(of, "zt", f64, d, b)
			row := r.View(table, "row", f64, d)
			y := r.Temp("relu", "", f64, b, d)
			r.Op("Relu.apply", g, []int64{v, row}, []int64{y})
			zs, x = append(zs, z), y
		}
		res := []int64{x}
		if result && [2]int64{b, l} == odd {
			res = append(res, zs[0])
		}
		r.Result(res...)
		rec, err := r.Finish()
		if err != nil {
			panic(err)
		}
		return rec
	}
}

// TestFoldRefusesDifferentResultOrBase: a recording whose result lists
// other buffers than the others', or one of whose views is a view of
// another buffer than its counterparts', at one point of the grid or at a
// check point, is refused, naming the result's line or the view's, as the
// walker refuses it without a folding dimension; the programs' own
// recordings, whose views view their own block's buffers or fixed ones
// and whose training step's result lists every block's parameters and
// states, fold.
func TestFoldRefusesDifferentResultOrBase(t *testing.T) {
	// The program's own.
	if m, err := Build(gridBL(viewsInBlocks([2]int64{}, 0, false, false)), []Source{source("check", viewsInBlocks([2]int64{}, 0, false, false)(5, 7))}); err != nil || m.FoldDim() != "L" {
		t.Errorf("views in the blocks: %v", err)
	}
	step := gptDepthAt(t, true)
	if m, err := Build(gptGrid(step, [3]int64{2, 3, 4}), []Source{source("check", step(5, 7, 5))}); err != nil || m.FoldDim() != "L" {
		t.Errorf("the course GPT's training step: %v", err)
	}
	at := gptDepthAt(t, false)
	const odd = "B = 2, T = 8, L = 3"
	for _, c := range []struct {
		name string
		grid []Source
		want string
	}{
		{"the result lists a buffer more", gptGrid(alteredAt(at, [3]int64{2, 8, 3}, func(rec *record.Recording) {
			rec.Result = append(rec.Result, rec.Ops.Writes(0)[0])
		}), [3]int64{2, 3, 4}), odd + `:177: the result does not align: it lists 2 buffers, where the result at B = 1, T = 4, L = 4 lists 1; a dimension that changes the operations must count blocks`},
		{"the result lists another buffer", gptGrid(alteredAt(at, [3]int64{2, 8, 3}, func(rec *record.Recording) {
			rec.Result[0] = rec.Ops.Writes(0)[0]
		}), [3]int64{2, 3, 4}), odd + `:177: the result does not align: its first id is buffer 2 "mask" outside the blocks, where the result at B = 1, T = 4, L = 4 lists buffer 143 "logits" outside the blocks there; a dimension`},
		{"the step's result leaves a block's parameter out", gptGrid(alteredAt(step, [3]int64{2, 8, 3}, func(rec *record.Recording) {
			rec.Result = slices.Delete(rec.Result, 1, 2)
		}), [3]int64{2, 3, 4}), odd + `:543: the result does not align: it lists 123 buffers, where the result at B = 1, T = 4, L = 4 lists 160, every block's of some slots among them, as many as 124 at L = 3; a dimension`},
		{"the last block's view views the block before's output", gridBL(viewsInBlocks([2]int64{2, 3}, 2, true, false)), `B = 2, L = 3:23: view 16 "zt" in layers[2] does not align: it is a view of buffer 10 "z" in layers[1], where its counterpart, view 21 "zt" at B = 1, L = 4, is a view of buffer 20 "z" in layers[3]: no one rule places the buffer at every iteration and point`},
		{"a middle block's view views the block before's output", gridBL(viewsInBlocks([2]int64{2, 4}, 2, true, false)), `B = 2, L = 4:23: view 16 "zt" in layers[2] does not align: it is a view of buffer 10 "z" in layers[1], where its counterpart, view 11 "zt" at B = 1, L = 4, is a view of buffer 10 "z" in layers[1]: no one rule places the buffer at every iteration and point`},
	} {
		if _, err := Build(c.grid, nil); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\ngot  %v\nwant %s...", c.name, err, c.want)
		}
	}
	// At a check point, by Build and by Check.
	check := at(5, 7, 5)
	check.Result = append(check.Result, check.Ops.Writes(0)[0])
	views := viewsInBlocks([2]int64{5, 7}, 3, true, false)
	for _, c := range []struct {
		name  string
		grid  []Source
		check *record.Recording
		want  string
	}{
		{"the result lists a buffer more", gptGrid(at, [3]int64{2, 3, 4}), check, `check:283: the result does not align: it lists 2 buffers, where the result at B = 1, T = 4, L = 4 lists 1; a dimension`},
		{"a middle block's view views the block before's output", gridBL(views), views(5, 7), `check:30: view 21 "zt" in layers[3] does not align: it is a view of buffer 15 "z" in layers[2], where its counterpart, view 11 "zt" at B = 1, L = 4, is a view of buffer 10 "z" in layers[1]: no one rule places the buffer at every iteration and point`},
		{"the result lists the first block's output too", gridBL(viewsInBlocks([2]int64{5, 7}, 0, false, true)), viewsInBlocks([2]int64{5, 7}, 0, false, true)(5, 7), `check:55: the result does not align: it lists 2 buffers, where the result at B = 1, L = 4 lists 1; a dimension`},
	} {
		if _, err := Build(c.grid, []Source{source("check", c.check)}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s, Build:\ngot  %v\nwant %s...", c.name, err, c.want)
		}
		m := mustBuild(t, c.grid, nil)
		if err := m.Check(source("check", c.check)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s, Check:\ngot  %v\nwant %s...", c.name, err, c.want)
		}
	}
}

// TestFoldTieAtTwo: blocks whose first reads the caller's input, on the
// grid L ∈ {2, 3, 4}. Every middle block has the same bytes (a step of
// zero), so the first middle block reaches the peak first and stands for
// itself, and at L = 2, where none runs, for the last block, which it ties
// (384 · B). The model holds, and its peak and operation are the
// recordings' at every L, the first block's operation never named.
func TestFoldTieAtTwo(t *testing.T) {
	blocks := func(r *record.Recorder, at map[string]int64) {
		b, l := at["B"], at["L"]
		const d = 8
		cur := r.Input("x", "", f64, b, d)
		for i := range l {
			g := fmt.Sprintf("layers[%d]", i)
			w := r.Param("w", g, f64, d, d)
			h := r.Temp("h", g, f64, b, 4*d)
			r.Op("up", g, []int64{cur, w}, []int64{h})
			o := r.Temp("out", g, f64, b, d)
			r.Op("down", g, []int64{h, cur}, []int64{o})
			cur = o
		}
		y := r.Temp("y", "", f64, b, 2)
		r.Op("head", "", []int64{cur}, []int64{y})
		r.Result(y)
	}
	vars := []string{"B", "L"}
	m := mustBuild(t, gridSources(t, vars, [][3]int64{{1, 2, 3}, {2, 3, 4}}, blocks), []Source{pointSource(t, vars, []int64{5, 7}, blocks)})
	for _, p := range [][2]int64{{3, 2}, {3, 3}, {2, 5}, {4, 9}} {
		c := count.At(recordAt(t, vars, p[:], blocks))
		at := map[string]int64{"B": p[0], "L": p[1]}
		top, topOp := poly.Rat{}, 0
		for op := 1; op <= len(m.LiveAt); op++ {
			if v := evalAt(t, m.Candidates[m.LiveAt[op-1]].Poly, vars, p[:]); v.Cmp(top) > 0 {
				top, topOp = v, op
			}
		}
		if !top.Equal(c.Peak) || m.OpAt(topOp, at) != c.PeakOp {
			t.Errorf("at B = %d, L = %d: model peak %s at operation %d, recorded %s at %d", p[0], p[1], top, m.OpAt(topOp, at), c.Peak, c.PeakOp)
		}
	}
}

// growingMLP is deepMLP whose layer i makes 8·(i + 1) features: the
// middle blocks' bytes grow from block to block, so the first middle
// block's operations stand for the last's.
func growingMLP(r *record.Recorder, at map[string]int64) {
	b, l := at["B"], at["L"]
	x := r.Input("x", "", f64, b, 8)
	for i := range l {
		g := fmt.Sprintf("layers[%d]", i)
		w := r.Param("weight", g, f64, 8, 8)
		z := r.Temp("z", g, f64, b, 8*(i+1))
		r.Op("Linear.apply", g, []int64{x, w}, []int64{z})
		x = z
	}
	y := r.Temp("out", "", f64, b)
	r.Op("Net.head", "", []int64{x}, []int64{y})
	r.Result(y)
}

// TestFoldPathAt: an operation's path at another count of blocks, as
// PathAt gives it, is that of the operation OpAt numbers there in a
// recording at that count, for every operation of the structure: blocks
// that run forward and backward (the course GPT's training step), and a
// first middle block that stands for the last (growingMLP), whose path in
// the structure itself is the last middle block's.
func TestFoldPathAt(t *testing.T) {
	vars := []string{"B", "L"}
	grow := mustBuild(t, gridSources(t, vars, blGrid, growingMLP), nil)
	gpt := gptDepthAt(t, true)
	step, err := Build(gptGrid(gpt, [3]int64{2, 3, 4}), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    *Model
		at   func(l int64) *record.Recording
	}{
		{"growing", grow, func(l int64) *record.Recording { return recordAt(t, vars, []int64{2, l}, growingMLP) }},
		{"course GPT's step", step, func(l int64) *record.Recording { return gpt(2, 4, l) }},
	} {
		stood := 0
		for l := c.m.Least("L") + 2; l <= 9; l++ {
			rec := c.at(l)
			at := map[string]int64{"L": l}
			for op := 1; op <= c.m.Structure.Ops.Len(); op++ {
				n := c.m.OpAt(op, at)
				if n < 1 || n > rec.Ops.Len() {
					t.Fatalf("%s: operation %d is operation %d at L = %d, of %d", c.name, op, n, l, rec.Ops.Len())
				}
				if got, want := c.m.PathAt(op, at), rec.Ops.Path(n-1); got != want || rec.Ops.Label(n-1) != c.m.Structure.Ops.Label(op-1) {
					t.Errorf("%s: operation %d at L = %d: path %q, the recording's operation %d %q in %q", c.name, op, l, got, n, rec.Ops.Label(n-1), want)
				}
				if l == c.m.Least("L")+2 && c.m.PathAt(op, at) != c.m.Structure.Ops.Path(op-1) {
					stood++
				}
			}
		}
		if c.name == "growing" && stood == 0 {
			t.Errorf("%s: no operation stands for another in the structure", c.name)
		}
	}
}
