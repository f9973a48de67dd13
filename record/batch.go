package record

import "slices"

// batch is records copied from a stream that reuses its own, such as a
// Scanner, to hand from the goroutine that reads them to another: of each
// record, its kind's part, with copies of its slices; and room for a
// Builder to make before it takes them, when not zero.
type batch struct {
	recs []Record
	ints []int64
	grow [2]int
}

// noInts is an empty slice that is not nil: a record's empty list.
var noInts = []int64{}

// add appends a copy of r. With whole, the copy's other parts are zero, as
// a stream's records are (a slot that held a record of another kind has
// that part cleared); else they are left as they were, for a Builder,
// which reads a record's kind's part alone.
func (bt *batch) add(r *Record, whole bool) {
	if len(bt.recs) < cap(bt.recs) {
		bt.recs = bt.recs[:len(bt.recs)+1]
	} else {
		bt.recs = append(bt.recs, Record{})
	}
	c := &bt.recs[len(bt.recs)-1]
	if whole && c.Kind != r.Kind {
		*c = Record{}
	}
	c.Kind, c.Line = r.Kind, r.Line
	switch r.Kind {
	case KindHeader:
		c.Header = r.Header
		c.Header.Dims = slices.Clone(r.Header.Dims)
		c.Header.Consts = slices.Clone(r.Header.Consts)
	case KindBuffer, KindView:
		c.Buffer = r.Buffer
		c.Buffer.Shape = bt.keep(r.Buffer.Shape)
	case KindOp:
		c.Op = r.Op
		c.Op.Reads = bt.keep(r.Op.Reads)
		c.Op.Writes = bt.keep(r.Op.Writes)
	case KindResult:
		c.Result = bt.keep(r.Result)
	default:
		*c = *r
	}
}

// keep copies s into the batch, nil for nil.
func (bt *batch) keep(s []int64) []int64 {
	switch {
	case s == nil:
		return nil
	case len(s) == 0:
		return noInts
	}
	if cap(bt.ints)-len(bt.ints) < len(s) {
		// A new array: the records before keep theirs.
		bt.ints = make([]int64, 0, max(4096, len(s)))
	}
	n := len(bt.ints)
	bt.ints = append(bt.ints, s...)
	return bt.ints[n:len(bt.ints):len(bt.ints)]
}

// reset empties the batch, keeping its memory. The records' parts of other
// kinds than their own are left as they were: add overwrites what it
// copies, and clears the rest where asked.
func (bt *batch) reset() {
	bt.recs = bt.recs[:0]
	bt.ints = bt.ints[:0]
	bt.grow = [2]int{}
}
