package reports

import (
	"math"

	"memsym/doc"
	"memsym/poly"
)

// axis is one axis of a figure as drawn: its range and its ticks, each at an
// exact value with a label.
type axis struct {
	lo, hi poly.Rat
	log    bool
	ticks  []tick
	// unit is the binary unit a linear bytes axis' labels count in
	// ("KiB"), "" for none.
	unit string
}

// tick is a tick of an axis: at an exact value, labelled by a number and,
// on a logarithmic bytes axis, a unit ("32", "KiB").
type tick struct {
	at        poly.Rat
	num, unit string
}

// label writes the tick's label as text: "32 KiB", "4 096".
func (t tick) label() string {
	if t.unit == "" {
		return t.num
	}
	return t.num + " " + t.unit
}

// maxTicks is about the most ticks an axis has.
const maxTicks = 7

// binaryUnits are the units of a bytes axis, each 1024 times the one before.
var binaryUnits = []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// newAxis lays out a linear axis from 0 (or lo, when lo is negative) to hi
// with round ticks (1, 2 or 5 times a power of ten apart). With bytes set,
// the ticks are round in the binary unit of the largest value and labelled
// in it (0, 50, 100, 150 KiB).
func newAxis(lo, hi poly.Rat, bytes bool) axis {
	zero := poly.Int(0)
	if lo.Sign() > 0 {
		lo = zero
	}
	if hi.Cmp(lo) <= 0 {
		hi = lo.Add(poly.Int(1))
	}
	scale, unit := poly.Int(1), ""
	if bytes {
		scale, unit = binaryScale(maxRat(abs(hi), abs(lo)))
	}
	slo, shi := lo.Quo(scale), hi.Quo(scale)
	step := niceStep(shi.Sub(slo).Quo(poly.Int(maxTicks - 1)))
	first := floorTo(slo, step)
	last := floorTo(shi, step)
	if last.Cmp(shi) < 0 {
		last = last.Add(step)
	}
	a := axis{lo: first.Mul(scale), hi: last.Mul(scale), unit: unit}
	for v := first; v.Cmp(last) <= 0; v = v.Add(step) {
		a.ticks = append(a.ticks, tick{at: v.Mul(scale), num: tickNumber(v)})
	}
	return a
}

// tickNumber writes a linear axis' tick as the prose writes numbers: an
// integer's digits grouped by thin spaces (4 000), a fraction as a
// decimal.
func tickNumber(v poly.Rat) string {
	if v.IsInt() {
		return doc.Group(v, doc.ThinSpace)
	}
	return doc.Fixed(v, 6)
}

// endAt returns a with its top at hi, where hi lies between its last two
// ticks' values or at the last: the ticks past hi left out, so that the
// axis ends with its data rather than at the next round value past it
// (4 100, not 5 000). An axis whose top is already hi, or a logarithmic
// one, is returned as it is.
func (a axis) endAt(hi poly.Rat) axis {
	if a.log || len(a.ticks) < 3 || hi.Cmp(a.hi) >= 0 || hi.Cmp(a.ticks[len(a.ticks)-2].at) <= 0 {
		return a
	}
	a.hi = hi
	a.ticks = a.ticks[:len(a.ticks)-1]
	return a
}

// newLogAxis lays out a logarithmic axis over [lo, hi] (lo > 0) from the
// power of two at or below lo to the one at or above hi, with ticks every
// so many octaves: at most maxTicks of them, labelled as numbers (1, 16,
// 256, 4 096) or, with bytes set, in binary units (1 KiB, 32 KiB, 1 MiB).
func newLogAxis(lo, hi poly.Rat, bytes bool) axis {
	if lo.Sign() <= 0 {
		lo = poly.Int(1)
	}
	if hi.Cmp(lo) <= 0 {
		hi = lo.Mul(poly.Int(2))
	}
	k0, k1 := log2Floor(lo), log2Ceil(hi)
	every := 1
	for (k1-k0)/every+1 > maxTicks {
		every++
	}
	if bytes && every > 1 && every < 10 {
		// Octaves that land on the binary units where they can: 1, 2, 5
		// or 10 at a time.
		for _, e := range []int{2, 5, 10} {
			if e >= every {
				every = e
				break
			}
		}
	}
	start := k0 - mod(k0, every)
	a := axis{lo: pow2(k0), hi: pow2(k1), log: true}
	for k := start; k <= k1; k += every {
		if k < k0 {
			continue
		}
		v := pow2(k)
		t := tick{at: v, num: doc.Group(v, doc.ThinSpace)}
		if bytes {
			scale, unit := binaryScale(v)
			if v.Equal(poly.Int(1)) {
				unit = "byte" // 1 byte, not 1 bytes
			}
			t.num, t.unit = doc.Fixed(v.Quo(scale), 6), unit
		}
		a.ticks = append(a.ticks, t)
	}
	return a
}

// binaryScale returns the largest binary unit not above top and its name.
func binaryScale(top poly.Rat) (poly.Rat, string) {
	scale, name := poly.Int(1), binaryUnits[0]
	for _, u := range binaryUnits[1:] {
		next := scale.Mul(poly.Int(1024))
		if next.Cmp(top) > 0 {
			break
		}
		scale, name = next, u
	}
	return scale, name
}

// pow2 is 2^k, k ≥ -62.
func pow2(k int) poly.Rat {
	if k >= 0 {
		if k < 62 {
			return poly.Int(int64(1) << k)
		}
		return pow2(61).Mul(pow2(k - 61))
	}
	return poly.Int(1).Quo(pow2(-k))
}

// log2Floor is the largest k with 2^k ≤ x (x > 0).
func log2Floor(x poly.Rat) int {
	k := int(math.Floor(math.Log2(x.Float64())))
	for pow2(k).Cmp(x) > 0 {
		k--
	}
	for pow2(k+1).Cmp(x) <= 0 {
		k++
	}
	return k
}

// log2Ceil is the smallest k with 2^k ≥ x (x > 0).
func log2Ceil(x poly.Rat) int {
	k := log2Floor(x)
	if pow2(k).Cmp(x) < 0 {
		k++
	}
	return k
}

func mod(a, b int) int { return ((a % b) + b) % b }

func abs(x poly.Rat) poly.Rat {
	if x.Sign() < 0 {
		return x.Neg()
	}
	return x
}

func maxRat(a, b poly.Rat) poly.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
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

// frac returns where v lies on a, from 0 at lo to 1 at hi, for drawing.
func (a axis) frac(v poly.Rat) float64 {
	if a.log {
		if v.Sign() <= 0 {
			return 0
		}
		l, h := math.Log(a.lo.Float64()), math.Log(a.hi.Float64())
		return (math.Log(v.Float64()) - l) / (h - l)
	}
	if f, ok := fracInt(v, a.lo, a.hi); ok {
		return f
	}
	return v.Sub(a.lo).Quo(a.hi.Sub(a.lo)).Float64()
}

// fracInt is (v − lo) / (hi − lo) for integers whose differences are
// exact in float64 (below 2^53): one division of exact operands, so the
// same float as the fraction's, without reducing it. A figure of a long
// program draws a point for each of its operations.
func fracInt(v, lo, hi poly.Rat) (float64, bool) {
	const exact = 1 << 53
	x, ok1 := v.Int64()
	l, ok2 := lo.Int64()
	h, ok3 := hi.Int64()
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	n, d := x-l, h-l
	if (x < l) != (n < 0) || (h < l) != (d < 0) || n <= -exact || n >= exact || d <= 0 || d >= exact {
		return 0, false // an overflow, an empty axis, or beyond exact floats
	}
	return float64(n) / float64(d), true
}
