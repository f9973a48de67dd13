package programs

var mlpWidth = &Program{
	Name:        "mlp-width",
	Summary:     "a ReLU MLP whose hidden width W is a dimension, so its parameters grow as W², in f32",
	Entry:       "MLP.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 64, Grid: [3]int64{16, 32, 48}, Check: 80, Doc: "examples in the batch"},
		{Name: "W", Default: 1024, Grid: [3]int64{256, 512, 768}, Check: 1280, Doc: "the hidden width"},
	},
	Consts: []Const{
		{Name: "I", Default: 784, Doc: "input features"},
		{Name: "O", Default: 10, Doc: "classes"},
		{Name: "L", Default: 3, Doc: "hidden layers", Max: maxLayers},
	},
	build: buildMLPWidth,
	loss:  crossEntropy,
}

// buildMLPWidth records MLP.apply on x [B, I]: L hidden layers of width W,
// each a linear layer and a ReLU, then the output layer and a softmax, whose
// probabilities [B, O] are the result.
func buildMLPWidth(n *net, v values) {
	B, W, I, O, L := v["B"], v["W"], v["I"], v["O"], v["L"]
	x := n.input("x", n.dt, B, I)
	in := I
	for i := int64(0); i < L; i++ {
		path := at("hidden", i)
		z := n.linear(path, "z", x, shape(B), in, W, true)
		x = n.do("Relu.apply", path, "relu", shape(B, W), z)
		in = W
	}
	logits := n.linear("out", "logits", x, shape(B), in, O, true)
	p := n.do("Softmax.apply", "", "probabilities", shape(B, O), logits)
	n.result(p)
}

var mlpTrainStep = &Program{
	Name:        "mlp-train-step",
	Summary:     "a training step of a ReLU MLP with momentum SGD, updating its parameters and momenta in place, in f32",
	Entry:       "MLP.train_step",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 128, Grid: [3]int64{32, 64, 96}, Check: 160, Doc: "examples in the batch"},
	},
	Consts: []Const{
		{Name: "I", Default: 784, Doc: "input features"},
		{Name: "W", Default: 512, Doc: "the hidden width"},
		{Name: "O", Default: 10, Doc: "classes"},
		{Name: "L", Default: 2, Doc: "hidden layers", Max: maxLayers},
	},
	build:       buildMLPTrainStep,
	stepRefusal: "it records a training step already, its momentum SGD updating each layer in place as soon as the backward sweep reaches it, as one call without phases: count and model it without --step",
}

// mlpLayer is one linear layer of the training step: its parameters, the
// momenta the caller keeps for them, and what the forward sweep kept for
// the backward one.
type mlpLayer struct {
	path        string
	in, out     int64
	w, b        int64 // parameters
	mw, mb      int64 // momenta
	x, z        int64 // the layer's input and its pre-activation
	hasActivate bool  // a ReLU follows z
}

// buildMLPTrainStep records MLP.train_step on x [B, I] and labels [B]: the
// forward sweep keeps each layer's input and pre-activation; the loss's
// softmax is kept for its gradient; the backward sweep goes from the last
// layer to the first, and each layer's parameters are updated as soon as
// their gradients are made (m ← μ·m + g, p ← p − lr·m), in place. The
// result is the loss.
func buildMLPTrainStep(n *net, v values) {
	B, I, W, O, L := v["B"], v["I"], v["W"], v["O"], v["L"]
	x := n.input("x", n.dt, B, I)
	labels := n.input("labels", i64, B)
	lr := n.input("learning rate", n.dt)

	var layers []*mlpLayer
	in := I
	for i := int64(0); i <= L; i++ {
		l := &mlpLayer{path: at("layers", i), in: in, out: W, hasActivate: i < L}
		if i == L {
			l.path, l.out = "out", O
		}
		l.w = n.param(l.path, "weight", l.in, l.out)
		l.b = n.param(l.path, "bias", l.out)
		l.mw = n.r.Input("weight momentum", l.path, n.dt, l.in, l.out)
		l.mb = n.r.Input("bias momentum", l.path, n.dt, l.out)
		l.x = x
		l.z = n.do("Linear.apply", l.path, "z", shape(B, l.out), x, l.w, l.b)
		if l.hasActivate {
			x = n.do("Relu.apply", l.path, "relu", shape(B, l.out), l.z)
		}
		layers = append(layers, l)
		in = l.out
	}

	logits := layers[L].z
	loss := n.temp("loss", "loss")
	probs := n.temp("loss", "probabilities", B, O)
	n.run("CrossEntropy.apply", "loss", ids(logits, labels), ids(loss, probs))
	dz := n.do("CrossEntropy.grad", "loss", "d logits", shape(B, O), probs, labels)

	for i := L; i >= 0; i-- {
		l := layers[i]
		grad := join(l.path, "grad")
		dw := n.do("Linear.grad_weight", grad, "d weight", shape(l.in, l.out), l.x, dz)
		db := n.do("Linear.grad_bias", grad, "d bias", shape(l.out), dz)
		var dx int64
		if i > 0 {
			dx = n.do("Linear.grad_input", grad, "d input", shape(B, l.in), dz, l.w)
		}
		update := join(l.path, "sgd")
		n.run("SGD.momentum", update, ids(l.mw, dw), ids(l.mw))
		n.run("SGD.update", update, ids(l.w, l.mw, lr), ids(l.w))
		n.run("SGD.momentum", update, ids(l.mb, db), ids(l.mb))
		n.run("SGD.update", update, ids(l.b, l.mb, lr), ids(l.b))
		if i > 0 {
			prev := layers[i-1]
			dz = n.do("Relu.grad", join(prev.path, "grad"), "d z", shape(B, prev.out), dx, prev.z)
		}
	}
	n.result(loss)
}
