package programs

// gptVocab is the course GPT's vocabulary: its characters.
const gptVocab = 92

var gptCourse = &Program{
	Name:        "gpt-course",
	Summary:     "the course GPT's forward pass: pre-norm decoder blocks with causal attention, in f64",
	Entry:       "GPT.apply",
	Realization: "f64",
	Dims: []Dim{
		{Name: "B", Default: 2, Grid: [3]int64{16, 32, 48}, Check: 64, Doc: "sequences in the batch"},
		{Name: "T", Default: 16, Grid: [3]int64{256, 512, 768}, Check: 1024, Doc: "tokens in each sequence"},
	},
	Consts: []Const{
		{Name: "D", Default: 64, Doc: "the model width (384 in the course)"},
		{Name: "H", Default: 2, Doc: "attention heads; must divide D (6 in the course)"},
		{Name: "L", Default: 2, Doc: "decoder blocks (6 in the course)", Max: maxLayers},
	},
	check:       func(v values) error { return divisible(v, "D", "H") },
	Chapter:     &Chapter{Consts: map[string]int64{"D": 384, "H": 6, "L": 6}},
	loss:        crossEntropy,
	Transformer: &Transformer{S: "T", B: "B", H: "D", A: "H", L: "L", Layer: "blocks"},
	build:       buildGPT,
}

// buildGPT records GPT.apply on tokens [B, T]: the embeddings, L blocks, the
// final norm and the head, whose logits [B, T, V] are the result.
func buildGPT(n *net, v values) {
	B, T, D, H, L := v["B"], v["T"], v["D"], v["H"], v["L"]
	bt := shape(B, T)

	tokens := n.input("tokens", i64, B, T)
	mask := n.do("GPT.apply/%1", "", "mask", shape(T, T))
	wte := n.param("tok_emb", "weight", gptVocab, D)
	e := n.do("Embedding.apply/%0", "tok_emb", "embeddings", with(bt, D), tokens, wte)
	wpe := n.param("pos_emb", "weight", T, D)
	x := n.do("GPT.apply/%3", "", "x", with(bt, D), e, wpe)

	for i := int64(0); i < L; i++ {
		x = gptBlock(n, at("blocks", i), x, mask, B, T, D, H)
	}

	h := n.layerNorm("ln_f", x, bt, D)
	logits := n.linear("head", "logits", h, bt, D, gptVocab, false)
	n.result(logits)
}

// gptBlock records Block.apply at path: attention and the feed-forward,
// each after a layer norm and added to the residual stream x.
func gptBlock(n *net, path string, x, mask, B, T, D, H int64) int64 {
	bt := shape(B, T)
	h := n.layerNorm(join(path, "ln1"), x, bt, D)
	a := gptAttention(n, join(path, "attn"), h, mask, B, T, D, H)
	x2 := n.do("Block.apply/%9", path, "x", with(bt, D), x, a)

	h2 := n.layerNorm(join(path, "ln2"), x2, bt, D)
	ff := join(path, "ff")
	u := n.linear(join(ff, "up"), "up", h2, bt, D, 4*D, true)
	g := n.do("FeedForward.apply/%2", ff, "gelu", with(bt, 4*D), u)
	d := n.linear(join(ff, "down"), "down", g, bt, 4*D, D, true)
	return n.do("Block.apply/%14", path, "x", with(bt, D), x2, d)
}

// gptAttention records SelfAttention.apply at path: one projection to q, k
// and v, copied apart by head; the scaled scores, masked; the softmax, which
// also keeps its exponentials; the mix; and the output projection.
func gptAttention(n *net, path string, h, mask, B, T, D, H int64) int64 {
	bt := shape(B, T)
	dh := D / H
	qkv := n.linear(join(path, "qkv"), "qkv", h, bt, D, 3*D, true)
	q := n.do("SelfAttention.apply/%6", path, "q", shape(B, H, T, dh), qkv)
	k := n.do("SelfAttention.apply/%7", path, "k", shape(B, H, T, dh), qkv)
	v := n.do("SelfAttention.apply/%8", path, "v", shape(B, H, T, dh), qkv)

	scores := n.do("SelfAttention.apply/%13", path, "scores", shape(B, H, T, T), q, k)
	masked := n.do("SelfAttention.apply/%17", path, "masked scores", shape(B, H, T, T), scores, mask)
	p := n.temp(path, "probabilities", B, H, T, T)
	exps := n.temp(path, "exponentials", B, H, T, T)
	n.run("SelfAttention.apply/%21", path, ids(masked), ids(p, exps))
	o := n.do("SelfAttention.apply/%22", path, "context", with(bt, D), p, v)

	return n.linear(join(path, "proj"), "proj", o, bt, D, D, true)
}
