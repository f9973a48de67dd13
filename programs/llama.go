package programs

// llamaDims are the Llama 2 block's dimensions: one sequence of 384 tokens by
// default, a grid that keeps recordings small, and check points off it.
var llamaDims = []Dim{
	{Name: "B", Default: 1, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "sequences in the batch"},
	{Name: "T", Default: 384, Grid: [3]int64{128, 256, 384}, Check: 512, Doc: "tokens in each sequence"},
}

// llamaConsts are the 7B configuration's widths.
var llamaConsts = []Const{
	{Name: "D", Default: 4096, Doc: "the model width"},
	{Name: "H", Default: 32, Doc: "attention heads; must divide D"},
	{Name: "F", Default: 11008, Doc: "the feed-forward's hidden width"},
	{Name: "V", Default: 32000, Doc: "the vocabulary"},
}

var llama2Block = &Program{
	Name:        "llama2-7b-block",
	Summary:     "one Llama 2 decoder block at the 7B width, with the embedding, the final norm and the head, in f32",
	Entry:       "DecoderBlock.apply",
	Realization: "f32",
	Dims:        llamaDims,
	Consts:      llamaConsts,
	check:       func(v values) error { return divisible(v, "D", "H") },
	build:       func(n *net, v values) { buildLlama(n, v, llamaF32{}) },
	Transformer: &Transformer{S: "T", B: "B", H: "D", A: "H", Layer: "block"},
	loss:        crossEntropy,
	blocks:      "block",
}

var llama2BlockInt4 = &Program{
	Name:        "llama2-7b-block-int4",
	Summary:     "the Llama 2 block with int4 weights and f32 scales per group of G inputs, and an int4 causal mask",
	Entry:       "DecoderBlock.apply",
	Realization: "f32 with i4 weights",
	Dims:        llamaDims,
	Consts: append(append([]Const(nil), llamaConsts...),
		Const{Name: "G", Default: 128, Doc: "inputs per group of weights sharing one f32 scale; must divide D and F"}),
	check: checks(
		func(v values) error { return divisible(v, "D", "H") },
		func(v values) error { return divisible(v, "D", "G") },
		func(v values) error { return divisible(v, "F", "G") },
	),
	build:  func(n *net, v values) { buildLlama(n, v, llamaInt4{group: v["G"]}) },
	loss:   crossEntropy,
	blocks: "block",
}

// llamaWeights is how the block stores its projections' weights and its
// causal mask.
type llamaWeights interface {
	// project records x·W at path for a new weight [in, out].
	project(n *net, path, name string, x int64, lead []int64, in, out int64) int64
	// mask records the causal mask [t, t].
	mask(n *net, t int64) int64
}

// llamaF32 keeps everything in f32.
type llamaF32 struct{}

func (llamaF32) project(n *net, path, name string, x int64, lead []int64, in, out int64) int64 {
	w := n.param(path, "weight", in, out)
	return n.do("Linear.apply", path, name, with(lead, out), x, w)
}

func (llamaF32) mask(n *net, t int64) int64 {
	return n.do("Decoder.mask", "", "mask", shape(t, t))
}

// llamaInt4 stores each weight as int4, two to a byte, with an f32 scale for
// each group of inputs, and the causal mask as int4: t² of them, so half a
// byte is left over when t is odd.
type llamaInt4 struct{ group int64 }

func (q llamaInt4) project(n *net, path, name string, x int64, lead []int64, in, out int64) int64 {
	w := n.paramT(path, "weight", i4, in, out)
	scales := n.paramT(path, "scales", f32, in/q.group, out)
	return n.do("QuantLinear.apply", path, name, with(lead, out), x, w, scales)
}

func (llamaInt4) mask(n *net, t int64) int64 {
	return n.doT("Decoder.mask", "", "mask", i4, shape(t, t))
}

// buildLlama records the block on tokens [B, T] at positions [T]: the
// embedding, the rotary table's rows, the causal mask, attention and the
// SwiGLU feed-forward with their RMS norms and residuals, the final norm and
// the head, whose logits [B, T, V] are the result.
func buildLlama(n *net, v values, w llamaWeights) {
	B, T, D, H, F, V := v["B"], v["T"], v["D"], v["H"], v["F"], v["V"]
	bt := shape(B, T)
	dh := D / H

	tokens := n.input("tokens", i64, B, T)
	positions := n.input("positions", i64, T)
	embed := n.param("embed", "weight", V, D)
	x := n.do("Embedding.apply", "embed", "x", with(bt, D), tokens, embed)
	table := n.param("rope", "table", T, D)
	rot := n.do("Rotary.gather", "rope", "rotary", shape(T, D), table, positions)
	mask := w.mask(n, T)

	attn := "block.attn"
	h := n.rmsNorm("block.attn_norm", x, bt, D)
	q := w.project(n, join(attn, "wq"), "q", h, bt, D, D)
	k := w.project(n, join(attn, "wk"), "k", h, bt, D, D)
	val := w.project(n, join(attn, "wv"), "v", h, bt, D, D)
	qr := n.do("Rotary.apply", attn, "q rotated", shape(B, H, T, dh), q, rot)
	kr := n.do("Rotary.apply", attn, "k rotated", shape(B, H, T, dh), k, rot)
	s := n.do("Attention.scores", attn, "scores", shape(B, H, T, T), qr, kr)
	sm := n.do("Attention.mask", attn, "masked scores", shape(B, H, T, T), s, mask)
	p := n.do("Attention.softmax", attn, "probabilities", shape(B, H, T, T), sm)
	o := n.do("Attention.mix", attn, "context", with(bt, D), p, val)
	a := w.project(n, join(attn, "wo"), "attn out", o, bt, D, D)
	x2 := n.do("Decoder.residual", "block", "x", with(bt, D), x, a)

	ffn := "block.ffn"
	h2 := n.rmsNorm("block.ffn_norm", x2, bt, D)
	g := w.project(n, join(ffn, "gate"), "gate", h2, bt, D, F)
	u := w.project(n, join(ffn, "up"), "up", h2, bt, D, F)
	sw := n.do("SwiGLU.apply", ffn, "swiglu", with(bt, F), g, u)
	d := w.project(n, join(ffn, "down"), "down", sw, bt, F, D)
	x3 := n.do("Decoder.residual", "block", "x", with(bt, D), x2, d)

	hf := n.rmsNorm("norm", x3, bt, D)
	logits := w.project(n, "head", "logits", hf, bt, D, V)
	n.result(logits)
}
