package interp

import (
	"fmt"
	"maps"
	"slices"
)

// The operations' data flow. Aligning the recordings by their operations'
// labels, paths and phases and their buffers' keys (align.go) does not
// compare what each operation reads and writes, nor whether it launches
// work: the live bytes of a recording whose operation reads another
// buffer than the others', which follow from what it reads, would be
// interpolated with theirs as one program's, and the model be wrong where
// only a check point off the grid might show it. Each operation's reads
// and writes are therefore written on the template: a buffer as its slot
// and, for one in a run, its block, placed by one of three rules:
// relative to the operation's own block (the block before's output),
// counted from the first block (a fixed operation after the backward pass
// reading the first block's gradient), or counted from the last (the
// final norm reading the last block's output); an operation may also read
// or write every block's buffers of some slots in turn (an optimizer's
// update). The operations of one slot and one part of the run (the first
// iteration, the middle ones, the last; a fixed operation's slot being
// one part) must launch alike and read and write the same slots at every
// iteration of every recording, each buffer in a run placed by one rule
// at all of them; the first operation that does not is named. A
// difference at one point of the grid, which interpolating would take for
// a polynomial's value, is thus refused, as the walker (compare.go)
// refuses it without a folding dimension. A view's base and the
// recording's result are compared likewise: a view reads its base as an
// operation of its own block (or a fixed one, outside the blocks) would,
// by the same rules, its slot and part being its own buffer slot's; the
// result is one more fixed operation reading the ids it lists, every
// block's among them in turn as one term (a training step's result lists
// every block's parameters and states). The view's declaration, or the
// result's line, is named.

// The rules that place a buffer of a run relative to an operation reading
// or writing it.
const (
	byOwn   = 1 << iota // its block relative to the operation's own
	byFirst             // its block counted from the first
	byLast              // its block counted from the last
)

// use is a buffer an operation reads or writes, placed on the template.
type use struct {
	id    int64
	pos   int    // its position among the recording's buffers, −1 for an id none has
	slot  int    // its slot, −1 for an id no buffer has
	block int    // its block's fold index, −1 for a buffer outside the blocks
	by    [3]int // where each rule places it (byOwn, byFirst, byLast)
}

// term is one buffer an operation reads or writes or, when slots is set,
// every block's buffers of those slots, one block after another from the
// first block or, when down, from the last (as an optimizer's update reads
// every block's parameters).
type term struct {
	use
	slots []int
	down  bool
}

// flowEntry is what the operations of one slot and part do, as the first
// of them does, with the rules that place each of its buffers in a run at
// every one of them so far.
type flowEntry struct {
	lay    *layout // the first one's recording
	sub    subject // the first one
	launch bool
	terms  [2][]term  // its reads, its writes
	rules  [2][]uint8 // per term: the rules that hold so far
}

// What reads buffers on the template: an operation, a view (reading its
// base, as if the view were an operation of its own block, or a fixed one,
// reading it), or the recording's result (a fixed operation reading the
// ids it lists).
const (
	subOp = iota
	subView
	subResult
)

// subject is an operation (its position among the recording's operations),
// a view (its position among the buffers) or the result.
type subject struct{ kind, i int }

// flowKey is an operation's or a view's slot, or the result, and its part
// of the run (part).
type flowKey struct{ kind, slot, part int }

// flow is every slot's and part's entry.
type flow map[flowKey]*flowEntry

// flowOf checks that the operations of the recordings lays, the
// structure's, lays[ref], then the others in the order order, read, write
// and launch alike (as this file's top says), and returns their flow. The
// structure, whose value of the folding dimension is at least 3, shows
// which of its operations read or write every block's buffers, as no
// recording at 1 can.
func (f *fold) flowOf(lays []*layout, order []int, ref int) (flow, error) {
	fl := flow{}
	if err := fl.add(f, lays[ref]); err != nil {
		return nil, err
	}
	for _, i := range order {
		if i == ref {
			continue
		}
		if err := fl.add(f, lays[i]); err != nil {
			return nil, err
		}
	}
	return fl, nil
}

// clone returns a copy of fl that adding to leaves fl as it is.
func (fl flow) clone() flow {
	out := flow{}
	maps.Copy(out, fl)
	for k, e := range out {
		c := *e
		c.rules = [2][]uint8{slices.Clone(e.rules[0]), slices.Clone(e.rules[1])}
		out[k] = &c
	}
	return out
}

// add adds l's operations, then its views' bases, then its result, to
// fl, naming the first that differs from the entry of its slot and part.
func (fl flow) add(f *fold, l *layout) error {
	pos := make(map[int64]int, l.rec.Buffers.Len())
	for j := range l.rec.Buffers.Len() {
		pos[l.rec.Buffers.ID(j)] = j
	}
	one := func(s subject, k flowKey, launch bool, reads, writes []int64) error {
		own := l.own(s)
		us := [2][]use{l.uses(reads, own, pos), l.uses(writes, own, pos)}
		e := fl[k]
		if e == nil {
			e = &flowEntry{lay: l, sub: s, launch: launch}
			for w := range us {
				e.terms[w] = l.termsOf(us[w])
				e.rules[w] = l.rulesOf(e.terms[w], own)
			}
			fl[k] = e
			return nil
		}
		if launch != e.launch {
			return l.flowMisaligned(s, fmt.Sprintf("it launches %s, where %s launches %s", launches(launch), e.counterpart(l), launches(e.launch)))
		}
		for w := range us {
			if err := e.match(f, l, s, w, us[w]); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range l.rec.Ops.Len() {
		o := l.rec.Ops.At(i)
		p := l.ops[i]
		if err := one(subject{subOp, i}, flowKey{subOp, p.slot, l.part(p)}, o.Launch, o.Reads, o.Writes); err != nil {
			return err
		}
	}
	for j := range l.rec.Buffers.Len() {
		b := l.rec.Buffers.At(j)
		if !b.IsView {
			continue
		}
		p := l.bufs[j]
		k := flowKey{subView, p.slot, l.partOf(l.tmpl.bufRun[p.slot], p.iter)}
		if err := one(subject{subView, j}, k, false, []int64{b.Of}, nil); err != nil {
			return err
		}
	}
	return one(subject{subResult, 0}, flowKey{kind: subResult}, false, l.rec.Result, nil)
}

// own returns the fold index of the block that s lies in, −1 for one
// outside the blocks.
func (l *layout) own(s subject) int {
	switch s.kind {
	case subOp:
		return l.index[s.i]
	case subView:
		return l.bufBlock(s.i)
	}
	return -1
}

// ids returns the buffers s reads (w = 0) or writes (w = 1).
func (l *layout) ids(s subject, w int) []int64 {
	switch s.kind {
	case subOp:
		o := l.rec.Ops.At(s.i)
		return [2][]int64{o.Reads, o.Writes}[w]
	case subView:
		if w == 0 {
			return []int64{l.rec.Buffers.At(s.i).Of}
		}
		return nil
	}
	if w == 0 {
		return l.rec.Result
	}
	return nil
}

// verbs returns what s does with the buffers it reads (w = 0) or writes
// (w = 1), and what one of them is to it: "reads" and "read".
func verbs(s subject, w int) (verb, noun string) {
	switch s.kind {
	case subView:
		return "views", "base"
	case subResult:
		return "lists", "id"
	}
	return [2]string{"reads", "writes"}[w], [2]string{"read", "write"}[w]
}

// flowMisaligned is a refusal naming s, which does not read or write as
// its counterparts do.
func (l *layout) flowMisaligned(s subject, why string) error {
	const tail = "; a dimension that changes the operations must count blocks that repeat one block exactly (as a layer count L does), else make it a constant"
	switch s.kind {
	case subOp:
		return l.misaligned(s.i, why)
	case subView:
		b := l.rec.Buffers.At(s.i)
		where := " outside the blocks"
		if k := l.bufBlock(s.i); k >= 0 {
			where = fmt.Sprintf(" in %s[%d]", l.prefix, k)
		}
		return fmt.Errorf("%s: view %d%s%s does not align: %s%s", at(l.name, b.Line), b.ID, quoted(b.Name), where, why, tail)
	}
	return fmt.Errorf("%s: the result does not align: %s%s", at(l.name, l.resultLine), why, tail)
}

// part returns the part of its run that an operation of l at place p lies
// in (partOf).
func (l *layout) part(p place) int { return l.partOf(l.tmpl.opRun[p.slot], p.iter) }

// partOf returns the part of its run that an operation or view of l in
// run (−1 for none) at iteration iter lies in: 0 for a fixed operation and the first iteration, 1 for a middle one,
// 2 for the last, 3 for the one iteration of a run of one, both the first
// and the last. The last is a part of its own even where the model does
// not peel it: reading the caller's input in place of the block before's
// (as a backward pass's last iteration does), it may still keep the
// middle ones' live bytes, which fitting them checks.
func (l *layout) partOf(run, iter int) int {
	switch {
	case run < 0:
		return 0
	case l.n == 1:
		return 3
	case iter == 0:
		return 0
	case int64(iter) == l.n-1:
		return 2
	}
	return 1
}

// uses places the buffers ids, which an operation in the block own (−1
// for none) reads or writes.
func (l *layout) uses(ids []int64, own int, pos map[int64]int) []use {
	out := make([]use, len(ids))
	for j, id := range ids {
		u := use{id: id, pos: -1, slot: -1, block: -1}
		if b, ok := pos[id]; ok {
			u.pos, u.slot, u.block = b, l.bufs[b].slot, l.bufBlock(b)
		}
		if u.block >= 0 {
			u.by = [3]int{u.block - own, u.block, int(l.n) - 1 - u.block}
		}
		out[j] = u
	}
	return out
}

// bufBlock returns the fold index of the block that buffer b lies in, −1
// for one outside the blocks.
func (l *layout) bufBlock(b int) int {
	p := l.bufs[b]
	r := l.tmpl.bufRun[p.slot]
	switch {
	case r < 0:
		return -1
	case l.tmpl.runs[r].down:
		return int(l.n) - 1 - p.iter
	}
	return p.iter
}

// termsOf writes us as terms: each buffer alone, but for a stretch of
// every block's buffers (everyBlock), which is one term.
func (l *layout) termsOf(us []use) []term {
	var out []term
	for i := 0; i < len(us); {
		w, down := l.everyBlock(us[i:])
		if w == 0 {
			out = append(out, term{use: us[i]})
			i++
			continue
		}
		slots := make([]int, w)
		for j := range slots {
			slots[j] = us[i+j].slot
		}
		out = append(out, term{use: us[i], slots: slots, down: down})
		i += w * int(l.n)
	}
	return out
}

// everyBlock returns the width w of a stretch at the start of us that
// holds every block's buffers of the same w slots, one block after
// another from the first block (down false) or from the last, or 0 when
// there is none. It takes two blocks or more to tell such a stretch.
func (l *layout) everyBlock(us []use) (w int, down bool) {
	n := int(l.n)
	if n < 2 || len(us) == 0 || us[0].block != 0 && us[0].block != n-1 {
		return 0, false
	}
	down = us[0].block == n-1
	for w < len(us) && us[w].block == us[0].block {
		w++
	}
	if w*n > len(us) {
		return 0, false
	}
	for k := w; k < w*n; k++ {
		if us[k].block != blockOf(k/w, n, down) || us[k].slot != us[k%w].slot {
			return 0, false
		}
	}
	return w, down
}

// blockOf returns the fold index of the b-th block of n, counted from the
// first or, when down, from the last.
func blockOf(b, n int, down bool) int {
	if down {
		return n - 1 - b
	}
	return b
}

// rulesOf returns, per term of an operation in the block own (−1 for
// none), the rules that may place its buffer: none for a buffer outside
// the blocks or a term of every block, relative to the operation's own
// block only for an operation in one.
func (l *layout) rulesOf(ts []term, own int) []uint8 {
	out := make([]uint8, len(ts))
	for j, t := range ts {
		if t.block < 0 || t.slots != nil {
			continue
		}
		out[j] = byFirst | byLast
		if own >= 0 {
			out[j] |= byOwn
		}
	}
	return out
}

// match checks that operation op of l reads (w = 0) or writes (w = 1) the
// buffers us as e does, and keeps in e the rules that still hold.
func (e *flowEntry) match(f *fold, l *layout, op subject, w int, us []use) error {
	if err := e.matchCount(f, l, op, w, us); err != nil {
		return err
	}
	rules := slices.Clone(e.rules[w])
	k := 0 // the next of us
	for j, t := range e.terms[w] {
		if t.slots != nil {
			if err := e.matchEvery(l, op, w, j, us, k); err != nil {
				return err
			}
			k += len(t.slots) * int(l.n)
			continue
		}
		if err := e.matchOne(l, op, w, &rules[j], t, us, k); err != nil {
			return err
		}
		k++
	}
	e.rules[w] = rules
	return nil
}

// matchEvery checks that us from k on are every block's buffers of e's
// term j in turn, as op of l reads (w = 0) or writes (w = 1) them.
func (e *flowEntry) matchEvery(l *layout, op subject, w, j int, us []use, k int) error {
	t := e.terms[w][j]
	n := int(l.n)
	for b := range n {
		for _, s := range t.slots {
			if u := us[k]; u.slot != s || u.block != blockOf(b, n, t.down) {
				verb, noun := verbs(op, w)
				return l.flowMisaligned(op, fmt.Sprintf("its %s %s is %s, where %s %s every block's buffers in turn from its %s %s on, putting there a buffer%s in %s[%d]",
					ordinal(k+1), noun, l.bufWords(u), e.counterpart(l), verb, ordinal(e.first(w, j)+1), noun, e.lay.slotName(s), l.prefix, blockOf(b, n, t.down)))
			}
			k++
		}
	}
	return nil
}

// matchOne checks that us[k] is the buffer of e's term t, placed by one
// of rules, which it narrows to those that place it.
func (e *flowEntry) matchOne(l *layout, op subject, w int, rules *uint8, t term, us []use, k int) error {
	u := us[k]
	verb, noun := verbs(op, w)
	why := fmt.Sprintf("its %s %s is %s, where %s %s %s there", ordinal(k+1), noun, l.bufWords(u), e.counterpart(l), verb, e.lay.bufWords(t.use))
	if op.kind == subView {
		why = fmt.Sprintf("it is a view of %s, where %s is a view of %s", l.bufWords(u), e.counterpart(l), e.lay.bufWords(t.use))
	}
	if u.slot != t.slot {
		return l.flowMisaligned(op, why)
	}
	if t.block < 0 {
		return nil
	}
	for r := range u.by {
		if u.by[r] != t.by[r] {
			*rules &^= 1 << r
		}
	}
	if *rules == 0 {
		return l.flowMisaligned(op, why+": no one rule places the buffer at every iteration and point, in the same block relative to the operation's own, or counted from the first block or from the last")
	}
	return nil
}

// matchCount checks that operation op of l reads (w = 0) or writes (w =
// 1) as many buffers, us, as e's terms come to in l.
func (e *flowEntry) matchCount(f *fold, l *layout, op subject, w int, us []use) error {
	verb, _ := verbs(op, w)
	want, every := 0, false
	for _, t := range e.terms[w] {
		if t.slots == nil {
			want++
			continue
		}
		want, every = want+len(t.slots)*int(l.n), true
	}
	if len(us) == want {
		return nil
	}
	why := fmt.Sprintf("it %s %s, where %s %s %d", verb, nBuffers(len(us)), e.counterpart(l), verb, e.count(w))
	if every {
		why += fmt.Sprintf(", every block's of some slots among them, as many as %d at %s = %d", want, f.dim, l.n)
	}
	return l.flowMisaligned(op, why)
}

// nBuffers writes "1 buffer" or "3 buffers".
func nBuffers(n int) string {
	if n == 1 {
		return "1 buffer"
	}
	return fmt.Sprintf("%d buffers", n)
}

// count returns how many buffers e's first operation reads (w = 0) or
// writes (w = 1).
func (e *flowEntry) count(w int) int {
	return len(e.lay.ids(e.sub, w))
}

// first returns the position among e's first operation's reads (w = 0) or
// writes (w = 1) of the first buffer of term j.
func (e *flowEntry) first(w, j int) int {
	k := 0
	for _, t := range e.terms[w][:j] {
		k++
		if t.slots != nil {
			k += len(t.slots)*int(e.lay.n) - 1
		}
	}
	return k
}

// slotName returns the name of the buffers of slot s, quoted, as the
// first of them declares it.
func (l *layout) slotName(s int) string {
	return quoted(l.rec.Buffers.Name(l.firstBuf(s)))
}

// bufWords names the buffer of use u, with its block.
func (l *layout) bufWords(u use) string {
	if u.pos < 0 {
		return fmt.Sprintf("buffer %d, which the recording does not declare", u.id)
	}
	b := l.rec.Buffers.At(u.pos)
	where := " outside the blocks"
	if u.block >= 0 {
		where = fmt.Sprintf(" in %s[%d]", l.prefix, u.block)
	}
	return fmt.Sprintf("buffer %d%s%s", b.ID, quoted(b.Name), where)
}

// counterpart names e's first operation, seen from a recording l.
func (e *flowEntry) counterpart(l *layout) string {
	switch e.sub.kind {
	case subView:
		b := e.lay.rec.Buffers.At(e.sub.i)
		if e.lay == l {
			return fmt.Sprintf("its counterpart in iteration %d of %s, view %d%s,", l.bufs[e.sub.i].iter, l.prefix, b.ID, quoted(b.Name))
		}
		return fmt.Sprintf("its counterpart, view %d%s at %s,", b.ID, quoted(b.Name), e.lay.point())
	case subResult:
		return fmt.Sprintf("the result at %s", e.lay.point())
	}
	if e.lay == l {
		return fmt.Sprintf("its counterpart in iteration %d of %s, operation %d,", l.ops[e.op()].iter, l.prefix, e.op()+1)
	}
	return fmt.Sprintf("its counterpart, operation %d at %s,", e.op()+1, e.lay.point())
}

// op returns e's first operation.
func (e *flowEntry) op() int { return e.sub.i }
