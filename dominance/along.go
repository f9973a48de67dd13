package dominance

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"memsym/poly"
)

// Segment says that for every integer x of the dimension in [From, To]
// (To = 0: without end) the candidate Holder (an index into the
// candidates) holds the peak: it is the largest there, and of those tied
// for largest the one with the lowest index.
type Segment struct {
	From, To int64
	Holder   int
}

// Crossovers says which candidate holds the peak along one dimension.
type Crossovers struct {
	Dim   string
	Fixed map[string]int64 // the values given to the other dimensions
	// ForAll is true when some other dimension was left free: the segments
	// then hold for every value ≥ 1 of it, which Along has proven.
	ForAll   bool
	Segments []Segment // ascending, from 1, the last without end
}

// DependsError is Along's error when which candidate holds the peak along
// Dim may depend on dimensions left free (Along could not prove that it
// does not): they need a value.
type DependsError struct {
	Dim  string
	Vars []string // sorted
}

func (e *DependsError) Error() string {
	return fmt.Sprintf("along %s the candidate holding the peak may depend on %s: give a value for %s",
		e.Dim, strings.Join(e.Vars, ", "), strings.Join(e.Vars, ", "))
}

// Along finds, exactly, from which integer value of dim ≥ 1 each of the
// kept candidates holds the peak, the other dimensions set by fixed.
//
// A dimension may be left out of fixed when it cannot change the outcome:
// when every difference of two kept candidates is g·h with h in dim alone
// and g, in the dimensions left free, proven nonzero of one sign for all
// their values ≥ 1 (as 96·B·T·(T − 64) is for B). Otherwise Along returns a
// *DependsError naming the dimensions that need a value.
func Along(cands []Candidate, kept []int, dim string, fixed map[string]int64) (*Crossovers, error) {
	if err := checkAlong(cands, kept, dim, fixed); err != nil {
		return nil, err
	}
	var vars []string
	for _, i := range kept {
		for _, v := range cands[i].Poly.Used() {
			if _, ok := fixed[v]; !ok {
				vars = append(vars, v)
			}
		}
	}
	vars = append(vars, dim)
	slices.Sort(vars)
	vars = slices.Compact(vars)
	jdim := slices.Index(vars, dim)
	ms := make([]mpoly, len(kept))
	for k, i := range kept {
		ms[k] = onLine(cands[i].Poly, vars, fixed)
	}
	// signs[a][b] is a polynomial in dim whose sign at every integer is that
	// of candidate kept[a] minus candidate kept[b].
	signs := make([][]upoly, len(kept))
	var depends []string
	for a := range kept {
		signs[a] = make([]upoly, len(kept))
		for b := range kept {
			if a == b {
				continue
			}
			h, ok := separate(sub(ms[a], ms[b]), jdim)
			if !ok {
				for _, j := range sub(ms[a], ms[b]).used() {
					if j != jdim {
						depends = append(depends, vars[j])
					}
				}
				continue
			}
			signs[a][b] = h
		}
	}
	if len(depends) > 0 {
		slices.Sort(depends)
		return nil, &DependsError{Dim: dim, Vars: slices.Compact(depends)}
	}
	segs, err := walk(kept, signs)
	if err != nil {
		return nil, fmt.Errorf("along %s: %w", dim, err)
	}
	out := &Crossovers{Dim: dim, Fixed: map[string]int64{}, ForAll: len(vars) > 1, Segments: segs}
	for v, x := range fixed {
		out.Fixed[v] = x
	}
	return out, nil
}

// checkAlong checks Along's arguments.
func checkAlong(cands []Candidate, kept []int, dim string, fixed map[string]int64) error {
	if len(kept) == 0 {
		return fmt.Errorf("along %s: no candidates", dim)
	}
	for _, i := range kept {
		if i < 0 || i >= len(cands) {
			return fmt.Errorf("along %s: candidate %d does not exist (there are %d)", dim, i, len(cands))
		}
	}
	if _, ok := fixed[dim]; ok {
		return fmt.Errorf("along %s: %s is the dimension walked along, so it cannot be fixed too", dim, dim)
	}
	names := make([]string, 0, len(fixed))
	for v := range fixed {
		names = append(names, v)
	}
	slices.Sort(names)
	for _, v := range names {
		if fixed[v] < 1 {
			return fmt.Errorf("along %s: %s = %d, but dimensions are integers ≥ 1", dim, v, fixed[v])
		}
	}
	return nil
}

// onLine returns p with the fixed dimensions substituted, over vars.
func onLine(p poly.Poly, vars []string, fixed map[string]int64) mpoly {
	all := slices.Clone(vars)
	for _, v := range p.Used() {
		if _, ok := fixed[v]; ok {
			all = append(all, v)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	m := fromPoly(p, all)
	for j := len(all) - 1; j >= 0; j-- {
		if x, ok := fixed[all[j]]; ok {
			m = m.subst(j, poly.Int(x))
		}
	}
	return m
}

// separate writes d as g·h, h in variable jdim alone and g in the others,
// with g proven to keep one sign (never 0) at every integer point ≥ 1. It
// returns h, with its sign turned so that it has the sign of d everywhere.
func separate(d mpoly, jdim int) (upoly, bool) {
	cs := d.collect(jdim)
	t := slices.IndexFunc(cs, func(c mpoly) bool { return !c.isZero() })
	if t < 0 {
		return nil, true // d = 0: a tie everywhere
	}
	g := cs[t]
	h := make([]poly.Rat, len(cs))
	for i, c := range cs {
		lambda, ok := ratio(c, g)
		if !ok {
			return nil, false
		}
		h[i] = lambda
	}
	switch gcoefs := integerMpoly(g); {
	case len(g.used()) == 0:
		if g.constant().Sign() < 0 {
			return negate(integerCoefs(h)), true
		}
	case atLeastOne(gcoefs):
		// positive: h has d's sign
	case atLeastOne(gcoefs.scale(poly.Int(-1))):
		return negate(integerCoefs(h)), true
	default:
		return nil, false
	}
	return integerCoefs(h), true
}

// ratio returns λ with c = λ·g, if there is one.
func ratio(c, g mpoly) (poly.Rat, bool) {
	if c.isZero() {
		return poly.Rat{}, true
	}
	if len(c.coefs) != len(g.coefs) || !slices.Equal(c.exps, g.exps) {
		return poly.Rat{}, false
	}
	lambda := c.coefs[0].Quo(g.coefs[0])
	for i := range c.coefs {
		if !c.coefs[i].Equal(lambda.Mul(g.coefs[i])) {
			return poly.Rat{}, false
		}
	}
	return lambda, true
}

// integerMpoly returns a positive multiple of m with integer coefficients.
func integerMpoly(m mpoly) mpoly {
	l := poly.Int(1)
	for _, c := range m.coefs {
		if !c.IsInt() {
			d := poly.FromBigInt(c.Den())
			l = l.Mul(d).Quo(gcdRat(l, d))
		}
	}
	return m.scale(l)
}

func gcdRat(a, b poly.Rat) poly.Rat {
	return poly.FromBigInt(new(big.Int).GCD(nil, nil, a.Num(), b.Num()))
}

// atLeastOne reports whether m, with integer coefficients, is proven ≥ 1 at
// every integer point ≥ 1, that is > 0.
func atLeastOne(m mpoly) bool {
	one := mpoly{vars: m.vars, coefs: []poly.Rat{poly.Int(1)}, exps: make([]int, len(m.vars))}
	return (&prover{budget: proofBudget}).nonneg(sub(m, one)) != nil
}

func negate(p upoly) upoly {
	out := make(upoly, len(p))
	for i, c := range p {
		out[i] = new(big.Int).Neg(c)
	}
	return out
}

// walk returns the segments: the sign of every difference at the integers
// is constant between consecutive points where one may change (see
// rootCells), so the holder is found at those points and holds up to the
// next.
func walk(kept []int, signs [][]upoly) ([]Segment, error) {
	pts := []*big.Int{big.NewInt(1)}
	for a := range signs {
		for b := a + 1; b < len(signs); b++ {
			h := signs[a][b]
			if len(h) < 2 {
				continue
			}
			cells, _ := rootCells(h)
			for _, c := range cells {
				pts = append(pts, c, new(big.Int).Add(c, big.NewInt(1)))
			}
		}
	}
	slices.SortFunc(pts, func(a, b *big.Int) int { return a.Cmp(b) })
	pts = slices.CompactFunc(pts, func(a, b *big.Int) bool { return a.Cmp(b) == 0 })
	var segs []Segment
	for _, x := range pts {
		if !x.IsInt64() {
			return nil, fmt.Errorf("a crossover lies beyond %d", int64(1<<63-1))
		}
		holder := holderAt(kept, signs, x)
		if n := len(segs); n > 0 && segs[n-1].Holder == holder {
			continue
		}
		if n := len(segs); n > 0 {
			segs[n-1].To = x.Int64() - 1
		}
		segs = append(segs, Segment{From: x.Int64(), Holder: holder})
	}
	return segs, nil
}

// holderAt returns the candidate largest at x, the lowest index of those
// tied.
func holderAt(kept []int, signs [][]upoly, x *big.Int) int {
	order := make([]int, len(kept)) // positions in kept, by candidate index
	for a := range order {
		order[a] = a
	}
	slices.SortFunc(order, func(a, b int) int { return kept[a] - kept[b] })
	best := order[0]
	for _, a := range order[1:] {
		if signs[a][best].signAt(x) > 0 {
			best = a
		}
	}
	return kept[best]
}
