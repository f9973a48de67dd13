package reports

import (
	"memsym/explain"
	"memsym/poly"
)

// axis is one axis of a figure as drawn: its range and its ticks, each at an
// exact value with a label.
type axis struct {
	lo, hi poly.Rat
	ticks  []tick
	// unit is the decimal unit the labels count in ("kB"), "" for none.
	unit string
}

type tick struct {
	at    poly.Rat
	label string
}

// maxTicks is about the most ticks an axis has.
const maxTicks = 7

// newAxis lays out an axis from 0 (or lo, when lo is negative) to hi with
// round ticks (1, 2 or 5 times a power of ten apart). With bytes set, the
// labels count in the decimal unit of the largest tick (50, 100, 150 in
// kB rather than 50 000, 100 000, 150 000 bytes).
func newAxis(lo, hi poly.Rat, bytes bool) axis {
	zero := poly.Int(0)
	if lo.Sign() > 0 {
		lo = zero
	}
	if hi.Cmp(lo) <= 0 {
		hi = lo.Add(poly.Int(1))
	}
	step := niceStep(hi.Sub(lo).Quo(poly.Int(maxTicks - 1)))
	first := floorTo(lo, step)
	last := floorTo(hi, step)
	if last.Cmp(hi) < 0 {
		last = last.Add(step)
	}
	a := axis{lo: first, hi: last}
	scale, unit := poly.Int(1), ""
	if bytes {
		scale, unit = byteScale(last)
		a.unit = unit
	}
	for v := first; v.Cmp(last) <= 0; v = v.Add(step) {
		a.ticks = append(a.ticks, tick{at: v, label: explain.Fixed(v.Quo(scale), 6)})
	}
	return a
}

// byteScale returns the largest decimal unit not above top and its name.
func byteScale(top poly.Rat) (poly.Rat, string) {
	scale, name := poly.Int(1), "bytes"
	for _, u := range []string{"kB", "MB", "GB", "TB", "PB", "EB"} {
		next := scale.Mul(poly.Int(1000))
		if next.Cmp(top) > 0 {
			break
		}
		scale, name = next, u
	}
	return scale, name
}

// niceStep returns the smallest of 1, 2 or 5 times a power of ten that is
// at least x (x > 0).
func niceStep(x poly.Rat) poly.Rat {
	p := poly.Int(1)
	for p.Cmp(x) > 0 {
		p = p.Quo(poly.Int(10))
	}
	for {
		for _, m := range []int64{1, 2, 5} {
			if s := p.Mul(poly.Int(m)); s.Cmp(x) >= 0 {
				return s
			}
		}
		p = p.Mul(poly.Int(10))
	}
}

// floorTo returns the largest multiple of step not above x.
func floorTo(x, step poly.Rat) poly.Rat {
	q := x.Quo(step)
	n := q.Num()
	d := q.Den()
	f := n.Div(n, d) // Euclidean division: the floor for d > 0
	return poly.FromBigInt(f).Mul(step)
}

// label names an axis: its label and, for bytes, the unit its ticks count.
func (a axis) label(name string) string {
	if a.unit == "" || a.unit == "bytes" {
		return name
	}
	return name + " (" + a.unit + ")"
}

// frac returns where v lies on a, from 0 at lo to 1 at hi, for drawing.
func (a axis) frac(v poly.Rat) float64 {
	return v.Sub(a.lo).Quo(a.hi.Sub(a.lo)).Float64()
}
