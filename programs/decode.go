package programs

var decodeKVCache = &Program{
	Name:        "decode-kv-cache",
	Summary:     "one decoding step of a decoder with a key-value cache of P past positions, returning the grown cache, in f16",
	Entry:       "Decoder.step",
	Realization: "f16",
	Dims: []Dim{
		{Name: "B", Default: 4, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "sequences decoded together"},
		{Name: "P", Default: 511, Grid: [3]int64{128, 256, 384}, Check: 640, Doc: "positions already in the cache"},
	},
	Consts: []Const{
		{Name: "D", Default: 512, Doc: "the model width"},
		{Name: "H", Default: 8, Doc: "attention heads; must divide D"},
		{Name: "L", Default: 4, Doc: "decoder blocks, each with its own cache", Max: maxLayers},
		{Name: "V", Default: 32000, Doc: "the vocabulary"},
	},
	check: func(v values) error { return divisible(v, "D", "H") },
	build: buildDecode,
	loss:  crossEntropy,
}

// buildDecode records Decoder.step on one new token per sequence [B] at its
// position [B], with each block's cached keys and values [B, H, P, D/H] held
// by the caller. Each block appends the new token's key and value to copies
// of its cache, which the step returns beside the logits [B, 1, V]: so the
// grown caches, (P + 1) positions each, stay live to the end.
func buildDecode(n *net, v values) {
	B, P, D, H, L, V := v["B"], v["P"], v["D"], v["H"], v["L"], v["V"]
	dh := D / H
	one := shape(B, 1)

	token := n.input("token", i64, B)
	position := n.input("position", i64, B)
	embed := n.param("embed", "weight", V, D)
	x := n.do("Embedding.apply", "embed", "x", shape(B, 1, D), token, embed)
	angles := n.do("Rotary.angles", "", "angles", shape(B, dh), position)

	caches := make([]int64, 0, 2*L)
	for i := int64(0); i < L; i++ {
		path := at("blocks", i)
		attn := join(path, "attn")
		kPast := n.r.Input("k cache", attn, n.dt, B, H, P, dh)
		vPast := n.r.Input("v cache", attn, n.dt, B, H, P, dh)

		h := n.rmsNorm(join(path, "attn_norm"), x, one, D)
		q := n.linear(join(attn, "wq"), "q", h, one, D, D, false)
		k := n.linear(join(attn, "wk"), "k", h, one, D, D, false)
		val := n.linear(join(attn, "wv"), "v", h, one, D, D, false)
		qr := n.do("Rotary.apply", attn, "q rotated", shape(B, H, 1, dh), q, angles)
		kr := n.do("Rotary.apply", attn, "k rotated", shape(B, H, 1, dh), k, angles)
		kAll := n.do("KVCache.append", attn, "k cache", shape(B, H, P+1, dh), kPast, kr)
		vAll := n.do("KVCache.append", attn, "v cache", shape(B, H, P+1, dh), vPast, val)
		c := n.attend(attn, heads{b: B, h: H, tq: 1, tk: P + 1, dh: dh}, qr, kAll, vAll, 0)
		c = n.mergeHeads(attn, c, B, 1, H, dh)
		a := n.linear(join(attn, "wo"), "attn out", c, one, D, D, false)
		x = n.do("Residual.add", path, "x", shape(B, 1, D), x, a)

		h = n.rmsNorm(join(path, "ffn_norm"), x, one, D)
		u := n.linear(join(path, "ffn.up"), "up", h, one, D, 4*D, false)
		g := n.do("Gelu.apply", join(path, "ffn"), "gelu", shape(B, 1, 4*D), u)
		d := n.linear(join(path, "ffn.down"), "down", g, one, 4*D, D, false)
		x = n.do("Residual.add", path, "x", shape(B, 1, D), x, d)
		caches = append(caches, kAll, vAll)
	}

	h := n.rmsNorm("norm", x, one, D)
	logits := n.linear("head", "logits", h, one, D, V, false)
	n.result(append([]int64{logits}, caches...)...)
}
