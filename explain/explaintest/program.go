package explaintest

import (
	"fmt"
	"sort"
	"strings"

	"memsym/poly"
)

// program is a straight-line sequence of operations on named buffers, small
// enough to count by hand: the stand-in for a recording in these fixtures.
type program struct {
	bufs    map[string]*buffer
	ops     []op
	result  string
	eltSize int64 // bytes per element, the same for every buffer here
}

// buffer is one buffer: its shape in the dimensions B and T, and whether the
// caller holds it (an input or a parameter).
type buffer struct {
	name   string
	shape  []poly.Poly
	input  bool
	param  bool
	label  string // the label of the operation that writes it
	madeBy string // the path of the call that writes it
}

// op is one operation: what it reads and writes.
type op struct {
	label, path   string
	reads, writes []string
}

func newProgram(eltSize int64) *program {
	return &program{bufs: map[string]*buffer{}, eltSize: eltSize}
}

func (p *program) input(name string, param bool, shape ...poly.Poly) {
	p.bufs[name] = &buffer{name: name, shape: shape, input: true, param: param}
}

// do appends an operation; each written name must be given its shape in
// shapes, in order.
func (p *program) do(label, path string, reads []string, writes []string, shapes ...[]poly.Poly) {
	for i, w := range writes {
		p.bufs[w] = &buffer{name: w, shape: shapes[i], label: label, madeBy: path}
	}
	p.ops = append(p.ops, op{label: label, path: path, reads: reads, writes: writes})
}

// bytes returns b's bytes as a polynomial in B and T.
func (p *program) bytes(b *buffer) poly.Poly {
	n := poly.Const(poly.Int(p.eltSize))
	for _, d := range b.shape {
		n = n.Mul(d)
	}
	return n
}

// lives returns each written buffer's life: the first and last operation
// (0-based) that touch it; the result lives to the end.
func (p *program) lives() map[string][2]int {
	life := map[string][2]int{}
	for i, o := range p.ops {
		for _, name := range append(append([]string{}, o.reads...), o.writes...) {
			if p.bufs[name].input {
				continue
			}
			l, ok := life[name]
			if !ok {
				l[0] = i
			}
			l[1] = i
			life[name] = l
		}
	}
	l := life[p.result]
	l[1] = len(p.ops) - 1
	life[p.result] = l
	return life
}

// liveAt returns the names of the buffers live at operation i, sorted.
func (p *program) liveAt(i int, life map[string][2]int) []string {
	var names []string
	for name, l := range life {
		if l[0] <= i && i <= l[1] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// liveBytes returns the live bytes at each operation as polynomials.
func (p *program) liveBytes() []poly.Poly {
	life := p.lives()
	out := make([]poly.Poly, len(p.ops))
	for i := range p.ops {
		sum := poly.Const(poly.Int(0))
		for _, name := range p.liveAt(i, life) {
			sum = sum.Add(p.bytes(p.bufs[name]))
		}
		out[i] = sum
	}
	return out
}

// inputBytes returns the bytes of the inputs (params true: of the
// parameters alone) and the parameters' elements.
func (p *program) inputBytes(params bool) (bytes, elements poly.Poly) {
	bytes, elements = poly.Const(poly.Int(0)), poly.Const(poly.Int(0))
	names := make([]string, 0, len(p.bufs))
	for name := range p.bufs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b := p.bufs[name]
		if b.input && (b.param || !params) {
			bytes = bytes.Add(p.bytes(b))
			elements = elements.Add(p.bytes(b).Scale(poly.Frac(1, p.eltSize)))
		}
	}
	return bytes, elements
}

// shapeAt writes b's shape at the assignment at: "[2, 16, 256]".
func shapeAt(b *buffer, at map[string]int64) string {
	dims := make([]string, len(b.shape))
	for i, d := range b.shape {
		v, err := d.EvalInt(at)
		if err != nil {
			panic(err) // the fixture's own shapes: a bug here, not user input
		}
		dims[i] = v.String()
	}
	return "[" + strings.Join(dims, ", ") + "]"
}

// eval evaluates q at at; the fixtures' polynomials use only B and T.
func eval(q poly.Poly, at map[string]int64) poly.Rat {
	v, err := q.EvalInt(at)
	if err != nil {
		panic(fmt.Sprintf("explaintest: %v", err))
	}
	return v
}
