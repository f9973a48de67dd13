package poly

import (
	"fmt"
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

// LineInt64 returns p along the line through at in the direction of its
// variable j, the other variables at their values in at: the coefficients,
// lowest power first, that IntPolyOf gives for the polynomial in variable
// j alone (each reduced coefficient times the least common multiple of
// their denominators, trailing zeros trimmed). ok is false when a value on
// the way does not fit in an int64; Subst, Univariate and IntPolyOf give
// them then. It panics unless len(at) == len(Vars()) and j is a position
// in Vars, a programming error.
func (p Poly) LineInt64(j int, at []int64) (cs []int64, ok bool) {
	if len(at) != len(p.vars) || j < 0 || j >= len(p.vars) {
		panic(fmt.Sprintf("poly: LineInt64 along variable %d with %d values for %d variables", j, len(at), len(p.vars)))
	}
	num := make([]int64, p.column(j)+1)
	den := make([]int64, len(num))
	for k := range den {
		den[k] = 1
	}
	for i, c := range p.coefs {
		a, b, ok := c.Small()
		if !ok {
			return nil, false
		}
		row := p.row(i)
		for o, e := range row {
			for ; o != j && e > 0; e-- {
				if a, ok = MulInt64(a, at[o]); !ok {
					return nil, false
				}
			}
		}
		k := row[j]
		if num[k], den[k], ok = addFrac(num[k], den[k], a, b); !ok {
			return nil, false
		}
	}
	for len(num) > 0 && num[len(num)-1] == 0 {
		num = num[:len(num)-1]
	}
	l := int64(1)
	for _, d := range den[:len(num)] {
		if l, ok = MulInt64(l, d/gcd(l, d)); !ok {
			return nil, false
		}
	}
	for k := range num {
		if num[k], ok = MulInt64(num[k], l/den[k]); !ok {
			return nil, false
		}
	}
	return num, true
}

// addFrac returns a/b + c/d in lowest terms, its denominator > 0, given b,
// d > 0, and whether every step fits in an int64.
func addFrac(a, b, c, d int64) (int64, int64, bool) {
	g := gcd(b, d)
	x, ok1 := MulInt64(a, d/g)
	y, ok2 := MulInt64(c, b/g)
	s, ok3 := AddInt64(x, y)
	l, ok4 := MulInt64(b, d/g)
	if !ok1 || !ok2 || !ok3 || !ok4 || s == math.MinInt64 {
		return 0, 0, false
	}
	if s == 0 {
		return 0, 1, true
	}
	h := gcd(abs(s), l)
	return s / h, l / h, true
}
