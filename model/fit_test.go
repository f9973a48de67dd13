package model

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"memsym/doc"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// courseGPT is the course GPT at its course constants, built once.
var courseGPT = sync.OnceValues(func() (*Model, error) {
	src, err := source.NewProgram("gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6})
	if err != nil {
		return nil, err
	}
	return Build(context.Background(), src, source.Spec{})
})

func mustGPT(t *testing.T) (*Model, source.Source) {
	t.Helper()
	m, err := courseGPT()
	if err != nil {
		t.Fatal(err)
	}
	src, _ := source.NewProgram("gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6})
	return m, src
}

func size(t *testing.T, s string) poly.Rat {
	t.Helper()
	x, err := doc.ParseSize(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestFitGPT checks each answer by the definition: the needs at the answer
// fit, one past it they do not, and, by a scan, no smaller value fails;
// then by recording there.
func TestFitGPT(t *testing.T) {
	m, src := mustGPT(t)
	for _, budget := range []string{"24GiB", "40GiB", "80GiB", "80GB", "1MiB"} {
		b := size(t, budget)
		f, err := m.Fit("T", map[string]int64{"B": 8}, b)
		if err != nil {
			t.Fatal(err)
		}
		if budget == "1MiB" {
			if f.Kind != FitsNone || f.Past == nil || f.Past.Needs.Cmp(b) <= 0 {
				t.Errorf("1MiB: %+v, want nothing to fit (the parameters alone are 82 MiB)", f)
			}
			continue
		}
		if f.Kind != FitsUpTo || len(f.Gaps) != 0 {
			t.Fatalf("%s: kind %v, gaps %v", budget, f.Kind, f.Gaps)
		}
		if f.At.Needs.Cmp(b) > 0 || f.Past.Needs.Cmp(b) <= 0 {
			t.Errorf("%s: T = %d needs %s, T + 1 needs %s", budget, f.Largest, f.At.Needs, f.Past.Needs)
		}
		for x := int64(1); x <= f.Largest; x += 1 + x/50 {
			tm, err := m.Eval(f.Point(m, x))
			if err != nil {
				t.Fatal(err)
			}
			if tm.Needs.Cmp(b) > 0 {
				t.Errorf("%s: T = %d does not fit, yet no gap is listed", budget, x)
			}
		}
		checks, err := m.ConfirmFit(context.Background(), src, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(checks) != 2 {
			t.Fatalf("%s: %d checks, want 2", budget, len(checks))
		}
		for _, c := range checks {
			if !c.OK(b) {
				t.Errorf("%s at %s: recorded %s at operation %d, predicted %s at %d", budget, c.Point, c.Needs, c.PeakOp, c.Predicted, c.PredictedOp)
			}
		}
	}
}

// TestFitNotMonotone: needs 3T² − 30T + 100, falling to 25 at T = 5 then
// growing, fit 50 bytes at T = 3 to 7 only; 10 bytes nowhere.
func TestFitNotMonotone(t *testing.T) {
	ctx := context.Background()
	src := &liveSets{sets: []func(int64) int64{func(t int64) int64 { return 3*t*t - 30*t + 100 }}}
	m, err := Build(ctx, src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Fit("T", nil, poly.Int(50))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %d gaps %v", f.Kind, f.Largest, f.Gaps); got != "up_to 7 gaps [{1 2}]" {
		t.Errorf("fit 50: %s, want up_to 7 gaps [{1 2}]", got)
	}
	if !f.At.Needs.Equal(poly.Int(37)) || !f.Past.Needs.Equal(poly.Int(52)) {
		t.Errorf("needs at 7 and 8: %s, %s; want 37, 52", f.At.Needs, f.Past.Needs)
	}
	checks, err := m.ConfirmFit(ctx, src, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if !c.OK(f.Budget) {
			t.Errorf("at %s: %+v", c.Point, c)
		}
	}
	// A recording that needs one byte more at T = 7 falls past the budget
	// only if the budget is tight: at 37 it is, and the check says so.
	off := &liveSets{sets: src.sets, shift: func(p record.Point) int64 { return 1 }}
	tight, err := m.Fit("T", nil, poly.Int(37))
	if err != nil {
		t.Fatal(err)
	}
	checks, err = m.ConfirmFit(ctx, off, tight)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) == 0 || checks[0].OK(tight.Budget) {
		t.Errorf("a recording one byte over is confirmed: %+v", checks)
	}
	none, err := m.Fit("T", nil, poly.Int(10))
	if err != nil {
		t.Fatal(err)
	}
	if none.Kind != FitsNone || !none.Past.Needs.Equal(poly.Int(73)) {
		t.Errorf("fit 10: %v, needs at 1 %v", none.Kind, none.Past)
	}
	// 25 bytes: T = 5 alone.
	one, err := m.Fit("T", nil, poly.Int(25))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %d gaps %v", one.Kind, one.Largest, one.Gaps); got != "up_to 5 gaps [{1 4}]" {
		t.Errorf("fit 25: %s", got)
	}
}

// TestFitNegativeBytes: where some buffer's bytes are negative the
// polynomials are not the program's, so no value there is said to fit,
// nor to be a gap: a buffer of T − 4 bytes, recorded at T = 4, 8, 12, is
// negative below T = 4, where the needs (the larger of it and a buffer of
// 1 byte, live apart) would fit a budget of 0 bytes.
func TestFitNegativeBytes(t *testing.T) {
	src := &liveSets{sets: []func(int64) int64{func(t int64) int64 { return t - 4 }, func(int64) int64 { return 1 }}, points: []int64{4, 8, 12, 6}}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		budget int64
		want   string
	}{
		{10, "up_to 14 gaps [] negative [{1 3}] from 4 past 11"},
		{0, "none 0 gaps [] negative [{1 3}] from 4 past 1"}, // T = 4 needs 1 byte
		{1, "up_to 5 gaps [] negative [{1 3}] from 4 past 2"},
	} {
		f, err := m.Fit("T", nil, poly.Int(c.budget))
		if err != nil {
			t.Fatal(err)
		}
		past := "nil"
		if f.Past != nil {
			past = f.Past.Needs.String()
		}
		if got := fmt.Sprintf("%v %d gaps %v negative %v from %d past %s", f.Kind, f.Largest, fmtSpans(f.Gaps), f.Negative, f.ProgramFrom(), past); got != c.want {
			t.Errorf("fit %d: %s, want %s", c.budget, got, c.want)
		}
		j := m.BudgetFitJSON(f, nil)
		if len(j.NegativeBytes) != 1 || j.NegativeBytes[0] != (SpanJSON{1, 3}) {
			t.Errorf("fit %d: negative_bytes %v, want [{1 3}]", c.budget, j.NegativeBytes)
		}
	}
}

func fmtSpans(s []Span) string {
	if len(s) == 0 {
		return "[]"
	}
	return fmt.Sprint(s)
}

// TestFitBounded: needs that do not depend on T fit every T, or none.
func TestFitBounded(t *testing.T) {
	src := &liveSets{sets: []func(int64) int64{func(int64) int64 { return 100 }, func(t int64) int64 { return 40 }}}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Fit("T", nil, poly.Int(100))
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != FitsFrom || f.From != 1 || !f.Bounded || f.Past != nil || !f.At.Needs.Equal(poly.Int(100)) {
		t.Errorf("fit 100: %+v", f)
	}
	f, err = m.Fit("T", nil, poly.Frac(199, 2))
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != FitsNone {
		t.Errorf("fit 99.5: %v", f.Kind)
	}
}

func TestFitRefusals(t *testing.T) {
	m, _ := mustGPT(t)
	for _, c := range []struct {
		along string
		fixed map[string]int64
		want  string
	}{
		{"L", nil, "no dimension L (the dimensions are B, T)"},
		{"T", nil, "no value for B: every dimension but T needs one"},
		{"T", map[string]int64{"B": 8, "D": 2}, "no dimension D (the dimensions are B, T)"},
		{"T", map[string]int64{"B": 8, "T": 2}, "T is the dimension gone along: give only the others a value"},
		{"T", map[string]int64{"B": 0}, "B = 0: dimensions are integers of at least 1"},
	} {
		_, err := m.Fit(c.along, c.fixed, poly.Int(1))
		if err == nil || err.Error() != c.want {
			t.Errorf("Fit(%s, %v): %v, want %q", c.along, c.fixed, err, c.want)
		}
	}
}

// TestFitJSONKeys: the JSON names each field as docs/json.md does.
func TestFitJSONKeys(t *testing.T) {
	m, _ := mustGPT(t)
	f, err := m.Fit("T", map[string]int64{"B": 8}, size(t, "80GiB"))
	if err != nil {
		t.Fatal(err)
	}
	j := m.BudgetFitJSON(f, nil)
	if j.Fits != "up_to" || !j.EverySmallerFits || j.Largest != f.Largest || j.At.Operation != f.At.PeakOp {
		t.Errorf("%+v", j)
	}
	if !strings.HasPrefix(j.Budget, "85899345920") {
		t.Errorf("budget %s", j.Budget)
	}
}

func TestContradicting(t *testing.T) {
	budget := poly.Int(1000)
	agree := FitCheck{Needs: poly.Int(900), Predicted: poly.Int(900), PeakOp: 3, PredictedOp: 3, Fits: true}
	checks := []FitCheck{
		agree,
		{Needs: poly.Int(1100), Predicted: poly.Int(1100), PeakOp: 3, PredictedOp: 3, Fits: false}, // agrees: does not fit
		{Needs: poly.Int(901), Predicted: poly.Int(900), PeakOp: 3, PredictedOp: 3, Fits: true},    // other needs
		{Needs: poly.Int(1001), Predicted: poly.Int(1001), PeakOp: 3, PredictedOp: 3, Fits: true},  // said to fit, does not
		// The needs and the side confirm the answer; the peak's place and
		// operations that differ are noted, not contradictions.
		{Needs: poly.Int(900), Predicted: poly.Int(900), PeakOp: 4, PredictedOp: 3, Fits: true},
		{Needs: poly.Int(900), Predicted: poly.Int(900), PeakOp: 3, PredictedOp: 3, Fits: true, Differs: "record 9 differs"},
	}
	if n := Contradicting(checks, budget); n != 2 {
		t.Errorf("Contradicting = %d, want 2", n)
	}
	if n := Contradicting(checks[:2], budget); n != 0 {
		t.Errorf("Contradicting of agreeing checks = %d, want 0", n)
	}
	for i, c := range checks {
		if noted := c.Noted(budget); noted != (i >= 4) {
			t.Errorf("check %d: noted %v", i, noted)
		}
	}
}

// TestFitFalls: needs 40 − T fall along T, so a budget of 30 bytes fits
// T = 10 to 40 and no smaller one, and 45 bytes every T to 40: from T = 41
// the buffer's bytes are negative, and nothing is said there.
func TestFitFalls(t *testing.T) {
	src := &liveSets{sets: []func(int64) int64{func(t int64) int64 { return 40 - t }}}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Fit("T", nil, poly.Int(30))
	if err != nil {
		t.Fatal(err)
	}
	const negative = "negative [{41 9223372036854775807}]"
	if got := fmt.Sprintf("%v %d gaps %v falls %v negative %v", f.Kind, f.Largest, f.Gaps, f.Falls, f.Negative); got != "up_to 40 gaps [{1 9}] falls true "+negative {
		t.Errorf("fit 30: %s", got)
	}
	f, err = m.Fit("T", nil, poly.Int(45))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %d gaps %v falls %v negative %v", f.Kind, f.Largest, fmtSpans(f.Gaps), f.Falls, f.Negative); got != "up_to 40 gaps [] falls true "+negative {
		t.Errorf("fit 45: %s", got)
	}
}

// TestFitLeastAndMost: needs T² − 10T + 30 are least, 5 bytes, at T = 5,
// which a budget of 4 bytes is said against; needs −T² + 6T + 31, most
// at T = 3, are negative from T = 10, so 45 bytes fit up to T = 9 and no
// most is said of every T; neither falls.
func TestFitLeastAndMost(t *testing.T) {
	for _, c := range []struct {
		f      func(int64) int64
		budget int64
		want   string
	}{
		{func(t int64) int64 { return t*t - 10*t + 30 }, 4, "none falls false least 5 at 5 most 0 at 0"},
		{func(t int64) int64 { return -t*t + 6*t + 31 }, 45, "up_to falls false least 0 at 0 most 0 at 0"},
	} {
		m, err := Build(context.Background(), &liveSets{sets: []func(int64) int64{c.f}}, source.Spec{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.Fit("T", nil, poly.Int(c.budget))
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%v falls %v least %s at %d most %s at %d", f.Kind, f.Falls, f.LeastNeeds, f.LeastAt, f.MostNeeds, f.MostAt)
		if got != c.want {
			t.Errorf("budget %d: %s, want %s", c.budget, got, c.want)
		}
	}
}

// TestExtremesOfLargest checks leastOfLargest and mostOfLargest against
// a scan, on the largest of random polynomials of small coefficients,
// whose extremes lie well within the scan.
func TestExtremesOfLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	line := func(sign int64) []poly.Rat {
		deg := r.IntN(4)
		cs := make([]poly.Rat, deg+1)
		for i := range cs {
			cs[i] = poly.Int(r.Int64N(41) - 20)
		}
		if deg > 0 {
			cs[deg] = poly.Int(sign * (1 + r.Int64N(3)))
		}
		return cs
	}
	scan := func(lines [][]poly.Rat, least int64, sign int) (int64, poly.Rat) {
		var at int64
		var best poly.Rat
		for x := least; x <= 400; x++ {
			v := largestAt(lines, big.NewInt(x))
			if at == 0 || v.Cmp(best)*sign > 0 {
				at, best = x, v
			}
		}
		return at, best
	}
	for i := 0; i < 300; i++ {
		least := 1 + int64(i%2)
		var up, down [][]poly.Rat
		for k := 0; k < 1+r.IntN(3); k++ {
			up = append(up, line(1))
			down = append(down, line(-1))
		}
		at, v := leastOfLargest(up, []Run{{From: big.NewInt(least)}})
		wantAt, want := scan(up, least, -1)
		if at != wantAt || !v.Equal(want) {
			t.Fatalf("least of %v from %d: %s at %d, the scan %s at %d", up, least, v, at, want, wantAt)
		}
		at, v = mostOfLargest(down, []Run{{From: big.NewInt(least)}})
		wantAt, want = scan(down, least, 1)
		if at != wantAt || !v.Equal(want) {
			t.Fatalf("most of %v from %d: %s at %d, the scan %s at %d", down, least, v, at, want, wantAt)
		}
		// Over runs with a hole and an end, as where some buffer's bytes
		// are negative between and past them: the least of lines that
		// grow, and the most of lines that fall, are at an end of a run
		// or inside one, never in the hole.
		a, b, c := 1+r.Int64N(8), 9+r.Int64N(8), 17+r.Int64N(20)
		runs := []Run{{From: big.NewInt(1), To: big.NewInt(a)}, {From: big.NewInt(b), To: big.NewInt(c)}}
		in := func(x int64) bool { return x <= a || b <= x && x <= c }
		scanIn := func(lines [][]poly.Rat, sign int) (int64, poly.Rat) {
			var at int64
			var best poly.Rat
			for x := int64(1); x <= c; x++ {
				if v := largestAt(lines, big.NewInt(x)); in(x) && (at == 0 || v.Cmp(best)*sign > 0) {
					at, best = x, v
				}
			}
			return at, best
		}
		for _, k := range []struct {
			lines [][]poly.Rat
			sign  int
		}{{up, -1}, {down, -1}, {up, 1}, {down, 1}} {
			if k.sign < 0 {
				at, v = leastOfLargest(k.lines, runs)
			} else {
				at, v = mostOfLargest(k.lines, runs)
			}
			wantAt, want = scanIn(k.lines, k.sign)
			if at != wantAt || !v.Equal(want) {
				t.Fatalf("extreme (%d) of %v over 1..%d and %d..%d: %s at %d, the scan %s at %d", k.sign, k.lines, a, b, c, v, at, want, wantAt)
			}
		}
	}
}

// TestBelow: at S = 1 strided-conv runs from N = K = 3. Below finds that
// start by halving, keeps of the gaps only the values from it on, and says
// nothing for an answer the program does not run at, nor for a source
// that cannot say where it runs.
func TestBelow(t *testing.T) {
	src, err := source.NewProgram("strided-conv", map[string]int64{"S": 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	line := func(largest int64, gaps ...Span) *Fit {
		return &Fit{Along: "N", Fixed: record.Point{{Name: "B", Value: 8}}, Kind: FitsUpTo, Largest: largest, Least: 1, Gaps: gaps}
	}
	f := line(1000, Span{1, 2}, Span{2, 7}, Span{500, 600})
	note := m.Below(src, f)
	if want := "strided-conv does not run at B = 8, N = 2: K = 3 is more than N = 2; it runs from N = 3"; note != want {
		t.Errorf("Below = %q, want %q", note, want)
	}
	if f.RunsFrom != 3 || !slices.Equal(f.Gaps, []Span{{3, 7}, {500, 600}}) {
		t.Errorf("RunsFrom %d, gaps %v; want 3, [{3 7} {500 600}]", f.RunsFrom, f.Gaps)
	}
	if f := line(2); m.Below(src, f) != "" || f.RunsFrom != 0 {
		t.Errorf("an answer the program does not run at: %q, RunsFrom %d", m.Below(src, f), f.RunsFrom)
	}
	if f := line(1000); m.Below(noLimits{src}, f) != "" || f.RunsFrom != 0 {
		t.Errorf("a source that cannot say: RunsFrom %d", f.RunsFrom)
	}
}

// noLimits is a source that does not know where its program runs, as
// recordings in files do not.
type noLimits struct{ source.Source }

// TestFitNegativeWithinAndAbove: where a buffer's bytes are negative in
// the middle of the line, (T − 4)(T − 8) at T = 5 to 7, the least needs are
// sought outside them and every smaller value does not fit "too" across
// them; where they turn negative at the top, 40 − T from T = 41, the answer
// stops there and says so; where they are negative everywhere, nothing is
// the program's.
func TestFitNegativeWithinAndAbove(t *testing.T) {
	build := func(f func(int64) int64) *Model {
		t.Helper()
		src := &liveSets{sets: []func(int64) int64{f, func(int64) int64 { return 1 }}, points: []int64{4, 8, 12, 16}}
		m, err := Build(context.Background(), src, source.Spec{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	mid := build(func(t int64) int64 { return (t - 4) * (t - 8) })
	f, err := mid.Fit("T", nil, poly.Int(0))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v least %s at %d negative %v", f.Kind, f.LeastNeeds, f.LeastAt, f.Negative); got != "none least 1 at 4 negative [{5 7}]" {
		t.Errorf("(T − 4)(T − 8), 0 bytes: %s", got)
	}
	f, err = mid.Fit("T", nil, poly.Int(40))
	if err != nil {
		t.Fatal(err)
	}
	j := mid.BudgetFitJSON(f, nil)
	if got := fmt.Sprintf("%v %d within %v every %v", f.Kind, f.Largest, f.NegativeWithin(f.Largest), j.EverySmallerFits); got != "up_to 12 within [{5 7}] every false" {
		t.Errorf("(T − 4)(T − 8), 40 bytes: %s", got)
	}

	top := build(func(t int64) int64 { return 40 - t })
	f, err = top.Fit("T", nil, poly.Int(100))
	if err != nil {
		t.Fatal(err)
	}
	if j := top.BudgetFitJSON(f, nil); f.Kind != FitsUpTo || f.Largest != 40 || !f.StopsAtNegative() || !j.StopsAtNegative || f.Past != nil {
		t.Errorf("40 − T, 100 bytes: %v %d stops %v past %v", f.Kind, f.Largest, f.StopsAtNegative(), f.Past)
	}
	f, err = top.Fit("T", nil, poly.Int(0))
	if err != nil {
		t.Fatal(err)
	}
	// The needs, the larger of 40 − T and 1, are least, 1, from T = 39 to 40.
	if got := fmt.Sprintf("%v least %s at %d", f.Kind, f.LeastNeeds, f.LeastAt); got != "none least 1 at 39" {
		t.Errorf("40 − T, 0 bytes: %s", got)
	}
	if f.Nowhere() {
		t.Error("40 − T: the polynomials are said to be the program's nowhere")
	}
}

// TestFitNegativeEverywhere: a buffer of T · (2B − 3) bytes is negative at
// B = 1 for every T: fit there says nothing fits, and that the needs do not
// fall, nor have a least.
func TestFitNegativeEverywhere(t *testing.T) {
	src := &gridSets{f: func(b, t int64) int64 { return t * (2*b - 3) }}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Fit("T", map[string]int64{"B": 1}, poly.Int(100))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Nowhere() || f.Kind != FitsNone || f.Falls || f.LeastAt != 0 || f.Past != nil {
		t.Errorf("nowhere %v, %v, falls %v, least at %d, past %v", f.Nowhere(), f.Kind, f.Falls, f.LeastAt, f.Past)
	}
}

// gridSets is a program of one buffer of f(B, T) bytes, recorded on
// B ∈ {2, 3, 4}, T ∈ {1, 2, 3}, and checked at B = 5, T = 7.
type gridSets struct{ f func(b, t int64) int64 }

func (s *gridSets) Name() string { return "grid-sets" }
func (s *gridSets) Close() error { return nil }

func (s *gridSets) Record(_ context.Context, p record.Point) (*record.Recording, error) {
	b, _ := p.Value("B")
	t, _ := p.Value("T")
	r := record.NewRecorder("Grid.apply", p, nil, "")
	id := r.Bytes(record.Temp, "x", "", poly.Int(s.f(b, t)))
	r.Op("Grid.apply/%1", "", nil, []int64{id})
	r.Result(id)
	return r.Finish()
}

func (s *gridSets) Recordings(ctx context.Context, spec source.Spec) (*source.Recordings, error) {
	out := &source.Recordings{}
	for _, b := range []int64{2, 3, 4} {
		for _, t := range []int64{1, 2, 3} {
			rec, err := s.Record(ctx, record.Point{{Name: "B", Value: b}, {Name: "T", Value: t}})
			if err != nil {
				return nil, err
			}
			out.Grid = append(out.Grid, sourceOf(rec))
		}
	}
	rec, err := s.Record(ctx, record.Point{{Name: "B", Value: 5}, {Name: "T", Value: 7}})
	if err != nil {
		return nil, err
	}
	out.Checks = append(out.Checks, sourceOf(rec))
	return out, nil
}

// TestFitBeyondAHole: where the values just past the answer are negative
// with an end, a buffer of (T − 4)(T − 8) bytes at T = 5 to 7, the answer
// is bounded by the budget, not by them: T = 8 is known not to fit, and is
// given.
func TestFitBeyondAHole(t *testing.T) {
	src := &liveSets{sets: []func(int64) int64{func(t int64) int64 { return (t - 4) * (t - 8) }, func(t int64) int64 { return 10 * t }}, points: []int64{4, 8, 12, 16}}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Fit("T", nil, poly.Int(40))
	if err != nil {
		t.Fatal(err)
	}
	// The needs, the larger of the two sets, live apart: 10·T up to
	// T = 8 and beyond (40 bytes at T = 4, 80 at T = 8).
	if f.Kind != FitsUpTo || f.Largest != 4 || f.StopsAtNegative() || f.Beyond() != 8 || f.BeyondAt == nil || !f.BeyondAt.Needs.Equal(poly.Int(80)) {
		t.Fatalf("%v %d stops %v beyond %d at %v", f.Kind, f.Largest, f.StopsAtNegative(), f.Beyond(), f.BeyondAt)
	}
	if j := m.BudgetFitJSON(f, nil); j.StopsAtNegative || j.Beyond == nil || j.Beyond.Needs != "80" {
		t.Errorf("JSON: stops %v, beyond %+v", j.StopsAtNegative, j.Beyond)
	}
}

// TestNegativeAlong: crossover's line says where some buffer's bytes are
// negative, as fit's does: (T − 4)(T − 8) at T = 5 to 7.
func TestNegativeAlong(t *testing.T) {
	src := &liveSets{sets: []func(int64) int64{func(t int64) int64 { return (t - 4) * (t - 8) }, func(t int64) int64 { return 10 * t }}, points: []int64{4, 8, 12, 16}}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	neg, err := m.NegativeAlong("T", nil)
	if err != nil || len(neg) != 1 || neg[0] != (Span{5, 7}) {
		t.Errorf("NegativeAlong: %v, %v", neg, err)
	}
	c, err := m.Crossovers("T", nil)
	if err != nil {
		t.Fatal(err)
	}
	if j := m.CrossoverJSON(c, nil); len(j.NegativeBytes) != 1 || j.NegativeBytes[0] != (SpanJSON{5, 7}) {
		t.Errorf("crossover JSON negative_bytes %v", j.NegativeBytes)
	}
	gpt, _ := mustGPT(t) // no negative bytes, and B not given: nothing said
	if neg, err := gpt.NegativeAlong("T", nil); neg != nil || err != nil {
		t.Errorf("the course GPT without B: %v, %v", neg, err)
	}
}
