package dominance

import (
	"math"
	"math/bits"
)

// maxDense bounds the size of a dense coefficient array.
const maxDense = 512

// denseShape lays out the coefficients of polynomials whose degree in
// variable j is at most deg[j] in one array: exponent vector e is at
// Σ e[j]·stride[j].
type denseShape struct {
	deg, stride []int
	size        int
	binom       [][]int64 // binom[e][k] = C(e, k)
}

// newDenseShape returns the shape for the degrees, or nil when the array
// would be too large.
func newDenseShape(deg []int) *denseShape {
	sh := &denseShape{deg: deg, stride: make([]int, len(deg)), size: 1}
	top := 0
	for j, d := range deg {
		sh.stride[j] = sh.size
		sh.size *= d + 1
		if sh.size > maxDense || d > 60 {
			return nil
		}
		top = max(top, d)
	}
	sh.binom = make([][]int64, top+1)
	for e := range sh.binom {
		sh.binom[e] = make([]int64, e+1)
		sh.binom[e][0], sh.binom[e][e] = 1, 1
		for k := 1; k < e; k++ {
			sh.binom[e][k] = sh.binom[e-1][k-1] + sh.binom[e-1][k]
		}
	}
	return sh
}

// shifted fills dst with the coefficients of m with every variable x
// replaced by 1 + x, and reports false when they are not all integers that
// fit in int64 (the caller then works exactly, with mpolys).
func (sh *denseShape) shifted(m mpoly, dst []int64) bool {
	clear(dst)
	for i, c := range m.coefs {
		n, ok := c.Int64()
		if !ok {
			return false
		}
		at := 0
		for j, e := range m.row(i) {
			at += e * sh.stride[j]
		}
		dst[at] = n
	}
	// Along each variable's axis: the coefficient of x^k becomes
	// Σ_{e ≥ k} C(e, k)·(that of x^e).
	for j, d := range sh.deg {
		if d == 0 {
			continue
		}
		st := sh.stride[j]
		for base := range sh.size {
			if (base/st)%(d+1) != 0 {
				continue // not the start of a line along j
			}
			for k := 0; k < d; k++ {
				sum := dst[base+k*st]
				for e := k + 1; e <= d; e++ {
					t, ok := mulInt64(sh.binom[e][k], dst[base+e*st])
					if !ok {
						return false
					}
					if sum, ok = addInt64(sum, t); !ok {
						return false
					}
				}
				dst[base+k*st] = sum
			}
		}
	}
	return true
}

// geq reports whether a[i] ≥ b[i] for every i.
func geq(a, b []int64) bool {
	for i, x := range a {
		if x < b[i] {
			return false
		}
	}
	return true
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	ua, ub := uint64(a), uint64(b)
	neg := false
	if a < 0 {
		ua, neg = uint64(-a), !neg
	}
	if b < 0 {
		ub, neg = uint64(-b), !neg
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}
