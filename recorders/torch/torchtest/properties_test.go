package torchtest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"memsym/count"
	"memsym/interp"
	"memsym/poly"
	"memsym/record"
)

// TestDeterministic records one training step in separate processes, with
// different hash seeds, to the standard output, to a file and among other
// points: the same bytes every time.
func TestDeterministic(t *testing.T) {
	python(t)
	spec := model(t, "gpt2.py") + ":build"
	args := []string{spec, "--dim", "B=3", "--dim", "T=32", "--step", "adamw"}
	t.Setenv("PYTHONHASHSEED", "1")
	first := recorder(t, args...).stdout
	t.Setenv("PYTHONHASHSEED", "2")
	if again := recorder(t, args...).stdout; !bytes.Equal(first, again) {
		t.Errorf("two runs differ:\n%s", firstDifference(first, again))
	}
	file := filepath.Join(t.TempDir(), "r.jsonl")
	recorder(t, append(args, "-o", file)...)
	if got, err := os.ReadFile(file); err != nil || !bytes.Equal(first, got) {
		t.Errorf("-o FILE differs from the standard output (%v):\n%s", err, firstDifference(first, got))
	}
	many := recordPoints(t, spec, []string{"B", "T"}, []point{{2, 16}, {3, 32}}, "--step", "adamw")
	if got := many["B=3,T=32"]; !bytes.Equal(first, got) {
		t.Errorf("a point recorded after another differs:\n%s", firstDifference(first, got))
	}
	read(t, "B=3,T=32", first)
}

func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "  " + la[i] + "\n  " + lb[i]
		}
	}
	return "one is a prefix of the other"
}

// TestGridWithBOne shows why a grid starts at B = 2: at B = 1 PyTorch's
// matmul reshapes the BERT encoder's permuted attention probabilities as a
// view where at B ≥ 2 it copies them, so the operations differ and memsym
// refuses the grid, naming the line and the operation.
func TestGridWithBOne(t *testing.T) {
	python(t)
	names := []string{"B", "T"}
	var points []point
	for _, b := range []int64{1, 2, 3} {
		for _, tt := range grid[1] {
			points = append(points, point{b, tt})
		}
	}
	recs := recordPoints(t, model(t, "bert.py")+":build", names, points)
	var sources []interp.Source
	for _, p := range points {
		sources = append(sources, source(p.at(names)+".jsonl", recs[p.at(names)]))
	}
	_, err := interp.Build(sources, nil)
	if err == nil {
		t.Fatal("memsym interpolated a grid whose operations differ at B = 1")
	}
	msg := err.Error()
	line := regexp.MustCompile(`B=1,T=16\.jsonl:(\d+)`).FindStringSubmatch(msg)
	if line == nil || !strings.Contains(msg, "differ") {
		t.Fatalf("the refusal names no line of the recording at B = 1: %v", err)
	}
	// The recording at B = 1 has a view where the one at B = 2 has a copy:
	// aten._reshape_alias against aten.clone.
	if !strings.Contains(msg, "_reshape_alias") && !strings.Contains(msg, "clone") {
		t.Errorf("the refusal does not name the operation (aten._reshape_alias at B = 1, aten.clone at B = 2): %v", err)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("the refusal spans lines: %q", msg)
	}
}

// TestSevenBillionWide records a Llama block as wide as a 7B model's (4096
// wide, 32 heads, a feed-forward of 11008): on the meta device it takes
// seconds and little memory, where its tensors would take gigabytes.
func TestSevenBillionWide(t *testing.T) {
	python(t)
	spec := model(t, "llama.py") + ":build"
	consts := []string{"D=4096", "H=32", "FF=11008"}
	params := paramBytes(t, spec, []string{"B", "T"}, point{1, 512}, consts)
	// The weights, and the rotary table's inverse frequencies, a module
	// buffer: one per pair of a head's 128 dimensions.
	if want := int64(4 * (4*4096*4096 + 3*4096*11008 + 2*4096 + 128/2)); params != want {
		t.Fatalf("param_bytes.py counts %d bytes, want %d", params, want)
	}
	for _, step := range []string{"", "adamw"} {
		args := []string{spec, "--dim", "B=1", "--dim", "T=512"}
		for _, c := range consts {
			args = append(args, "--const", c)
		}
		if step != "" {
			args = append(args, "--step", step)
		}
		start := time.Now()
		r := recorder(t, args...)
		took := time.Since(start)
		rec := read(t, "llama-7b-wide", r.stdout)
		var got poly.Rat
		for i := range rec.Buffers.Len() {
			if rec.Buffers.Role(i) == record.Param {
				got = got.Add(rec.Buffers.Bytes(i))
			}
		}
		if !got.Equal(poly.Int(params)) {
			t.Errorf("step %q: memsym counts %s parameter bytes, torch %d", step, got, params)
		}
		// The parameters alone are 809 MB; with gradients and AdamW's
		// states a step would hold 3.2 GB.
		if r.maxRSS > 1<<30 {
			t.Errorf("step %q: the recorder held %d MB: it allocated the tensors", step, r.maxRSS>>20)
		}
		t.Logf("step %q: %d operations recorded in %s, %d MB resident", step, rec.Ops.Len(), took.Round(time.Millisecond), r.maxRSS>>20)
	}
}

// TestSGD records a training step with SGD and momentum: its momentum
// buffers are the optimizer's states.
func TestSGD(t *testing.T) {
	python(t)
	r := recorder(t, model(t, "cnn.py")+":build", "--dim", "B=2", "--dim", "S=16", "--step", "sgd")
	rec := read(t, "cnn-sgd", r.stdout)
	states := 0
	for i := range rec.Buffers.Len() {
		if rec.Buffers.Role(i) == record.State {
			states++
			if !strings.HasSuffix(rec.Buffers.Name(i), ".momentum_buffer") {
				t.Errorf("state %q is not a momentum buffer", rec.Buffers.Name(i))
			}
		}
	}
	if states == 0 {
		t.Error("SGD with momentum has no states")
	}
}

// TestInputGradient records a step whose input requires a gradient: the
// backward makes the input's gradient anew, as after the warm-up's
// gradients are cleared, and writes no buffer the caller holds as an input
// (the warm-up's gradient, added into, would be counted as one).
func TestInputGradient(t *testing.T) {
	python(t)
	r := recorder(t, model(t, "mistakes.py")+":input_grad", "--dim", "B=2", "--step", "adamw")
	rec := read(t, "input_grad", r.stdout)
	backward := 0
	for _, op := range rec.Ops.All() {
		if op.Phase != record.Backward {
			continue
		}
		backward++
		for _, id := range op.Writes {
			if b := rec.Base(id); b.Role == record.Input {
				t.Errorf("line %d: %s in the backward writes the input %q", op.Line, op.Label, b.Name)
			}
		}
	}
	if backward == 0 {
		t.Error("the step has no backward")
	}
}

// TestStepHolds records a step of two layers and a module buffer: the
// buffer is held as the parameters are, through the whole step, not as the
// batch through its last reader; and every gradient is live through the
// whole optimizer phase, as the loop holds it until its next zero_grad,
// not freed at its last read by the first layer's update.
func TestStepHolds(t *testing.T) {
	python(t)
	const b, d, rows = 4, 64, 256
	r := recorder(t, model(t, "held.py")+":build", "--dim", "B=4", "--step", "adamw")
	rec := read(t, "held", r.stdout)
	s, err := count.StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	if want := poly.Int(4 * (2*d*d + rows*d)); !s.Params.Equal(want) {
		t.Errorf("parameters %s bytes, want %s: the two layers' weights and the table", s.Params, want)
	}
	if want := poly.Int(4 * b * d); !s.Batch.Equal(want) {
		t.Errorf("batch %s bytes, want %s: the input alone", s.Batch, want)
	}
	if want := poly.Int(4 * 2 * d * d); !s.Gradient.Equal(want) {
		t.Fatalf("gradient %s bytes, want %s", s.Gradient, want)
	}
	live := count.LiveByClass(rec, count.Lifetimes(rec), s.Class)
	optimizer := 0
	for i, op := range rec.Ops.All() {
		if op.Phase != record.Optimizer {
			continue
		}
		optimizer++
		if g := live[i][0]; !g.Equal(s.Gradient) {
			t.Errorf("operation %d (%s in %s), in the optimizer phase: %s bytes of the gradient live, want all %s", i+1, op.Label, op.Path, g, s.Gradient)
			break
		}
	}
	if optimizer == 0 {
		t.Error("the step has no optimizer phase")
	}
}
