package explain

import (
	"sort"

	"memsym/poly"
)

// samples is about how many points a candidate's curve is sampled at.
const samples = 30

// candidatesFigure draws the candidates along the main dimension at fixed
// values of the others, each sampled exactly at integer points, with the
// crossovers marked. It is nil when a candidate cannot be evaluated there.
func candidatesFigure(in *Input) *Figure {
	sym := in.Symbolic
	if sym.Along == "" || len(sym.Candidates) < 2 {
		return nil
	}
	fixed := fixedValues(in)
	env := map[string]int64{}
	for _, f := range fixed {
		env[f.Name] = f.Value
	}
	xs := sampleXs(in)
	f := &Figure{Name: "candidates", XLabel: sym.Along, YLabel: "live bytes", YBytes: true}
	at := func(p poly.Poly, x int64) (poly.Rat, bool) {
		env[sym.Along] = x
		v, err := p.EvalInt(env)
		return v, err == nil
	}
	for i, c := range sym.Candidates {
		formula := inOrder(c.Poly, in.Vars)
		s := Series{Label: describe(c, i), Formula: &formula}
		for _, x := range xs {
			y, ok := at(c.Poly, x)
			if !ok {
				return nil
			}
			s.Points = append(s.Points, Point{X: poly.Int(x), Y: y})
		}
		f.Series = append(f.Series, s)
	}
	caption := []any{"The candidates' live bytes along ", sym.Along}
	if len(fixed) > 0 {
		caption = append(caption, " at ", assignment(fixed))
	}
	for i, seg := range sym.Segments {
		if i == 0 || seg.Holder < 0 || seg.Holder >= len(sym.Candidates) {
			continue
		}
		y, ok := at(sym.Candidates[seg.Holder].Poly, seg.From)
		if !ok {
			return nil
		}
		f.Marks = append(f.Marks, Mark{At: Point{X: poly.Int(seg.From), Y: y}, Label: sym.Along + " = " + Group(poly.Int(seg.From), ThinSpace)})
		caption = append(caption, pick(i == 1, "; from ", ", from "), sym.Along, " = ", seg.From, " ",
			describe(sym.Candidates[seg.Holder], seg.Holder), " ", pick(sym.Candidates[seg.Holder].Plural, "hold", "holds"), " the peak")
	}
	f.Caption = inlines(append(caption, ".")...)
	return f
}

// sampleXs chooses the integer points the candidates are drawn at: 1, then
// a round step up to twice the last crossover (or the grid's largest value),
// and both sides of every crossover.
func sampleXs(in *Input) []int64 {
	sym := in.Symbolic
	var hi int64
	for _, seg := range sym.Segments {
		if seg.From > 1 {
			hi = max(hi, 2*seg.From)
		}
	}
	if hi == 0 {
		for i, v := range in.Vars {
			if v == sym.Along && i < len(sym.Grid) {
				for _, g := range sym.Grid[i] {
					hi = max(hi, g)
				}
			}
		}
	}
	hi = max(hi, 10)
	step := roundStep((hi + samples - 1) / samples)
	hi = (hi + step - 1) / step * step
	seen := map[int64]bool{1: true}
	xs := []int64{1}
	add := func(x int64) {
		if x >= 1 && !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	for x := step; x <= hi; x += step {
		add(x)
	}
	for _, seg := range sym.Segments {
		if seg.From > 1 {
			add(seg.From - 1)
			add(seg.From)
		}
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs
}

// roundStep returns the smallest of 1, 2, 5, 10, 20, 50, ... at least n.
func roundStep(n int64) int64 {
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
	}
}
