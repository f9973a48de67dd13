package poly

import "fmt"

// DenseShift computes p.Shift(Int(1)), p with every variable x replaced by
// 1 + x, in int64s laid out in one flat array, for many polynomials over
// one variable order whose degrees are bounded: comparing two of them
// coefficient by coefficient is then a loop over two arrays. The
// coefficient of the monomial with exponents e sits at Σ e[j]·stride[j],
// the strides those of an array of shape deg[0]+1 × deg[1]+1 × ….
type DenseShift struct {
	deg, stride []int
	size        int
	binom       [][]int64 // binom[e][k] = C(e, k)
}

// NewDenseShift returns the layout for polynomials whose degree in their
// j-th variable is at most deg[j], or nil when an array would be longer
// than maxLen or a degree above 60 (where binomials leave int64). deg is
// retained.
func NewDenseShift(deg []int, maxLen int) *DenseShift {
	s := &DenseShift{deg: deg, stride: make([]int, len(deg)), size: 1}
	top := 0
	for j, d := range deg {
		s.stride[j] = s.size
		s.size *= d + 1
		if s.size > maxLen || d > 60 {
			return nil
		}
		top = max(top, d)
	}
	s.binom = make([][]int64, top+1)
	for e := range s.binom {
		s.binom[e] = make([]int64, e+1)
		s.binom[e][0], s.binom[e][e] = 1, 1
		for k := 1; k < e; k++ {
			s.binom[e][k] = s.binom[e-1][k-1] + s.binom[e-1][k]
		}
	}
	return s
}

// Len returns the length of the arrays Shifted fills.
func (s *DenseShift) Len() int { return s.size }

// Index returns the position in the arrays of the monomial with exponents
// exp.
func (s *DenseShift) Index(exp []int) int {
	at := 0
	for j, e := range exp {
		at += e * s.stride[j]
	}
	return at
}

// Shifted fills dst, of length Len, with the coefficients of
// p.Shift(Int(1)), and reports whether they all are integers that fit in an
// int64 (dst is then meaningless). p must be over len(deg) variables,
// within the degrees; otherwise Shifted panics, a programming error.
func (s *DenseShift) Shifted(p Poly, dst []int64) bool {
	if len(p.vars) != len(s.deg) || len(dst) != s.size {
		panic(fmt.Sprintf("poly: DenseShift for %d variables and %d coefficients given %d and %d", len(s.deg), s.size, len(p.vars), len(dst)))
	}
	clear(dst)
	for i, c := range p.coefs {
		n, ok := c.Int64()
		if !ok {
			return false
		}
		row := p.row(i)
		for j, e := range row {
			if e > s.deg[j] {
				panic(fmt.Sprintf("poly: DenseShift of degree %d in variable %d, above %d", e, j, s.deg[j]))
			}
		}
		dst[s.Index(row)] = n
	}
	// Along each variable's axis: the coefficient of x^k becomes
	// Σ_{e ≥ k} C(e, k)·(that of x^e).
	for j, d := range s.deg {
		if d == 0 {
			continue
		}
		st := s.stride[j]
		for base := range s.size {
			if (base/st)%(d+1) != 0 {
				continue // not the start of a line along j
			}
			for k := 0; k < d; k++ {
				sum := dst[base+k*st]
				for e := k + 1; e <= d; e++ {
					t, ok := MulInt64(s.binom[e][k], dst[base+e*st])
					if !ok {
						return false
					}
					if sum, ok = AddInt64(sum, t); !ok {
						return false
					}
				}
				dst[base+k*st] = sum
			}
		}
	}
	return true
}
