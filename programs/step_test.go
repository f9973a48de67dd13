package programs_test

import (
	"fmt"
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// course is the course GPT's constants and the seed's point of its step.
var (
	course      = map[string]int64{"D": 384, "H": 6, "L": 6}
	coursePoint = map[string]int64{"B": 16, "T": 256}
)

// stepAt records a program's step and counts it.
func stepAt(t testing.TB, name string, dims, consts map[string]int64, o programs.StepOptions) (*record.Recording, *count.Step) {
	t.Helper()
	p, err := programs.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := p.Step(o)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sp.Record(dims, consts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := count.StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec, s
}

// part returns the bytes of the states named name.
func part(s *count.Step, name string) poly.Rat {
	for _, p := range s.StateParts {
		if p.Name == name {
			return p.Bytes
		}
	}
	return poly.Rat{}
}

func phase(t *testing.T, s *count.Step, ph record.Phase) count.PhasePeak {
	t.Helper()
	for _, p := range s.Phases {
		if p.Phase == ph {
			return p
		}
	}
	t.Fatalf("no %s phase", ph)
	return count.PhasePeak{}
}

// TestStepCourseTargets checks the seed's exact numbers of the course
// GPT's step at D = 384, H = 6, L = 6, B = 16, T = 256 in f64.
func TestStepCourseTargets(t *testing.T) {
	const P = 86532096 // the parameters' bytes: 10 816 512 reals
	for _, remat := range []programs.Remat{programs.Store, programs.Recompute} {
		_, s := stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{Remat: remat})
		wantInt(t, "parameters", s.Params, P)
		wantInt(t, "moments", part(s, "first moment").Add(part(s, "second moment")), 2*P)
		wantInt(t, "step count", part(s, "step count"), 8)
		wantInt(t, "gradient", s.Gradient, P)
		// AdamW not in place, at its last launch: the old parameters and
		// moments, the gradient, the new parameters and moments, and five
		// scalars (the step count and its successor, the learning rate,
		// two bias corrections).
		wantInt(t, "optimizer phase", phase(t, s, record.Optimizer).Terms.Sum(), 7*P+40)
	}
}

// TestStepCourseKept checks what the forward keeps against the
// vector-Jacobian products' rules, independently: stored, per block the
// layer norms' inputs x and x2, the projections' inputs h, o, h2 and g,
// the up projection's output u (GELU's input), q, k, v and the
// probabilities (16·B·T·D + B·H·T² reals); outside the blocks the final
// norm's input and output, the logits and the log-sum-exp. Recomputed,
// each block's input and the mask instead of the blocks' own.
func TestStepCourseKept(t *testing.T) {
	for _, pt := range [][2]int64{{16, 256}, {3, 7}, {1, 1}} {
		B, T, D, H, L, V := pt[0], pt[1], int64(384), int64(6), int64(6), int64(92)
		dims := map[string]int64{"B": B, "T": T}
		_, store := stepAt(t, "gpt-course", dims, course, programs.StepOptions{})
		wantInt(t, fmt.Sprintf("kept, stored, at B = %d, T = %d", B, T), store.Kept, 8*(L*(16*B*T*D+B*H*T*T)+2*B*T*D+B*T*(V+1)))
		_, re := stepAt(t, "gpt-course", dims, course, programs.StepOptions{Remat: programs.Recompute})
		wantInt(t, fmt.Sprintf("kept, recomputed, at B = %d, T = %d", B, T), re.Kept, 8*((L+2)*B*T*D+B*T*(V+1)+T*T))
	}
}

// TestStepCourseRecompute checks that recomputing brings the course
// step's peak down, and where each peak is.
func TestStepCourseRecompute(t *testing.T) {
	srec, store := stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{})
	rrec, re := stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{Remat: programs.Recompute})
	wantInt(t, "the step's peak, stored", store.Peak.Terms.Sum(), 1850119176)
	wantInt(t, "the step's peak, recomputed", re.Peak.Terms.Sum(), 662806536)
	for _, c := range []struct {
		rec  *record.Recording
		s    *count.Step
		want string
	}{{srec, store, "Linear.apply/%4 (vjp) blocks[5].ff.down"}, {rrec, re, "Linear.apply/%4 (vjp) blocks[0].ff.down"}} {
		op := c.rec.Ops.At(c.s.Peak.Op - 1)
		if got := op.Label + " " + op.Path; got != c.want || c.s.Peak.Phase != record.Backward {
			t.Errorf("the peak is at %s in the %s phase, want %s in the backward", got, c.s.Peak.Phase, c.want)
		}
	}
}

// TestStepOptimizers checks each optimizer's phase on the course GPT,
// against what its update holds: the parameters, their states and the
// gradient, and its scalars.
func TestStepOptimizers(t *testing.T) {
	const P = 86532096
	for _, c := range []struct {
		o      programs.Optimizer
		states int64 // besides the step count
		phase  int64
	}{
		{programs.AdamW, 2 * P, 7*P + 40},        // 3P held, 4P made; 5 scalars
		{programs.AdamWInPlace, 2 * P, 4*P + 32}, // 3P held, the gradient; 4 scalars
		{programs.SGD, P, 3*P + 16},              // parameters and momentum, the gradient; step count, learning rate
		{programs.Lion, P, 3*P + 16},
	} {
		_, s := stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{Optimizer: c.o})
		wantInt(t, c.o.String()+" states", s.States, c.states+8)
		wantInt(t, c.o.String()+" optimizer phase", phase(t, s, record.Optimizer).Terms.Sum(), c.phase)
	}
}

// TestStepAdafactor checks the factored second moment: a row and a column
// per matrix, each vector whole.
func TestStepAdafactor(t *testing.T) {
	D, H, L, T, V := int64(64), int64(2), int64(2), int64(16), int64(92)
	_, s := stepAt(t, "gpt-course", map[string]int64{"B": 2, "T": T}, map[string]int64{"D": D, "H": H, "L": L}, programs.StepOptions{Optimizer: programs.Adafactor})
	// Matrices [r, c]: wte [V, D], wpe [T, D], per block qkv [D, 3D], proj
	// [D, D], up [D, 4D], down [4D, D]; head [D, V]. Vectors: per block
	// 2 norms' 2 vectors of D, biases 3D, D, 4D, D; the final norm's 2.
	rows := V + T + L*(D+D+D+4*D) + D
	cols := D + D + L*(3*D+D+4*D+D) + V
	vectors := L*(4*D+3*D+D+4*D+D) + 2*D
	wantInt(t, "row factors", part(s, "row factor"), 8*rows)
	wantInt(t, "column factors", part(s, "column factor"), 8*cols)
	wantInt(t, "vectors' second moments", part(s, "second moment"), 8*vectors)
}

// TestStepMixedPrecision checks a step's stored types: bf16 parameters and
// activations, an f32 master copy, f32 gradient and moments; and fp16
// parameters with an fp32 gradient and states, the 14P rule's types.
func TestStepMixedPrecision(t *testing.T) {
	const E = 10816512 // the course GPT's parameters' elements
	types, err := programs.ParseTypes("params=bf16,activations=bf16,gradient=f32,states=f32,master=f32")
	if err != nil {
		t.Fatal(err)
	}
	rec, s := stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{Types: types})
	wantInt(t, "parameters", s.Params, 2*E)
	wantInt(t, "gradient", s.Gradient, 4*E)
	wantInt(t, "moments", part(s, "first moment").Add(part(s, "second moment")), 8*E)
	wantInt(t, "master copy", part(s, "master copy"), 4*E)
	// The update: held 2E + 4E + 8E and the step count; made the gradient
	// 4E, the new master copy, parameters and moments 4E + 2E + 8E, and
	// four scalars, all scalars of 4 bytes.
	wantInt(t, "optimizer phase", phase(t, s, record.Optimizer).Terms.Sum(), 32*E+20)
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		if b.Name == "logits" && b.DType.Name != "bf16" {
			t.Errorf("the logits are %s, want bf16", b.DType)
		}
	}
	if !strings.Contains(rec.Header.Realization, "master=f32") {
		t.Errorf("realization %q does not say its types", rec.Header.Realization)
	}

	rule, err := programs.ParseTypes("params=f16,gradient=f32,states=f32")
	if err != nil {
		t.Fatal(err)
	}
	_, s = stepAt(t, "gpt-course", coursePoint, course, programs.StepOptions{Types: rule})
	wantInt(t, "the 14P rule's terms", s.Params.Add(s.Gradient).Add(s.States), 14*E+4)
}

// TestStepEveryProgram records every bundled program's step under each
// remat and optimizer, and checks its shape: phases in order, every
// trained parameter with a gradient of its elements, the states held.
func TestStepEveryProgram(t *testing.T) {
	refused := 0
	for _, p := range programs.All() {
		if p.StepRefusal() != "" {
			refused++
			if _, err := p.Step(programs.StepOptions{}); err == nil || !strings.Contains(err.Error(), p.StepRefusal()) {
				t.Errorf("%s: Step = %v, want its refusal", p.Name, err)
			}
			continue
		}
		for _, remat := range []programs.Remat{programs.Store, programs.Recompute} {
			for _, o := range programs.Optimizers {
				name := fmt.Sprintf("%s %s %s", p.Name, remat, o)
				rec, s := stepAt(t, p.Name, nil, nil, programs.StepOptions{Remat: remat, Optimizer: o})
				if rec.Header.Version != record.StepVersion {
					t.Errorf("%s: version %d", name, rec.Header.Version)
				}
				if len(s.Phases) != 3 {
					t.Errorf("%s: %d phases, want forward, backward and optimizer", name, len(s.Phases))
				}
				if s.Gradient.Sign() <= 0 || s.Gradient.Cmp(s.Params.Mul(poly.Int(8))) > 0 || s.States.Sign() <= 0 {
					t.Errorf("%s: gradient %s, states %s against parameters %s", name, s.Gradient, s.States, s.Params)
				}
				fwd := phase(t, s, record.Forward)
				if !fwd.Terms.Gradient.IsZero() || !phase(t, s, record.Optimizer).Terms.Kept.IsZero() {
					t.Errorf("%s: a gradient in the forward phase or something kept in the optimizer's", name)
				}
			}
		}
	}
	if refused != 1 {
		t.Errorf("%d programs without a step, want 1 (mlp-train-step)", refused)
	}
}

// TestStepRecomputeOnlyWhereBlocks checks that recomputing changes what
// is kept exactly for the programs with blocks, and lowers it there.
func TestStepRecomputeOnlyWhereBlocks(t *testing.T) {
	for _, p := range programs.All() {
		if p.StepRefusal() != "" {
			continue
		}
		_, store := stepAt(t, p.Name, nil, nil, programs.StepOptions{})
		_, re := stepAt(t, p.Name, nil, nil, programs.StepOptions{Remat: programs.Recompute})
		blocks := false
		rec := recordAt(t, p.Name, nil, nil)
		for _, op := range rec.Ops.All() {
			if strings.Contains(op.Path, "[") || strings.HasPrefix(op.Path, "block.") {
				blocks = true
			}
		}
		switch c := re.Kept.Cmp(store.Kept); {
		case !blocks && c != 0:
			t.Errorf("%s has no blocks but recomputing keeps %s, storing %s", p.Name, re.Kept, store.Kept)
		case blocks && c > 0:
			t.Errorf("%s: recomputing keeps %s, more than storing's %s", p.Name, re.Kept, store.Kept)
		}
	}
}

func TestParseStepOptions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"params=bf16,gradient=f32", "params=bf16,gradient=f32"},
		{"master=f32, states=f32", "states=f32,master=f32"},
	} {
		got, err := programs.ParseTypes(c.in)
		if err != nil || got.String() != c.want {
			t.Errorf("ParseTypes(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"params=i8", "params=i8: expected a floating type: f64, f32, f16, bf16 or f8"},
		{"weights=f32", `unknown kind "weights": expected params, activations, gradient, states, master`},
		{"params=f32,params=f16", "params is given twice"},
		{"f32", `expected KIND=TYPE, found "f32"`},
	} {
		if _, err := programs.ParseTypes(c.in); err == nil || err.Error() != c.want {
			t.Errorf("ParseTypes(%q): %v, want %s", c.in, err, c.want)
		}
	}
	if _, err := programs.ParseOptimizer("adam"); err == nil || err.Error() != `unknown optimizer "adam": expected adamw, adamw-inplace, sgd, lion, adafactor` {
		t.Errorf("ParseOptimizer(adam): %v", err)
	}
	if r, err := programs.ParseRemat("recompute"); err != nil || r != programs.Recompute {
		t.Errorf("ParseRemat(recompute) = %v, %v", r, err)
	}
}
