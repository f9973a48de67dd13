package interp

import (
	"math/big"
	"slices"
	"sync"

	"memsym/count"
	"memsym/internal/pages"
	"memsym/record"
)

// buckets lists buffer positions by operation: those of operation n (from
// 1) are list[start[n]:start[n+1]].
type buckets struct {
	start []int32
	list  []int32
}

// of returns the buffer positions of operation n.
func (k *buckets) of(n int) []int32 { return k.list[k.start[n]:k.start[n+1]] }

// bucketBy sorts the buffers that are ever live by key(life), an operation
// number, in one counting pass; within an operation, by position.
func bucketBy(lives []count.Life, nops int, key func(count.Life) int) buckets {
	// Counted at start[n+2] for operation n, then summed, start[n+1] is
	// where operation n's bucket starts; placing each buffer moves it on,
	// to where the next operation's starts, which is start[n+2] before:
	// start[n] ends as where n's starts, with no copy of it to count on.
	start := pages.Make[int32](nops+3, nops+3)
	for _, l := range lives {
		if l.First != 0 {
			start[key(l)+2]++
		}
	}
	for n := 1; n < len(start); n++ {
		start[n] += start[n-1]
	}
	k := buckets{start: start[:nops+2], list: pages.Make[int32](int(start[nops+2]), int(start[nops+2]))}
	for i, l := range lives {
		if l.First != 0 {
			n := key(l)
			k.list[start[n+1]] = int32(i)
			start[n+1]++
		}
	}
	return k
}

func births(lives []count.Life, nops int) buckets {
	return bucketBy(lives, nops, func(l count.Life) int { return int(l.First) })
}

func deaths(lives []count.Life, nops int) buckets {
	return bucketBy(lives, nops, func(l count.Life) int { return int(l.Last) })
}

// model assembles the Model from the interpolated value vectors. The
// buffers' lives and the candidates, which depend on the operations alone
// and on nothing the rest computes, are found on a goroutine of their own,
// at the same time as the rest: waitLives and waitCandidates wait for them.
func (b *build) model() {
	rec := b.st.rec
	m := &Model{
		Vars:      b.g.vars,
		Structure: rec,
		den:       b.den,
		polys:     b.polys,
		class:     b.class,
	}
	b.m = m
	b.livesDone, b.candDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(b.candDone)
		lives := count.LifetimesFrom(rec, b.st.uses)
		nops := rec.Ops.Len()
		var both sync.WaitGroup // a core each, once the grid is read
		both.Go(func() { b.died = deaths(lives, nops) })
		b.born = births(lives, nops)
		both.Wait()
		m.Lives, b.lives = lives, lives
		close(b.livesDone)
		b.candidates()
	}()
	for _, vs := range b.g.values {
		m.Grid = append(m.Grid, []int64{vs[0], vs[1], vs[2]})
	}
	params, inputs, outputs := zeroNums(len(b.g.order)), zeroNums(len(b.g.order)), zeroNums(len(b.g.order))
	for _, i := range b.st.held {
		switch rec.Buffers.Role(int(i)) {
		case record.Param:
			params.add(&b.coefs[b.class[i]], false)
			inputs.add(&b.coefs[b.class[i]], false)
		case record.Input, record.State: // held by the caller, as the checker counts them
			inputs.add(&b.coefs[b.class[i]], false)
		}
	}
	for _, i := range b.resultBases() {
		outputs.add(&b.coefs[b.class[i]], false)
	}
	m.Params = params.toPoly(m.Vars, b.den)
	m.Inputs = inputs.toPoly(m.Vars, b.den)
	m.Outputs = outputs.toPoly(m.Vars, b.den)
}

// waitLives waits until the model's lives, and b.born and b.died, are
// known.
func (b *build) waitLives() {
	if b.livesDone != nil {
		<-b.livesDone
	}
}

// waitCandidates waits until the model is whole: its lives and its
// candidates.
func (b *build) waitCandidates() {
	if b.candDone != nil {
		<-b.candDone
	}
}

// resultBases is resultBases of the structure, found once.
func (b *build) resultBases() []int {
	if b.results == nil {
		b.results = resultBases(b.st.rec)
		if b.results == nil {
			b.results = []int{}
		}
	}
	return b.results
}

// resultBases returns the positions of the buffers the result names,
// through views, each once, in order of position.
func resultBases(rec *record.Recording) []int {
	var pos []int
	for _, id := range rec.Result {
		pos = append(pos, rec.BasePosition(id))
	}
	slices.Sort(pos)
	return slices.Compact(pos)
}

// candidates sums the live buffers' numerators at each operation, adding a
// buffer at its first operation and taking it away after its last, and
// keeps each distinct sum once, with the first operation that reaches it.
//
// Sums are found again by a hash that follows them as they change: the sum
// of the entries times fixed odd numbers, modulo 2^64, which is linear, so
// adding a buffer adds its value vector's hash (vectorHashes). A sum is
// taken as a candidate's only when it equals that candidate's entry for
// entry; sums whose hashes collide with an unequal candidate's are told
// apart by their whole keys (nums.appendKey).
//
// A long program is swept in two halves at once, the second starting from
// the sum of the buffers that live across the middle; its candidates are
// then found among the first's, or added after them, in order.
func (b *build) candidates() {
	m := b.m
	nops := m.Structure.Ops.Len()
	m.LiveAt = make([]int32, nops)
	hashes := vectorHashes(b.coefs)
	first := b.newSweep(hashes)
	mid := nops + 1
	if nops >= splitSweep {
		mid = nops/2 + 1
	}
	var second *sweep
	var done sync.WaitGroup
	if mid <= nops {
		done.Go(func() {
			second = b.newSweep(hashes)
			for op := 1; op < mid; op++ {
				for _, i := range b.born.of(op) {
					if int(b.lives[i].Last) >= mid {
						second.add(b.class[i], false)
					}
				}
			}
			second.run(mid, nops+1, m.LiveAt)
		})
	}
	first.run(1, mid, m.LiveAt)
	done.Wait()
	if second != nil {
		renumber := make([]int32, len(second.sums))
		for c := range second.sums {
			renumber[c] = first.index(&second.sums[c], second.hashes[c], second.ops[c])
		}
		for op := mid; op <= nops; op++ {
			m.LiveAt[op-1] = renumber[m.LiveAt[op-1]]
		}
	}
	for c := range first.sums {
		m.Candidates = append(m.Candidates, Candidate{Poly: first.sums[c].toPoly(m.Vars, b.den), Op: first.ops[c]})
	}
}

// splitSweep is how many operations a program needs for its candidates to
// be found in two halves at once; tests lower it.
var splitSweep = 1 << 16

// sweep finds the distinct live sums of a run of operations.
type sweep struct {
	b      *build
	vecs   []uint64 // each value vector's hash
	live   nums     // the live sum
	h      uint64   // its hash
	byHash map[uint64]int32
	byKey  map[string]int32 // the sums whose hash another's took
	sums   []nums           // the distinct sums, in order of first operation
	hashes []uint64         // and their hashes
	ops    []int            // and their first operations
	key    []byte
	seen   [64]struct {
		h uint64
		c int32 // its number + 1; 0 for an empty slot
	} // the sums found last, by their hash: a program's layers repeat them
}

func (b *build) newSweep(vecs []uint64) *sweep {
	return &sweep{b: b, vecs: vecs, live: zeroNums(len(b.g.order)), byHash: make(map[uint64]int32)}
}

// add adds the value vector c to the live sum, or takes it away.
func (s *sweep) add(c int32, neg bool) {
	s.live.add(&s.b.coefs[c], neg)
	if neg {
		s.h -= s.vecs[c]
	} else {
		s.h += s.vecs[c]
	}
}

// run sweeps the operations from up to to, noting each one's sum's
// number, among the sweep's, in liveAt.
func (s *sweep) run(from, to int, liveAt []int32) {
	b := s.b
	for op := from; op < to; op++ {
		for _, i := range b.born.of(op) {
			s.add(b.class[i], false)
		}
		liveAt[op-1] = s.index(&s.live, s.h, op)
		for _, i := range b.died.of(op) {
			s.add(b.class[i], true)
		}
		s.live.shrink()
	}
}

// index returns the number of the sum v, whose hash is h, adding a copy of
// it, first reached at operation op, when it is new.
func (s *sweep) index(v *nums, h uint64, op int) int32 {
	seen := &s.seen[h>>(64-6)]
	if seen.c != 0 && seen.h == h && v.equal(&s.sums[seen.c-1]) {
		return seen.c - 1
	}
	c := s.indexOf(v, h, op)
	seen.h, seen.c = h, c+1
	return c
}

// indexOf is index without the sums seen last.
func (s *sweep) indexOf(v *nums, h uint64, op int) int32 {
	c, ok := s.byHash[h]
	switch {
	case !ok:
		c = int32(len(s.sums))
		s.byHash[h] = c
	case !v.equal(&s.sums[c]):
		if s.byKey == nil {
			s.byKey = make(map[string]int32)
		}
		s.key = v.appendKey(s.key[:0])
		if c, ok = s.byKey[string(s.key)]; !ok {
			c = int32(len(s.sums))
			s.byKey[string(s.key)] = c
		}
	}
	if int(c) == len(s.sums) {
		s.sums = append(s.sums, v.clone())
		s.hashes = append(s.hashes, h)
		s.ops = append(s.ops, op)
	}
	return c
}

// vectorHashes returns each vector's hash: Σ_j v[j]·r_j modulo 2^64, for
// fixed odd r_j. Equal vectors, and equal sums of vectors, have equal
// hashes.
func vectorHashes(vs []nums) []uint64 {
	hs := make([]uint64, len(vs))
	var low big.Int
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	for k := range vs {
		v := &vs[k]
		var h uint64
		for j := range v.len() {
			var x uint64
			if v.big == nil {
				x = uint64(v.small[j])
			} else {
				x = low.Mod(v.big[j], mod).Uint64() // the two's complement's low word
			}
			h += x * hashFactor(j)
		}
		hs[k] = h
	}
	return hs
}

// hashFactor returns the odd factor of entry j in a vector's hash; a test
// makes every hash collide.
var hashFactor = func(j int) uint64 {
	z := uint64(j+1) * 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return (z ^ z>>31) | 1
}
