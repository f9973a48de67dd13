// Package count counts a recording's memory at its one point: the buffers'
// lives, the live bytes and their peak, the calls' shares and a placement.
package count

import (
	"math/big"

	"memsym/poly"
	"memsym/record"
)

// Counts is what a recording needs in memory at its one point.
type Counts struct {
	Ops      int // the operations
	Launches int // the operations that launch work

	Params        poly.Rat    // the parameters' bytes
	ParamElements *big.Int    // the parameters' elements, of those given by a shape
	ParamsByDType []TypeCount // the parameters by stored type, in order of first declaration

	Inputs poly.Rat   // the parameters and the other caller-held inputs
	Live   []poly.Rat // the live bytes at each operation (index op-1)
	Peak   poly.Rat   // the largest live bytes
	PeakOp int        // the first operation whose live bytes are the peak (from 1); 0 with no operations
	AtPeak []int      // positions in rec.Buffers of the buffers live at the peak, in declaration order
	MadeBy []int      // per buffer of AtPeak: the operation that first wrote it (from 1)

	Outputs poly.Rat // the result's buffers, each base once
	Needs   poly.Rat // Inputs + Peak
	Placed  poly.Rat // the size of Place's placement of the temps beside the inputs
	Calls   []Call   // the calls' table: the entry's own first, each call before its callees
}

// TypeCount is the parameters of one stored type. Parameters given in bytes
// rather than by a shape have the zero DType and no elements.
type TypeCount struct {
	DType    record.DType
	Elements *big.Int
	Bytes    poly.Rat
}

// At counts rec's memory under the rules of Lifetimes: the inputs held
// by the caller, the live bytes of the temps at each operation, the peak,
// the outputs, what is needed, the placement and the calls' table.
func At(rec *record.Recording) *Counts {
	c := &Counts{Ops: rec.Ops.Len(), ParamElements: new(big.Int)}
	for i := range rec.Ops.Len() {
		if rec.Ops.At(i).Launch {
			c.Launches++
		}
	}
	c.countHeld(rec)
	lives := Lifetimes(rec)
	// The placement, a third of the work on a long recording, reads what
	// the rest reads and writes nothing they do: it takes a core of its own.
	placed := make(chan poly.Rat, 1)
	go func() { placed <- Place(rec, lives).Size }()
	c.countLive(rec, lives)
	c.Outputs = outputs(rec)
	c.Needs = c.Inputs.Add(c.Peak)
	c.Calls = countCalls(rec, lives, c.PeakOp)
	c.Placed = <-placed
	return c
}

// countHeld counts the caller-held buffers: the parameters by type, and all
// the inputs.
func (c *Counts) countHeld(rec *record.Recording) {
	byType := map[record.DType]int{}
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		if b.IsView || !b.Role.Held() {
			continue
		}
		c.Inputs = c.Inputs.Add(b.Bytes)
		if b.Role != record.Param {
			continue
		}
		c.Params = c.Params.Add(b.Bytes)
		k, ok := byType[b.DType]
		if !ok {
			k = len(c.ParamsByDType)
			byType[b.DType] = k
			c.ParamsByDType = append(c.ParamsByDType, TypeCount{DType: b.DType, Elements: new(big.Int)})
		}
		t := &c.ParamsByDType[k]
		t.Bytes = t.Bytes.Add(b.Bytes)
		if !b.DType.IsZero() {
			e := record.Elements(b.Shape)
			t.Elements.Add(t.Elements, e)
			c.ParamElements.Add(c.ParamElements, e)
		}
	}
}

// countLive sums the temps' bytes at each operation and finds the peak.
func (c *Counts) countLive(rec *record.Recording, lives []Life) {
	n := rec.Ops.Len()
	delta := make([]poly.Rat, n+2)
	for i, l := range lives {
		if l.First == 0 {
			continue
		}
		bytes := rec.Buffers.Bytes(i)
		delta[l.First] = delta[l.First].Add(bytes)
		delta[int(l.Last)+1] = delta[int(l.Last)+1].Sub(bytes)
	}
	c.Live = make([]poly.Rat, n)
	var live poly.Rat
	for op := 1; op <= n; op++ {
		live = live.Add(delta[op])
		c.Live[op-1] = live
		if c.PeakOp == 0 || live.Cmp(c.Peak) > 0 {
			c.Peak, c.PeakOp = live, op
		}
	}
	if c.PeakOp == 0 {
		return
	}
	for i, l := range lives {
		if l.Live(c.PeakOp) {
			c.AtPeak = append(c.AtPeak, i)
			c.MadeBy = append(c.MadeBy, int(l.First))
		}
	}
}

// outputs sums the bytes of the result's buffers, each base once.
func outputs(rec *record.Recording) poly.Rat {
	var sum poly.Rat
	seen := map[int64]bool{}
	for _, id := range rec.Result {
		b := rec.Base(id)
		if !seen[b.ID] {
			seen[b.ID] = true
			sum = sum.Add(b.Bytes)
		}
	}
	return sum
}
