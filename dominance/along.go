package dominance

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"memsym/poly"
)

// Segment says that for every integer x of the dimension in [From, To]
// (To = 0: without end) the candidate Holder (an index into the
// candidates) holds the peak: it is the largest there, and of those tied
// for largest the first (Along: the lowest index; AlongAll: the earliest
// operation).
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
// kept candidates holds the peak, the other dimensions set by fixed. Of
// kept candidates tied for largest, the one with the lowest index holds
// it; candidates not in kept are not looked at (AlongAll looks at them).
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
	l := newLine(cands, kept, dim, fixed, func(a, b int) int { return a - b })
	return l.crossovers()
}

// AlongAll finds, exactly, which candidate holds the peak at each integer
// value of dim ≥ 1, the other dimensions set by fixed: the largest of all
// the candidates, and of those tied for largest the one at the earliest
// operation (Candidate.Op; the lowest index of equal operations), as the
// peak of a recording is the first operation that reaches it. A pruned
// candidate never exceeds a kept one, but it holds the peak where it ties
// the largest at an earlier operation. The segments' holders index all.
//
// front must be what Prune returned for all: a pruned candidate ties the
// largest only where it ties the kept candidate its PrunedBy chain leads
// to, which is proven ≥ it. A dimension may be left out of fixed, as for
// Along, when neither which kept candidate is largest nor where a pruned
// one ties it depends on its value; otherwise AlongAll returns a
// *DependsError naming the dimensions that need a value.
func AlongAll(all []Candidate, front *Frontier, dim string, fixed map[string]int64) (*Crossovers, error) {
	if front == nil {
		return nil, fmt.Errorf("along %s: no frontier", dim)
	}
	if err := checkAlong(all, front.Kept, dim, fixed); err != nil {
		return nil, err
	}
	l := newLine(all, front.Kept, dim, fixed, func(a, b int) int {
		if c := cmp.Compare(all[a].Op, all[b].Op); c != 0 {
			return c
		}
		return a - b
	})
	l.root = make(map[int]int, len(all))
	for _, i := range front.Kept {
		l.root[i] = i
	}
	for i := range all {
		if _, ok := l.root[i]; ok {
			continue
		}
		r, ok := rootOf(i, front.PrunedBy, l.root)
		if !ok {
			return nil, fmt.Errorf("along %s: candidate %d is neither kept nor pruned by a chain to a kept one", dim, i)
		}
		l.root[i] = r
		l.pruned = append(l.pruned, i)
	}
	return l.crossovers()
}

// rootOf follows prunedBy from i to a kept candidate, one that root
// holds as its own root.
func rootOf(i int, prunedBy map[int]int, root map[int]int) (int, bool) {
	for range len(prunedBy) + 1 {
		if r, ok := root[i]; ok && r == i {
			return i, true
		}
		next, ok := prunedBy[i]
		if !ok {
			return 0, false
		}
		i = next
	}
	return 0, false // a cycle
}

// checkAlong checks Along's arguments.
func checkAlong(cands []Candidate, kept []int, dim string, fixed map[string]int64) error {
	if len(kept) == 0 {
		return fmt.Errorf("along %s: no candidates", dim)
	}
	seen := make(map[int]bool, len(kept))
	for _, i := range kept {
		if i < 0 || i >= len(cands) {
			return fmt.Errorf("along %s: candidate %d does not exist (there are %d)", dim, i, len(cands))
		}
		if seen[i] {
			return fmt.Errorf("along %s: candidate %d is kept twice", dim, i)
		}
		seen[i] = true
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

// line holds the candidates along dim, the fixed dimensions substituted.
type line struct {
	cands  []Candidate
	kept   []int
	pruned []int       // the candidates not kept (AlongAll only)
	root   map[int]int // each candidate → the kept one proven ≥ it (AlongAll only)
	dim    string
	fixed  map[string]int64
	before func(a, b int) int // the order in which tied candidates hold the peak
	on     map[int]poly.Poly  // by candidate, once computed
	free   map[string]bool    // the dimensions left free that a candidate looked at uses
}

func newLine(cands []Candidate, kept []int, dim string, fixed map[string]int64, before func(a, b int) int) *line {
	return &line{cands: cands, kept: kept, dim: dim, fixed: fixed, before: before, on: map[int]poly.Poly{}, free: map[string]bool{}}
}

// at returns candidate i with the fixed dimensions substituted.
func (l *line) at(i int) poly.Poly {
	if p, ok := l.on[i]; ok {
		return p
	}
	p := l.cands[i].Poly
	for _, v := range p.Used() {
		if x, ok := l.fixed[v]; ok {
			p = p.Subst(v, poly.Int(x))
		} else if v != l.dim {
			l.free[v] = true
		}
	}
	l.on[i] = p
	return p
}

// crossovers walks the kept candidates, then the ties of the others.
func (l *line) crossovers() (*Crossovers, error) {
	// signs[a][b] is a polynomial in dim whose sign at every integer is that
	// of candidate kept[a] minus candidate kept[b].
	signs := make([][]poly.IntPoly, len(l.kept))
	var depends []string
	for a, i := range l.kept {
		l.at(i) // notes the free dimensions it uses
		signs[a] = make([]poly.IntPoly, len(l.kept))
		for b, j := range l.kept {
			if a == b {
				continue
			}
			d := l.at(i).Sub(l.at(j))
			h, ok := separate(d, l.dim)
			if !ok {
				depends = append(depends, l.freeIn(d)...)
				continue
			}
			signs[a][b] = h
		}
	}
	if len(depends) > 0 {
		return nil, l.dependsError(depends)
	}
	segs, err := l.walk(signs)
	if err == nil && len(l.pruned) > 0 {
		segs, err = l.ties(segs, signs)
	}
	if dep := (*DependsError)(nil); errors.As(err, &dep) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("along %s: %w", l.dim, err)
	}
	out := &Crossovers{Dim: l.dim, Fixed: map[string]int64{}, ForAll: len(l.free) > 0, Segments: segs}
	for v, x := range l.fixed {
		out.Fixed[v] = x
	}
	return out, nil
}

// freeIn returns the dimensions other than dim that d uses.
func (l *line) freeIn(d poly.Poly) []string {
	var vs []string
	for _, v := range d.Used() {
		if v != l.dim {
			vs = append(vs, v)
		}
	}
	return vs
}

func (l *line) dependsError(vars []string) *DependsError {
	slices.Sort(vars)
	return &DependsError{Dim: l.dim, Vars: slices.Compact(vars)}
}

// walk returns the segments of the kept candidates: the sign of every
// difference at the integers is constant between consecutive points where
// one may change (see rootCells), so the holder is found at those points
// and holds up to the next.
func (l *line) walk(signs [][]poly.IntPoly) ([]Segment, error) {
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
	order := make([]int, len(l.kept)) // positions in kept, the first to hold a tie first
	for a := range order {
		order[a] = a
	}
	slices.SortFunc(order, func(a, b int) int { return l.before(l.kept[a], l.kept[b]) })
	var segs []Segment
	for _, x := range pts {
		best := order[0]
		for _, a := range order[1:] {
			if signs[a][best].SignAt(x) > 0 {
				best = a
			}
		}
		if !x.IsInt64() {
			// Past int64 a pair may cross with no change of holder (two
			// candidates that never hold the peak there): only a change
			// of holder there is beyond what memsym says.
			if len(segs) == 0 || segs[len(segs)-1].Holder != l.kept[best] {
				return nil, errBeyond
			}
			continue
		}
		segs = appendSegment(segs, x.Int64(), l.kept[best])
	}
	return segs, nil
}

var errBeyond = fmt.Errorf("the peak changes holder beyond %d", int64(1<<63-1))

// appendSegment extends segs with holder from x on: the last segment when
// it has the same holder, or a new one.
func appendSegment(segs []Segment, x int64, holder int) []Segment {
	n := len(segs)
	if n > 0 && segs[n-1].Holder == holder {
		return segs
	}
	if n > 0 {
		segs[n-1].To = x - 1
	}
	return append(segs, Segment{From: x, Holder: holder})
}
