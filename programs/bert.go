package programs

var bertEncoder = &Program{
	Name:        "bert-encoder",
	Summary:     "a BERT encoder: bidirectional attention under a padding mask, post-norm blocks, a pooler, in f32",
	Entry:       "Bert.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 8, Grid: [3]int64{2, 4, 6}, Check: 9, Doc: "sequences in the batch"},
		{Name: "T", Default: 128, Grid: [3]int64{64, 128, 192}, Check: 320, Doc: "tokens in each sequence; at most P"},
	},
	Consts: []Const{
		{Name: "D", Default: 256, Doc: "the model width"},
		{Name: "H", Default: 4, Doc: "attention heads; must divide D"},
		{Name: "L", Default: 2, Doc: "encoder blocks", Max: maxLayers},
		{Name: "V", Default: 30522, Doc: "the vocabulary"},
		{Name: "P", Default: 512, Doc: "the positions the position embedding has rows for"},
	},
	check: checks(
		func(v values) error { return divisible(v, "D", "H") },
		func(v values) error { return atMost(v, "T", "P") },
	),
	build:       buildBert,
	Transformer: &Transformer{S: "T", B: "B", H: "D", A: "H", L: "L", Layer: "layers"},
}

// buildBert records Bert.apply on tokens and segment ids [B, T] and a
// padding mask [B, T] (which tokens are real): the three embeddings summed
// and normed, L blocks, and the pooler on each sequence's first token. The
// result is the last hidden states [B, T, D] and the pooled [B, D].
func buildBert(n *net, v values) {
	B, T, D, H, L, V, P := v["B"], v["T"], v["D"], v["H"], v["L"], v["V"], v["P"]
	bt := shape(B, T)

	tokens := n.input("tokens", i64, B, T)
	segments := n.input("segments", i64, B, T)
	padding := n.input("padding", boolean, B, T)

	words := n.param("embeddings", "words", V, D)
	positions := n.param("embeddings", "positions", P, D)
	types := n.param("embeddings", "types", 2, D)
	e := n.do("Embeddings.apply", "embeddings", "embedded", with(bt, D), tokens, segments, words, positions, types)
	x := n.layerNorm("embeddings.norm", e, bt, D)
	bias := n.do("Bert.mask_bias", "", "mask bias", shape(B, 1, 1, T), padding)

	for i := int64(0); i < L; i++ {
		x = bertBlock(n, at("layers", i), x, bias, B, T, D, H)
	}

	first := n.view("View.select", "pooler", "first token", x, B, D)
	pooled := n.linear("pooler.dense", "pooled", first, shape(B), D, D, true)
	pooled = n.do("Tanh.apply", "pooler", "pooled", shape(B, D), pooled)
	n.result(x, pooled)
}

// bertBlock records one post-norm encoder block at path: attention over
// every token (no causal mask), added and normed, then the GELU
// feed-forward, added and normed.
func bertBlock(n *net, path string, x, bias, B, T, D, H int64) int64 {
	bt := shape(B, T)
	dh := D / H
	attn := join(path, "attention")
	q := n.linear(join(attn, "query"), "q", x, bt, D, D, true)
	k := n.linear(join(attn, "key"), "k", x, bt, D, D, true)
	val := n.linear(join(attn, "value"), "v", x, bt, D, D, true)
	qh := n.splitHeads(attn, "q", q, B, T, H, dh)
	kh := n.splitHeads(attn, "k", k, B, T, H, dh)
	vh := n.splitHeads(attn, "v", val, B, T, H, dh)
	c := n.attend(attn, heads{b: B, h: H, tq: T, tk: T, dh: dh}, qh, kh, vh, bias)
	c = n.mergeHeads(attn, c, B, T, H, dh)
	a := n.linear(join(attn, "output"), "attention out", c, bt, D, D, true)
	x = n.do("Residual.add", attn, "sum", with(bt, D), x, a)
	x = n.layerNorm(join(attn, "norm"), x, bt, D)

	ff := join(path, "ffn")
	u := n.linear(join(ff, "intermediate"), "intermediate", x, bt, D, 4*D, true)
	g := n.do("Gelu.apply", ff, "gelu", with(bt, 4*D), u)
	d := n.linear(join(ff, "output"), "ffn out", g, bt, 4*D, D, true)
	x = n.do("Residual.add", ff, "sum", with(bt, D), x, d)
	return n.layerNorm(join(ff, "norm"), x, bt, D)
}
