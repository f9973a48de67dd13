package model

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// FitKind says how a budget meets the needs along a dimension.
type FitKind int

const (
	// FitsNone: no value ≥ 1 fits the budget.
	FitsNone FitKind = iota
	// FitsUpTo: Largest fits, and no larger value does.
	FitsUpTo
	// FitsFrom: every value from From on fits, without end: the needs
	// are bounded along the dimension (or fall along it).
	FitsFrom
)

// Fit is the answer to "what is the largest value of Along whose needs
// (the inputs and the peak) fit Budget", the other dimensions fixed.
type Fit struct {
	Along  string
	Fixed  record.Point // the other dimensions, in the model's order
	Budget poly.Rat
	Kind   FitKind
	// Largest is the largest value that fits (FitsUpTo); From the first of
	// the values that all fit (FitsFrom).
	Largest, From int64
	// Gaps are the values below Largest (or From) that do not fit,
	// ascending: empty when every smaller value fits too, as it does when
	// the needs grow along the dimension.
	Gaps []Span
	// RunsFrom is, for a bundled program that does not run at Least, the
	// least value at which it does (Model.Below): Gaps and what is said
	// of the values below the answer start there. 0 otherwise.
	RunsFrom int64
	// Negative are the values from Least at which some buffer's bytes are
	// negative, ascending (To math.MaxInt64 for a run without end): the
	// polynomials are not the program's there, so no value of them is
	// said to fit, nor listed in Gaps.
	Negative []Span
	// Bounded is true when the needs do not depend on Along at all.
	Bounded bool
	// Least is the least value of Along the model holds for: 1, or 2 for
	// a block count whose last block stands apart (Model.Least).
	Least int64
	// Falls is true when the needs are proven to fall along Along: each
	// polynomial whose largest they are is less at x + 1 than at x, for
	// every x ≥ Least.
	Falls bool
	// LeastAt is, when nothing fits (FitsNone), the least value of Along ≥
	// Least at which the needs are least, LeastNeeds; MostAt is, when
	// every value fits and the needs depend on Along (FitsFrom, From ≤
	// Least, not Bounded), the least value at which they are most,
	// MostNeeds. Either is 0 when not asked for, or when it lies beyond
	// int64.
	LeastAt, MostAt       int64
	LeastNeeds, MostNeeds poly.Rat
	// At is the terms at Largest (FitsUpTo) or From (FitsFrom); Past those
	// one beyond, which do not fit: at Largest+1, at From−1 when From > 1,
	// or at 1 when nothing fits. Either may be nil when there is no such
	// value.
	At, Past *Terms
	// BeyondAt is the terms at Beyond(), the first value past a span of
	// negative bytes just past the answer, which does not fit; nil when
	// there is no such value.
	BeyondAt *Terms
}

// Span is the integers From to To, both included.
type Span struct{ From, To int64 }

// Line checks that along is a dimension of the model and that fixed gives
// every other one a value ≥ 1 and names no other; it returns fixed as a
// point in the model's order, along set to its least value.
func (m *Model) Line(along string, fixed map[string]int64) (record.Point, error) {
	if err := CheckLine(m.Vars, along, slices.Sorted(maps.Keys(fixed))); err != nil {
		return nil, err
	}
	all := map[string]int64{along: m.Least(along)}
	for k, v := range fixed {
		all[k] = v
	}
	for _, v := range m.Vars {
		if _, ok := all[v]; !ok && m.knows(fixed) {
			return nil, fmt.Errorf("no value for %s: every dimension but %s needs one", v, along)
		}
	}
	return m.PointOf(all)
}

// knows reports whether every name in values is one of the model's
// dimensions.
func (m *Model) knows(values map[string]int64) bool {
	for k := range values {
		if !contains(m.Vars, k) {
			return false
		}
	}
	return true
}

// Fit finds, exactly, the largest value of along ≥ 1 whose needs are at
// most budget, the other dimensions at fixed (which must give each a
// value). The needs are the inputs and the largest kept candidate, each a
// polynomial; no assumption is made that they grow: every value that does
// not fit below the answer is found and listed in Gaps.
func (m *Model) Fit(along string, fixed map[string]int64, budget poly.Rat) (*Fit, error) {
	return m.FitFrom(along, fixed, budget, 0)
}

// FitFrom is Fit over the values of along from from on, where that is
// above the least value the model holds for: from the least value a
// bundled program runs at (strided-conv's N ≥ K), so that an answer, and
// the least needs when nothing fits, are values the program takes.
func (m *Model) FitFrom(along string, fixed map[string]int64, budget poly.Rat, from int64) (*Fit, error) {
	var needs []poly.Poly
	for _, k := range m.Front.Kept {
		needs = append(needs, m.NeedsPoly(k))
	}
	if len(needs) == 0 {
		needs = append(needs, m.Inputs)
	}
	f, err := m.fitAll(along, fixed, budget, needs, from)
	if err != nil {
		return nil, err
	}
	return f, f.terms(m)
}

// fitAll finds the values of along ≥ 1, and ≥ from, at which every one of
// polys is at most budget, the other dimensions at fixed, and fills a Fit
// but its At and Past. The needs are the largest of polys.
func (m *Model) fitAll(along string, fixed map[string]int64, budget poly.Rat, polys []poly.Poly, from int64) (*Fit, error) {
	base, err := m.Line(along, fixed)
	if err != nil {
		return nil, err
	}
	f := &Fit{Along: along, Budget: budget, Bounded: true, Least: max(m.Least(along), from)}
	for _, d := range base {
		if d.Name != along {
			f.Fixed = append(f.Fixed, d)
		}
	}
	// The values that fit are those at which every polynomial is at most
	// the budget: the needs are the largest of them.
	fits := []Run{{From: big.NewInt(f.Least)}}
	var lines [][]poly.Rat
	for _, p := range polys {
		cs, err := m.along(p, along, f.Fixed)
		if err != nil {
			return nil, err
		}
		if len(cs) > 1 {
			f.Bounded = false
		}
		lines = append(lines, cs)
		fits = intersect(fits, nonPositive(poly.IntPolyOf(subCoefs(cs, []poly.Rat{budget}))))
	}
	valid, err := m.notNegative(along, f.Fixed, f.Least)
	if err != nil {
		return nil, err
	}
	fits = intersect(fits, valid)
	// Past int64 no dimension goes: runs that start there are none.
	for i, r := range fits {
		if !r.From.IsInt64() {
			fits = fits[:i]
			break
		}
	}
	f.Negative = negativeSpans(valid, f.Least)
	f.Falls = len(valid) > 0 && falls(lines, f.ProgramFrom())
	var top *big.Int
	switch last := len(fits) - 1; {
	case last < 0:
		f.Kind = FitsNone
	case fits[last].To == nil:
		f.Kind = FitsFrom
		if f.From, err = int64Of(fits[last].From, "the first value of "+along+" from which every one fits"); err != nil {
			return nil, err
		}
		top = new(big.Int).Sub(fits[last].From, big.NewInt(1))
	default:
		f.Kind = FitsUpTo
		if f.Largest, err = int64Of(fits[last].To, "the largest "+along+" that fits"); err != nil {
			return nil, err
		}
		if f.Largest == 1<<63-1 {
			return nil, fmt.Errorf("the largest %s that fits is %d, the largest dimension memsym handles", along, f.Largest)
		}
		top = fits[last].To
	}
	if top != nil {
		// Values at which the polynomials are not the program's are no gap.
		f.Gaps = spansOf(intersect(complementBelow(fits, big.NewInt(f.Least), top), valid))
	}
	switch {
	case f.Kind == FitsNone:
		f.LeastAt, f.LeastNeeds = leastOfLargest(lines, valid)
	case f.Kind == FitsFrom && f.From <= f.ProgramFrom(): // bounded too: at the least value
		f.MostAt, f.MostNeeds = mostOfLargest(lines, valid)
	}
	return f, nil
}

// ProgramFrom returns the least value from Least on at which no buffer's
// bytes are negative (Negative); Least when there is none below it.
func (f *Fit) ProgramFrom() int64 {
	if len(f.Negative) > 0 && f.Negative[0].From == f.Least && f.Negative[0].To < math.MaxInt64 {
		return f.Negative[0].To + 1
	}
	return f.Least
}

// NegativeWithin returns the spans of Negative that lie between ProgramFrom
// and x, both left out: values below an answer at which nothing is said.
func (f *Fit) NegativeWithin(x int64) []Span {
	var out []Span
	for _, g := range f.Negative {
		if g.From > f.ProgramFrom() && g.From < x {
			out = append(out, g)
		}
	}
	return out
}

// Nowhere reports whether some buffer's bytes are negative at every value
// of the line from Least: the polynomials are the program's nowhere on it.
func (f *Fit) Nowhere() bool {
	return len(f.Negative) == 1 && f.Negative[0].From == f.Least && f.Negative[0].To == math.MaxInt64
}

// negativeBelowAnswer counts the spans of Negative below the answer and
// above ProgramFrom (NegativeWithin).
func (f *Fit) negativeBelowAnswer() int {
	x, _ := f.answer()
	return len(f.NegativeWithin(x))
}

// StopsAtNegative reports whether the answer (FitsUpTo) is the last value
// before some buffer's bytes turn negative for good, not the last before
// the budget is passed: from Largest + 1 on the polynomials are not the
// program's, so nothing is known of whether larger values fit.
func (f *Fit) StopsAtNegative() bool {
	g, ok := f.negativePast()
	return ok && g.To == math.MaxInt64
}

// Beyond returns, when the values just past the answer (FitsUpTo) are a
// span of Negative with an end, the first value past that span, which
// does not fit (the answer is the last value that fits where the
// polynomials are the program's); 0 otherwise.
func (f *Fit) Beyond() int64 {
	if g, ok := f.negativePast(); ok && g.To < math.MaxInt64 {
		return g.To + 1
	}
	return 0
}

// negativePast returns the span of Negative that starts just past the
// answer (FitsUpTo), if any.
func (f *Fit) negativePast() (Span, bool) {
	if f.Kind != FitsUpTo {
		return Span{}, false
	}
	for _, g := range f.Negative {
		if g.From == f.Largest+1 {
			return g, true
		}
	}
	return Span{}, false
}

// NegativeAlong returns the values of along, from the least the model
// holds for, at which some buffer's bytes are negative, the other
// dimensions at fixed (To math.MaxInt64 for a span without end); nil when
// some other dimension has no value in fixed, or there are none.
func (m *Model) NegativeAlong(along string, fixed map[string]int64) ([]Span, error) {
	for _, v := range m.Vars {
		if _, ok := fixed[v]; !ok && v != along {
			return nil, nil
		}
	}
	base, err := m.Line(along, fixed)
	if err != nil {
		return nil, err
	}
	var others record.Point
	for _, d := range base {
		if d.Name != along {
			others = append(others, d)
		}
	}
	least := m.Least(along)
	valid, err := m.notNegative(along, others, least)
	if err != nil {
		return nil, err
	}
	return negativeSpans(valid, least), nil
}

// negativeSpans returns the values from least on outside valid (the runs
// notNegative returns), as spans.
func negativeSpans(valid []Run, least int64) []Span {
	return spansOf(complementBelow(valid, big.NewInt(least), big.NewInt(math.MaxInt64)))
}

// notNegative returns the values of along from least on at which every
// buffer's bytes are at least zero, the other dimensions at fixed, as
// ascending runs.
func (m *Model) notNegative(along string, fixed record.Point, least int64) ([]Run, error) {
	valid := []Run{{From: big.NewInt(least)}}
	var err error
	m.DistinctBytes(func(q poly.Poly, _ int) bool {
		if !hasNegative(q) {
			return true
		}
		var cs []poly.Rat
		if cs, err = m.along(q, along, fixed); err != nil {
			return false
		}
		neg := make([]poly.Rat, len(cs))
		for i, c := range cs {
			neg[i] = c.Neg()
		}
		valid = intersect(valid, nonPositive(poly.IntPolyOf(neg)))
		return len(valid) > 0
	})
	// Past int64 no dimension goes: a run that ends there has no end here,
	// and one that starts there is none.
	for i := 0; i < len(valid); i++ {
		if !valid[i].From.IsInt64() {
			valid = valid[:i]
			break
		}
		if valid[i].To != nil && (!valid[i].To.IsInt64() || valid[i].To.Int64() == math.MaxInt64) {
			valid[i].To = nil
		}
	}
	return valid, err
}

// spansOf returns runs as spans, a run without end reaching math.MaxInt64
// (runs here lie in int64: below a value that does, or from one).
func spansOf(runs []Run) []Span {
	var out []Span
	for _, r := range runs {
		to := int64(math.MaxInt64)
		if r.To != nil && r.To.IsInt64() {
			to = r.To.Int64()
		}
		out = append(out, Span{r.From.Int64(), to})
	}
	return out
}

// subCoefs returns a − b, polynomials in one variable, lowest power first.
func subCoefs(a, b []poly.Rat) []poly.Rat {
	out := make([]poly.Rat, max(len(a), len(b)))
	for i := range out {
		out[i] = poly.Int(0)
		if i < len(a) {
			out[i] = a[i]
		}
		if i < len(b) {
			out[i] = out[i].Sub(b[i])
		}
	}
	return out
}

// valueAt returns the polynomial cs (lowest power first) at x.
func valueAt(cs []poly.Rat, x *big.Int) poly.Rat {
	v, at := poly.Int(0), poly.FromBigInt(x)
	for i := len(cs) - 1; i >= 0; i-- {
		v = v.Mul(at).Add(cs[i])
	}
	return v
}

// largestAt returns the largest of the polynomials lines at x.
func largestAt(lines [][]poly.Rat, x *big.Int) poly.Rat {
	var top poly.Rat
	for i, cs := range lines {
		if v := valueAt(cs, x); i == 0 || v.Cmp(top) > 0 {
			top = v
		}
	}
	return top
}

// falls reports whether every one of lines is less at x + 1 than at x for
// every integer x ≥ least: then so is their largest.
func falls(lines [][]poly.Rat, least int64) bool {
	if len(lines) == 0 {
		return false
	}
	for _, cs := range lines {
		// The x ≥ 1 at which the difference is ≥ 0: none may be ≥ least.
		rises := nonPositive(poly.IntPolyOf(cs).Difference().Neg())
		if n := len(rises); n > 0 && (rises[n-1].To == nil || rises[n-1].To.Cmp(big.NewInt(least)) >= 0) {
			return false
		}
	}
	return true
}

// leastOfLargest returns, exactly, the least integer x in valid (runs
// of values, ascending) at which the largest of lines is least, and its
// value there; 0 when valid is empty, when the largest falls without end
// over it, or when x lies beyond int64.
//
// Let x be that value and k a line that is largest at x. On the stretch I
// of integers of x's run around x on which k is largest, the largest is
// k, so x is I's first value, its last, or a value at which k has just
// stopped falling: where k(x) − k(x−1) < 0 ≤ k(x+1) − k(x), the first of
// a run of x ≥ 1 at which k's difference is ≥ 0. I's ends are ends of a
// run of valid or ends of the runs at which another line is at most k. So
// x is among finitely many candidates, every one found exactly by
// nonPositive (within keeps those in valid).
func leastOfLargest(lines [][]poly.Rat, valid []Run) (int64, poly.Rat) {
	if len(valid) == 0 {
		return 0, poly.Rat{}
	}
	bounded := valid[len(valid)-1].To != nil
	for _, cs := range lines {
		lead := poly.IntPolyOf(cs)
		if len(lead) <= 1 || lead[len(lead)-1].Sign() > 0 {
			bounded = true // this line does not fall without end, so neither does the largest
		}
	}
	if !bounded {
		return 0, poly.Rat{}
	}
	var cands []*big.Int
	for k, ck := range lines {
		for j, cj := range lines {
			if j != k {
				for _, r := range nonPositive(poly.IntPolyOf(subCoefs(cj, ck))) {
					cands = append(cands, r.From, r.To)
				}
			}
		}
		for _, r := range nonPositive(poly.IntPolyOf(ck).Difference().Neg()) {
			cands = append(cands, r.From)
		}
	}
	return extreme(lines, within(cands, valid), -1)
}

// mostOfLargest returns, exactly, the least integer x in valid at which
// the largest of lines is most, and its value there; 0 when the largest
// grows without end over it or x lies beyond int64. The most is at an end
// of a run, or where a line has just stopped growing: the first of a run
// of x ≥ 1 at which its difference is ≤ 0.
func mostOfLargest(lines [][]poly.Rat, valid []Run) (int64, poly.Rat) {
	if len(valid) == 0 {
		return 0, poly.Rat{}
	}
	var cands []*big.Int
	for _, cs := range lines {
		p := poly.IntPolyOf(cs)
		if len(p) > 1 && p[len(p)-1].Sign() > 0 && valid[len(valid)-1].To == nil {
			return 0, poly.Rat{} // it grows without end
		}
		for _, r := range nonPositive(p.Difference()) {
			cands = append(cands, r.From)
		}
	}
	return extreme(lines, within(cands, valid), +1)
}

// within returns the ends of the runs of valid and those of cands that
// lie in one of them.
func within(cands []*big.Int, valid []Run) []*big.Int {
	var out []*big.Int
	for _, r := range valid {
		out = append(out, r.From)
		if r.To != nil {
			out = append(out, r.To)
		}
	}
	for _, x := range cands {
		if x == nil {
			continue
		}
		for _, r := range valid {
			if x.Cmp(r.From) >= 0 && (r.To == nil || x.Cmp(r.To) <= 0) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// extreme returns the least of cands at which the largest of lines is
// least (sign −1) or most (+1), and its value there; 0 when that x lies
// beyond int64.
func extreme(lines [][]poly.Rat, cands []*big.Int, sign int) (int64, poly.Rat) {
	var at *big.Int
	var best poly.Rat
	for _, x := range cands {
		v := largestAt(lines, x)
		if at == nil {
			at, best = x, v
			continue
		}
		if c := v.Cmp(best) * sign; c > 0 || c == 0 && x.Cmp(at) < 0 {
			at, best = x, v
		}
	}
	if !at.IsInt64() {
		return 0, poly.Rat{}
	}
	return at.Int64(), best
}

// atPast returns the values of Along at which At and Past are taken, 0
// for none: the answer and one past it.
func (f *Fit) atPast() (at, past int64) {
	switch f.Kind {
	case FitsNone:
		past = f.ProgramFrom()
	case FitsUpTo:
		at, past = f.Largest, f.Largest+1
	case FitsFrom:
		at = f.From
		if f.From > f.ProgramFrom() {
			past = f.From - 1
		}
	}
	return at, past
}

// terms fills At and Past; one where some buffer's bytes are negative, and
// the polynomials not the program's, is left nil (the answer stands: it is
// the polynomials').
func (f *Fit) terms(m *Model) error {
	at, past := f.atPast()
	eval := func(x int64) (*Terms, error) { return unlessNegative(m.Eval(f.Point(m, x))) }
	var err error
	if at > 0 {
		if f.At, err = eval(at); err != nil {
			return err
		}
	}
	if past > 0 {
		if f.Past, err = eval(past); err != nil {
			return err
		}
	}
	if x := f.Beyond(); x > 0 {
		if f.BeyondAt, err = eval(x); err != nil {
			return err
		}
	}
	return nil
}

// unlessNegative returns t and err but where err is a NegativeError: at a
// point where some buffer's bytes are negative the polynomials are not the
// program's, and a fit leaves its terms there out (nil), its answer
// standing.
func unlessNegative[T any](t *T, err error) (*T, error) {
	if neg := (*NegativeError)(nil); errors.As(err, &neg) {
		return nil, nil
	}
	return t, err
}

// Point returns the point at value x of Along, in the model's order.
func (f *Fit) Point(m *Model, x int64) record.Point {
	p := make(record.Point, len(m.Vars))
	for i, v := range m.Vars {
		p[i] = record.Dim{Name: v, Value: x}
		if y, ok := f.Fixed.Value(v); ok {
			p[i].Value = y
		}
	}
	return p
}

// along returns p with the fixed dimensions substituted, as a polynomial
// in along alone, lowest power first.
func (m *Model) along(p poly.Poly, along string, fixed record.Point) ([]poly.Rat, error) {
	for _, d := range fixed {
		p = p.Subst(d.Name, poly.Int(d.Value))
	}
	cs, ok := p.Univariate(along)
	if !ok {
		return nil, fmt.Errorf("the needs use %s, which has no value", strings.Join(p.Used(), ", "))
	}
	return cs, nil
}

// FitCheck is one recording made to confirm a fit.
type FitCheck struct {
	Point record.Point
	// Predicted and PredictedOp are the model's needs and peak operation
	// there; Needs and PeakOp the recording's.
	Predicted   poly.Rat
	PredictedOp int
	Needs       poly.Rat
	PeakOp      int
	// Fits is whether the model says the needs fit the budget there.
	Fits bool
	// Differs says how the recording is not the model's there, "" when it
	// is (Confirmation.Differs).
	Differs string
	// Unrecorded is why no recording was made at Point: nothing was
	// confirmed there, and Needs and PeakOp are zero.
	Unrecorded error
}

// OK reports whether the recording confirms the answer: its needs are the
// model's there, to the byte, on the same side of the budget. That is what
// a fit says at the point; where the peak lies is not. A recording whose
// operations are not the model's (Differs), as PyTorch's at a size of 1
// are not those of a grid from 2, or whose peak lies at another operation
// (PeakOp), confirms the needs all the same, and Noted says so.
func (c *FitCheck) OK(budget poly.Rat) bool {
	return c.Unrecorded == nil && c.Needs.Equal(c.Predicted) && (c.Needs.Cmp(budget) <= 0) == c.Fits
}

// Noted reports whether a recording that confirms the answer (OK) differs
// from the model otherwise: its operations, or its peak's operation.
func (c *FitCheck) Noted(budget poly.Rat) bool {
	return c.OK(budget) && (c.Differs != "" || c.PeakOp != c.PredictedOp)
}

// Contradicting counts the checks whose recording, made, does not agree
// with the fit under budget (OK).
func Contradicting(checks []FitCheck, budget poly.Rat) int {
	n := 0
	for i := range checks {
		if checks[i].Unrecorded == nil && !checks[i].OK(budget) {
			n++
		}
	}
	return n
}

// UnrecordedChecks counts the checks whose recording failed.
func UnrecordedChecks(checks []FitCheck) int {
	n := 0
	for i := range checks {
		if checks[i].Unrecorded != nil {
			n++
		}
	}
	return n
}

// ConfirmFit records src at the fit's answer and one past it (At and
// Past) and returns what each recording needs; a point whose recording
// fails is returned Unrecorded.
func (m *Model) ConfirmFit(ctx context.Context, src source.Source, f *Fit) ([]FitCheck, error) {
	var out []FitCheck
	for _, t := range []*Terms{f.At, f.Past} {
		if t == nil || !runsAt(src, t.Point) {
			continue
		}
		rec, failed, err := confirming(ctx, src, t.Point)
		if err != nil {
			return nil, err
		}
		if failed != nil {
			out = append(out, FitCheck{Point: t.Point, Predicted: t.Needs, PredictedOp: t.PeakOp, Fits: t.Needs.Cmp(f.Budget) <= 0, Unrecorded: failed})
			continue
		}
		c := count.At(rec)
		out = append(out, FitCheck{
			Point: t.Point, Predicted: t.Needs, PredictedOp: t.PeakOp,
			Needs: c.Needs, PeakOp: c.PeakOp, Fits: t.Needs.Cmp(f.Budget) <= 0,
			Differs: m.differs(rec, src.Name(), t.Point),
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := out[i].Point.Value(f.Along)
		b, _ := out[j].Point.Value(f.Along)
		return a < b
	})
	return out, nil
}

// FitJSON is `memsym fit --json`'s object.
type FitJSON struct {
	Entry   string          `json:"entry"`
	Along   string          `json:"along"`
	Fixed   OrderedPoint    `json:"fixed"`
	Budgets []BudgetFitJSON `json:"budgets"`
	Checked []OrderedPoint  `json:"checked"`
	// Domain is each dimension's least value where the model holds: what
	// every budget's answer says of the values below it, and "none",
	// speak of the values from the dimension's on.
	Domain OrderedPoint `json:"domain"`
	AtOneJSON
}

// BudgetFitJSON is one budget's answer. Fits is "up_to" (Largest fits, no
// larger value does), "from" (every value from From fits) or "none".
type BudgetFitJSON struct {
	Budget           string         `json:"budget"`
	Fits             string         `json:"fits"`
	Largest          int64          `json:"largest"`
	From             int64          `json:"from"`
	EverySmallerFits bool           `json:"every_smaller_fits"`
	Gaps             []SpanJSON     `json:"gaps"`
	Bounded          bool           `json:"bounded"`
	At               *NeedsJSON     `json:"at"`
	Past             *NeedsJSON     `json:"past"`
	Confirmed        []FitCheckJSON `json:"confirmed,omitempty"`
	// NotRunning says, for a bundled program, that the answer lies where
	// the program does not run, and where it last runs below it.
	NotRunning string `json:"not_running,omitempty"`
	// PastNotRunning says that one past an answer the program runs at it
	// does not, which is then not recorded.
	PastNotRunning string `json:"past_not_running,omitempty"`
	// Falls, Least and Most are Fit's Falls, LeastAt and MostAt with their
	// needs: what the text says of needs that fall, of a budget nothing
	// fits (the least need) and of one every value fits (the most).
	Falls bool `json:"falls,omitempty"`
	// RunsFrom is Fit's RunsFrom: the least value at which a bundled
	// program runs, when it does not run at the least the model holds
	// for; every_smaller_fits and gaps speak of the values from it.
	RunsFrom int64 `json:"runs_from,omitempty"`
	// NegativeBytes is Fit's Negative: the values at which some buffer's
	// bytes are negative, the polynomials not the program's; fits,
	// every_smaller_fits and gaps leave them out.
	NegativeBytes []SpanJSON `json:"negative_bytes,omitempty"`
	// StopsAtNegative is Fit's StopsAtNegative: largest is the last value
	// before negative_bytes, not the last within the budget.
	StopsAtNegative bool `json:"stops_at_negative,omitempty"`
	// Beyond is the needs at Fit.Beyond(): with a span of negative_bytes
	// with an end just past largest, at the first value past it, which
	// does not fit.
	Beyond *NeedsJSON   `json:"beyond,omitempty"`
	Least  *ExtremeJSON `json:"least,omitempty"`
	Most   *ExtremeJSON `json:"most,omitempty"`
}

// ExtremeJSON is where along the dimension the needs are least or most,
// the first such value, and the needs there.
type ExtremeJSON struct {
	At    int64  `json:"at"`
	Needs string `json:"needs"`
}

// SpanJSON is the integers from From to To, both included.
type SpanJSON struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// NeedsJSON is the needs at a point and what holds the peak there.
type NeedsJSON struct {
	Point     OrderedPoint  `json:"point"`
	Needs     string        `json:"needs"`
	Peak      string        `json:"peak"`
	Operation int           `json:"operation"`
	Holder    CandidateJSON `json:"holder"`
	// Phase is the phase of a step's peak (fit --step); "" otherwise.
	Phase string `json:"phase,omitempty"`
}

// FitCheckJSON is one recording made to confirm a fit.
type FitCheckJSON struct {
	Point          OrderedPoint `json:"point"`
	PredictedNeeds string       `json:"predicted_needs"`
	PredictedOp    int          `json:"predicted_op"`
	Needs          *string      `json:"needs"`   // null where unrecorded
	PeakOp         *int         `json:"peak_op"` // null where unrecorded
	PredictedFits  bool         `json:"predicted_fits"`
	Fits           *bool        `json:"fits"` // the recorded needs' side; null where unrecorded
	OK             bool         `json:"ok"`
	// Differs says how the recording is not the model's there.
	Differs string `json:"differs,omitempty"`
	// Unrecorded says why no recording was made at the point.
	Unrecorded string `json:"unrecorded,omitempty"`
}

// String names a kind as FitJSON does.
func (k FitKind) String() string {
	switch k {
	case FitsUpTo:
		return "up_to"
	case FitsFrom:
		return "from"
	}
	return "none"
}

// BudgetFitJSON returns fit f, and its confirmations if any, as JSON.
func (m *Model) BudgetFitJSON(f *Fit, checks []FitCheck) BudgetFitJSON {
	out := BudgetFitJSON{
		Budget: f.Budget.String(), Fits: f.Kind.String(), Largest: f.Largest, From: f.From,
		EverySmallerFits: len(f.Gaps) == 0 && f.Kind != FitsNone && f.negativeBelowAnswer() == 0, Gaps: []SpanJSON{}, Bounded: f.Bounded,
		StopsAtNegative: f.StopsAtNegative(), Beyond: m.needsJSON(f.BeyondAt),
		At: m.needsJSON(f.At), Past: m.needsJSON(f.Past),
	}
	for _, g := range f.Gaps {
		out.Gaps = append(out.Gaps, SpanJSON{g.From, g.To})
	}
	out.Falls = f.Falls
	out.RunsFrom = f.RunsFrom
	for _, g := range f.Negative {
		out.NegativeBytes = append(out.NegativeBytes, SpanJSON{g.From, g.To})
	}
	if f.LeastAt > 0 {
		out.Least = &ExtremeJSON{At: f.LeastAt, Needs: f.LeastNeeds.String()}
	}
	if f.MostAt > 0 {
		out.Most = &ExtremeJSON{At: f.MostAt, Needs: f.MostNeeds.String()}
	}
	for i := range checks {
		c := &checks[i]
		j := FitCheckJSON{
			Point: OrderedPoint(c.Point), PredictedNeeds: c.Predicted.String(), PredictedOp: c.PredictedOp,
			PredictedFits: c.Fits, OK: c.OK(f.Budget), Differs: c.Differs,
		}
		if c.Unrecorded != nil {
			j.Unrecorded = c.Unrecorded.Error()
		} else {
			needs, op, fits := c.Needs.String(), c.PeakOp, c.Needs.Cmp(f.Budget) <= 0
			j.Needs, j.PeakOp, j.Fits = &needs, &op, &fits
		}
		out.Confirmed = append(out.Confirmed, j)
	}
	return out
}

func (m *Model) needsJSON(t *Terms) *NeedsJSON {
	if t == nil {
		return nil
	}
	out := &NeedsJSON{Point: OrderedPoint(t.Point), Needs: t.Needs.String(), Peak: t.Peak.String(), Operation: t.PeakOp}
	if t.Holder >= 0 {
		out.Holder = m.CandidateJSON(t.Holder)
	} else {
		out.Holder = noHolder
	}
	return out
}
