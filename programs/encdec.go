package programs

var encdecCross = &Program{
	Name:        "encdec-cross",
	Summary:     "an encoder-decoder transformer: the decoder attends to its targets causally and to the encoded sources, in f32",
	Entry:       "Seq2Seq.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 4, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "sequence pairs in the batch"},
		{Name: "S", Default: 96, Grid: [3]int64{32, 64, 96}, Check: 160, Doc: "source tokens"},
		{Name: "T", Default: 64, Grid: [3]int64{16, 32, 48}, Check: 80, Doc: "target tokens"},
	},
	Consts: []Const{
		{Name: "D", Default: 256, Doc: "the model width"},
		{Name: "H", Default: 4, Doc: "attention heads; must divide D"},
		{Name: "L", Default: 2, Doc: "blocks in the encoder and in the decoder", Max: maxLayers},
		{Name: "V", Default: 8000, Doc: "the shared vocabulary"},
	},
	check: func(v values) error { return divisible(v, "D", "H") },
	build: buildEncDec,
	loss:  crossEntropy,
}

// buildEncDec records Seq2Seq.apply on sources [B, S] and targets [B, T]:
// the encoder's L blocks make the memory [B, S, D], which every decoder block
// reads through cross attention; the result is the logits [B, T, V].
func buildEncDec(n *net, v values) {
	B, S, T, D, H, L, V := v["B"], v["S"], v["T"], v["D"], v["H"], v["L"], v["V"]
	src := n.input("sources", i64, B, S)
	tgt := n.input("targets", i64, B, T)
	emb := n.param("embed", "weight", V, D)

	// The encoder: sinusoidal positions are computed, not stored.
	pe := n.do("Positions.sinusoid", "encoder", "positions", shape(S, D))
	x := n.do("Embedding.apply", "embed", "sources embedded", shape(B, S, D), src, emb, pe)
	for i := int64(0); i < L; i++ {
		p := at("encoder.layers", i)
		h := n.layerNorm(join(p, "self_norm"), x, shape(B, S), D)
		a := encdecAttention(n, join(p, "self"), h, h, 0, B, S, S, D, H)
		x = n.do("Residual.add", p, "x", shape(B, S, D), x, a)
		x = encdecFeedForward(n, p, x, B, S, D)
	}
	memory := n.layerNorm("encoder.norm", x, shape(B, S), D)

	// The decoder: causal self attention, then attention to the memory.
	mask := n.do("Decoder.mask", "decoder", "causal mask", shape(T, T))
	pd := n.do("Positions.sinusoid", "decoder", "positions", shape(T, D))
	y := n.do("Embedding.apply", "embed", "targets embedded", shape(B, T, D), tgt, emb, pd)
	for i := int64(0); i < L; i++ {
		p := at("decoder.layers", i)
		h := n.layerNorm(join(p, "self_norm"), y, shape(B, T), D)
		a := encdecAttention(n, join(p, "self"), h, h, mask, B, T, T, D, H)
		y = n.do("Residual.add", p, "y", shape(B, T, D), y, a)
		h = n.layerNorm(join(p, "cross_norm"), y, shape(B, T), D)
		c := encdecAttention(n, join(p, "cross"), h, memory, 0, B, T, S, D, H)
		y = n.do("Residual.add", p, "y", shape(B, T, D), y, c)
		y = encdecFeedForward(n, p, y, B, T, D)
	}
	h := n.layerNorm("decoder.norm", y, shape(B, T), D)
	logits := n.linear("head", "logits", h, shape(B, T), D, V, false)
	n.result(logits)
}

// encdecAttention records attention at path of queries from x [B, tq, D] to
// keys and values from kv [B, tk, D], under mask if it is not 0, with its
// four projections.
func encdecAttention(n *net, path string, x, kv, mask, B, tq, tk, D, H int64) int64 {
	dh := D / H
	q := n.linear(join(path, "q"), "q", x, shape(B, tq), D, D, true)
	k := n.linear(join(path, "k"), "k", kv, shape(B, tk), D, D, true)
	val := n.linear(join(path, "v"), "v", kv, shape(B, tk), D, D, true)
	qh := n.splitHeads(path, "q", q, B, tq, H, dh)
	kh := n.splitHeads(path, "k", k, B, tk, H, dh)
	vh := n.splitHeads(path, "v", val, B, tk, H, dh)
	c := n.attend(path, heads{b: B, h: H, tq: tq, tk: tk, dh: dh}, qh, kh, vh, mask)
	c = n.mergeHeads(path, c, B, tq, H, dh)
	return n.linear(join(path, "out"), "attention out", c, shape(B, tq), D, D, true)
}

// encdecFeedForward records a pre-norm ReLU feed-forward at path and its
// residual.
func encdecFeedForward(n *net, path string, x, B, t, D int64) int64 {
	h := n.layerNorm(join(path, "ffn_norm"), x, shape(B, t), D)
	ff := join(path, "ffn")
	u := n.linear(join(ff, "up"), "up", h, shape(B, t), D, 4*D, true)
	r := n.do("Relu.apply", ff, "relu", shape(B, t, 4*D), u)
	d := n.linear(join(ff, "down"), "down", r, shape(B, t), 4*D, D, true)
	return n.do("Residual.add", path, "x", shape(B, t, D), x, d)
}
