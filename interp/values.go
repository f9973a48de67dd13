package interp

import (
	"math/big"

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
}

func newValues() *values {
	return &values{ints: make(map[int64]int32), other: make(map[ratKey]int32)}
}

// id returns r's number, giving it the next one if r is new.
func (t *values) id(r poly.Rat) int32 {
	if n, ok := r.Int64(); ok {
		if i, ok := t.ints[n]; ok {
			return i
		}
		i := int32(len(t.list))
		t.ints[n] = i
		t.list = append(t.list, r)
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

// scaled returns each value times the least common multiple of their
// denominators, as integers, and that multiple.
func (t *values) scaled() ([]nums, *big.Int) {
	lcm := big.NewInt(1)
	var g big.Int
	for _, r := range t.list {
		d := r.Den()
		g.GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, d.Quo(d, &g))
	}
	out := make([]nums, len(t.list))
	for i, r := range t.list {
		n := r.Num()
		n.Mul(n, new(big.Int).Quo(lcm, r.Den()))
		if n.IsInt64() {
			out[i] = nums{small: []int64{n.Int64()}}
		} else {
			out[i] = nums{big: []*big.Int{n}}
		}
	}
	return out, lcm
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
	levels [][]link // levels[j][id]: how prefix id of points 0..j was made
	cur    map[link]int32
}

// next starts the next grid point's level.
func (p *prefixes) next() {
	p.levels = append(p.levels, nil)
	p.cur = make(map[link]int32)
}

// extend returns the number of prefix prev followed by value val at the
// current point; prev is −1 at the first point.
func (p *prefixes) extend(prev, val int32) int32 {
	l := linkOf(prev, val)
	if id, ok := p.cur[l]; ok {
		return id
	}
	j := len(p.levels) - 1
	id := int32(len(p.levels[j]))
	p.levels[j] = append(p.levels[j], l)
	p.cur[l] = id
	return id
}

// count returns the number of distinct whole vectors so far.
func (p *prefixes) count() int { return len(p.levels[len(p.levels)-1]) }

// vector returns the value numbers of whole vector id, one per point.
func (p *prefixes) vector(id int32) []int32 {
	v := make([]int32, len(p.levels))
	for j := len(p.levels) - 1; j >= 0; j-- {
		l := p.levels[j][id]
		v[j] = l.val()
		id = l.prev()
	}
	return v
}
