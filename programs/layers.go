package programs

// The layers several programs share. Each declares its parameters under its
// path, records its operations there, and returns what it makes. lead is the
// shape of the leading axes, such as [B, T].

// with returns lead followed by more, in a new slice.
func with(lead []int64, more ...int64) []int64 {
	s := make([]int64, 0, len(lead)+len(more))
	return append(append(s, lead...), more...)
}

// linear records x·W at path, and then + b when bias is set, with a new
// weight [in, out] and bias [out]; the result is named name.
func (n *net) linear(path, name string, x int64, lead []int64, in, out int64, bias bool) int64 {
	w := n.param(path, "weight", in, out)
	if !bias {
		return n.do("Linear.apply/%4", path, name, with(lead, out), x, w)
	}
	xw := n.do("Linear.apply/%4", path, name+" xW", with(lead, out), x, w)
	b := n.param(path, "bias", out)
	return n.do("Linear.apply/%5", path, name, with(lead, out), xw, b)
}

// layerNorm records a layer norm over the last axis (of d elements) at
// path, with a new scale and shift [d].
func (n *net) layerNorm(path string, x int64, lead []int64, d int64) int64 {
	gamma := n.param(path, "scale", d)
	beta := n.param(path, "shift", d)
	return n.do("LayerNorm.apply/%3", path, "normed", with(lead, d), x, gamma, beta)
}

// rmsNorm records an RMS norm over the last axis at path, with a new
// scale [d].
func (n *net) rmsNorm(path string, x int64, lead []int64, d int64) int64 {
	g := n.param(path, "scale", d)
	return n.do("RMSNorm.apply", path, "normed", with(lead, d), x, g)
}

// heads describes multi-head attention's shapes: b sequences of h heads of
// dh reals, tq queries against tk keys.
type heads struct {
	b, h, tq, tk, dh int64
}

// attend records scaled dot-product attention at path on per-head queries
// q [b, h, tq, dh], keys k and values v [b, h, tk, dh], adding mask (if not
// 0) to the scores, and returns the context [b, h, tq, dh]. The scores are
// scaled as they are made; softmax makes the probabilities alone.
func (n *net) attend(path string, s heads, q, k, v, mask int64) int64 {
	scores := n.do("Attention.scores", path, "scores", shape(s.b, s.h, s.tq, s.tk), q, k)
	if mask != 0 {
		scores = n.do("Attention.mask", path, "masked scores", shape(s.b, s.h, s.tq, s.tk), scores, mask)
	}
	p := n.do("Attention.softmax", path, "probabilities", shape(s.b, s.h, s.tq, s.tk), scores)
	return n.do("Attention.mix", path, "context", shape(s.b, s.h, s.tq, s.dh), p, v)
}

// splitHeads records the views that turn x [b, t, h·dh] into [b, h, t, dh]:
// a reshape, then a transpose of the reshape.
func (n *net) splitHeads(path, name string, x, b, t, h, dh int64) int64 {
	r := n.view("View.reshape", path, name+" by head", x, b, t, h, dh)
	return n.view("View.transpose", path, name+" heads", r, b, h, t, dh)
}

// mergeHeads records the copy that turns a context [b, h, t, dh] back into
// [b, t, h·dh].
func (n *net) mergeHeads(path string, c, b, t, h, dh int64) int64 {
	return n.do("Attention.merge", path, "merged", shape(b, t, h*dh), c)
}
