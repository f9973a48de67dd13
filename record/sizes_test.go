package record

import (
	"math"
	"testing"

	"memsym/poly"
)

// TestSizes checks that Sizes gives back what was appended (by Append or
// AppendInt), in order:
// integers of an int64 kept as such, and fractions, big integers and the
// one int64 that marks a size kept apart, kept apart.
func TestSizes(t *testing.T) {
	big := poly.Int(math.MaxInt64).Add(poly.Int(1))
	in := []poly.Rat{
		poly.Int(96), {}, poly.Frac(3, 8), poly.Int(0), big,
		poly.Int(math.MinInt64), poly.Int(math.MaxInt64), poly.Frac(-5, 2), poly.Int(7),
	}
	var s Sizes
	// The second round after Reset, in memory kept; the third with the
	// integers of an int64 appended by AppendInt.
	for round := range 3 {
		s.Reset()
		for _, v := range in {
			if n, ok := v.Int64(); ok && round == 2 {
				s.AppendInt(n)
			} else {
				s.Append(v)
			}
		}
		if s.Len() != len(in) {
			t.Fatalf("round %d: Len %d, want %d", round, s.Len(), len(in))
		}
		for i, want := range in {
			if got := s.At(i); !got.Equal(want) {
				t.Errorf("round %d: At(%d) = %s, want %s", round, i, got, want)
			}
			n, ok := s.Int(i)
			wantN, wantOK := want.Int64()
			if wantN == math.MinInt64 {
				wantOK = false // kept apart: Int says so, At gives it
			}
			if ok != wantOK || ok && n != wantN {
				t.Errorf("round %d: Int(%d) = %d, %v; want %d, %v", round, i, n, ok, wantN, wantOK)
			}
		}
		for i, v := range s.Slice() {
			if !v.Equal(in[i]) {
				t.Errorf("round %d: Slice()[%d] = %s, want %s", round, i, v, in[i])
			}
		}
	}
}
