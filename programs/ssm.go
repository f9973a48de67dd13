package programs

var ssmScan = &Program{
	Name:        "ssm-scan",
	Summary:     "selective state-space layers (Mamba-like) whose scan over time keeps every state: linear in T, in f32",
	Entry:       "SSM.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 8, Grid: [3]int64{2, 4, 6}, Check: 9, Doc: "sequences in the batch"},
		{Name: "T", Default: 1024, Grid: [3]int64{256, 512, 768}, Check: 1280, Doc: "steps in each sequence"},
	},
	Consts: []Const{
		{Name: "D", Default: 256, Doc: "the model width"},
		{Name: "E", Default: 2, Doc: "the inner expansion: the scan runs on E·D channels"},
		{Name: "N", Default: 16, Doc: "the state's size per channel"},
		{Name: "R", Default: 16, Doc: "the rank of the step sizes' projection"},
		{Name: "K", Default: 4, Doc: "the causal convolution's width"},
		{Name: "L", Default: 2, Doc: "layers", Max: maxLayers},
	},
	build: buildSSM,
}

// buildSSM records SSM.apply on embedded inputs x [B, T, D]: L residual
// layers, each a selective scan between an input and an output projection,
// then a final norm. The result is the normed outputs [B, T, D] and each
// layer's last state [B, E·D, N], from which the next chunk would go on.
func buildSSM(n *net, v values) {
	B, T, D, E, N, R, K, L := v["B"], v["T"], v["D"], v["E"], v["N"], v["R"], v["K"], v["L"]
	bt := shape(B, T)
	ed := E * D

	x := n.input("x", n.dt, B, T, D)
	var last []int64
	for i := int64(0); i < L; i++ {
		path := at("layers", i)
		h := n.rmsNorm(join(path, "norm"), x, bt, D)
		xz := n.linear(join(path, "in_proj"), "xz", h, bt, D, 2*ed, false)
		xs := n.view("View.slice", path, "x part", xz, B, T, ed)
		z := n.view("View.slice", path, "gate part", xz, B, T, ed)

		// The causal depthwise convolution over time, then SiLU.
		conv := join(path, "conv")
		cw := n.param(conv, "weight", ed, K)
		cb := n.param(conv, "bias", ed)
		padded := n.do("Pad.causal", conv, "padded", shape(B, ed, T+K-1), xs)
		u := n.do("Conv1d.depthwise", conv, "conv", with(bt, ed), padded, cw, cb)
		u = n.do("Silu.apply", path, "u", with(bt, ed), u)

		// The input-dependent step sizes and projections B and C.
		dbc := n.linear(join(path, "x_proj"), "dt B C", u, bt, ed, R+2*N, false)
		dtLow := n.view("View.slice", path, "dt low rank", dbc, B, T, R)
		bIn := n.view("View.slice", path, "B", dbc, B, T, N)
		cOut := n.view("View.slice", path, "C", dbc, B, T, N)
		dt := n.linear(join(path, "dt_proj"), "dt", dtLow, bt, R, ed, true)
		dt = n.do("Softplus.apply", path, "step sizes", with(bt, ed), dt)

		// Discretize, scan, read out.
		a := n.param(path, "A log", ed, N)
		skip := n.param(path, "D", ed)
		aBar := n.do("SSM.discretize_a", path, "A bar", shape(B, T, ed, N), dt, a)
		bx := n.do("SSM.discretize_bx", path, "B bar x", shape(B, T, ed, N), dt, bIn, u)
		states := n.temp(path, "states", B, T, ed, N)
		final := n.temp(path, "last state", B, ed, N)
		n.run("SSM.scan", path, ids(aBar, bx), ids(states, final))
		y := n.do("SSM.readout", path, "y", with(bt, ed), states, cOut, u, skip)
		y = n.do("Gate.silu", path, "gated", with(bt, ed), y, z)
		out := n.linear(join(path, "out_proj"), "out", y, bt, ed, D, false)
		x = n.do("Residual.add", path, "x", with(bt, D), x, out)
		last = append(last, final)
	}
	y := n.rmsNorm("norm", x, bt, D)
	n.result(append([]int64{y}, last...)...)
}
