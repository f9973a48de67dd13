package programs

import "memsym/record"

// theLoss is the loss a step recorded: what its operation read of the
// forward pass, and what its vector-Jacobian product reads besides.
type theLoss struct {
	label string
	reads []int64 // forward ids: the results it reads
	extra []int64 // step ids: targets and the saved log-sum-exp
}

// loss records the loss on the forward pass's result, in the forward
// phase, and marks what needs a gradient.
func (b *stepBuilder) loss() theLoss {
	if l, ok := b.crossEntropy(); ok {
		b.propagate(l.reads)
		return l
	}
	var reads []int64
	var t record.DType
	for _, id := range b.result {
		if p := b.base[b.pos(id)]; b.requires[p] {
			if t.IsZero() {
				t = b.fwd.Buffers.At(p).DType
			}
			reads = append(reads, id)
		}
	}
	if t.IsZero() {
		t = b.dt
	}
	l := theLoss{label: "Loss.sum_of_squares", reads: reads}
	value := b.r.Temp("loss", "loss", t)
	b.r.Op(l.label, "loss", b.ids(reads), ids(value))
	b.propagate(reads)
	return l
}

// crossEntropy records the cross-entropy of the first result, logits over
// its last axis, against integer targets of its other axes, when the
// program asks for it and its first result can be logits. It keeps the
// log-sum-exp of each row for the gradient.
func (b *stepBuilder) crossEntropy() (theLoss, bool) {
	if b.spec.of.loss != crossEntropy || len(b.result) == 0 {
		return theLoss{}, false
	}
	logits := b.fwd.Buffers.At(b.pos(b.result[0]))
	base := b.fwd.Buffers.At(b.base[b.pos(b.result[0])])
	if len(logits.Shape) < 1 || !isFloat(base.DType) || !b.requires[b.base[b.pos(b.result[0])]] {
		return theLoss{}, false
	}
	rows := logits.Shape[:len(logits.Shape)-1]
	targets := b.r.Input("targets", "", i64, rows...)
	lse := b.r.Temp("log-sum-exp", "loss", base.DType, rows...)
	value := b.r.Temp("loss", "loss", base.DType)
	l := theLoss{label: "Loss.cross_entropy", reads: b.result[:1], extra: ids(lse, targets)}
	b.r.Op(l.label, "loss", ids(b.id[b.pos(b.result[0])], targets), ids(value, lse))
	return l, true
}

// emitLossVJP records the loss's vector-Jacobian product: the first
// gradients, of the results the loss read.
func (b *stepBuilder) emitLossVJP(l theLoss) {
	reads := append(b.ids(l.reads), l.extra...)
	var writes []int64
	for _, id := range l.reads {
		g, adds := b.gradOf(b.base[b.pos(id)])
		if adds {
			reads = append(reads, g)
		}
		writes = append(writes, g)
	}
	b.r.Op(l.label+" (vjp)", "loss", unique(reads), unique(writes))
}
