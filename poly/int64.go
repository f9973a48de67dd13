package poly

import (
	"math"
	"math/bits"
)

// AddInt64 returns a + b and whether it fits in an int64 (when it does not,
// the first result is meaningless).
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0) || b == 0
}

// SubInt64 returns a − b and whether it fits in an int64 (when it does not,
// the first result is meaningless).
func SubInt64(a, b int64) (int64, bool) {
	s := a - b
	return s, (s < a) == (b > 0) || b == 0
}

// MulInt64 returns a·b and whether it fits in an int64 (when it does not,
// the first result is meaningless).
func MulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua // MinInt64 becomes 1<<63, its magnitude
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	switch {
	case hi != 0 || lo > 1<<63:
		return 0, false
	case lo == 1<<63:
		return math.MinInt64, neg
	case neg:
		return -int64(lo), true
	}
	return int64(lo), true
}

// HornerInt64 returns Σ cs[i]·x^i (cs lowest power first; 0 when cs is
// empty) and whether every step of Horner's rule fits in an int64, so that
// the result is exact. When it does not, the first result is meaningless.
func HornerInt64(cs []int64, x int64) (int64, bool) {
	var v int64
	for i := len(cs) - 1; i >= 0; i-- {
		t, ok := MulInt64(v, x)
		if !ok {
			return 0, false
		}
		if v, ok = AddInt64(t, cs[i]); !ok {
			return 0, false
		}
	}
	return v, true
}
