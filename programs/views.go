package programs

import "fmt"

var viewsHeavy = &Program{
	Name:        "views-heavy",
	Summary:     "attention written with views of views, operations of several outputs, writes through views and a view as result",
	Entry:       "Views.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 4, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "sequences in the batch"},
		{Name: "T", Default: 128, Grid: [3]int64{32, 64, 96}, Check: 160, Doc: "tokens in each sequence"},
	},
	Consts: []Const{
		{Name: "D", Default: 128, Doc: "the width; even"},
		{Name: "H", Default: 4, Doc: "attention heads; must divide D"},
	},
	check: checks(
		func(v values) error { return divisible(v, "D", "H") },
		func(v values) error {
			if v["D"]%2 != 0 {
				return &unmet{fmt.Sprintf("D = %d: expected an even width, split in halves", v["D"]), []string{"D"}}
			}
			return nil
		},
	),
	build: buildViews,
}

// buildViews records Views.apply on x [B, T, D]. What it exercises, in turn:
// a view of a caller-held input (reading it keeps nothing live); q, k and v
// as slices of one buffer, reshaped and transposed (views of views of
// views), with the keys transposed once more; an operation with two outputs
// (scores and their row maxima) and one with three, one never read; writes
// into halves of an accumulator through views; a view of the queries read
// only at the end, which keeps their buffer live until then; and a view as
// the result, which keeps its base live to the end.
func buildViews(n *net, v values) {
	B, T, D, H := v["B"], v["T"], v["D"], v["H"]
	bt := shape(B, T)
	dh := D / H

	x := n.input("x", n.dt, B, T, D)
	xh := n.view("View.reshape", "", "x by head", x, B, T, H, dh)
	qkv := n.linear("qkv", "qkv", xh, bt, D, 3*D, true)
	q := n.view("View.slice", "split", "q", qkv, B, T, D)
	k := n.view("View.slice", "split", "k", qkv, B, T, D)
	val := n.view("View.slice", "split", "v", qkv, B, T, D)
	qh := n.splitHeads("split", "q", q, B, T, H, dh)
	kh := n.splitHeads("split", "k", k, B, T, H, dh)
	vh := n.splitHeads("split", "v", val, B, T, H, dh)
	kt := n.view("View.transpose", "attn", "k transposed", kh, B, H, dh, T)
	last := n.view("View.select", "attn", "last query", qh, B, H, 1, dh)

	scores := n.temp("attn", "scores", B, H, T, T)
	rowMax := n.temp("attn", "row maxima", B, H, T)
	n.run("Attention.scores_max", "attn", ids(qh, kt), ids(scores, rowMax))
	p := n.do("Softmax.apply", "attn", "probabilities", shape(B, H, T, T), scores, rowMax)
	c := n.do("Attention.mix", "attn", "context", shape(B, H, T, dh), p, vh)
	byToken := n.view("View.transpose", "attn", "context by token", c, B, T, H, dh)
	flat := n.view("View.reshape", "attn", "context flat", byToken, B, T, D)

	lo := n.temp("mix", "low half", B, T, D/2)
	hi := n.temp("mix", "high half", B, T, D/2)
	spare := n.temp("mix", "norms", B, T, 1)
	n.run("Split.copy", "mix", ids(flat), ids(lo, hi, spare))
	acc := n.do("Zeros.apply", "mix", "accumulator", with(bt, D))
	accLo := n.view("View.slice", "mix", "accumulator low", acc, B, T, D/2)
	accHi := n.view("View.slice", "mix", "accumulator high", acc, B, T, D/2)
	n.run("Gelu.into", "mix", ids(lo), ids(accLo))
	n.run("Tanh.into", "mix", ids(hi), ids(accHi))

	lastNorm := n.do("Norm.apply", "", "last query norm", shape(B, H, 1), last)
	out := n.view("View.reshape", "", "output", acc, B, T, H, dh)
	n.result(out, lastNorm)
}
