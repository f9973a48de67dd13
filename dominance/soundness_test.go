package dominance

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"memsym/poly"
)

// A soundSet is a random set of candidates built to trap an unsound prover:
// random polynomials with small, huge and fractional coefficients, copies,
// and others made from them by adding terms that are negative at one
// integer point only (a needle), zero at two adjacent integers (a tie
// the reals cannot see) or small. Needles lists the points where such
// terms are negative or zero, each over some of the variables.
type soundSet struct {
	vars    []string
	cands   []Candidate
	needles []map[string]int64
}

// coefKind says how a set's random coefficients are drawn.
type coefKind int

const (
	smallCoefs coefKind = iota
	hugeCoefs           // up to 10^30 in magnitude
	fracCoefs           // small fractions
	mixedCoefs
)

// soundCoef returns a random coefficient of kind k, mostly positive.
func soundCoef(r *rand.Rand, k coefKind) poly.Rat {
	if k == mixedCoefs {
		k = coefKind(r.IntN(3))
	}
	sign := int64(1)
	if r.IntN(4) == 0 {
		sign = -1
	}
	switch k {
	case hugeCoefs:
		// 8 to 30 random decimal digits.
		n := new(big.Int)
		for range 8 + r.IntN(23) {
			n.Mul(n, big.NewInt(10))
			n.Add(n, big.NewInt(r.Int64N(10)))
		}
		n.Add(n, big.NewInt(1))
		return poly.FromBigInt(n.Mul(n, big.NewInt(sign)))
	case fracCoefs:
		return poly.Frac(sign*(1+r.Int64N(40)), 1+r.Int64N(12))
	}
	return poly.Int(sign * (1 + r.Int64N(18)))
}

// soundPoly returns a polynomial in vars of degree ≤ 2 in each.
func soundPoly(r *rand.Rand, vars []string, terms int, k coefKind) poly.Poly {
	var ts []poly.Term
	for range terms {
		exp := make([]int, len(vars))
		for j := range exp {
			exp[j] = r.IntN(3)
		}
		ts = append(ts, poly.Term{Coef: soundCoef(r, k), Exp: exp})
	}
	return poly.New(vars, ts)
}

// needleValue returns an integer ≥ 1 at one of several scales.
func needleValue(r *rand.Rand) int64 {
	scales := []int64{3, 30, 1000, 1_000_000, 1_000_000_000}
	return 1 + r.Int64N(scales[r.IntN(len(scales))])
}

// soundCandidates returns a random soundSet of 2 to 20 candidates.
func soundCandidates(r *rand.Rand) soundSet {
	names := []string{"B", "T", "H", "seq"}
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	s := soundSet{vars: names[:1+r.IntN(3)]}
	slices.Sort(s.vars)
	kind := coefKind(r.IntN(4))
	v := func() poly.Poly { return poly.Var(s.vars[r.IntN(len(s.vars))]) }
	n := 2 + r.IntN(19)
	for len(s.cands) < n {
		var p poly.Poly
		if len(s.cands) < 2 || r.IntN(5) == 0 {
			p = soundPoly(r, s.vars, 1+r.IntN(6), kind)
		} else {
			base := s.cands[r.IntN(len(s.cands))].Poly
			p = base.Add(s.perturbation(r, kind, v))
		}
		s.cands = append(s.cands, Candidate{Poly: p, Op: len(s.cands) + 1})
	}
	return s
}

// perturbation returns a term to add to a candidate to make another,
// recording the points where it matters.
func (s *soundSet) perturbation(r *rand.Rand, kind coefKind, v func() poly.Poly) poly.Poly {
	one := poly.Const(poly.Int(1))
	scale := poly.Const(soundCoef(r, kind))
	if scale.Terms()[0].Coef.Sign() < 0 {
		scale = scale.Neg()
	}
	switch r.IntN(8) {
	case 0: // a copy
		return poly.Poly{}
	case 1: // a constant
		return poly.Const(soundCoef(r, kind))
	case 2: // a random polynomial, subtracted
		return soundPoly(r, s.vars, 1+r.IntN(3), kind).Neg()
	case 3: // scale·((x − a)² + (y − b)²) − 1: negative only at (a, b)
		x, y := s.vars[r.IntN(len(s.vars))], s.vars[r.IntN(len(s.vars))]
		a, b := needleValue(r), needleValue(r)
		sq := func(name string, c int64) poly.Poly {
			d := poly.Var(name).Sub(poly.Const(poly.Int(c)))
			return d.Mul(d)
		}
		needle := map[string]int64{x: a}
		t := sq(x, a)
		if y != x {
			t = t.Add(sq(y, b))
			needle[y] = b
		}
		s.needles = append(s.needles, needle)
		return scale.Mul(t).Sub(one)
	case 4: // scale·(x − a)(x − a − 1): zero at a and a + 1, positive elsewhere
		x := s.vars[r.IntN(len(s.vars))]
		a := needleValue(r)
		s.needles = append(s.needles, map[string]int64{x: a}, map[string]int64{x: a + 1})
		return scale.Mul(poly.Var(x).Sub(poly.Const(poly.Int(a)))).Mul(poly.Var(x).Sub(poly.Const(poly.Int(a + 1))))
	case 5: // −scale·(x − a)(x − a − 2)·y: positive only at x = a + 1
		x := s.vars[r.IntN(len(s.vars))]
		a := needleValue(r)
		s.needles = append(s.needles, map[string]int64{x: a + 1})
		t := poly.Var(x).Sub(poly.Const(poly.Int(a))).Mul(poly.Var(x).Sub(poly.Const(poly.Int(a + 2))))
		if y := v(); r.IntN(2) == 0 && y.Used()[0] != x {
			t = t.Mul(y)
		}
		return scale.Mul(t).Neg()
	case 6: // ±1: a near tie
		if r.IntN(2) == 0 {
			return one
		}
		return one.Neg()
	}
	// a small term in one variable, of either sign
	return soundPoly(r, s.vars[:1], 1, smallCoefs)
}

// screen evaluates candidates in floating point with a bound on the
// rounding error, so that most comparisons need no exact arithmetic; those
// it cannot decide are made exactly, in integers: every candidate times one
// common denominator.
type screen struct {
	vars  []string
	terms [][]screenTerm // per candidate
	deg   int            // the largest exponent
	// The current point: its coordinates, their powers, and the
	// candidates' exact values there once computed.
	at    []int64
	x     []float64
	pow   [][]*big.Int // pow[j][e] = at[j]^e
	exact []*big.Int
}

type screenTerm struct {
	coef  float64
	scale *big.Int // the coefficient times the common denominator
	exp   []int    // aligned with vars
}

func newScreen(vars []string, cands []Candidate) *screen {
	sc := &screen{vars: vars, exact: make([]*big.Int, len(cands))}
	den := big.NewInt(1)
	for _, c := range cands {
		for _, t := range c.Poly.Terms() {
			d := t.Coef.Den()
			g := new(big.Int).GCD(nil, nil, den, d)
			den.Mul(den, d.Quo(d, g))
		}
	}
	for _, c := range cands {
		var ts []screenTerm
		for _, t := range c.Poly.Terms() {
			exp := make([]int, len(vars))
			for j, name := range c.Poly.Vars() {
				if t.Exp[j] == 0 {
					continue
				}
				k := slices.Index(vars, name)
				if k < 0 {
					panic("a candidate's variable outside the set's")
				}
				exp[k] = t.Exp[j]
				sc.deg = max(sc.deg, t.Exp[j])
			}
			scaled := new(big.Int).Mul(t.Coef.Num(), den)
			scaled.Quo(scaled, t.Coef.Den())
			ts = append(ts, screenTerm{coef: t.Coef.Float64(), scale: scaled, exp: exp})
		}
		sc.terms = append(sc.terms, ts)
	}
	sc.pow = make([][]*big.Int, len(vars))
	for j := range sc.pow {
		for range sc.deg + 1 {
			sc.pow[j] = append(sc.pow[j], new(big.Int))
		}
	}
	return sc
}

// moveTo makes at the current point.
func (sc *screen) moveTo(at map[string]int64) {
	sc.at = make([]int64, len(sc.vars))
	sc.x = make([]float64, len(sc.vars))
	for j, v := range sc.vars {
		sc.at[j] = at[v]
		sc.x[j] = float64(at[v])
		sc.pow[j][0].SetInt64(1)
		for e := 1; e <= sc.deg; e++ {
			sc.pow[j][e].Mul(sc.pow[j][e-1], big.NewInt(at[v]))
		}
	}
	clear(sc.exact)
}

// approx returns candidate i's value at the current point in floating
// point and a bound on its error.
func (sc *screen) approx(i int) (val, err float64) {
	var abs float64
	for _, t := range sc.terms[i] {
		m := t.coef
		for j, e := range t.exp {
			for range e {
				m *= sc.x[j]
			}
		}
		val += m
		abs += math.Abs(m)
	}
	// Each term's product and the sum round at most 2·(terms + degree)
	// times by a relative 2^−53: 64 ulps of the absolute sum is ample.
	return val, abs*float64(len(sc.terms[i])+8)*0x1p-50 + math.SmallestNonzeroFloat64
}

// exactAt returns candidate i's value at the current point times the
// common denominator, exactly.
func (sc *screen) exactAt(i int) *big.Int {
	if v := sc.exact[i]; v != nil {
		return v
	}
	v, m := new(big.Int), new(big.Int)
	for _, t := range sc.terms[i] {
		m.Set(t.scale)
		for j, e := range t.exp {
			if e > 0 {
				m.Mul(m, sc.pow[j][e])
			}
		}
		v.Add(v, m)
	}
	sc.exact[i] = v
	return v
}

// greater reports whether candidate i exceeds candidate j at the current
// point: decided in floating point when the error bounds allow, exactly
// when not.
func (sc *screen) greater(i, j int) bool {
	vi, ei := sc.approx(i)
	vj, ej := sc.approx(j)
	switch {
	case vi-ei > vj+ej:
		return true
	case vi+ei < vj-ej:
		return false
	}
	return sc.exactAt(i).Cmp(sc.exactAt(j)) > 0
}

// soundPoints returns n random points over vars at mixed scales, then
// each needle completed three ways (the other variables at 1, small,
// large).
func soundPoints(r *rand.Rand, vars []string, n int, needles []map[string]int64) []map[string]int64 {
	var pts []map[string]int64
	for range n {
		at := map[string]int64{}
		for _, v := range vars {
			at[v] = needleValue(r)
		}
		pts = append(pts, at)
	}
	for _, nd := range needles {
		for _, fill := range []func() int64{func() int64 { return 1 }, func() int64 { return 1 + r.Int64N(30) }, func() int64 { return needleValue(r) }} {
			at := map[string]int64{}
			for _, v := range vars {
				if x, ok := nd[v]; ok {
					at[v] = x
				} else {
					at[v] = fill()
				}
			}
			pts = append(pts, at)
		}
	}
	return pts
}

// pointString writes a point in the variables' order.
func soundPointString(vars []string, at map[string]int64) string {
	x := make([]int64, len(vars))
	for j, v := range vars {
		x[j] = at[v]
	}
	return pointString(vars, x)
}

// TestPruneSoundness prunes random candidate sets and checks, exactly, that
// no pruned candidate is the strict maximum at any of 10^4 random integer
// points nor at the needles, that every witness of the frontier refutes,
// and that every pruning is what Dominates proves.
func TestPruneSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sets, points := 60, 10_000
	if testing.Short() {
		sets, points = 20, 1000
	}
	stats := map[string]int{}
	for set := range sets {
		s := soundCandidates(r)
		f := Prune(s.cands)
		stats["candidates"] += len(s.cands)
		stats["pruned"] += len(f.PrunedBy)
		stats["undecided pairs"] += len(f.Undecided)
		if len(f.Kept)+len(f.PrunedBy) != len(s.cands) {
			t.Fatalf("set %d: %d kept and %d pruned of %d", set, len(f.Kept), len(f.PrunedBy), len(s.cands))
		}
		for pair, w := range f.Witnesses() {
			if msg := refutes(s.cands[pair[0]].Poly, s.cands[pair[1]].Poly, w); msg != "" {
				t.Errorf("set %d: the frontier's witness for (%d, %d): %s", set, pair[0], pair[1], msg)
			}
		}
		for i, by := range f.PrunedBy {
			if slices.Contains(f.Kept, i) {
				t.Errorf("set %d: candidate %d both kept and pruned", set, i)
			}
			if a := Dominates(s.cands[by].Poly, s.cands[i].Poly); a.Verdict != Proven {
				t.Errorf("set %d: candidate %d pruned by %d, but Dominates says %s: %s", set, i, by, a.Verdict, a.Reason)
			}
		}
		checkPrunedNeverMax(t, set, s, f, soundPoints(r, s.vars, points, s.needles))
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("%d sets: %d candidates, %d pruned, %d undecided pairs kept", sets, stats["candidates"], stats["pruned"], stats["undecided pairs"])
}

// checkPrunedNeverMax fails if a pruned candidate exceeds every kept one at
// one of the points.
func checkPrunedNeverMax(t *testing.T, set int, s soundSet, f *Frontier, pts []map[string]int64) {
	t.Helper()
	sc := newScreen(s.vars, s.cands)
	// A pruned candidate equal to a kept one is never above it.
	var watch []int
	for i := range f.PrunedBy {
		if !slices.ContainsFunc(f.Kept, func(k int) bool { return s.cands[k].Poly.Equal(s.cands[i].Poly) }) {
			watch = append(watch, i)
		}
	}
	slices.Sort(watch)
	for _, at := range pts {
		sc.moveTo(at)
		for _, i := range watch {
			above := true
			for _, k := range f.Kept {
				if !sc.greater(i, k) {
					above = false
					break
				}
			}
			if above {
				t.Errorf("set %d: pruned candidate %d (%s, pruned by %d) exceeds every kept one at %s", set, i, s.cands[i].Poly, f.PrunedBy[i], soundPointString(s.vars, at))
				return
			}
		}
	}
}

// refutes returns "" if w is a point, every variable of p and q at an
// integer ≥ 1, where q > p exactly, and what is wrong otherwise.
func refutes(p, q poly.Poly, w map[string]int64) string {
	for _, v := range unionVars(p.Used(), q.Used()) {
		if x, ok := w[v]; !ok || x < 1 {
			return fmt.Sprintf("witness %v: %s missing or below 1", w, v)
		}
	}
	pv, err1 := p.EvalInt(w)
	qv, err2 := q.EvalInt(w)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("witness %v: %v %v", w, err1, err2)
	}
	if qv.Cmp(pv) <= 0 {
		return fmt.Sprintf("witness %v: q = %s does not exceed p = %s there", w, qv, pv)
	}
	return ""
}

// TestDominatesSoundness asks Dominates about pairs of random candidates
// and checks each answer: a Refuted one's witness exactly, a Proven one at
// random points and at the needles, where p must be at least q.
func TestDominatesSoundness(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	sets := 300
	if testing.Short() {
		sets = 60
	}
	count := map[Verdict]int{}
	for set := range sets {
		s := soundCandidates(r)
		pts := soundPoints(r, s.vars, 300, s.needles)
		sc := newScreen(s.vars, s.cands)
		for range 6 {
			i, j := r.IntN(len(s.cands)), r.IntN(len(s.cands))
			p, q := s.cands[i].Poly, s.cands[j].Poly
			a := Dominates(p, q)
			count[a.Verdict]++
			switch a.Verdict {
			case Refuted:
				if msg := refutes(p, q, a.Witness); msg != "" {
					t.Fatalf("set %d: Dominates(%s, %s) refuted: %s", set, p, q, msg)
				}
			case Proven:
				for _, at := range pts {
					if sc.moveTo(at); sc.greater(j, i) {
						t.Fatalf("set %d: Dominates(%s, %s) proven (%s), but q > p at %s", set, p, q, a.Reason, soundPointString(s.vars, at))
					}
				}
			}
		}
	}
	t.Logf("verdicts: %d proven, %d refuted, %d undecided", count[Proven], count[Refuted], count[Undecided])
}

// unionVars returns vars followed by the names of more not among them.
func unionVars(vars, more []string) []string {
	out := slices.Clone(vars)
	for _, v := range more {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// TestScreenAgreesWithExact checks the test's own evaluator, floating point
// screen and scaled integers, against poly's exact evaluation.
func TestScreenAgreesWithExact(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for set := range 100 {
		s := soundCandidates(r)
		sc := newScreen(s.vars, s.cands)
		for _, at := range soundPoints(r, s.vars, 20, s.needles) {
			sc.moveTo(at)
			for range 10 {
				i, j := r.IntN(len(s.cands)), r.IntN(len(s.cands))
				pi, _ := s.cands[i].Poly.EvalInt(at)
				pj, _ := s.cands[j].Poly.EvalInt(at)
				if got, want := sc.greater(i, j), pi.Cmp(pj) > 0; got != want {
					t.Fatalf("set %d at %v: greater(%d, %d) = %v, exactly %s vs %s", set, at, i, j, got, pi, pj)
				}
			}
		}
	}
}
