package record

import (
	"math"
	"slices"

	"memsym/poly"
)

// Sizes is the bytes of buffers and views read one after another, as
// Follow appends them: 8 bytes each, where a poly.Rat takes 24, for a size
// that is an integer of an int64, as nearly all are; the others are kept
// apart. A grid's readers hold a chunk's sizes each: 81 of them on a 3^4
// grid.
type Sizes struct {
	ints []int64    // each size, or apart where it is kept in odd
	odd  []poly.Rat // the sizes that are not int64 integers, in order
	at   []int      // and their indexes
}

// apart marks in Sizes.ints a size kept in Sizes.odd.
const apart = math.MinInt64

// Len returns the number of sizes.
func (s *Sizes) Len() int { return len(s.ints) }

// Append appends v.
func (s *Sizes) Append(v poly.Rat) {
	if n, ok := v.Int64(); ok && n != apart {
		s.ints = append(s.ints, n)
		return
	}
	s.at = append(s.at, len(s.ints))
	s.odd = append(s.odd, v)
	s.ints = append(s.ints, apart)
}

// AppendInt appends size n, an integer, without making a poly.Rat.
func (s *Sizes) AppendInt(n int64) {
	if n == apart {
		s.Append(poly.Int(n))
		return
	}
	s.ints = append(s.ints, n)
}

// At returns size i.
func (s *Sizes) At(i int) poly.Rat {
	if n := s.ints[i]; n != apart {
		return poly.Int(n)
	}
	k, _ := slices.BinarySearch(s.at, i)
	return s.odd[k]
}

// Int returns size i when it is an integer of an int64, without making a
// poly.Rat.
func (s *Sizes) Int(i int) (int64, bool) {
	n := s.ints[i]
	return n, n != apart
}

// Reset empties s, keeping its memory.
func (s *Sizes) Reset() {
	s.ints, s.odd, s.at = s.ints[:0], s.odd[:0], s.at[:0]
}

// Grow makes room for n more sizes.
func (s *Sizes) Grow(n int) { s.ints = slices.Grow(s.ints, n) }

// Slice returns the sizes as a slice of their own.
func (s *Sizes) Slice() []poly.Rat {
	out := make([]poly.Rat, s.Len())
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}
