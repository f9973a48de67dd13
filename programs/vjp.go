package programs

// The vector-Jacobian products of the bundled programs' operations: what
// each reads of the forward pass besides the gradients of its outputs, and
// which of its inputs get no gradient. The memory a backward pass needs
// follows from these choices alone, so they are the ones the usual
// kernels make: a product keeps both factors, a sum keeps nothing, a
// softmax, a ReLU and a tanh keep their output, a GELU and the other
// smooth activations their input, a norm its input and its scale.

// ref names one of a forward operation's reads (in) or writes (out).
type ref struct {
	out bool
	i   int
}

func in(i int) ref  { return ref{i: i} }
func out(i int) ref { return ref{out: true, i: i} }

// vjp is one operation's vector-Jacobian product.
type vjp struct {
	saves  []ref // what it reads of the forward pass, besides its outputs' gradients
	nograd []int // the reads that get no gradient, whatever their type
	// through is set for a sum or a copy: its output's gradient is its
	// first input's, passed on in place rather than copied, when that
	// input has no gradient yet and is of the same bytes.
	through bool
}

// keeps returns a rule that reads refs.
func keeps(refs ...ref) vjp { return vjp{saves: refs} }

// passes returns the rule of a sum or a copy, which reads nothing of the
// forward pass and passes its output's gradient on.
func passes() vjp { return vjp{through: true} }

// frozen returns r, with the reads is getting no gradient.
func (r vjp) frozen(is ...int) vjp {
	r.nograd = append(append([]int(nil), r.nograd...), is...)
	return r
}

// vjps are the rules by operation label.
var vjps = map[string]vjp{
	// Sums and copies: the gradient passes on, in place where it can.
	"GPT.apply/%3": passes(), "Block.apply/%9": passes(), "Block.apply/%14": passes(),
	"Linear.apply/%5": passes(), "Decoder.residual": passes(), "Residual.add": passes(),
	"SelfAttention.apply/%17": passes(), "Attention.mask": passes(), "Attention.merge": passes(),
	"Synthetic.add": passes(), "Cast.apply": passes(),
	// Slices, padding, pooling, gathers into windows: a gradient of other bytes.
	"SelfAttention.apply/%6": keeps(), "SelfAttention.apply/%7": keeps(), "SelfAttention.apply/%8": keeps(),
	"Pad.same": keeps(), "Pad.causal": keeps(), "Im2col.apply": keeps(), "GlobalAvgPool.apply": keeps(),
	"AvgPool.apply": keeps(), "KVCache.append": keeps(), "Split.copy": keeps(),

	// Made from no differentiable input: no product.
	"GPT.apply/%1": keeps(), "Decoder.mask": keeps(), "Positions.sinusoid": keeps(),
	"Bert.mask_bias": keeps(), "Rotary.angles": keeps(), "Zeros.apply": keeps(),
	"Mask.from_lengths": keeps(), "MoE.sort": keeps(),

	// Lookups: the indices, to scatter the gradient into the table's rows.
	"Embedding.apply/%0": keeps(in(0)), "Embedding.apply": keeps(in(0)),
	"Embeddings.apply": keeps(in(0), in(1)),
	// The rotary table is fixed, not trained.
	"Rotary.gather": keeps(in(1)).frozen(0),
	"Rotary.apply":  keeps(in(1)),

	// Products: both factors.
	"Linear.apply/%4": keeps(in(0), in(1)), "Linear.apply": keeps(in(0), in(1)),
	"SelfAttention.apply/%13": keeps(in(0), in(1)), "SelfAttention.apply/%22": keeps(in(0), in(1)),
	"Attention.scores": keeps(in(0), in(1)), "Attention.mix": keeps(in(0), in(1)),
	"Attention.scores_max": keeps(in(0), in(1)),
	"QuantLinear.apply":    keeps(in(0), in(1), in(2)),
	"Conv.matmul":          keeps(in(0), in(1)), "Conv.apply": keeps(in(0), in(1)),
	"Conv1d.apply": keeps(in(0), in(1)), "Conv1d.depthwise": keeps(in(0), in(1)),
	"GroupedMatmul.apply": keeps(in(0), in(1), in(2)),
	"Matmul.f8":           keeps(in(0), in(1), in(2), in(3)),
	"Synthetic.up":        keeps(in(0), in(1)), "Synthetic.down": keeps(in(0), in(1), in(2)),
	"Synthetic.scores": keeps(in(0)),

	// Norms: the input and the scale; the running statistics are not trained.
	"LayerNorm.apply/%3": keeps(in(0), in(1)), "RMSNorm.apply": keeps(in(0), in(1)),
	"BatchNorm.apply": keeps(in(0), in(1)).frozen(3, 4),
	"Norm.apply":      keeps(in(0), out(0)),

	// Activations.
	"SelfAttention.apply/%21": keeps(out(0)), "Attention.softmax": keeps(out(0)),
	"Softmax.apply": keeps(out(0)).frozen(1), // views-heavy's row maxima only shift the scores
	"Relu.apply":    keeps(out(0)), "Tanh.apply": keeps(out(0)), "Tanh.into": keeps(out(0)),
	"FeedForward.apply/%2": keeps(in(0)), "Gelu.apply": keeps(in(0)), "Gelu.into": keeps(in(0)),
	"Silu.apply": keeps(in(0)), "Softplus.apply": keeps(in(0)), "Synthetic.act": keeps(in(0)),
	"SwiGLU.apply": keeps(in(0), in(1)), "Gate.silu": keeps(in(0), in(1)),
	"Mask.apply": keeps(in(1)),

	// The state-space scan and its neighbours.
	"SSM.discretize_a":  keeps(in(0), in(1)),
	"SSM.discretize_bx": keeps(in(0), in(1), in(2)),
	"SSM.scan":          keeps(in(0), out(0)),
	"SSM.readout":       keeps(in(0), in(1), in(2), in(3)),

	// Routing: the chosen experts and the order, to send gradients back.
	"TopK.apply":       keeps(out(1)),
	"TopK.renormalize": keeps(in(0)),
	"MoE.dispatch":     keeps(in(1)),
	"MoE.combine":      keeps(in(0), in(1), in(2)),
	"MoE.balance_loss": keeps(in(0), in(1)),

	// Quantizing to f8 passes the gradient straight through.
	"Quantize.f8": keeps(),
}

// defaultVJP is the rule of an operation not listed: it reads every input.
func defaultVJP(reads int) vjp {
	r := vjp{}
	for i := 0; i < reads; i++ {
		r.saves = append(r.saves, in(i))
	}
	return r
}

// lossKind is the loss a step puts on the forward pass's result.
type lossKind uint8

const (
	// sumOfSquares reads every floating result and gives each its
	// gradient: a loss of any program.
	sumOfSquares lossKind = iota
	// crossEntropy reads the first result, logits over its last axis,
	// and integer targets of its other axes; it keeps the log-sum-exp of
	// each row for its gradient.
	crossEntropy
)
