package record

import (
	"iter"
	"slices"
	"unsafe"

	"memsym/internal/pages"
	"memsym/poly"
)

// Buffers is a recording's buffers and views in declaration order, held a
// row of 40 bytes each where a Buffer takes 136: a recording of a million
// operations keeps some 96 MB less, which the kernel need not zero and the
// host need not back. A row holds no pointer (its strings and its shape
// are found by index in the table), so the collector never scans the
// rows: a million of them cost it nothing. Nor does it hold its id while
// the ids are in turn, each the first plus its position, as recorders
// number them. At returns one whole, as a Buffer of its own but for its
// Shape, which is the recording's: do not write to it.
type Buffers struct {
	rows    []bufRow
	firstID int64   // the first row's id
	ids     []int64 // each row's id, once one was out of turn; nil before
	tab     *table
	types   []DType          // the dtypes the rows name, by index
	typeAt  map[DType]uint32 // types' indexes, plus one, once there are many
	rats    []poly.Rat       // the bytes that are not an int64 integer, by index
}

// bufRow is one buffer or view, compactly.
type bufRow struct {
	bytes int64  // the bytes, or with bigBytes the index of them in rats; a view's: the id of the buffer it views (Of)
	shape span   // the shape, in the table's ints; 0 for no shape
	name  uint32 // in the table's strings
	group uint32
	line  int32
	rank  uint32 // the shape's length
	dtype uint32 // in types, plus one; 0 for none
	role  Role
	flags uint8
}

const (
	isView   = 1 << iota // the row is a view
	bigBytes             // bytes is an index in rats
)

// of returns the id of the buffer a view's row views; 0 for a buffer's.
func (r *bufRow) of() int64 {
	if r.flags&isView == 0 {
		return 0
	}
	return r.bytes
}

// Len returns the number of buffers and views.
func (bs *Buffers) Len() int { return len(bs.rows) }

// At returns the buffer or view at position i.
func (bs *Buffers) At(i int) Buffer {
	r := &bs.rows[i]
	b := Buffer{
		ID:     bs.ID(i),
		Of:     r.of(),
		Line:   int(r.line),
		Role:   r.role,
		IsView: r.flags&isView != 0,
	}
	if r.name != 0 || r.group != 0 {
		b.Name, b.Group = bs.tab.strs[r.name], bs.tab.strs[r.group]
	}
	if r.dtype != 0 {
		b.DType = bs.types[r.dtype-1]
	}
	if r.shape != 0 {
		b.Shape = bs.tab.ints.slice(r.shape, r.rank)
	}
	if r.flags&(bigBytes|isView) == 0 {
		b.Bytes = poly.Int(r.bytes)
	} else {
		b.Bytes = bs.Bytes(i)
	}
	return b
}

// All yields each buffer and view with its position, in order.
func (bs *Buffers) All() iter.Seq2[int, Buffer] {
	return func(yield func(int, Buffer) bool) {
		for i := range bs.rows {
			if !yield(i, bs.At(i)) {
				return
			}
		}
	}
}

// The accessors below return one field of the buffer or view at position
// i, as At(i) has it, without making the whole Buffer.

// ID returns the id of the buffer or view at position i.
func (bs *Buffers) ID(i int) int64 {
	if bs.ids != nil {
		return bs.ids[i]
	}
	return bs.firstID + int64(i)
}

// Role returns its role.
func (bs *Buffers) Role(i int) Role { return bs.rows[i].role }

// IsView reports whether it is a view.
func (bs *Buffers) IsView(i int) bool { return bs.rows[i].flags&isView != 0 }

// Bytes returns its bytes (zero for a view).
func (bs *Buffers) Bytes(i int) poly.Rat {
	r := &bs.rows[i]
	switch {
	case r.flags&bigBytes != 0:
		return bs.rats[r.bytes]
	case r.flags&isView != 0:
		return poly.Rat{}
	}
	return poly.Int(r.bytes)
}

// Name returns its name.
func (bs *Buffers) Name(i int) string { return bs.tab.strs[bs.rows[i].name] }

// add appends b, keeping its strings and its shape in t.
func (bs *Buffers) add(b *Buffer, t *table) {
	bs.tab = t
	r := bufRow{
		line:  int32(b.Line),
		role:  b.Role,
		name:  bs.tab.index(b.Name),
		group: bs.tab.index(b.Group),
	}
	if b.IsView {
		r.flags |= isView
	}
	if b.Shape != nil {
		r.shape, r.rank = t.ints.share(b.Shape), uint32(len(b.Shape))
	}
	if !b.DType.IsZero() {
		r.dtype = bs.typeIndex(b.DType)
	}
	if b.IsView {
		r.bytes = b.Of
	} else {
		if n, ok := b.Bytes.Int64(); ok {
			r.bytes = n
		} else {
			r.flags |= bigBytes
			r.bytes = int64(len(bs.rats))
			bs.rats = append(bs.rats, b.Bytes)
		}
	}
	bs.addID(b.ID)
	bs.rows = append(grow(bs.rows), r)
}

// addID notes the id of the row being added: nothing while the ids are in
// turn; else in ids, made of the ids before when the first is out of turn.
func (bs *Buffers) addID(id int64) {
	n := len(bs.rows)
	switch {
	case n == 0:
		bs.firstID = id
	case bs.ids == nil && id-bs.firstID == int64(n) && id > bs.firstID:
	case bs.ids == nil:
		bs.ids = pages.MakeLazy[int64](n, max(cap(bs.rows), n+1))
		for i := range bs.ids {
			bs.ids[i] = bs.firstID + int64(i)
		}
		fallthrough
	default:
		bs.ids = append(grow(bs.ids), id)
	}
}

// typeIndex returns the index in types, plus one, of t, adding it if new.
// A recording names few types, mostly the one before; one that names many
// (types of many sizes in bits) has them found by a map.
func (bs *Buffers) typeIndex(t DType) uint32 {
	n := len(bs.types)
	if n > 0 && bs.types[n-1] == t {
		return uint32(n)
	}
	if bs.typeAt != nil {
		if i, ok := bs.typeAt[t]; ok {
			return i
		}
	} else if i := slices.Index(bs.types, t); i >= 0 {
		return uint32(i + 1)
	}
	bs.types = append(bs.types, t)
	n++
	switch {
	case bs.typeAt != nil:
		bs.typeAt[t] = uint32(n)
	case n > 16:
		bs.typeAt = make(map[DType]uint32, 2*n)
		for i, u := range bs.types {
			bs.typeAt[u] = uint32(i + 1)
		}
	}
	return uint32(n)
}

// Ops is a recording's operations in program order, held a row of 32 bytes
// each where an Op takes 96. At returns one whole, as an Op; its Reads and
// Writes are the recording's: do not write to them.
type Ops struct {
	rows []opRow
	tab  *table
}

// opRow is one operation, compactly.
type opRow struct {
	ids    span   // the reads then the writes, in the table's ints; 0 when there are none
	label  uint32 // in the table's strings
	path   uint32
	reads  uint32 // how many
	writes uint32
	line   int32
	phase  Phase
	flags  uint8
}

const (
	launches  = 1 << iota // the operation launches something
	hasReads              // Reads is not nil
	hasWrites             // Writes is not nil
)

// Len returns the number of operations.
func (os *Ops) Len() int { return len(os.rows) }

// At returns the operation at position i (operation i+1).
func (os *Ops) At(i int) Op {
	r := &os.rows[i]
	op := Op{
		Label:  os.tab.strs[r.label],
		Path:   os.tab.strs[r.path],
		Launch: r.flags&launches != 0,
		Phase:  r.phase,
		Line:   int(r.line),
	}
	var ids []int64
	if r.ids != 0 {
		ids = os.tab.ints.slice(r.ids, r.reads+r.writes)
	}
	if r.flags&hasReads != 0 {
		op.Reads = ids[:r.reads:r.reads]
		if op.Reads == nil {
			op.Reads = []int64{}
		}
	}
	if r.flags&hasWrites != 0 {
		op.Writes = ids[r.reads:]
		if op.Writes == nil {
			op.Writes = []int64{}
		}
	}
	return op
}

// The accessors below return one field of operation i+1, as At(i) has it,
// without making the whole Op.

// Label returns its label.
func (os *Ops) Label(i int) string { return os.tab.strs[os.rows[i].label] }

// Path returns its call path.
func (os *Ops) Path(i int) string { return os.tab.strs[os.rows[i].path] }

// Phase returns its phase.
func (os *Ops) Phase(i int) Phase { return os.rows[i].phase }

// Reads returns the ids it reads.
func (os *Ops) Reads(i int) []int64 {
	r := &os.rows[i]
	if r.flags&hasReads == 0 {
		return nil
	}
	if r.reads == 0 {
		return []int64{}
	}
	return os.tab.ints.slice(r.ids, r.reads)
}

// Writes returns the ids it writes.
func (os *Ops) Writes(i int) []int64 {
	r := &os.rows[i]
	if r.flags&hasWrites == 0 {
		return nil
	}
	if r.writes == 0 {
		return []int64{}
	}
	return os.tab.ints.slice(r.ids, r.reads+r.writes)[r.reads:]
}

// All yields each operation with its position, in order.
func (os *Ops) All() iter.Seq2[int, Op] {
	return func(yield func(int, Op) bool) {
		for i := range os.rows {
			if !yield(i, os.At(i)) {
				return
			}
		}
	}
}

// add appends op, keeping its strings and its reads and writes in t.
func (os *Ops) add(op *Op, t *table) {
	os.tab = t
	r := opRow{
		label:  os.tab.index(op.Label),
		path:   os.tab.index(op.Path),
		reads:  uint32(len(op.Reads)),
		writes: uint32(len(op.Writes)),
		line:   int32(op.Line),
		phase:  op.Phase,
	}
	if op.Launch {
		r.flags |= launches
	}
	if op.Reads != nil {
		r.flags |= hasReads
	}
	if op.Writes != nil {
		r.flags |= hasWrites
	}
	if n := len(op.Reads) + len(op.Writes); n > 0 {
		r.ids = t.ints.keep2(op.Reads, op.Writes)
	}
	os.rows = append(grow(os.rows), r)
}

// table holds what a recording's rows name: their strings, each row
// naming one by its index (index 0 is ""), and their shapes, reads and
// writes, in ints. A string the rows repeat is mostly held once: the
// Scanner shares the strings a recording repeats, and the table knows the
// ones it was given last by where their bytes are. (One held twice costs
// 16 bytes; what the rows name is the same either way.)
type table struct {
	ints arena
	strs []string
	last [256]struct {
		p *byte
		n int
		i uint32
	}
}

func newTable() *table { return &table{strs: []string{""}} }

// index returns the index of s, adding it if the table has not seen it
// lately.
func (t *table) index(s string) uint32 {
	if s == "" {
		return 0
	}
	p := unsafe.StringData(s)
	h := (uintptr(unsafe.Pointer(p))>>3 ^ uintptr(len(s))*0x9e37) & 255
	e := &t.last[h]
	if e.p == p && e.n == len(s) {
		return e.i
	}
	t.strs = append(grow(t.strs), s)
	e.p, e.n, e.i = p, len(s), uint32(len(t.strs)-1)
	return e.i
}

// room makes room for n more rows, as growBy does.
func (bs *Buffers) room(n int, lazy bool) { bs.rows = growBy(bs.rows, n, lazy) }

func (os *Ops) room(n int, lazy bool) { os.rows = growBy(os.rows, n, lazy) }

// Slice returns every buffer and view, in order, as a slice of their own.
func (bs *Buffers) Slice() []Buffer {
	out := make([]Buffer, len(bs.rows))
	for i := range out {
		out[i] = bs.At(i)
	}
	return out
}

// Slice returns every operation, in order, as a slice of their own.
func (os *Ops) Slice() []Op {
	out := make([]Op, len(os.rows))
	for i := range out {
		out[i] = os.At(i)
	}
	return out
}

// BuffersOf returns bs as a recording keeps them, for a Recording built
// by hand (a test's): nothing is checked, and Line is kept as given.
func BuffersOf(bs []Buffer) Buffers {
	var out Buffers
	t := newTable()
	for _, b := range bs {
		out.add(&b, t)
	}
	return out
}

// OpsOf returns ops as a recording keeps them, as BuffersOf does buffers.
func OpsOf(ops []Op) Ops {
	var out Ops
	t := newTable()
	for _, op := range ops {
		out.add(&op, t)
	}
	return out
}

// arena keeps copies of small slices in shared chunks, so that a recording
// of a million operations does not make two million allocations, and
// names each by a span rather than a pointer, so that the rows naming
// them hold no pointer. A kept slice's capacity is its length: appending
// to it copies.
type arena struct {
	slabs [][]int64 // the chunks, and the slices too long to share one
	chunk []int64   // the chunk being filled, slabs[cur]
	cur   int
	// The shapes kept (share), by a hash of their sizes.
	shapes [64]struct {
		ints []int64
		at   span
	}
}

// span is where an arena keeps a slice: the slab's index plus one in its
// high 32 bits, the slice's start in the slab in its low 32. The zero span
// is no slice (nil).
type span uint64

// slice returns the n ints kept at s; nil for the zero span.
func (a *arena) slice(s span, n uint32) []int64 {
	if s == 0 {
		return nil
	}
	at := uint32(s)
	return a.slabs[s>>32-1][at : at+n : at+n]
}

// share returns where a copy of shape is kept: the one kept for an equal
// shape before, when it is still remembered, or else a new copy. A
// recording declares few distinct shapes, each for many buffers, and its
// buffers share them: a million buffers' shapes take a few kilobytes, not
// tens of megabytes. Nothing writes to a recording's shapes. A nil shape
// is the zero span; an empty one (a scalar's) is not.
func (a *arena) share(shape []int64) span {
	if shape == nil {
		return 0
	}
	if len(shape) == 0 || len(shape) > 8 {
		return a.keep2(shape, nil)
	}
	h := uint64(len(shape))
	for _, n := range shape {
		h = (h ^ uint64(n)) * 0x9e3779b97f4a7c15
	}
	e := &a.shapes[h>>(64-6)]
	if e.at == 0 || !slices.Equal(e.ints, shape) {
		e.at = a.keep2(shape, nil)
		e.ints = a.slice(e.at, uint32(len(shape)))
	}
	return e.at
}

// keep returns a copy of s, nil for nil, and an empty non-nil slice for an
// empty one.
func (a *arena) keep(s []int64) []int64 {
	if s == nil {
		return nil
	}
	return a.slice(a.keep2(s, nil), uint32(len(s)))
}

// keep2 keeps a copy of x then y, one after the other, and returns where.
func (a *arena) keep2(x, y []int64) span {
	n := len(x) + len(y)
	if n > 256 {
		a.slabs = append(a.slabs, append(append(make([]int64, 0, n), x...), y...))
		return span(len(a.slabs)) << 32
	}
	if cap(a.chunk)-len(a.chunk) < n || a.chunk == nil {
		// Each chunk twice the one before, up to 8 MiB: a large recording
		// takes few chunks, made resident at once where huge pages are at
		// hand (pages.Make) rather than a page at a time as they fill.
		a.chunk = pages.Make[int64](0, min(max(2*cap(a.chunk), 4096), 1<<20))
		a.slabs = append(a.slabs, a.chunk) // slice reaches past its length
		a.cur = len(a.slabs) - 1
	}
	m := len(a.chunk)
	a.chunk = append(append(a.chunk, x...), y...)
	return span(a.cur+1)<<32 | span(m)
}
