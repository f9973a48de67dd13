package dominance

import (
	"math"

	"memsym/poly"
)

// sample holds a candidate's values at the sample points, in floating
// point. Samples only propose which pairs are worth an exact check; no
// decision rests on them.
type sample struct {
	val []float64 // the value at each sample point
	abs []float64 // the sum of the terms' absolute values there, which bounds the rounding error
}

// samplePoints returns the sample points for k variables: the first is the
// largest (every variable at 10^6), by which candidates are ordered; then
// all variables at 1, 2, 10 and 1000; then each variable at 10^6 with the
// others at 1, and at 1 with the others at 10^6.
func samplePoints(k int) [][]float64 {
	all := func(x float64) []float64 {
		p := make([]float64, k)
		for j := range p {
			p[j] = x
		}
		return p
	}
	pts := [][]float64{all(1e6), all(1), all(2), all(10), all(1000)}
	if k < 2 {
		return pts
	}
	for j := range k {
		hi, lo := all(1), all(1e6)
		hi[j], lo[j] = 1e6, 1
		pts = append(pts, hi, lo)
	}
	return pts
}

// sampleOf evaluates m at the points in floating point, into slab (of
// length 2·len(pts)).
func sampleOf(m poly.Poly, pts [][]float64, slab []float64) sample {
	s := sample{val: slab[:len(pts):len(pts)], abs: slab[len(pts):]}
	for k, pt := range pts {
		var v, a float64
		for i := range m.Len() {
			c, exp := m.Term(i)
			t := c.Float64()
			for j, e := range exp {
				for ; e > 0; e-- {
					t *= pt[j]
				}
			}
			v += t
			a += math.Abs(t)
		}
		s.val[k], s.abs[k] = v, a
	}
	return s
}

// sampleTolerance is the relative slack of sampleGE: far above float64's
// rounding, so that a candidate that truly is ≥ another is never turned
// away.
const sampleTolerance = 1e-9

// sampleGE reports whether f may be ≥ c everywhere, judging by the
// samples: false only when at some sample point c exceeds f by clearly
// more than rounding. Non-finite values never turn a pair away.
func sampleGE(f, c sample) bool {
	for k, fv := range f.val {
		cv := c.val[k]
		slack := sampleTolerance * (f.abs[k] + c.abs[k])
		if math.IsInf(slack, 0) || math.IsNaN(slack) {
			continue
		}
		if fv < cv-slack {
			return false
		}
	}
	return true
}
