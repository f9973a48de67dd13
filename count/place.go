package count

import (
	"cmp"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"memsym/poly"
	"memsym/record"
)

// Align is the alignment of every placed buffer's offset, in bytes.
const Align = 64

// Placement is where Place puts each temp buffer.
type Placement struct {
	Offsets []poly.Rat // by position in rec.Buffers; zero for a buffer not placed
	Placed  []bool     // by position: the buffer is a temp with bytes and a life
	Size    poly.Rat   // the largest end, offset plus bytes, over the placed buffers
}

// Place puts every temp buffer that has bytes and a life at an offset: the
// largest first (ties in declaration order), each at the lowest offset, a
// multiple of Align, where it overlaps no buffer already placed whose life
// overlaps its life. Views, caller-held buffers and empty buffers take no
// room. The size is at least the peak of live bytes.
//
// Finding the buffers placed beside one takes an interval tree over the
// lives, so placing n buffers costs O(n log n) plus O(k log n) for each
// buffer whose life overlaps k placed ones: near n log n when few buffers
// live at once, as in a forward pass, and quadratic only when most lives
// overlap most others, as in a training step; then the placed spans are
// kept in the order of their offsets and gone through for each buffer
// (byOffset), which costs less than finding and sorting nearly all of them
// each time. Offsets are counted in int64 units of Align while they fit,
// exactly with big numbers beyond.
func Place(rec *record.Recording, lives []Life) *Placement {
	p := &Placement{Offsets: make([]poly.Rat, rec.Buffers.Len()), Placed: make([]bool, rec.Buffers.Len())}
	if pl := newPlacer(rec, lives, p); pl != nil && !pl.inUnits(p) {
		pl.exactly(p)
	}
	return p
}

// newPlacer marks in p the buffers to place and returns their placer, nil
// when there are none.
func newPlacer(rec *record.Recording, lives []Life, p *Placement) *placer {
	var items []int // positions of the buffers to place
	for i, l := range lives {
		if b := rec.Buffers.At(i); l.First != 0 && !b.IsView && !b.Role.Held() && b.Bytes.Sign() > 0 {
			items = append(items, i)
			p.Placed[i] = true
		}
	}
	if len(items) == 0 {
		return nil
	}
	// The tree's leaves are the items by the start of their lives.
	byFirst, upTo := sortByFirst(items, lives, rec.Ops.Len())
	leafOf := make([]int, rec.Buffers.Len())
	for leaf, i := range byFirst {
		leafOf[i] = leaf
	}
	return &placer{rec: rec, lives: lives, byFirst: byFirst, upTo: upTo, leafOf: leafOf, order: bySize(rec, items)}
}

// bySize returns items, positions in rec.Buffers in increasing order, the
// largest buffer first and by position among equals, as a stable sort by
// size gives them. Where every size is an integer that fits in an int64,
// as nearly always, the sizes are read once: a program's buffers come in
// few sizes, so each is counted and the items dealt into their sizes'
// places in one pass; with many sizes, the sizes are sorted as integers,
// the position breaking ties. Else each comparison compares two exact
// sizes.
func bySize(rec *record.Recording, items []int) []int {
	sizes := make([]int64, len(items))
	for k, i := range items {
		n, ok := rec.Buffers.Bytes(i).Int64()
		if !ok {
			order := slices.Clone(items)
			slices.SortStableFunc(order, func(a, b int) int { return rec.Buffers.Bytes(b).Cmp(rec.Buffers.Bytes(a)) })
			return order
		}
		sizes[k] = n
	}
	if order, ok := dealBySize(items, sizes); ok {
		return order
	}
	type sized struct {
		bytes int64
		pos   int
	}
	keys := make([]sized, len(items))
	for k, i := range items {
		keys[k] = sized{sizes[k], i}
	}
	slices.SortFunc(keys, func(a, b sized) int {
		if c := cmp.Compare(b.bytes, a.bytes); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	order := make([]int, len(keys))
	for k, key := range keys {
		order[k] = key.pos
	}
	return order
}

// dealBySize orders items as bySize does, sizes[k] being item k's, by
// counting each distinct size; ok is false, and nothing done, when there
// are more than a few distinct sizes.
func dealBySize(items []int, sizes []int64) (order []int, ok bool) {
	most := max(64, len(items)/16)
	class := make([]int32, len(items))
	index := make(map[int64]int32)
	var distinct []int64
	for k, n := range sizes {
		c, seen := index[n]
		if !seen {
			if len(distinct) == most {
				return nil, false
			}
			c = int32(len(distinct))
			index[n] = c
			distinct = append(distinct, n)
		}
		class[k] = c
	}
	// Each distinct size's place among them, the largest first.
	byDesc := make([]int32, len(distinct))
	for c := range byDesc {
		byDesc[c] = int32(c)
	}
	slices.SortFunc(byDesc, func(a, b int32) int { return cmp.Compare(distinct[b], distinct[a]) })
	start := make([]int, len(distinct)) // by class: where its items go
	count := make([]int, len(distinct))
	for _, c := range class {
		count[c]++
	}
	at := 0
	for _, c := range byDesc {
		start[c] = at
		at += count[c]
	}
	order = make([]int, len(items))
	for k, i := range items {
		c := class[k]
		order[start[c]] = i
		start[c]++
	}
	return order, true
}

// placer is what Place's two ways of placing share: the buffers to place
// by the start of their lives (the lifeTree's leaves) and in the order
// they are placed.
type placer struct {
	rec     *record.Recording
	lives   []Life
	byFirst []int // the buffers to place by the start of their lives
	upTo    []int // upTo[f]: how many of them start before operation f
	leafOf  []int // by position in rec.Buffers: its leaf in byFirst
	order   []int // the buffers to place, largest first
	beside  []int // collect's, reused
	byOff   int   // the buffers placed by going through all by offset
}

// overlapping returns the placed buffers whose lives overlap buffer i's.
func (pl *placer) overlapping(tree *lifeTree, i int) []int {
	life := pl.lives[i]
	// Among those whose lives start no later than this one ends, those
	// that end no earlier.
	pl.beside = tree.collect(pl.beside[:0], pl.upTo[int(life.Last)+1], int(life.First))
	for k, leaf := range pl.beside {
		pl.beside[k] = pl.byFirst[leaf]
	}
	return pl.beside
}

// span is a placed buffer's offset and end, rounded up, in units of Align.
type span struct{ off, end int64 }

// inUnits places the buffers as Place says, counting offsets in units of
// Align in int64s, and reports whether they all fit; it leaves p alone when
// they do not. Offsets are multiples of Align, so this is exact.
func (pl *placer) inUnits(p *Placement) bool {
	const limit = math.MaxInt64 / Align // an end in units whose bytes fit in an int64
	need := make([]int64, pl.rec.Buffers.Len())
	for _, i := range pl.order {
		n, _, ok := roundUp(pl.rec.Buffers.Bytes(i)).Small()
		if !ok {
			return false
		}
		need[i] = n / Align
	}
	tree := newLifeTree(len(pl.byFirst))
	at := make([]int64, pl.rec.Buffers.Len()) // offsets in units
	var spans []span
	var sorter spanSorter
	top := int64(0)   // the largest end so far
	var all *byOffset // every placed span, while most lives overlap
	wide := 0         // tree queries in a row that found most placed spans beside
	for n, i := range pl.order {
		var off int64
		takeUp := false
		if all != nil {
			var keep bool
			off, keep = all.place(pl.lives[i], need[i], n)
			pl.byOff++
			if !keep {
				all = nil
			}
		} else {
			spans = spans[:0]
			for _, j := range pl.overlapping(tree, i) {
				spans = append(spans, span{at[j], at[j] + need[j]})
			}
			sorter.sort(spans, top)
			off = firstFit(spans, need[i])
			if beside := len(spans); beside < denseFrom || 4*beside < n {
				wide = 0
			} else {
				// Taken up only when it has been worth it a few times
				// running and enough buffers are left to pay for making it.
				wide++
				takeUp = wide >= denseAfter && 8*(len(pl.order)-n) >= n
			}
		}
		if off > limit-need[i] {
			return false
		}
		at[i] = off
		top = max(top, off+need[i])
		tree.set(pl.leafOf[i], int(pl.lives[i].Last))
		switch {
		case takeUp:
			all, wide = newByOffset(pl.order[:n+1], at, need, pl.lives), 0
		case all != nil:
			all.add(placedSpan{off: off, end: off + need[i], first: int(pl.lives[i].First), last: int(pl.lives[i].Last)})
		}
	}
	for _, i := range pl.order {
		p.Offsets[i] = poly.Int(at[i] * Align)
		if end := p.Offsets[i].Add(pl.rec.Buffers.Bytes(i)); end.Cmp(p.Size) > 0 {
			p.Size = end
		}
	}
	return true
}

// firstFit returns the lowest offset from 0 at which need units overlap
// none of spans, which are sorted by offset.
func firstFit(spans []span, need int64) int64 {
	var off int64
	for _, s := range spans {
		var fits bool
		if off, fits = fitBelow(off, need, s.off, s.end); fits {
			break
		}
	}
	return off
}

// fitBelow is one step of a first fit, the next span by offset at
// [sOff, sEnd): whether need units from off fit below it, and else the
// offset to try past it.
func fitBelow(off, need, sOff, sEnd int64) (int64, bool) {
	if off+need <= sOff {
		return off, true
	}
	return max(off, sEnd), false
}

// When most of the placed buffers live beside the one to place, as the
// stored activations of a training step do, finding them and sorting them
// for each costs more than going through all of them in the order of
// their offsets, kept as they are placed: byOffset. inUnits takes it up
// when the buffers beside one have been at least denseFrom and a quarter
// of those placed denseAfter times in a row, with at least an eighth as
// many buffers left to place as placed, and leaves it when fewer than an
// eighth have been beside the buffer placed, denseMisses times in a row:
// a forward pass, whose lives overlap little, must not pay for it.
var (
	denseFrom   = 512 // variables for the tests, which take it up sooner
	denseAfter  = 8
	denseMisses = 16
)

// placedSpan is a placed buffer's offset and end, in units, and its life.
type placedSpan struct {
	off, end    int64
	first, last int
}

// byOffset is every placed span in the order of their offsets.
type byOffset struct {
	spans  []placedSpan
	misses int // queries in a row that found few spans beside
}

// newByOffset returns the placed buffers' spans by offset.
func newByOffset(placed []int, at, need []int64, lives []Life) *byOffset {
	b := &byOffset{spans: make([]placedSpan, 0, 2*len(placed))}
	for _, j := range placed {
		b.spans = append(b.spans, placedSpan{off: at[j], end: at[j] + need[j], first: int(lives[j].First), last: int(lives[j].Last)})
	}
	// In any order among equal offsets: firstFit's answer does not
	// depend on it.
	slices.SortFunc(b.spans, func(x, y placedSpan) int { return cmp.Compare(x.off, y.off) })
	return b
}

// place is firstFit among the spans whose lives overlap life, and whether
// to go on keeping the spans by offset, placed having been placed.
func (b *byOffset) place(life Life, need int64, placed int) (off int64, keep bool) {
	off, beside := b.first(life, need)
	return off, b.keep(beside, placed)
}

// first is firstFit among the spans whose lives overlap life, and the
// number of those spans.
func (b *byOffset) first(life Life, need int64) (off int64, beside int) {
	k := 0
	for ; k < len(b.spans); k++ {
		s := &b.spans[k]
		if s.first > int(life.Last) || s.last < int(life.First) {
			continue
		}
		beside++
		var found bool
		if off, found = fitBelow(off, need, s.off, s.end); found {
			k++
			break
		}
	}
	// The rest are only counted, without a branch a span: a span lives
	// beside when both differences below are at least 0.
	for _, s := range b.spans[k:] {
		beside += int(uint64(^((int(life.Last) - s.first) | (s.last - int(life.First)))) >> 63)
	}
	return off, beside
}

// keep notes that a query found beside spans among placed, and reports
// whether to go on keeping the spans by offset.
func (b *byOffset) keep(beside, placed int) bool {
	if 8*beside >= placed {
		b.misses = 0
		return true
	}
	b.misses++
	return b.misses < denseMisses
}

// add inserts a span in its place by offset.
func (b *byOffset) add(s placedSpan) {
	k, _ := slices.BinarySearchFunc(b.spans, s.off, func(x placedSpan, off int64) int { return cmp.Compare(x.off, off) })
	b.spans = slices.Insert(b.spans, k, s)
}

// spanSorter sorts spans by their offsets, reusing its room from one call
// to the next.
type spanSorter struct {
	words, tmp []uint64
	spans      []span // the spans as given, when sorted by index
}

// sort sorts spans by their offsets, none of which ends beyond top. While
// the spans' ends are below 2^32 units, each is sorted as one word, its
// offset above its end; beyond, while an offset and the span's index fit
// in a word, as that word, the spans then put in its order (a training
// step's verification points place hundreds of gigabytes: 2^32 units are
// 256 GiB). Many words by a radix sort of the offsets' bytes, a few as
// integers. Beyond both, by a function, several times slower.
func (ss *spanSorter) sort(spans []span, top int64) {
	if len(spans) < 2 {
		return
	}
	width := bits.Len64(uint64(top))
	if top < 1<<32 {
		words := ss.words[:0]
		for _, s := range spans {
			words = append(words, uint64(s.off)<<32|uint64(s.end))
		}
		ss.words = words
		for k, w := range ss.sortWords(words, 32, width) {
			spans[k] = span{int64(w >> 32), int64(w & (1<<32 - 1))}
		}
		return
	}
	idx := bits.Len(uint(len(spans) - 1))
	if width+idx > 64 {
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.off, b.off) })
		return
	}
	words := ss.words[:0]
	for k, s := range spans {
		words = append(words, uint64(s.off)<<idx|uint64(k))
	}
	ss.words = words
	ss.spans = append(ss.spans[:0], spans...)
	for k, w := range ss.sortWords(words, idx, width) {
		spans[k] = ss.spans[w&(1<<idx-1)]
	}
}

// sortWords sorts words by their bits from lo up, width of them, the bits
// below lo telling equal keys apart or not: a few as integers, many by a
// radix sort. It returns the slice that holds them sorted, words or the
// sorter's other room.
func (ss *spanSorter) sortWords(words []uint64, lo, width int) []uint64 {
	if len(words) < radixFrom {
		slices.Sort(words)
		return words
	}
	ss.tmp = slices.Grow(ss.tmp[:0], len(words))
	return radixBy(words, ss.tmp[:len(words)], lo, width)
}

// radixFrom is the fewest spans spanSorter sorts by radix.
const radixFrom = 256

// radixBy sorts words by their bits from lo up, keys of at most width
// bits, a byte at a time from the lowest, stably, moving them between words
// and tmp (as long); it returns the one that holds them sorted.
func radixBy(words, tmp []uint64, lo, width int) []uint64 {
	for shift := lo; shift < lo+width; shift += 8 {
		var at [256]int
		for _, w := range words {
			at[byte(w>>shift)]++
		}
		sum := 0
		for d, n := range at {
			at[d], sum = sum, sum+n
		}
		for _, w := range words {
			d := byte(w >> shift)
			tmp[at[d]] = w
			at[d]++
		}
		words, tmp = tmp, words
	}
	return words
}

// exactly places the buffers as Place says with exact offsets, whatever
// their size.
func (pl *placer) exactly(p *Placement) {
	rec := pl.rec
	tree := newLifeTree(len(pl.byFirst))
	extent := make([]poly.Rat, rec.Buffers.Len()) // offset plus bytes rounded up to Align
	for _, i := range pl.order {
		beside := pl.overlapping(tree, i)
		if len(beside) > 1 {
			slices.SortFunc(beside, func(a, b int) int { return p.Offsets[a].Cmp(p.Offsets[b]) })
		}
		need := roundUp(rec.Buffers.Bytes(i))
		var off poly.Rat
		for _, j := range beside {
			if off.Add(need).Cmp(p.Offsets[j]) <= 0 {
				break
			}
			if extent[j].Cmp(off) > 0 {
				off = extent[j]
			}
		}
		p.Offsets[i] = off
		extent[i] = off.Add(need)
		if end := off.Add(rec.Buffers.Bytes(i)); end.Cmp(p.Size) > 0 {
			p.Size = end
		}
		tree.set(pl.leafOf[i], int(pl.lives[i].Last))
	}
}

// sortByFirst returns items ordered by the start of their lives, stably,
// and how many of them start before each operation (up to ops + 1):
// a counting sort, as lives start at operations 1 to ops.
func sortByFirst(items []int, lives []Life, ops int) ([]int, []int) {
	start := make([]int, ops+2)
	for _, i := range items {
		start[lives[i].First+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	upTo := slices.Clone(start)
	out := make([]int, len(items))
	for _, i := range items {
		f := lives[i].First
		out[start[f]] = i
		start[f]++
	}
	return out, upTo
}

// roundUp returns the bytes x rounded up to a multiple of Align.
func roundUp(x poly.Rat) poly.Rat {
	if n, d, ok := x.Small(); ok && n >= 0 {
		q := n / d
		if n%d != 0 {
			q++
		}
		if q <= math.MaxInt64-Align {
			return poly.Int((q + Align - 1) / Align * Align)
		}
	}
	q, m := new(big.Int).DivMod(x.Num(), x.Den(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	a := big.NewInt(Align)
	q.Add(q, big.NewInt(Align-1))
	q.Quo(q, a)
	return poly.FromBigInt(q.Mul(q, a))
}

// lifeTree is a segment tree over leaves (buffers ordered by the start of
// their lives) holding, for each range, the latest end of a life among the
// leaves set so far (0 for none).
type lifeTree struct {
	size  int
	last  []int
	stack []lifeSpan // collect's, reused
}

type lifeSpan struct{ k, lo, hi int }

func newLifeTree(n int) *lifeTree {
	size := 1
	for size < n {
		size *= 2
	}
	return &lifeTree{size: size, last: make([]int, 2*size)}
}

// set marks a leaf placed, with the end of its life. A leaf is set once,
// from 0, so each range's latest end can only grow: the walk up stops at
// the first range whose latest end is already as late.
func (t *lifeTree) set(leaf, last int) {
	k := leaf + t.size
	t.last[k] = last
	for k /= 2; k >= 1 && t.last[k] < last; k /= 2 {
		t.last[k] = last
	}
}

// collect appends the placed leaves below limit whose lives end at or after
// from.
func (t *lifeTree) collect(dst []int, limit, from int) []int {
	stack := append(t.stack[:0], lifeSpan{1, 0, t.size})
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.lo >= limit || t.last[s.k] < from {
			continue
		}
		if s.k >= t.size {
			dst = append(dst, s.k-t.size)
			continue
		}
		mid := (s.lo + s.hi) / 2
		stack = append(stack, lifeSpan{2*s.k + 1, mid, s.hi}, lifeSpan{2 * s.k, s.lo, mid})
	}
	t.stack = stack
	return dst
}
