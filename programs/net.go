package programs

import (
	"fmt"

	"memsym/record"
)

// net records one program's network through a record.Recorder. Its methods
// name what a network does (a parameter, an operation that makes a buffer, a
// view) so that each program reads as the network it is.
type net struct {
	r  *record.Recorder
	dt record.DType // the realization's type of activations
	pt record.DType // the realization's type of parameters: dt but in a mixed-precision step
}

// Stored types the programs use besides their realization's.
var (
	f64     = record.MustDType("f64")
	f32     = record.MustDType("f32")
	f16     = record.MustDType("f16")
	bf16    = record.MustDType("bf16")
	f8      = record.MustDType("f8")
	i64     = record.MustDType("i64")
	i32     = record.MustDType("i32")
	i4      = record.MustDType("i4")
	u8      = record.MustDType("u8")
	boolean = record.MustDType("bool")
)

// newNet returns a net recording into r whose default type is the named
// realization's, or f32 when the realization is not a single type's name.
func newNet(r *record.Recorder, realization string) *net {
	dt, ok := record.LookupDType(realization)
	if !ok {
		dt = f32
	}
	return &net{r: r, dt: dt, pt: dt}
}

// shape returns its arguments as a shape.
func shape(axes ...int64) []int64 { return axes }

// ids returns its arguments as a list of buffer ids.
func ids(xs ...int64) []int64 { return xs }

// param declares a parameter of the parameters' type, grouped under the
// module path that owns it.
func (n *net) param(group, name string, shape ...int64) int64 {
	return n.r.Param(name, group, n.pt, shape...)
}

// paramT declares a parameter of type t.
func (n *net) paramT(group, name string, t record.DType, shape ...int64) int64 {
	return n.r.Param(name, group, t, shape...)
}

// input declares a caller-held input other than the parameters.
func (n *net) input(name string, t record.DType, shape ...int64) int64 {
	return n.r.Input(name, "", t, shape...)
}

// temp declares a buffer of the default type that an operation at path will
// make; the path is its group.
func (n *net) temp(path, name string, shape ...int64) int64 {
	return n.r.Temp(name, path, n.dt, shape...)
}

// tempT declares a buffer of type t that an operation at path will make.
func (n *net) tempT(path, name string, t record.DType, shape ...int64) int64 {
	return n.r.Temp(name, path, t, shape...)
}

// do records the operation label at path, which reads reads and makes one
// new buffer of the default type, and returns that buffer.
func (n *net) do(label, path, name string, shape []int64, reads ...int64) int64 {
	return n.doT(label, path, name, n.dt, shape, reads...)
}

// doT is do for an output of type t.
func (n *net) doT(label, path, name string, t record.DType, shape []int64, reads ...int64) int64 {
	out := n.r.Temp(name, path, t, shape...)
	n.r.Op(label, path, reads, ids(out))
	return out
}

// run records an operation that reads reads and writes writes, buffers
// declared before it (several outputs, or an update in place).
func (n *net) run(label, path string, reads, writes []int64) {
	n.r.Op(label, path, reads, writes)
}

// view declares a view of of (a reshape, a transpose, a slice) and records
// the operation that makes it, which launches nothing and reads of, as the
// seed has it; it writes nothing, so that a view of a parameter or an input
// does not read as an update of it. The shape is for display; the view has
// no bytes of its own.
func (n *net) view(label, path, name string, of int64, shape ...int64) int64 {
	v := n.r.View(of, name, n.dt, shape...)
	n.r.NoLaunch(label, path, ids(of), nil)
	return v
}

// result records the buffers the program returns.
func (n *net) result(xs ...int64) { n.r.Result(xs...) }

// at returns the path of a fold's i-th iteration, such as "blocks[0]".
func at(fold string, i int64) string { return fmt.Sprintf("%s[%d]", fold, i) }

// join returns the path of a call inside path, such as "blocks[0].ff".
func join(path, call string) string {
	if path == "" {
		return call
	}
	return path + "." + call
}
