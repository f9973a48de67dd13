package programs

import "fmt"

// maxKernel bounds a convolution's kernel side, so that its window's
// columns (Cin·K·K) stay within int64.
const maxKernel = 1 << 10

var convSame = &Program{
	Name:        "conv-same",
	Summary:     "a residual convolutional net with \"same\" padding over N×N images, so activations grow as N², in f32",
	Entry:       "ConvNet.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 16, Grid: [3]int64{4, 8, 12}, Check: 20, Doc: "images in the batch"},
		{Name: "N", Default: 64, Grid: [3]int64{16, 32, 48}, Check: 80, Doc: "the image's side, in pixels"},
	},
	Consts: []Const{
		{Name: "Cin", Default: 3, Doc: "the image's channels"},
		{Name: "C", Default: 32, Doc: "channels of every convolution"},
		{Name: "K", Default: 3, Doc: "the kernel's side; odd, so that padding keeps the side", Max: maxKernel},
		{Name: "L", Default: 3, Doc: "convolutions", Max: maxLayers},
		{Name: "O", Default: 10, Doc: "classes"},
	},
	check: checks(
		func(v values) error {
			if v["K"]%2 == 0 {
				return &unmet{fmt.Sprintf("K = %d: \"same\" padding needs an odd kernel", v["K"]), []string{"K"}}
			}
			return nil
		},
	),
	build: buildConvSame,
	loss:  crossEntropy,
}

// buildConvSame records ConvNet.apply on images [B, Cin, N, N]: L
// convolutions, each on a copy padded by (K − 1)/2 on every side, then a
// batch norm and a ReLU; from the second on, added to their input. The first
// lowers its window to columns (im2col) and multiplies; the others convolve
// directly. A global average pool and a linear layer make the logits
// [B, O], the result.
func buildConvSame(n *net, v values) {
	B, N, Cin, C, K, L, O := v["B"], v["N"], v["Cin"], v["C"], v["K"], v["L"], v["O"]
	x := n.input("images", n.dt, B, Cin, N, N)
	cin := Cin
	for i := int64(0); i < L; i++ {
		path := at("convs", i)
		w := n.param(path, "weight", C, cin, K, K)
		b := n.param(path, "bias", C)
		pad := n.do("Pad.same", path, "padded", shape(B, cin, N+K-1, N+K-1), x)
		var y int64
		if i == 0 {
			cols := n.do("Im2col.apply", path, "columns", shape(B, cin*K*K, N, N), pad)
			y = n.do("Conv.matmul", path, "conv", shape(B, C, N, N), cols, w, b)
		} else {
			y = n.do("Conv.apply", path, "conv", shape(B, C, N, N), pad, w, b)
		}
		norm := join(path, "norm")
		scale := n.param(norm, "scale", C)
		shift := n.param(norm, "shift", C)
		mean := n.param(norm, "running mean", C)
		variance := n.param(norm, "running variance", C)
		y = n.do("BatchNorm.apply", norm, "normed", shape(B, C, N, N), y, scale, shift, mean, variance)
		y = n.do("Relu.apply", path, "relu", shape(B, C, N, N), y)
		if i > 0 {
			y = n.do("Residual.add", path, "sum", shape(B, C, N, N), x, y)
		}
		x, cin = y, C
	}
	pooled := n.do("GlobalAvgPool.apply", "pool", "pooled", shape(B, cin), x)
	logits := n.linear("head", "logits", pooled, shape(B), cin, O, true)
	n.result(logits)
}

var stridedConv = &Program{
	Name:        "strided-conv",
	Summary:     "a 1-D convolution of stride S over N samples: its output length is not a polynomial in N",
	Entry:       "StridedConv.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 8, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "signals in the batch"},
		{Name: "N", Default: 64, Grid: [3]int64{8, 10, 12}, Check: 15, Doc: "samples in each signal; at least K"},
	},
	Consts: []Const{
		{Name: "Cin", Default: 4, Doc: "the signal's channels"},
		{Name: "C", Default: 16, Doc: "the convolution's channels"},
		{Name: "K", Default: 3, Doc: "the kernel's width"},
		{Name: "S", Default: 2, Doc: "the stride"},
		{Name: "O", Default: 10, Doc: "classes"},
	},
	Refusal: "the strided convolution's output length ⌊(N − K)/S⌋ + 1 is not a polynomial in N when S > 1: " +
		"at S = 2 it is N/2 − 1 on the even grid N ∈ {8, 10, 12} but 7, not 6.5, at N = 15",
	refuses: func(v values) bool { return v["S"] > 1 }, // at S = 1 the length is N − K + 1
	check:   func(v values) error { return atMost(v, "K", "N") },
	build:   buildStridedConv,
	loss:    crossEntropy,
}

// buildStridedConv records StridedConv.apply on signals [B, Cin, N]: a
// convolution of stride S, of ⌊(N − K)/S⌋ + 1 outputs, a ReLU, an average
// pool and a linear layer, whose logits [B, O] are the result.
func buildStridedConv(n *net, v values) {
	B, N, Cin, C, K, S, O := v["B"], v["N"], v["Cin"], v["C"], v["K"], v["S"], v["O"]
	m := (N-K)/S + 1
	x := n.input("signals", n.dt, B, Cin, N)
	w := n.param("conv", "weight", C, Cin, K)
	b := n.param("conv", "bias", C)
	y := n.do("Conv1d.apply", "conv", "conv", shape(B, C, m), x, w, b)
	y = n.do("Relu.apply", "", "relu", shape(B, C, m), y)
	pooled := n.do("AvgPool.apply", "", "pooled", shape(B, C), y)
	logits := n.linear("head", "logits", pooled, shape(B), C, O, true)
	n.result(logits)
}
