package interp

import (
	"math/big"
	"slices"

	"memsym/poly"
)

// ratKey identifies an exact value in a map: its numerator and denominator
// when they fit in int64s, its text otherwise.
type ratKey struct {
	n, d int64
	s    string
}

func keyOf(r poly.Rat) ratKey {
	if n, d, ok := r.Small(); ok {
		return ratKey{n: n, d: d}
	}
	return ratKey{s: r.String()}
}

// values numbers distinct exact values from 0 in order of first sight.
type values struct {
	ints  map[int64]int32  // the integers that fit in int64, the usual sizes
	other map[ratKey]int32 // fractions and big integers
	list  []poly.Rat
	seen  [valueCache]struct {
		n  int64
		id int32 // its number + 1; 0 for an empty slot
	} // the integers seen last, by a hash: a recording repeats few sizes
}

const valueCache = 64

// newValues returns an empty table with room for size integers.
func newValues(size int) *values {
	return &values{ints: make(map[int64]int32, size), other: make(map[ratKey]int32), list: make([]poly.Rat, 0, size)}
}

// maxGrow bounds what grow reserves at once: a guess too high costs at
// most about 15 MB, the map's slots and the list's.
const maxGrow = 1 << 18

// grow makes room for n more integers without rehashing as they come.
func (t *values) grow(n int) {
	if n <= 0 {
		return
	}
	ints := make(map[int64]int32, len(t.ints)+n)
	for k, v := range t.ints {
		ints[k] = v
	}
	t.ints = ints
	t.list = slices.Grow(t.list, n)
}

// id returns r's number, giving it the next one if r is new.
func (t *values) id(r poly.Rat) int32 {
	if n, ok := r.Int64(); ok {
		slot := &t.seen[uint64(n)*0x9e3779b97f4a7c15>>58]
		if slot.id != 0 && slot.n == n {
			return slot.id - 1
		}
		i, ok := t.ints[n]
		if !ok {
			i = int32(len(t.list))
			t.ints[n] = i
			t.list = append(t.list, r)
		}
		slot.n, slot.id = n, i+1
		return i
	}
	k := keyOf(r)
	if i, ok := t.other[k]; ok {
		return i
	}
	i := int32(len(t.list))
	t.other[k] = i
	t.list = append(t.list, r)
	return i
}

// scaled returns the values times the least common multiple of their
// denominators, as integers in the values' order, and that multiple.
func (t *values) scaled() (nums, *big.Int) {
	flat := make([]int64, len(t.list))
	if lcm, ok := scaleSmall(t.list, flat); ok {
		return nums{small: flat}, big.NewInt(lcm)
	}
	ints, lcm := scaleBig(t.list)
	return nums{big: ints}, lcm
}

// scaleSmall writes each of rs times the least common multiple of their
// denominators into out and returns that multiple, when all of it fits in
// int64s; it returns false otherwise, out then being garbage.
func scaleSmall(rs []poly.Rat, out []int64) (int64, bool) {
	lcm := int64(1)
	for _, r := range rs {
		_, d, ok := r.Small()
		if !ok {
			return 0, false
		}
		if lcm%d != 0 {
			if lcm, ok = poly.MulInt64(lcm, d/gcd64(lcm, d)); !ok {
				return 0, false
			}
		}
	}
	for i, r := range rs {
		n, d, _ := r.Small()
		if lcm == 1 {
			out[i] = n
			continue
		}
		var ok bool
		if out[i], ok = poly.MulInt64(n, lcm/d); !ok {
			return 0, false
		}
	}
	return lcm, true
}

// scaleBig returns each of rs times the least common multiple of their
// denominators, and that multiple.
func scaleBig(rs []poly.Rat) ([]*big.Int, *big.Int) {
	lcm := big.NewInt(1)
	var g big.Int
	for _, r := range rs {
		if r.IsInt() {
			continue
		}
		d := r.Den()
		g.GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, d.Quo(d, &g))
	}
	out := make([]*big.Int, len(rs))
	for i, r := range rs {
		out[i] = r.Num()
		if !r.IsInt() {
			out[i].Mul(out[i], new(big.Int).Quo(lcm, r.Den()))
		} else {
			out[i].Mul(out[i], lcm)
		}
	}
	return out, lcm
}

// gcd64 returns the greatest common divisor of a, b > 0.
func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// link is one step of a value vector's prefix: the prefix before it (−1
// for none) and the value at the next grid point, packed in one word.
type link uint64

func linkOf(prev, val int32) link { return link(uint64(uint32(prev))<<32 | uint64(uint32(val))) }

func (l link) prev() int32 { return int32(uint32(l >> 32)) }
func (l link) val() int32  { return int32(uint32(l)) }

// prefixes interns the value vectors of all buffers one grid point at a
// time: after point j, buffers whose values at points 0..j are the same hold
// the same number. Its size grows with the number of distinct prefixes, not
// with buffers times points.
type prefixes struct {
	levels []level // levels[j]: the prefixes of points 0..j
}

// level is the prefixes of one length.
type level struct {
	links []link // links[id]: how prefix id was made
	cur   map[link]int32
	seen  [prefixCache]struct {
		l  link
		id int32 // its number + 1; 0 for an empty slot
	} // the links made last, by a hash: buffers in a row often share them
}

const prefixCache = 64

// next starts the next grid point's level, sized for at least as many
// prefixes as the level before: each of those extends to one or more.
func (p *prefixes) next() {
	n := 0
	if len(p.levels) > 0 {
		n = len(p.levels[len(p.levels)-1].links)
	}
	p.levels = append(p.levels, level{links: make([]link, 0, n), cur: make(map[link]int32, n)})
}

// extend returns the number of prefix prev followed by value val at the
// current point; prev is −1 at the first point.
func (p *prefixes) extend(prev, val int32) int32 { return p.extendAt(len(p.levels)-1, prev, val) }

// extendAt is extend at point j, whose level exists: the levels may be
// filled in any order of buffers, as long as each buffer's value vector is
// extended point by point.
func (p *prefixes) extendAt(j int, prev, val int32) int32 {
	lv := &p.levels[j]
	l := linkOf(prev, val)
	slot := &lv.seen[uint64(l)*0x9e3779b97f4a7c15>>58]
	if slot.id != 0 && slot.l == l {
		return slot.id - 1
	}
	id, ok := lv.cur[l]
	if !ok {
		id = int32(len(lv.links))
		lv.links = append(lv.links, l)
		lv.cur[l] = id
	}
	slot.l, slot.id = l, id+1
	return id
}

// count returns the number of distinct whole vectors so far.
func (p *prefixes) count() int { return len(p.levels[len(p.levels)-1].links) }

// vector returns the value numbers of whole vector id, one per point.
func (p *prefixes) vector(id int32) []int32 {
	v := make([]int32, len(p.levels))
	for j := len(p.levels) - 1; j >= 0; j-- {
		l := p.levels[j].links[id]
		v[j] = l.val()
		id = l.prev()
	}
	return v
}

// vectorCache remembers the whole value vectors numbered last, as sizes
// that are integers, by a hash of them, with their numbers: a recording's
// buffers repeat few vectors, and one found here costs a hash and a
// comparison where numbering it costs a value and a prefix per grid point.
type vectorCache struct {
	n     int                // the sizes of a vector: one per grid point
	sizes []int64            // vectorSlots vectors of n sizes, one after the other
	ids   [vectorSlots]int32 // each one's number + 1; 0 for an empty slot
}

const vectorSlots = 64

func newVectorCache(n int) vectorCache {
	return vectorCache{n: n, sizes: make([]int64, vectorSlots*n)}
}

// get returns the number of the vector v, whose hash is h, when it is
// remembered.
func (c *vectorCache) get(v []int64, h uint64) (int32, bool) {
	k := int(h >> 58)
	if c.ids[k] == 0 || !slices.Equal(c.sizes[k*c.n:(k+1)*c.n], v) {
		return 0, false
	}
	return c.ids[k] - 1, true
}

// put remembers that the vector v, whose hash is h, is numbered id.
func (c *vectorCache) put(v []int64, h uint64, id int32) {
	k := int(h >> 58)
	copy(c.sizes[k*c.n:(k+1)*c.n], v)
	c.ids[k] = id + 1
}
