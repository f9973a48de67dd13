package programs_test

import (
	"fmt"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// byName returns the position in rec.Buffers of the first buffer with the
// name in the group.
func byName(t *testing.T, rec *record.Recording, group, name string) int {
	t.Helper()
	for i, b := range rec.Buffers.All() {
		if b.Group == group && b.Name == name {
			return i
		}
	}
	t.Fatalf("no buffer %q in %q", name, group)
	return 0
}

// TestInt4HalfBytes: with T odd, the int4 mask has T² elements, a half byte
// over; the parameters are the int4 weights, their f32 scales, and the f32
// embedding, rotary table and norms.
func TestInt4HalfBytes(t *testing.T) {
	const D, F, V, G, T = 4096, 11008, 32000, 128, 383
	rec := recordAt(t, "llama2-7b-block-int4", map[string]int64{"T": T}, nil)
	mask := rec.Buffers.At(byName(t, rec, "", "mask"))
	if !mask.Bytes.Equal(poly.Frac(T*T, 2)) {
		t.Errorf("the mask has %s bytes, want %d/2", mask.Bytes, T*T)
	}
	c := count.At(rec)
	weights := int64(4*D*D + 3*D*F + D*V)
	want := poly.Frac(weights, 2).Add(poly.Int(4 * (weights/G + V*D + T*D + 3*D)))
	if !c.Params.Equal(want) {
		t.Errorf("parameters %s bytes, want %s", c.Params, want)
	}
	var types []string
	for _, tc := range c.ParamsByDType {
		types = append(types, fmt.Sprintf("%s %s", tc.DType, tc.Elements))
	}
	if got := fmt.Sprint(types); got != fmt.Sprintf("[f32 %d i4 %d]", V*D+T*D+3*D+weights/G, weights) {
		t.Errorf("parameters by type %s", got)
	}
	if live := c.Live[firstOp(t, rec, "Attention.mask", "block.attn")-1]; live.IsInt() {
		t.Errorf("live at the mask's addition %s, want a half byte over", live)
	}
	at384 := count.At(recordAt(t, "llama2-7b-block-int4", nil, nil))
	wantInt(t, "the int4 block's peak", at384.Peak, 57016320)
}

// TestDecodeCaches: the step returns the grown caches, P + 1 positions each,
// beside the logits; the caller holds the old ones.
func TestDecodeCaches(t *testing.T) {
	const B, P, D, L, V = 3, 100, 512, 4, 32000
	c := count.At(recordAt(t, "decode-kv-cache", map[string]int64{"B": B, "P": P}, nil))
	wantInt(t, "outputs", c.Outputs, 2*B*V+2*L*2*B*(P+1)*D)
	wantInt(t, "inputs less the parameters", c.Inputs.Sub(c.Params), 8*B+8*B+2*L*2*B*P*D)
}

// TestMLPWidthParams: the parameters are a quadratic in W.
func TestMLPWidthParams(t *testing.T) {
	const I, O, L = 784, 10, 3
	for _, W := range []int64{1, 7, 1000} {
		c := count.At(recordAt(t, "mlp-width", map[string]int64{"W": W}, nil))
		wantInt(t, fmt.Sprintf("parameters at W = %d", W), c.Params, 4*(I*W+W+(L-1)*(W*W+W)+W*O+O))
	}
}

// TestTrainStepUpdatesInPlace: each parameter and momentum is written once,
// by the optimizer, after its last read by the backward sweep's products.
func TestTrainStepUpdatesInPlace(t *testing.T) {
	rec := recordAt(t, "mlp-train-step", nil, nil)
	writes := map[int64][]string{}
	for _, op := range rec.Ops.All() {
		for _, id := range op.Writes {
			writes[id] = append(writes[id], op.Label)
		}
	}
	held := 0
	for _, b := range rec.Buffers.All() {
		if b.Role == record.Param || b.Role == record.Input && b.Name != "x" && b.Name != "labels" && b.Name != "learning rate" {
			held++
			want := "[SGD.update]"
			if b.Role == record.Input {
				want = "[SGD.momentum]"
			}
			if got := fmt.Sprint(writes[b.ID]); got != want {
				t.Errorf("%s %s is written by %s, want %s", b.Group, b.Name, got, want)
			}
		}
	}
	if held != 4*3 {
		t.Errorf("%d parameters and momenta, want 12", held)
	}
}

// TestSSMLinearInT: the live bytes at every operation are affine in T.
func TestSSMLinearInT(t *testing.T) {
	var live [3][]poly.Rat
	for i, T := range []int64{100, 200, 300} {
		live[i] = count.At(recordAt(t, "ssm-scan", map[string]int64{"T": T}, nil)).Live
	}
	for op := range live[0] {
		if !live[0][op].Add(live[2][op]).Equal(live[1][op].Add(live[1][op])) {
			t.Errorf("operation %d: %s, %s, %s live at T = 100, 200, 300: not affine in T", op+1, live[0][op], live[1][op], live[2][op])
		}
	}
}

// TestEncDecMemoryLives: the encoder's output is read by the last decoder
// block's cross attention and no later; cross attention's scores are
// [B, H, T, S].
func TestEncDecMemoryLives(t *testing.T) {
	rec := recordAt(t, "encdec-cross", nil, nil)
	lives := count.Lifetimes(rec)
	memory := byName(t, rec, "encoder.norm", "normed")
	if op := rec.Ops.At(int(lives[memory].Last) - 1); op.Path != "decoder.layers[1].cross.v" {
		t.Errorf("the memory's last reader is at %q", op.Path)
	}
	scores := rec.Buffers.At(byName(t, rec, "decoder.layers[0].cross", "scores"))
	if fmt.Sprint(scores.Shape) != "[4 4 64 96]" {
		t.Errorf("cross attention's scores are %v, want [B H T S] = [4 4 64 96]", scores.Shape)
	}
}

// TestViewsLiveness: views of an input keep nothing live; a view read last
// keeps its base live; an output never read lives at its operation only;
// the result's view keeps its base to the end.
func TestViewsLiveness(t *testing.T) {
	rec := recordAt(t, "views-heavy", nil, nil)
	lives := count.Lifetimes(rec)
	n := int32(rec.Ops.Len())
	last := int32(firstOp(t, rec, "Norm.apply", ""))
	split := int32(firstOp(t, rec, "Split.copy", "mix"))
	for _, c := range []struct {
		group, name string
		want        count.Life
	}{
		{"", "x", count.Life{}},
		{"qkv", "qkv", count.Life{First: lives[byName(t, rec, "qkv", "qkv")].First, Last: last}},
		{"mix", "norms", count.Life{First: split, Last: split}},
		{"mix", "accumulator", count.Life{First: split + 1, Last: n}},
	} {
		if got := lives[byName(t, rec, c.group, c.name)]; got != c.want {
			t.Errorf("%s in %q lives %+v, want %+v", c.name, c.group, got, c.want)
		}
	}
	depth := 0
	for i := range rec.Buffers.Len() {
		d := 0
		for b := rec.Buffers.At(i); b.IsView; d++ {
			b, _ = rec.Buffer(b.Of)
		}
		depth = max(depth, d)
	}
	if depth < 4 {
		t.Errorf("views nest %d deep, want 4", depth)
	}
}

// TestMixedPrecisionTypes: the block's buffers come in seven stored types
// and one size in bytes alone, the workspace, live from the first product
// to the second.
func TestMixedPrecisionTypes(t *testing.T) {
	rec := recordAt(t, "mixed-precision", nil, nil)
	types := map[string]bool{}
	for _, b := range rec.Buffers.All() {
		types[b.DType.String()] = true
	}
	for _, name := range []string{"bf16", "f8", "f32", "f16", "bool", "i32", "0-bit"} {
		if !types[name] {
			t.Errorf("no buffer of type %s", name)
		}
	}
	ws := byName(t, rec, "", "matmul workspace")
	life := count.Lifetimes(rec)[ws]
	if rec.Ops.Path(int(life.First)-1) != "up" || rec.Ops.Path(int(life.Last)-1) != "down" {
		t.Errorf("the workspace lives %+v", life)
	}
	if !rec.Buffers.Bytes(ws).Equal(poly.Int(32 << 20)) {
		t.Errorf("the workspace has %s bytes", rec.Buffers.Bytes(ws))
	}
}

// TestSyntheticOps: synthetic has exactly N operations.
func TestSyntheticOps(t *testing.T) {
	for _, n := range []int64{1, 4, 5, 6, 1000, 100_000} {
		rec := recordAt(t, "synthetic", nil, map[string]int64{"N": n})
		if int64(rec.Ops.Len()) != n {
			t.Errorf("N = %d: %d operations", n, rec.Ops.Len())
		}
	}
}

func BenchmarkSyntheticRecord(b *testing.B) {
	for b.Loop() {
		recordAt(b, "synthetic", nil, map[string]int64{"N": 1_000_000})
	}
}
