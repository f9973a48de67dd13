package dominance

import (
	"maps"
	"slices"

	"memsym/poly"
)

// ties returns the kept candidates' segments with the holder changed
// wherever a pruned candidate ties the largest and comes before the holder
// in l.before.
//
// A pruned candidate p is ≤ its root k, a kept candidate, everywhere; so p
// ties the largest at x exactly where p(x) = k(x) and k ties the largest:
// where k is the segment's holder or ties it. p(x) = k(x) everywhere when
// the two are equal on the line, and otherwise at the integer roots of
// k − p = g·h, which are those of h when g keeps one sign. When k − p is
// no such product, p may tie at values of the free dimensions only, unless
// k − p is proven ≥ 1.
func (l *line) ties(segs []Segment, signs [][]poly.IntPoly) ([]Segment, error) {
	pos := make(map[int]int, len(l.kept)) // candidate → position in kept
	for a, i := range l.kept {
		pos[i] = a
	}
	last := segs[0].Holder // the last holder to hold a tie: a later candidate never does
	for _, s := range segs[1:] {
		last = l.last(last, s.Holder)
	}
	// where k ties the largest in segment s: all of it, or at points.
	where := func(k int, s Segment) (all bool, pts []int64, err error) {
		if k == s.Holder {
			return true, nil, nil
		}
		h := signs[pos[k]][pos[s.Holder]]
		if len(h) == 0 {
			return true, nil, nil
		}
		pts, _ = integerRoots(h, s.From, s.To) // past int64 no segment lies
		return false, pts, nil
	}
	whole := make([]int, len(segs))             // by segment: its holder but where a point says otherwise
	atPoint := make([]map[int64]int, len(segs)) // by segment: a point → its holder
	for n, s := range segs {
		whole[n] = s.Holder
		atPoint[n] = map[int64]int{}
	}
	tie := func(n int, x int64, p int) {
		if q, ok := atPoint[n][x]; ok {
			p = l.first(q, p)
		}
		atPoint[n][x] = p
	}
	var depends []string
	for _, p := range l.pruned {
		if l.before(p, last) > 0 {
			continue
		}
		k := l.root[p]
		d := l.at(k).Sub(l.at(p))
		var xs []int64 // where p(x) = k(x); nil with everywhere
		everywhere := d.IsZero()
		if !everywhere {
			h, ok := separate(d, l.dim)
			if !ok {
				if !atLeastOne(integerPoly(d)) {
					depends = append(depends, l.freeIn(d)...)
				}
				continue
			}
			var beyond bool
			xs, beyond = integerRoots(h, 1, 0)
			if beyond && l.tiesBeyond(p, k, segs[len(segs)-1], signs, pos) {
				return nil, errBeyond
			}
		}
		for n, s := range segs {
			if l.before(p, s.Holder) > 0 {
				continue
			}
			all, pts, err := where(k, s)
			if err != nil {
				return nil, err
			}
			switch {
			case everywhere && all:
				whole[n] = l.first(whole[n], p)
			case everywhere:
				for _, x := range pts {
					tie(n, x, p)
				}
			default:
				for _, x := range xs {
					if x >= s.From && (s.To == 0 || x <= s.To) && (all || slices.Contains(pts, x)) {
						tie(n, x, p)
					}
				}
			}
		}
	}
	if len(depends) > 0 {
		return nil, l.dependsError(depends)
	}
	var out []Segment
	for n, s := range segs {
		from := s.From
		for _, x := range slices.Sorted(maps.Keys(atPoint[n])) {
			if x > from {
				out = appendSegment(out, from, whole[n])
			}
			out = appendSegment(out, x, l.first(whole[n], atPoint[n][x]))
			from = x + 1
		}
		if s.To == 0 || from <= s.To {
			out = appendSegment(out, from, whole[n])
		}
	}
	return out, nil
}

// first returns whichever of candidates a and b holds a tie.
func (l *line) first(a, b int) int {
	if l.before(b, a) < 0 {
		return b
	}
	return a
}

// last returns whichever of candidates a and b comes later in l.before.
func (l *line) last(a, b int) int {
	if l.before(b, a) > 0 {
		return b
	}
	return a
}

// integerRoots returns the integers x ≥ from, and ≤ to unless to is 0,
// where h(x) = 0, ascending, those in int64; and, when to is 0, whether
// some such x lies beyond int64.
func integerRoots(h poly.IntPoly, from, to int64) (xs []int64, beyond bool) {
	if len(h) < 2 || sameSigns(h) {
		return nil, false // no root > 0
	}
	cells, _ := rootCells(h)
	for _, c := range cells {
		// A root in (c − 1, c] is an integer only if it is c.
		if h.SignAt(c) != 0 {
			continue
		}
		if !c.IsInt64() {
			beyond = beyond || to == 0
			continue
		}
		if x := c.Int64(); x >= from && (to == 0 || x <= to) {
			xs = append(xs, x)
		}
	}
	return xs, beyond
}

// tiesBeyond reports whether the pruned candidate p, equal to its root k
// somewhere beyond int64, may take the peak there: where k holds the last
// segment, or may tie its holder beyond int64 too, and p comes before the
// holder. Past int64 memsym says nothing, so such a tie is refused.
func (l *line) tiesBeyond(p, k int, last Segment, signs [][]poly.IntPoly, pos map[int]int) bool {
	if l.before(p, last.Holder) > 0 {
		return false
	}
	if k == last.Holder {
		return true
	}
	h := signs[pos[k]][pos[last.Holder]]
	if len(h) == 0 {
		return true
	}
	_, beyond := integerRoots(h, last.From, 0)
	return beyond
}

// sameSigns reports whether h's nonzero coefficients all have one sign, so
// that h has no root > 0.
func sameSigns(h poly.IntPoly) bool {
	s := 0
	for _, c := range h {
		switch c.Sign() {
		case 0:
		case s:
		default:
			if s != 0 {
				return false
			}
			s = c.Sign()
		}
	}
	return true
}
