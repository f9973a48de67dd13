package interp

import (
	"fmt"
	"maps"
	"slices"

	"memsym/record"
)

// placeBuffers places each buffer in the iteration its group names (as
// "layers[1]") when the recording gives groups, a buffer without one being
// fixed; else with the operation declared next after it: a buffer declared
// within an iteration belongs to it. Buffers declared apart from their
// iterations' operations, one iteration's after another's from the first
// to the last (as a training step declares every block's optimizer states
// at its start), are a run of their own; one iteration's alone (as the
// gradient of the last block's output, which the final norm's backward
// makes) are fixed. At a value of 1, which cannot tell the two apart, the
// structure's template, hint, says which.
func (l *layout) placeBuffers(hint *template) error {
	rec, t := l.rec, &l.tmpl
	l.bufs = make([]place, rec.Buffers.Len())
	kinds, err := l.bufferKinds()
	if err != nil {
		return err
	}
	type key struct{ run, iter int }
	counts := map[key]int{}
	firstSlots := map[int][]int{} // per run, the first iteration's buffer slots
	segRun := map[int]int{}       // per segment of buffers declared apart: its run, or −1 for fixed
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		bkey := fmt.Sprintf("%s %s view=%v", b.Role, typeName(b.DType), b.IsView) // not the name: one for display, which may number its iteration
		run, iter := kinds[i].run, kinds[i].iter
		if seg := kinds[i].seg; seg >= 0 {
			r, ok := segRun[seg]
			if !ok {
				r = -1
				if kinds[i].span > 1 || l.n == 1 && hint != nil && len(t.bufKeys) < len(hint.bufRun) && hint.bufRun[len(t.bufKeys)] >= 0 && hint.runs[hint.bufRun[len(t.bufKeys)]].buffers {
					r = len(t.runs)
					t.runs = append(t.runs, runShape{buffers: true, down: kinds[i].down, known: kinds[i].span > 1})
				}
				segRun[seg] = r
			}
			run = r
		}
		if run < 0 {
			l.bufs[i] = place{slot: len(t.bufKeys)}
			t.bufKeys, t.bufRun = append(t.bufKeys, bkey), append(t.bufRun, -1)
			continue
		}
		k := key{run, iter}
		j := counts[k]
		counts[k]++
		if iter == 0 {
			l.bufs[i] = place{slot: len(t.bufKeys)}
			t.bufKeys, t.bufRun = append(t.bufKeys, bkey), append(t.bufRun, run)
			firstSlots[run] = append(firstSlots[run], len(t.bufKeys)-1)
			continue
		}
		slots := firstSlots[run]
		if j >= len(slots) {
			return l.bufMisaligned(i, fmt.Sprintf("iteration %d of %s declares more buffers than the first, %d", iter, l.prefix, len(slots)))
		}
		if t.bufKeys[slots[j]] != bkey {
			fb := rec.Buffers.At(l.firstBuf(slots[j]))
			return l.bufMisaligned(i, fmt.Sprintf("iteration %d of %s declares it where the first iteration declares buffer %d%s%s", iter, l.prefix, fb.ID, quoted(fb.Name), inGroup(fb.Group)))
		}
		l.bufs[i] = place{slot: slots[j], iter: iter}
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b key) int {
		if a.run != b.run {
			return a.run - b.run
		}
		return a.iter - b.iter
	})
	for _, k := range keys {
		if c := counts[k]; c != len(firstSlots[k.run]) {
			return fmt.Errorf("%s: iteration %d of %s declares %d buffers, the first iteration %d: the blocks that a dimension counts must be one block repeated", l.name, k.iter, l.prefix, c, len(firstSlots[k.run]))
		}
	}
	for r, slots := range firstSlots {
		if t.runs[r].buffers {
			t.runs[r].width = len(slots)
		}
	}
	return nil
}

// bufKind is where a buffer lies before slots are given: in a run of
// operations (run ≥ 0, at iter), fixed (run −1, seg −1), or in segment seg
// of buffers declared apart from their iterations' operations, at its
// iteration iter of span iterations, which run down when down.
type bufKind struct {
	run, iter int
	seg, span int
	down      bool
}

// bufferKinds finds each buffer's bufKind. A segment is a stretch of
// buffers declared apart whose fold indices go from one iteration to the
// next; one of two iterations or more must hold them all.
func (l *layout) bufferKinds() ([]bufKind, error) {
	rec, t := l.rec, &l.tmpl
	kinds := make([]bufKind, rec.Buffers.Len())
	grouped := false
	for _, b := range rec.Buffers.All() {
		if b.Group != "" {
			grouped = true
			break
		}
	}
	type open struct {
		seg, iter, first int // first: the segment's first buffer
		index            int64
		down, known      bool
	}
	var cur *open
	segs := 0
	closeSeg := func(end int) error {
		if cur == nil {
			return nil
		}
		span := cur.iter + 1
		for i := cur.first; i < end; i++ {
			if kinds[i].seg == cur.seg {
				kinds[i].span, kinds[i].down = span, cur.down
			}
		}
		if span > 1 && int64(span) != l.n {
			return l.bufMisaligned(end-1, fmt.Sprintf("the run of %s's iterations it ends has %d, not the dimension's value %d", l.prefix, span, l.n))
		}
		cur = nil
		return nil
	}
	op := 0
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		for op < rec.Ops.Len() && rec.Ops.At(op).Line < b.Line {
			op++
		}
		next := min(op, rec.Ops.Len()-1)
		kinds[i] = bufKind{run: -1, seg: -1}
		if next >= 0 && b.Role != record.Input {
			// The program's inputs are the caller's, never a block's,
			// wherever they are declared.
			kinds[i].run, kinds[i].iter = t.opRun[l.ops[next].slot], l.ops[next].iter
		}
		if !grouped {
			continue
		}
		k := int64(-1)
		if b.Group != "" {
			k = foldIndex(b.Group, l.prefix)
		}
		// In its iteration: its group's, or declared between two of one
		// iteration's operations, which make it (as the backward pass
		// makes the gradient of a block's input in that block).
		inIter := k >= 0 && kinds[i].run >= 0 && (k == int64(l.index[next]) || op > 0 && op < rec.Ops.Len() && l.index[op-1] == l.index[next] && l.ops[op-1].iter == l.ops[next].iter && t.opRun[l.ops[op-1].slot] == kinds[i].run)
		if inIter || k < 0 {
			if err := closeSeg(i); err != nil {
				return nil, err
			}
			// Without a group, it keeps the iteration it is declared in.
			continue
		}
		kinds[i] = bufKind{run: -1, seg: -1}
		switch {
		case cur != nil && k == cur.index:
		case cur != nil && !cur.known && (k == cur.index+1 || k == cur.index-1):
			cur.down, cur.known = k < cur.index, true
			cur.iter, cur.index = cur.iter+1, k
		case cur != nil && cur.known && k == cur.index+step(cur.down):
			cur.iter, cur.index = cur.iter+1, k
		default:
			if err := closeSeg(i); err != nil {
				return nil, err
			}
			cur = &open{seg: segs, first: i, index: k}
			segs++
		}
		kinds[i].seg, kinds[i].iter = cur.seg, cur.iter
	}
	if err := closeSeg(rec.Buffers.Len()); err != nil {
		return nil, err
	}
	// A segment of one iteration is fixed unless the hint makes it a run:
	// its buffers are then each the first iteration's.
	for i := range kinds {
		if kinds[i].seg >= 0 && kinds[i].span <= 1 {
			kinds[i].iter = 0
		}
	}
	return kinds, nil
}

// bufMisaligned is a refusal naming the first buffer that does not align.
func (l *layout) bufMisaligned(i int, why string) error {
	b := l.rec.Buffers.At(i)
	return fmt.Errorf("%s: buffer %d%s%s does not align: %s; a dimension that changes the operations must count blocks that repeat one block exactly (as a layer count L does), else make it a constant",
		at(l.name, b.Line), b.ID, quoted(b.Name), inGroup(b.Group), why)
}
