package programs

import "memsym/record"

// The optimizers. Each declares its states, which the training loop holds
// across steps (the step count among them, which the learning rate's
// schedule reads), then records two calls in the optimizer phase: the
// learning rate (NAME.lr) and the step (NAME.step), whose update is one
// launch over every trained parameter, as fused and multi-tensor kernels
// make it. The scalars are of the states' type.

// tensor is one trained parameter in the optimizer: the parameter, its
// gradient and its shape, the type of its states and its group.
type tensor struct {
	param, grad int64
	shape       []int64
	pt, st      record.DType // the parameter's type, its states'
	group       string
}

// optimize records the optimizer on the trained parameters (forward
// positions) and returns the step's result: what the loop holds after it.
func (b *stepBuilder) optimize(trained []int) []int64 {
	o := b.spec.opts
	var ts []tensor
	for _, p := range trained {
		buf := b.fwd.Buffers.At(p)
		st := o.Types.States
		if st.IsZero() {
			st = b.gradType(p)
		}
		ts = append(ts, tensor{param: b.id[p], grad: b.grad[p], shape: buf.Shape, pt: buf.DType, st: st, group: buf.Group})
	}
	scalar := o.Types.States
	if scalar.IsZero() {
		scalar = b.dt
	}
	op := optimizerOp{b: b, name: o.Optimizer.String(), ts: ts, scalar: scalar, master: o.Types.Master}
	switch o.Optimizer {
	case AdamW, AdamWInPlace:
		return op.adamW(o.Optimizer == AdamWInPlace)
	case SGD:
		return op.oneMoment("SGD", "momentum")
	case Lion:
		return op.oneMoment("Lion", "momentum")
	}
	return op.adafactor()
}

// optimizerOp records one optimizer.
type optimizerOp struct {
	b      *stepBuilder
	name   string // its calls' path: "adamw" in "adamw.step"
	ts     []tensor
	scalar record.DType
	master record.DType // the master copy's type; zero for none
}

func (o *optimizerOp) r() *record.Recorder { return o.b.r }

// states declares one state per tensor, named name, of the tensor's
// shape (or of shape(t) when given).
func (o *optimizerOp) states(name string, shape func(t tensor) []int64) []int64 {
	out := make([]int64, len(o.ts))
	for i, t := range o.ts {
		s := t.shape
		if shape != nil {
			s = shape(t)
		}
		out[i] = o.r().State(name, t.group, t.st, s...)
	}
	return out
}

// masters declares the master copies, when the step keeps them; the
// update reads them instead of the parameters and writes both.
func (o *optimizerOp) masters() []int64 {
	if o.master.IsZero() {
		return nil
	}
	out := make([]int64, len(o.ts))
	for i, t := range o.ts {
		out[i] = o.r().State("master copy", t.group, o.master, t.shape...)
	}
	return out
}

// schedule declares the step count and records the learning rate's call,
// which reads it; it returns both.
func (o *optimizerOp) schedule() (count, lr int64) {
	count = o.r().State("step count", o.name, o.scalar)
	lr = o.r().Temp("learning rate", o.name+".lr", o.scalar)
	o.r().Op("Schedule.lr", o.name+".lr", ids(count), ids(lr))
	return count, lr
}

// fresh declares one new temp per tensor, of its shape and of the type typ
// gives it.
func (o *optimizerOp) fresh(name string, typ func(t tensor) record.DType) []int64 {
	out := make([]int64, len(o.ts))
	for i, t := range o.ts {
		out[i] = o.r().Temp(name, t.group, typ(t), t.shape...)
	}
	return out
}

func stateType(t tensor) record.DType { return t.st }
func paramType(t tensor) record.DType { return t.pt }

// adamW records AdamW: the step count, the two bias corrections, and one
// update of every parameter and its moments. Not in place, the update
// makes new parameters and moments (and master copies), live beside the
// old ones and the gradient: seven times the parameters when all are of
// one type. In place, it writes the old ones.
func (o *optimizerOp) adamW(inPlace bool) []int64 {
	m := o.states("first moment", nil)
	v := o.states("second moment", nil)
	master := o.masters()
	count, lr := o.schedule()
	path := o.name + ".step"
	newCount := count
	if !inPlace {
		newCount = o.r().Temp("step count", path, o.scalar)
	}
	o.r().Op("AdamW.count", path, ids(count), ids(newCount))
	bc1 := o.r().Temp("first bias correction", path, o.scalar)
	bc2 := o.r().Temp("second bias correction", path, o.scalar)
	o.r().Op("AdamW.bias_correction", path, ids(newCount), ids(bc1, bc2))

	params, grads := o.params(), o.grads()
	src := params
	if master != nil {
		src = master
	}
	newP, newM, newV, newMaster := params, m, v, master
	if !inPlace {
		newP = o.fresh("new parameters", paramType)
		newM = o.fresh("new first moment", stateType)
		newV = o.fresh("new second moment", stateType)
		if master != nil {
			newMaster = o.fresh("new master copy", func(tensor) record.DType { return o.master })
		}
	}
	reads := concat(src, grads, m, v, ids(lr, bc1, bc2))
	writes := concat(newMaster, newP, newM, newV)
	o.r().Op("AdamW.update", path, reads, writes)
	return concat(newP, newMaster, newM, newV, ids(newCount))
}

// oneMoment records an optimizer of one moment per parameter, updated in
// place with it: momentum SGD, Lion.
func (o *optimizerOp) oneMoment(kind, state string) []int64 {
	m := o.states(state, nil)
	master := o.masters()
	count, lr := o.schedule()
	path := o.name + ".step"
	o.r().Op(kind+".count", path, ids(count), ids(count))
	params, grads := o.params(), o.grads()
	src := params
	if master != nil {
		src = master
	}
	o.r().Op(kind+".update", path, concat(src, grads, m, ids(lr)), concat(master, params, m))
	return concat(params, master, m, ids(count))
}

// adafactor records Adafactor without a first moment: a parameter of two
// axes or more keeps its second moment factored, a row factor (its last
// axis summed out) and a column factor (its last but one summed out);
// others keep it whole. The update's direction, the gradient scaled by
// the factors, is made whole before it is applied.
func (o *optimizerOp) adafactor() []int64 {
	var factors []int64 // per tensor, one or two states
	for _, t := range o.ts {
		if n := len(t.shape); n >= 2 {
			row := append([]int64(nil), t.shape[:n-1]...)
			col := append(append([]int64(nil), t.shape[:n-2]...), t.shape[n-1])
			factors = append(factors,
				o.r().State("row factor", t.group, t.st, row...),
				o.r().State("column factor", t.group, t.st, col...))
		} else {
			factors = append(factors, o.r().State("second moment", t.group, t.st, t.shape...))
		}
	}
	master := o.masters()
	count, lr := o.schedule()
	path := o.name + ".step"
	o.r().Op("Adafactor.count", path, ids(count), ids(count))
	decay := o.r().Temp("decay", path, o.scalar)
	o.r().Op("Adafactor.decay", path, ids(count), ids(decay))
	params, grads := o.params(), o.grads()
	o.r().Op("Adafactor.factors", path, concat(grads, factors, ids(decay)), factors)
	direction := o.fresh("update direction", stateType)
	o.r().Op("Adafactor.direction", path, concat(grads, factors), direction)
	src := params
	if master != nil {
		src = master
	}
	o.r().Op("Adafactor.update", path, concat(src, direction, ids(lr)), concat(master, params))
	return concat(params, master, factors, ids(count))
}

func (o *optimizerOp) params() []int64 {
	out := make([]int64, len(o.ts))
	for i, t := range o.ts {
		out[i] = t.param
	}
	return out
}

func (o *optimizerOp) grads() []int64 {
	out := make([]int64, len(o.ts))
	for i, t := range o.ts {
		out[i] = t.grad
	}
	return out
}

func concat(lists ...[]int64) []int64 {
	var out []int64
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
