package programs

// gptDepth is the course GPT with its depth a dimension.
var gptDepth = &Program{
	Name:        "gpt-depth",
	Summary:     "the course GPT's forward pass with its block count L a dimension, modelled for L ≥ 2 (the first and the last block peeled)",
	Entry:       "GPT.apply",
	Realization: "f64",
	Dims: []Dim{
		{Name: "B", Default: 2, Grid: [3]int64{16, 32, 48}, Check: 64, Doc: "sequences in the batch"},
		{Name: "T", Default: 16, Grid: [3]int64{256, 512, 768}, Check: 1024, Doc: "tokens in each sequence"},
		{Name: "L", Default: 3, Grid: [3]int64{2, 3, 4}, Check: 5, Doc: "decoder blocks: a count of blocks of operations, not a size", Blocks: true, Max: maxLayers},
	},
	Consts: []Const{
		{Name: "D", Default: 64, Doc: "the model width (384 in the course)"},
		{Name: "H", Default: 2, Doc: "attention heads; must divide D (6 in the course)"},
	},
	check:       func(v values) error { return divisible(v, "D", "H") },
	loss:        crossEntropy,
	Transformer: &Transformer{S: "T", B: "B", H: "D", A: "H", L: "L", Layer: "blocks"},
	build:       buildGPT,
}
