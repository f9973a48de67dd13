package programs

import (
	"memsym/poly"
	"memsym/record"
)

// workspaceBytes is the fixed scratch memory the f8 matrix products share:
// 32 MiB, given by its size rather than a shape.
const workspaceBytes = 32 << 20

var mixedPrecision = &Program{
	Name:        "mixed-precision",
	Summary:     "an f8 feed-forward block: bf16 weights and activations, f8 products with f32 scales and accumulators, f16 out",
	Entry:       "FP8Block.apply",
	Realization: "bf16 with f8 matmuls",
	Dims: []Dim{
		{Name: "B", Default: 16, Grid: [3]int64{4, 8, 12}, Check: 20, Doc: "sequences in the batch"},
		{Name: "T", Default: 512, Grid: [3]int64{128, 256, 384}, Check: 640, Doc: "tokens in each sequence"},
	},
	Consts: []Const{
		{Name: "D", Default: 1024, Doc: "the model width"},
		{Name: "F", Default: 4096, Doc: "the feed-forward's hidden width"},
	},
	build: buildMixed,
}

// buildMixed records FP8Block.apply on x [B, T, D] in bf16 and each
// sequence's length [B] in i32. Each matrix product quantizes its input to
// f8 with an f32 scale, multiplies by f8 weights into f32, and uses a
// workspace of fixed bytes; padding positions are zeroed through a bool mask.
// The result is x plus the block, cast to f16.
func buildMixed(n *net, v values) {
	B, T, D, F := v["B"], v["T"], v["D"], v["F"]
	bt := shape(B, T)

	x := n.input("x", bf16, B, T, D)
	lengths := n.input("lengths", i32, B)
	keep := n.doT("Mask.from_lengths", "", "keep", boolean, bt, lengths)

	h := n.rmsNormT("norm", x, bt, D, bf16)
	ws := n.r.Bytes(record.Temp, "matmul workspace", "", poly.Int(workspaceBytes))
	up := n.matmulF8("up", h, bt, D, F, ws)
	g := n.doT("Gelu.apply", "", "gelu", bf16, with(bt, F), up)
	g = n.doT("Mask.apply", "", "masked", bf16, with(bt, F), g, keep)
	down := n.matmulF8("down", g, bt, F, D, ws)
	y := n.doT("Residual.add", "", "sum", f32, with(bt, D), x, down)
	out := n.doT("Cast.apply", "", "y", f16, with(bt, D), y)
	n.result(out)
}

// rmsNormT is rmsNorm with its scale and output of type t.
func (n *net) rmsNormT(path string, x int64, lead []int64, d int64, t record.DType) int64 {
	g := n.paramT(path, "scale", t, d)
	return n.doT("RMSNorm.apply", path, "normed", t, with(lead, d), x, g)
}

// matmulF8 records at path the quantization of x to f8 with its scale, and
// its product with a new f8 weight [in, out] and scale into f32, which
// writes the workspace ws as its scratch.
func (n *net) matmulF8(path string, x int64, lead []int64, in, out, ws int64) int64 {
	w := n.paramT(path, "weight", f8, in, out)
	ws8 := n.paramT(path, "weight scale", f32)
	xq := n.tempT(path, "x f8", f8, with(lead, in)...)
	xs := n.tempT(path, "x scale", f32)
	n.run("Quantize.f8", path, ids(x), ids(xq, xs))
	y := n.tempT(path, "product", f32, with(lead, out)...)
	n.run("Matmul.f8", path, ids(xq, xs, w, ws8), ids(y, ws))
	return y
}
