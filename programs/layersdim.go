package programs

var layersAsDim = &Program{
	Name:        "layers-as-dim",
	Summary:     "a ReLU MLP whose layer count L is a dimension: its operations change with L, one block repeated L times",
	Entry:       "Deep.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 4, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "examples in the batch"},
		{Name: "L", Default: 3, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "layers: a count of blocks of operations, not a size", Blocks: true, Max: maxLayers},
	},
	Consts: []Const{
		{Name: "D", Default: 256, Doc: "the width"},
	},
	build: buildLayersAsDim,
}

// buildLayersAsDim records Deep.apply on x [B, D]: L layers, each a linear
// layer and a ReLU; the last ReLU's output is the result.
func buildLayersAsDim(n *net, v values) {
	B, L, D := v["B"], v["L"], v["D"]
	x := n.input("x", n.dt, B, D)
	for i := int64(0); i < L; i++ {
		path := at("layers", i)
		z := n.linear(path, "z", x, shape(B), D, D, true)
		x = n.do("Relu.apply", path, "relu", shape(B, D), z)
	}
	n.result(x)
}
