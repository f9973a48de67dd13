package programs

var moeLayer = &Program{
	Name:        "moe-layer",
	Summary:     "a mixture-of-experts layer: a router picks the top K of E SwiGLU experts for each token, in f32",
	Entry:       "MoE.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 8, Grid: [3]int64{2, 4, 6}, Check: 9, Doc: "sequences in the batch"},
		{Name: "T", Default: 256, Grid: [3]int64{64, 128, 192}, Check: 320, Doc: "tokens in each sequence"},
	},
	Consts: []Const{
		{Name: "D", Default: 512, Doc: "the model width"},
		{Name: "F", Default: 1024, Doc: "each expert's hidden width"},
		{Name: "E", Default: 8, Doc: "experts"},
		{Name: "K", Default: 2, Doc: "experts per token; at most E"},
	},
	check: func(v values) error { return atMost(v, "K", "E") },
	build: buildMoE,
}

// buildMoE records MoE.apply on x [B, T, D]. The router scores every expert
// for every token and keeps the top K, with their weights renormalized. The
// tokens are sorted by expert and copied out, K copies each, so that the
// experts run as grouped matrix products over all B·T·K copies whatever the
// routing; their outputs are weighted and summed back per token. The result
// is x plus that, and the load-balancing loss.
func buildMoE(n *net, v values) {
	B, T, D, F, E, K := v["B"], v["T"], v["D"], v["F"], v["E"], v["K"]
	bt := shape(B, T)
	btk := shape(B, T, K)

	x := n.input("x", n.dt, B, T, D)
	h := n.layerNorm("norm", x, bt, D)

	// Routing.
	logits := n.linear("router", "router logits", h, bt, D, E, false)
	probs := n.do("Softmax.apply", "router", "router probabilities", with(bt, E), logits)
	weights := n.temp("router", "top-k weights", B, T, K)
	experts := n.tempT("router", "top-k experts", i64, B, T, K)
	n.run("TopK.apply", "router", ids(probs), ids(weights, experts))
	weights = n.do("TopK.renormalize", "router", "routing weights", btk, weights)
	order := n.tempT("dispatch", "order", i32, B, T, K)
	counts := n.tempT("dispatch", "tokens per expert", i64, E)
	n.run("MoE.sort", "dispatch", ids(experts), ids(order, counts))
	routed := n.do("MoE.dispatch", "dispatch", "routed tokens", with(btk, D), h, order)

	// The experts, as grouped products over the routed copies.
	wg := n.param("experts", "gate", E, D, F)
	wu := n.param("experts", "up", E, D, F)
	wd := n.param("experts", "down", E, F, D)
	g := n.do("GroupedMatmul.apply", "experts.gate", "gate", with(btk, F), routed, wg, counts)
	u := n.do("GroupedMatmul.apply", "experts.up", "up", with(btk, F), routed, wu, counts)
	s := n.do("SwiGLU.apply", "experts", "swiglu", with(btk, F), g, u)
	d := n.do("GroupedMatmul.apply", "experts.down", "down", with(btk, D), s, wd, counts)

	// Back to the tokens.
	combined := n.do("MoE.combine", "combine", "combined", with(bt, D), d, weights, order)
	y := n.do("Residual.add", "", "y", with(bt, D), x, combined)
	loss := n.do("MoE.balance_loss", "router", "balance loss", shape(), probs, counts)
	n.result(y, loss)
}
