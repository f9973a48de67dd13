package model

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"memsym/dominance"
	"memsym/poly"
	"memsym/record"
)

// Piecewise is the peak along one dimension as pieces: on each stretch of
// values one candidate holds the peak, and the peak and the needs are each
// one polynomial there.
type Piecewise struct {
	Dim   string
	Fixed record.Point // the other dimensions given values, in the model's order
	Free  []string     // the other dimensions left free: the pieces hold for every value ≥ 1 of them
	// Pieces are ascending from 1, the last without end.
	Pieces []Piece
}

// Piece says that for Dim from From to To (To 0: without end) the
// candidate Holder (an index into Cands) holds the peak, as a recording's
// peak is held: the largest, and of those tied the one at the earliest
// operation. Peak and Needs are its bytes and the inputs and its bytes,
// the fixed dimensions substituted.
type Piece struct {
	From, To    int64
	Holder      int
	Peak, Needs poly.Poly
}

// Piecewise finds the pieces of the peak along dim, the dimensions in fixed
// set to their values and the others free. It returns a
// *dominance.DependsError when the holder may depend on a free dimension.
func (m *Model) Piecewise(dim string, fixed map[string]int64) (*Piecewise, error) {
	if !contains(m.Vars, dim) {
		return nil, fmt.Errorf("no dimension %s (the dimensions are %s)", dim, m.varList())
	}
	pw := &Piecewise{Dim: dim}
	for _, v := range m.Vars {
		if x, ok := fixed[v]; ok && v != dim {
			pw.Fixed = append(pw.Fixed, record.Dim{Name: v, Value: x})
		} else if v != dim {
			pw.Free = append(pw.Free, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(fixed)) {
		if !contains(m.Vars, k) {
			return nil, fmt.Errorf("no dimension %s (the dimensions are %s)", k, m.varList())
		}
	}
	if len(m.Front.Kept) == 0 {
		return nil, fmt.Errorf("the program has no operations, so no peak to follow along %s", dim)
	}
	c, err := m.alongAll(m.Cands, m.Front, dim, fixed)
	if err != nil {
		return nil, err
	}
	subst := func(p poly.Poly) poly.Poly {
		for _, d := range pw.Fixed {
			p = p.Subst(d.Name, poly.Int(d.Value))
		}
		return p
	}
	for _, s := range c.Segments {
		pw.Pieces = append(pw.Pieces, Piece{
			From: s.From, To: s.To, Holder: s.Holder,
			Peak: subst(m.Cands[s.Holder].Poly), Needs: subst(m.NeedsPoly(s.Holder)),
		})
	}
	return pw, nil
}

// Coverage says whether a kept candidate ever holds the peak alone: is it,
// at some point with every dimension ≥ 1, larger than every other kept
// candidate?
type Coverage struct {
	Cand int // an index into Cands, one of Front.Kept
	// Verdict is Proven when the candidate never exceeds the largest of
	// the others (it is covered: it never holds the peak alone), Refuted
	// when it does at Witness, Undecided when neither could be shown.
	Verdict dominance.Verdict
	// By are the other kept candidates whose largest is proven at least
	// the covered one everywhere (Proven only). The proof is one of two:
	// along the dimension Along, the others free, each stretch of values
	// has a holder among By, proven for every value of the others; or,
	// Along being "", Weights (aligned with By, summing to 1) weigh By into
	// one polynomial that dominance.Dominates proves at least the covered
	// one, and a weighted mean never exceeds the largest.
	By      []int
	Along   string
	Weights []poly.Rat
	// Witness is a point where the candidate alone is the largest
	// (Refuted only).
	Witness record.Point
}

// maxMeanSearch bounds how many kept candidates Coverage looks for
// weighted means among: the search is quadratic in them.
const maxMeanSearch = 16

// meanWeights are the weights tried for the first of two candidates in a
// weighted mean.
var meanWeights = []poly.Rat{
	poly.Frac(1, 2), poly.Frac(1, 4), poly.Frac(3, 4), poly.Frac(1, 3), poly.Frac(2, 3),
	poly.Frac(1, 8), poly.Frac(3, 8), poly.Frac(5, 8), poly.Frac(7, 8),
	poly.Frac(1, 16), poly.Frac(15, 16),
}

// Coverage decides, for each kept candidate, whether it is covered by the
// largest of the other kept ones at every point with dimensions ≥ 1. A
// kept candidate is one that no other single candidate dominates; a
// covered one is dominated by several together, as the course GPT's
// attention scores are at D = 384: below the probabilities from T = 64,
// below the feed-forward up to T = 320.
//
// Every verdict is exact. A proof is dominance.Along's along a dimension,
// the others free (the candidate placed last, so that it loses every tie,
// holds no stretch), or a weighted mean of two others that
// dominance.Dominates proves at least it. A refutation is a point, found
// by Along with the other dimensions fixed, where the candidate alone is
// largest, checked by evaluating every candidate there.
func (m *Model) Coverage() []Coverage {
	var out []Coverage
	for _, c := range m.Front.Kept {
		out = append(out, m.coverage(c))
	}
	return out
}

func (m *Model) coverage(c int) Coverage {
	cov := Coverage{Cand: c}
	var others []int
	var cands []dominance.Candidate
	for _, k := range m.Front.Kept {
		if k != c {
			others = append(others, k)
			cands = append(cands, m.Cands[k])
		}
	}
	if len(others) == 0 {
		cov.Verdict, cov.Witness = dominance.Refuted, m.ones() // the only candidate holds the peak everywhere
		return cov
	}
	cands = append(cands, m.Cands[c])
	if len(m.Vars) == 0 {
		return m.refuteAt(cov, others, m.ones())
	}
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	last := len(cands) - 1
	// Along a dimension, the others free, then fixed at 1: a stretch
	// it holds is a witness; none, with the others free, a proof.
	for _, free := range []bool{true, false} {
		for _, dim := range m.Vars {
			fixed := map[string]int64{}
			if !free {
				for _, v := range m.Vars {
					if v != dim {
						fixed[v] = m.Least(v)
					}
				}
			}
			segs, err := m.alongKept(cands, idx, dim, fixed)
			if err != nil {
				continue
			}
			holders := map[int]bool{}
			var from int64
			for _, s := range segs.Segments {
				if s.Holder == last {
					from = s.From
					break
				}
				holders[others[s.Holder]] = true
			}
			if from > 0 {
				p := m.ones()
				for i := range p {
					if p[i].Name == dim {
						p[i].Value = from
					}
				}
				if r := m.refuteAt(cov, others, p); r.Verdict == dominance.Refuted {
					return r
				}
				continue
			}
			if free {
				cov.Verdict, cov.Along = dominance.Proven, dim
				for _, k := range others {
					if holders[k] {
						cov.By = append(cov.By, k)
					}
				}
				return cov
			}
		}
	}
	if len(others) < maxMeanSearch {
		for i, a := range others {
			for _, b := range others[i+1:] {
				for _, w := range meanWeights {
					rest := poly.Int(1).Sub(w)
					mean := m.Cands[a].Poly.Scale(w).Add(m.Cands[b].Poly.Scale(rest))
					if m.dominates(mean, m.Cands[c].Poly).Verdict == dominance.Proven {
						cov.Verdict, cov.By, cov.Weights = dominance.Proven, []int{a, b}, []poly.Rat{w, rest}
						return cov
					}
				}
			}
		}
	}
	cov.Verdict = dominance.Undecided
	return cov
}

// refuteAt decides coverage at the single point p, returning cov Refuted
// with p as the witness when the candidate alone is the largest there, or
// Proven when the model has no dimensions, so that p is its only point;
// else Undecided.
func (m *Model) refuteAt(cov Coverage, others []int, p record.Point) Coverage {
	at := p.Map()
	mine, err := m.Cands[cov.Cand].Poly.EvalInt(at)
	if err != nil {
		return cov
	}
	top, by := poly.Rat{}, -1
	for _, k := range others {
		v, err := m.Cands[k].Poly.EvalInt(at)
		if err != nil {
			return cov
		}
		if by < 0 || v.Cmp(top) > 0 {
			top, by = v, k
		}
	}
	switch {
	case mine.Cmp(top) > 0:
		cov.Verdict, cov.Witness = dominance.Refuted, p
	case len(m.Vars) == 0:
		cov.Verdict, cov.By = dominance.Proven, []int{by}
	}
	return cov
}

// ones returns the point with every dimension at its least value: 1, or
// 2 for a block count whose last block stands apart.
func (m *Model) ones() record.Point { return m.Domain() }

// Covered returns the kept candidates proven never to hold the peak alone,
// ascending by operation.
func (m *Model) Covered(cov []Coverage) []Coverage {
	var out []Coverage
	for _, c := range cov {
		if c.Verdict == dominance.Proven {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return m.Cands[out[i].Cand].Op < m.Cands[out[j].Cand].Op })
	return out
}

// PiecewiseJSON is `memsym eval --json --along T`'s object.
type PiecewiseJSON struct {
	Entry      string          `json:"entry"`
	Along      string          `json:"along"`
	Fixed      OrderedPoint    `json:"fixed"`
	ForAll     []string        `json:"for_all"`
	Domain     OrderedPoint    `json:"domain"`
	Pieces     []PieceJSON     `json:"pieces"`
	NeverAlone []CoveredJSON   `json:"never_alone"`
	Undecided  []CandidateJSON `json:"undecided"`
	ReachJSON
	Checked []OrderedPoint `json:"checked"`
	AtOneJSON
}

// PieceJSON is one piece: from From to To (0: without end) Holder holds
// the peak, Peak and Needs being polynomials with the fixed dimensions
// substituted.
type PieceJSON struct {
	From   int64         `json:"from"`
	To     int64         `json:"to"`
	Holder CandidateJSON `json:"holder"`
	Peak   string        `json:"peak"`
	Needs  string        `json:"needs"`
}

// CoveredJSON is a kept candidate proven never to hold the peak alone:
// along Along, for every value of the other dimensions, it is at most the
// largest of By.
type CoveredJSON struct {
	Candidate CandidateJSON   `json:"candidate"`
	Along     string          `json:"along"`
	By        []CandidateJSON `json:"by"`
}

// PiecewiseJSON returns the pieces and the coverage as JSON.
func (m *Model) PiecewiseJSON(pw *Piecewise, cov []Coverage) *PiecewiseJSON {
	out := &PiecewiseJSON{
		Entry: m.Header().Entry, Along: pw.Dim, Fixed: OrderedPoint(pw.Fixed), ForAll: []string{}, Domain: m.DomainJSON(),
		Pieces: []PieceJSON{}, NeverAlone: []CoveredJSON{}, Undecided: []CandidateJSON{},
		Checked: m.CheckedJSON(),
	}
	if out.Fixed == nil {
		out.Fixed = OrderedPoint{}
	}
	out.ForAll = append(out.ForAll, pw.Free...)
	for _, p := range pw.Pieces {
		out.Pieces = append(out.Pieces, PieceJSON{p.From, p.To, m.CandidateJSON(p.Holder), p.Peak.ASCII(), p.Needs.ASCII()})
	}
	for _, c := range m.Covered(cov) {
		j := CoveredJSON{Candidate: m.CandidateJSON(c.Cand), Along: c.Along, By: []CandidateJSON{}}
		for _, b := range c.By {
			j.By = append(j.By, m.CandidateJSON(b))
		}
		out.NeverAlone = append(out.NeverAlone, j)
	}
	for _, c := range cov {
		if c.Verdict == dominance.Undecided {
			out.Undecided = append(out.Undecided, m.CandidateJSON(c.Cand))
		}
	}
	return out
}

// Undecided reports whether neither covering nor holding the peak alone
// could be shown for the candidate.
func (c *Coverage) Undecided() bool { return c.Verdict == dominance.Undecided }
