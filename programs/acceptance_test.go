package programs_test

import (
	"fmt"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// The seed's numbers for the course GPT at D = 64, H = 2, L = 2, B = 2, T = 16.
func TestGPTCourseAcceptance(t *testing.T) {
	rec := recordAt(t, "gpt-course", map[string]int64{"B": 2, "T": 16}, map[string]int64{"D": 64, "H": 2, "L": 2})
	c := count.At(rec)
	wantInt(t, "parameters", c.Params, 903168)
	if c.ParamElements.Int64() != 112896 {
		t.Errorf("parameter elements %s, want 112896", c.ParamElements)
	}
	if len(c.ParamsByDType) != 1 || c.ParamsByDType[0].DType.Name != "f64" || c.ParamsByDType[0].Elements.Int64() != 112896 {
		t.Errorf("parameters by type %+v, want 112896 in f64 alone", c.ParamsByDType)
	}
	wantInt(t, "inputs", c.Inputs, 903424)
	wantInt(t, "outputs", c.Outputs, 23552)
	wantInt(t, "peak", c.Peak, 149504)
	wantInt(t, "needs", c.Needs, 1052928)
	if op := rec.Ops.At(c.PeakOp - 1); op.Label != "Linear.apply/%5" || op.Path != "blocks[0].ff.up" {
		t.Errorf("peak at %q in %q, want Linear.apply/%%5 in blocks[0].ff.up", op.Label, op.Path)
	}

	// Four buffers: the product and its sum with the bias (B·T·4D each),
	// the residual stream, the mask.
	var live []string
	for _, i := range c.AtPeak {
		b := rec.Buffers.At(i)
		live = append(live, fmt.Sprintf("%s %s %s", b.Group, b.Name, b.Bytes))
	}
	want := []string{" mask 2048", "blocks[0] x 16384", "blocks[0].ff.up up xW 65536", "blocks[0].ff.up up 65536"}
	if fmt.Sprint(live) != fmt.Sprint(want) {
		t.Errorf("live at the peak %q, want %q", live, want)
	}

	shares := map[string]string{}
	for _, call := range c.Calls {
		shares[call.Path] = fmt.Sprintf("×%d %s", call.Iterations, call.Share)
	}
	if shares["blocks"] != "×2 147456" || shares["blocks.ff.up"] != "×0 131072" {
		t.Errorf("calls: blocks %q, blocks.ff.up %q; want ×2 147456 and ×0 131072", shares["blocks"], shares["blocks.ff.up"])
	}
}

// The seed's symbolic candidates at the course constants D = 384, H = 6,
// L = 6, checked by recording at points spread over small and large B, T.
func TestGPTCourseCandidates(t *testing.T) {
	course := map[string]int64{"D": 384, "H": 6, "L": 6}
	for _, pt := range [][2]int64{{1, 1}, {2, 16}, {3, 149}, {5, 150}, {16, 256}, {64, 1024}} {
		B, T := pt[0], pt[1]
		rec := recordAt(t, "gpt-course", map[string]int64{"B": B, "T": T}, course)
		c := count.At(rec)
		at := fmt.Sprintf("B = %d, T = %d", B, T)
		scores := 48*B*T*T + 12288*B*T + 8*T*T
		softmax := 144*B*T*T + 6144*B*T + 8*T*T
		up := 27648*B*T + 8*T*T
		wantInt(t, at+": live at the scores", c.Live[firstOp(t, rec, "SelfAttention.apply/%13", "blocks[0].attn")-1], scores)
		wantInt(t, at+": live at the softmax", c.Live[firstOp(t, rec, "SelfAttention.apply/%21", "blocks[0].attn")-1], softmax)
		wantInt(t, at+": live at the ff.up bias", c.Live[firstOp(t, rec, "Linear.apply/%5", "blocks[0].ff.up")-1], up)
		wantInt(t, at+": inputs", c.Inputs, 8*B*T+3072*T+85745664)
		wantInt(t, at+": outputs", c.Outputs, 736*B*T)
		wantInt(t, at+": peak", c.Peak, max(scores, softmax, up))
	}
}

// Where the attention's probabilities take the peak from the feed-forward:
// T = 150 at the course constants, T = 75 at D = 64.
func TestGPTCourseCrossover(t *testing.T) {
	for _, c := range []struct {
		consts map[string]int64
		T      int64
		label  string
	}{
		{map[string]int64{"D": 384, "H": 6, "L": 6}, 149, "Linear.apply/%5"},
		{map[string]int64{"D": 384, "H": 6, "L": 6}, 150, "SelfAttention.apply/%21"},
		{nil, 74, "Linear.apply/%5"},
		{nil, 75, "SelfAttention.apply/%21"},
	} {
		rec := recordAt(t, "gpt-course", map[string]int64{"B": 1, "T": c.T}, c.consts)
		if op := rec.Ops.At(count.At(rec).PeakOp - 1); op.Label != c.label {
			t.Errorf("%v at T = %d: peak at %s, want %s", c.consts, c.T, op.Label, c.label)
		}
	}
}

// The seed's numbers for the Llama 2 block at the 7B width, B = 1, T = 384,
// and its four candidates.
func TestLlamaAcceptance(t *testing.T) {
	rec := recordAt(t, "llama2-7b-block", nil, nil)
	c := count.At(rec)
	wantInt(t, "parameters", c.Params, 1864417280)
	wantInt(t, "peak", c.Peak, 57016320)
	wantInt(t, "needs", c.Needs, 1921439744)
	if op := rec.Ops.At(c.PeakOp - 1); op.Label != "SwiGLU.apply" {
		t.Errorf("peak at %q, want the SwiGLU", op.Label)
	}
	if len(c.ParamsByDType) != 1 || c.ParamsByDType[0].DType.Name != "f32" {
		t.Errorf("parameters by type %+v, want f32 alone", c.ParamsByDType)
	}

	for _, pt := range [][2]int64{{1, 1}, {1, 384}, {2, 128}, {5, 512}, {1, 2048}, {3, 1000}} {
		B, T := pt[0], pt[1]
		rec := recordAt(t, "llama2-7b-block", map[string]int64{"B": B, "T": T}, nil)
		c := count.At(rec)
		at := fmt.Sprintf("B = %d, T = %d", B, T)
		proj := 81920*B*T + 4*T*T + 16384*T
		scores := 128*B*T*T + 65536*B*T + 4*T*T
		masked := 256*B*T*T + 32768*B*T + 4*T*T
		swiglu := 148480 * B * T
		wantInt(t, at+": live at the v projection", c.Live[firstOp(t, rec, "Linear.apply", "block.attn.wv")-1], proj)
		wantInt(t, at+": live at the scores", c.Live[firstOp(t, rec, "Attention.scores", "block.attn")-1], scores)
		wantInt(t, at+": live at the mask", c.Live[firstOp(t, rec, "Attention.mask", "block.attn")-1], masked)
		wantInt(t, at+": live at the SwiGLU", c.Live[firstOp(t, rec, "SwiGLU.apply", "block.ffn")-1], swiglu)
		wantInt(t, at+": peak", c.Peak, max(proj, scores, masked, swiglu))
		wantInt(t, at+": inputs", c.Inputs, 1864417280-16384*384+16384*T+8*B*T+8*T)
	}
}

// firstOp returns the first operation (from 1) with the label at the path.
func firstOp(t *testing.T, rec *record.Recording, label, path string) int {
	t.Helper()
	for i, op := range rec.Ops.All() {
		if op.Label == label && op.Path == path {
			return i + 1
		}
	}
	t.Fatalf("no operation %s at %q", label, path)
	return 0
}

func wantInt(t *testing.T, what string, got poly.Rat, want int64) {
	t.Helper()
	if !got.Equal(poly.Int(want)) {
		t.Errorf("%s: %s bytes, want %d", what, got, want)
	}
}
