package explain

import (
	"fmt"
	"sort"

	"memsym/doc"
	"memsym/poly"
	"memsym/record"
)

// realistic is the least top of the range the candidates are drawn over.
const realistic = 4096

// candidateFigures draws the candidates along the crossovers' dimension at
// fixed values of the others, exactly at integer points, with the
// crossovers, the counted point and the grid marked; and, where their
// lines would overlap, their excess over their common term. None is drawn
// for fewer than two candidates or where one cannot be evaluated.
func (w *writer) candidateFigures() []*doc.Figure {
	in := w.in
	sym := in.Symbolic
	c := sym.Cross
	if c == nil || len(sym.Candidates) < 2 {
		return nil
	}
	at := w.drawnAt(c)
	env := at.Map()
	value := func(p poly.Poly, x int64) (poly.Rat, bool) {
		env[c.Along] = x
		v, err := p.EvalInt(env)
		return v, err == nil
	}
	xs, log, capped := w.sampleXs(c)
	f := &doc.Figure{Name: "candidates", XLabel: inlines(doc.Math{doc.V(c.Along)}), YLabel: inlines("live bytes"), YBytes: true, LogX: log, LogY: log}
	ys := make([][]poly.Rat, len(sym.Candidates))
	for i, cand := range sym.Candidates {
		formula := inOrder(cand.Poly, in.Vars)
		s := doc.Series{Label: candidateWords(cand, i), Formula: &formula}
		for _, x := range xs {
			y, ok := value(cand.Poly, x)
			if !ok || (log && y.Sign() <= 0) {
				return nil
			}
			s.Points = append(s.Points, doc.XY{X: poly.Int(x), Y: y})
			ys[i] = append(ys[i], y)
		}
		f.Series = append(f.Series, s)
	}
	w.figure()
	caption := []any{"The candidates' live bytes along ", doc.Math{doc.V(c.Along)}}
	if len(at) > 0 {
		caption = append(caption, " at ", point(at))
	}
	if log {
		caption = append(caption, ", on logarithmic axes, where a term's degree is its slope")
	}
	for i, seg := range c.Segments {
		if i == 0 {
			continue
		}
		y, ok := value(sym.Candidates[seg.Holder].Poly, seg.From)
		if !ok {
			return nil
		}
		f.Marks = append(f.Marks, doc.Mark{At: doc.XY{X: poly.Int(seg.From), Y: y}, Label: inlines(equals(c.Along, seg.From))})
		caption = append(caption, pick(i == 1, "; from ", ", from "), equals(c.Along, seg.From), ", candidate ", seg.Holder+1, " holds the peak")
	}
	if m, ok := w.countedMark(c, at, value); ok {
		f.Marks = append(f.Marks, m)
		caption = append(caption, "; the circle marked counted is the peak counted at ", point(w.in.Point.At))
	}
	for i, v := range in.Vars {
		if v != c.Along {
			continue
		}
		for j, g := range sym.Grid[i] {
			guide := doc.Guide{X: poly.Int(g)}
			if j == 0 {
				guide.Label = inlines("grid")
			}
			f.Guides = append(f.Guides, guide)
		}
		caption = append(caption, "; dotted lines mark the grid's values of ", doc.Math{doc.V(c.Along)})
	}
	// Where the program stops running along the dimension (bert-encoder's
	// T ≤ P): drawn up to there, or past it with the line marked.
	if r := c.Reach; r.Last > 0 {
		if capped {
			caption = append(caption, "; drawn up to ", equals(c.Along, r.Last), ", the largest the program runs at")
		} else if r.Last < xs[len(xs)-1] {
			f.Guides = append(f.Guides, doc.Guide{X: poly.Int(r.Last), Label: inlines("runs up to here")})
			caption = append(caption, "; past the line at ", equals(c.Along, r.Last), " the program does not run, and the lines are the polynomials', not the program's")
		}
	}
	f.Caption = inlines(append(caption, ".")...)
	figs := []*doc.Figure{f}
	if e := w.excessFigure(c, at, xs, ys, log); e != nil {
		figs = append(figs, e)
	}
	return figs
}

// countedMark marks the counted point on the candidates' figure when its
// other dimensions are those drawn and its peak is the largest candidate
// there, as the model says it must be.
func (w *writer) countedMark(c *CrossRows, at record.Point, value func(poly.Poly, int64) (poly.Rat, bool)) (doc.Mark, bool) {
	pc := w.in.Point
	if pc == nil {
		return doc.Mark{}, false
	}
	x, ok := pc.At.Value(c.Along)
	if !ok {
		return doc.Mark{}, false
	}
	for _, d := range at {
		if y, ok := pc.At.Value(d.Name); !ok || y != d.Value {
			return doc.Mark{}, false
		}
	}
	var top poly.Rat
	for _, cand := range w.in.Symbolic.Candidates {
		v, ok := value(cand.Poly, x)
		if !ok {
			return doc.Mark{}, false
		}
		if v.Cmp(top) > 0 {
			top = v
		}
	}
	if !top.Equal(pc.Peak) {
		return doc.Mark{}, false
	}
	return doc.Mark{At: doc.XY{X: poly.Int(x), Y: top}, Label: inlines("counted")}, true
}

// excessFigure draws the candidates' excess over their common term, the
// sum of each monomial at its least coefficient among them, when their
// lines on the candidates' figure would overlap: within 5 % of the
// figure's height of one another on linear axes, or 10 % of one another on
// logarithmic ones. It is nil otherwise, or when they have no common term.
func (w *writer) excessFigure(c *CrossRows, at record.Point, xs []int64, ys [][]poly.Rat, log bool) *doc.Figure {
	in := w.in
	sym := in.Symbolic
	common, ok := commonTerm(sym.Candidates, in.Vars)
	if !ok {
		return nil
	}
	var top, widest poly.Rat
	for j := range xs {
		lo, hi := ys[0][j], ys[0][j]
		for i := range ys {
			lo, hi = minRat(lo, ys[i][j]), maxRat(hi, ys[i][j])
		}
		top = maxRat(top, hi)
		if log {
			widest = maxRat(widest, hi.Sub(lo).Quo(lo))
		} else {
			widest = maxRat(widest, hi.Sub(lo))
		}
	}
	if top.Sign() <= 0 {
		return nil
	}
	spread := widest
	if !log {
		spread = widest.Quo(top)
		if spread.Mul(poly.Int(20)).Cmp(poly.Int(1)) >= 0 {
			return nil
		}
	} else if spread.Mul(poly.Int(10)).Cmp(poly.Int(1)) >= 0 {
		return nil
	}
	env := at.Map()
	// The y axis' label is short, to fit along the axis in a column; the
	// caption says what the excess is over.
	f := &doc.Figure{Name: "excess", XLabel: inlines(doc.Math{doc.V(c.Along)}), YLabel: inlines("excess live bytes"), YBytes: true, LogX: log}
	for i, cand := range sym.Candidates {
		excess := inOrder(cand.Poly.Sub(common), in.Vars)
		s := doc.Series{Label: candidateWords(cand, i), Formula: &excess}
		for _, x := range xs {
			env[c.Along] = x
			y, err := excess.EvalInt(env)
			if err != nil {
				return nil
			}
			s.Points = append(s.Points, doc.XY{X: poly.Int(x), Y: y})
		}
		f.Series = append(f.Series, s)
	}
	for i, seg := range c.Segments {
		if i == 0 {
			continue
		}
		env[c.Along] = seg.From
		y, err := sym.Candidates[seg.Holder].Poly.Sub(common).EvalInt(env)
		if err != nil {
			return nil
		}
		f.Marks = append(f.Marks, doc.Mark{At: doc.XY{X: poly.Int(seg.From), Y: y}, Label: inlines(equals(c.Along, seg.From))})
	}
	previous := fmt.Sprintf("Figure %d.%d", ChapterNumber, w.figures)
	w.figure()
	caption := []any{"The candidates' excess over their common term, ", inOrder(common, in.Vars), ", along ", doc.Math{doc.V(c.Along)}}
	if len(at) > 0 {
		caption = append(caption, " at ", point(at))
	}
	caption = append(caption, ": the lines of ", previous, " lie within ", doc.Significant(spread.Mul(poly.Int(100)), 2), " % of ",
		pick(log, "one another", "its height"), ", and this is how they differ.")
	f.Caption = inlines(caption...)
	return f
}

// commonTerm is the sum of every monomial of cands at its least
// coefficient among them (0 where one lacks it), and whether it is not
// zero.
func commonTerm(cands []CandidateRow, vars []string) (poly.Poly, bool) {
	type mono struct {
		exp  []int
		coef poly.Rat
	}
	mins := map[string]*mono{}
	var order []string
	for i, c := range cands {
		p := inOrder(c.Poly, vars)
		seen := map[string]bool{}
		for _, t := range p.Terms() {
			if len(t.Exp) != len(vars) {
				return poly.Poly{}, false
			}
			k := fmt.Sprint(t.Exp)
			seen[k] = true
			m, ok := mins[k]
			switch {
			case !ok && i == 0:
				mins[k] = &mono{exp: t.Exp, coef: t.Coef}
				order = append(order, k)
			case !ok:
				// Another candidate lacks it: its least coefficient is 0.
				mins[k] = &mono{exp: t.Exp, coef: minRat(poly.Int(0), t.Coef)}
				order = append(order, k)
			default:
				m.coef = minRat(m.coef, t.Coef)
			}
		}
		for k, m := range mins {
			if !seen[k] {
				m.coef = minRat(m.coef, poly.Int(0))
			}
		}
	}
	sort.Strings(order)
	var terms []poly.Term
	for _, k := range order {
		if m := mins[k]; !m.coef.IsZero() {
			terms = append(terms, poly.Term{Coef: m.coef, Exp: m.exp})
		}
	}
	if len(terms) == 0 || len(cands) == 0 {
		return poly.Poly{}, false
	}
	return poly.New(vars, terms), true
}

func minRat(a, b poly.Rat) poly.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxRat(a, b poly.Rat) poly.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// sampleXs chooses the integer points the candidates are drawn at, from 1
// to a realistic top (4 096, or twice the last crossover, or the grid's
// largest value if more), with both sides of every crossover, the grid's
// values and the counted point's; and whether to draw them on logarithmic
// axes. capped says that the top is instead the last value the program
// runs at (c.Reach), which is below it, where the crossovers and the grid
// lie below that value: the lines past it would be the polynomials'.
func (w *writer) sampleXs(c *CrossRows) (xs []int64, log, capped bool) {
	in := w.in
	sym := in.Symbolic
	hi := int64(realistic)
	first := int64(0)
	for _, seg := range c.Segments {
		if seg.From > 1 {
			hi = max(hi, 2*seg.From)
			if first == 0 {
				first = seg.From
			}
		}
	}
	var extra []int64
	for i, v := range in.Vars {
		if v == c.Along {
			for _, g := range sym.Grid[i] {
				hi = max(hi, g)
				extra = append(extra, g)
			}
		}
	}
	uncapped := hi
	if last := c.Reach.Last; last > 0 && last < hi {
		capped = true
		for _, x := range extra {
			capped = capped && x <= last
		}
		for _, seg := range c.Segments {
			capped = capped && seg.From <= last
		}
		if capped {
			hi = last
		}
	}
	if in.Point != nil {
		if x, ok := in.Point.At.Value(c.Along); ok {
			extra = append(extra, x)
		}
	}
	log = in.Scale == ScaleLog || (in.Scale == ScaleAuto && first > 0 && first*4 < hi)
	if log && capped {
		// On logarithmic axes the octaves below the program's last value
		// crowd their marks together: drawn to the realistic top, the
		// line where the program stops marked.
		hi, capped = uncapped, false
	}
	seen := map[int64]bool{}
	// From the least value the model holds for: 2 for a block count
	// whose first and last blocks stand apart.
	lo := max(in.Least[c.Along], 1)
	add := func(x int64) {
		if x >= lo && x <= hi && !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	add(lo)
	if log {
		// Four points an octave.
		for k := 0; ; k++ {
			x := pow2q(k)
			if x > hi {
				break
			}
			add(x)
		}
		add(hi)
	} else {
		step := roundStep((hi + 63) / 64)
		if !capped {
			hi = (hi + step - 1) / step * step
		}
		for x := step; x <= hi; x += step {
			add(x)
		}
		add(hi)
	}
	for _, seg := range c.Segments {
		if seg.From > 1 {
			add(seg.From - 1)
			add(seg.From)
		}
	}
	for _, x := range extra {
		add(x)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs, log, capped
}

// pow2q is 2^(k/4) rounded to an integer.
func pow2q(k int) int64 {
	base := int64(1) << (k / 4)
	// 2^(1/4), 2^(1/2) and 2^(3/4) as fractions of 1000, rounded.
	frac := []int64{1000, 1189, 1414, 1682}[k%4]
	return (base*frac + 500) / 1000
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
