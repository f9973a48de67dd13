package torchtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsym/interp"
	"memsym/record"
)

// The grid and the points off it where each model is checked: B from 2
// (B = 1 turns copies into views, see TestGridWithBOne), the second
// dimension in multiples of 4 (the CNN halves the image twice).
var (
	grid   = [2][3]int64{{2, 3, 4}, {16, 32, 48}}
	checks = []point{{5, 24}, {6, 40}}
	verify = []point{{7, 56}, {9, 20}, {11, 64}}
)

var models = []struct {
	file   string
	names  []string // the dimensions
	consts []string // NAME=VALUE
	paths  []string // call paths the recording must have
}{
	// T < BLOCK: at T = BLOCK, self.mask[:, :, :T, :T] slices nothing and
	// PyTorch leaves the slice out.
	{"gpt2.py", []string{"B", "T"}, []string{"BLOCK=128"}, []string{"wte", "blocks[0].attn.c_attn", "blocks[1].mlp.c_proj", "lm_head"}},
	{"llama.py", []string{"B", "T"}, nil, []string{"input_layernorm", "self_attn.rotary", "mlp.gate_proj"}},
	{"bert.py", []string{"B", "T"}, nil, []string{"word_embeddings", "layers[0].attention", "layers[1].output_norm", "pooler"}},
	{"cnn.py", []string{"B", "S"}, nil, []string{"features.0", "features.5", "pool", "fc"}},
}

// TestModels records each model's forward and its training step with AdamW
// on a 3×3 grid and at five points off it, in one process each; memsym
// interpolates the grid, checks two points while building and three more
// after, and counts the parameters' bytes as torch counts its parameters'
// and module buffers'.
func TestModels(t *testing.T) {
	python(t)
	for _, m := range models {
		t.Run(strings.TrimSuffix(m.file, ".py"), func(t *testing.T) {
			t.Parallel()
			spec := model(t, m.file) + ":build"
			want := paramBytes(t, spec, m.names, checks[0], m.consts)
			for _, mode := range []string{"forward", "adamw"} {
				t.Run(mode, func(t *testing.T) {
					var extra []string
					for _, c := range m.consts {
						extra = append(extra, "--const", c)
					}
					if mode != "forward" {
						extra = append(extra, "--step", mode)
					}
					checkModel(t, spec, m.names, m.paths, want, extra)
				})
			}
		})
	}
}

func checkModel(t *testing.T, spec string, names, paths []string, params int64, extra []string) {
	var points []point
	for _, a := range grid[0] {
		for _, b := range grid[1] {
			points = append(points, point{a, b})
		}
	}
	points = append(append(points, checks...), verify...)
	recs := recordPoints(t, spec, names, points, extra...)
	src := func(p point) interp.Source { return source(p.at(names)+".jsonl", recs[p.at(names)]) }

	step := slices.Contains(extra, "--step")
	checkStructure(t, read(t, points[0].at(names), recs[points[0].at(names)]), step, paths)

	var gridSrc, checkSrc []interp.Source
	for _, p := range points[:9] {
		gridSrc = append(gridSrc, src(p))
	}
	for _, p := range checks {
		checkSrc = append(checkSrc, src(p))
	}
	mod, err := interp.Build(gridSrc, checkSrc)
	if err != nil {
		t.Fatalf("interp.Build: %v", err)
	}
	for _, p := range verify {
		if err := mod.Check(src(p)); err != nil {
			t.Errorf("Check at %s: %v", p.at(names), err)
		}
	}
	for _, p := range append(slices.Clone(checks), verify...) {
		at := map[string]int64{names[0]: p[0], names[1]: p[1]}
		got, err := mod.Params.EvalInt(at)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != strconv.FormatInt(params, 10) {
			t.Errorf("parameters at %s: memsym counts %s bytes, torch %d (the polynomial %s)", p.at(names), got, params, mod.Params)
		}
	}
}

// checkStructure checks what a recording must hold whatever the model: a
// header of the right version, phases in a step's order (none in a
// forward), parameters declared, each expected call path among the
// operations', views and operations that launch nothing.
func checkStructure(t *testing.T, rec *record.Recording, step bool, paths []string) {
	t.Helper()
	wantVersion := 1
	if step {
		wantVersion = record.StepVersion
	}
	if rec.Header.Version != wantVersion {
		t.Errorf("version %d, want %d", rec.Header.Version, wantVersion)
	}
	phases := map[record.Phase]int{}
	seen := map[string]bool{}
	quiet := 0
	for i := range rec.Ops.Len() {
		op := rec.Ops.At(i)
		phases[op.Phase]++
		seen[op.Path] = true
		if !strings.HasPrefix(op.Label, "aten.") {
			t.Errorf("operation %d is %q, not an ATen operation", i+1, op.Label)
		}
		if !op.Launch {
			quiet++
		}
	}
	if step {
		for _, ph := range record.Phases {
			if phases[ph] == 0 {
				t.Errorf("no operation in the %s phase", ph)
			}
		}
	} else if phases[record.NoPhase] != rec.Ops.Len() {
		t.Errorf("a forward's operations have phases: %v", phases)
	}
	for _, p := range paths {
		if !seen[p] {
			t.Errorf("no operation has the path %q", p)
		}
	}
	roles := map[record.Role]int{}
	views := 0
	for i := range rec.Buffers.Len() {
		if rec.Buffers.IsView(i) {
			views++
		} else {
			roles[rec.Buffers.Role(i)]++
		}
	}
	if roles[record.Param] == 0 || roles[record.Input] == 0 || views == 0 || quiet == 0 {
		t.Errorf("roles %v, %d views, %d operations launching nothing: want parameters, inputs, views and operations launching nothing", roles, views, quiet)
	}
	if step && roles[record.State] == 0 {
		t.Errorf("a step with AdamW has no optimizer state")
	}
}

// paramBytes returns sum(p.numel() * p.element_size()) over the model's
// parameters, as torch counts them.
func paramBytes(t testing.TB, spec string, names []string, p point, consts []string) int64 {
	t.Helper()
	args := []string{recorderDir(t) + "/testdata/param_bytes.py", spec}
	for i, n := range names {
		args = append(args, fmt.Sprintf("%s=%d", n, p[i]))
	}
	args = append(args, consts...)
	r := runPython(t, args...)
	if r.err != nil {
		t.Fatalf("param_bytes.py: %v: %s", r.err, r.stderr)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(r.stdout)), 10, 64)
	if err != nil {
		t.Fatalf("param_bytes.py printed %q", r.stdout)
	}
	return n
}
