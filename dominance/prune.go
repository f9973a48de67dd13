package dominance

import (
	"iter"
	"slices"

	"memsym/poly"
)

// Candidate is one of a program's live sets that may be its peak: its bytes
// as a polynomial in the dimensions, and the first operation that reaches
// it (for messages).
type Candidate struct {
	Poly poly.Poly
	Op   int
}

// Frontier is what Prune keeps of a set of candidates and why.
//
// The claim "the largest of Kept, none of which dominates another" is
// backed pair by pair: for every ordered pair (i, j) of Kept, i ≠ j, either
// Witness(i, j) is a point where candidate j exceeds candidate i, or the
// pair {min, max} is listed in Undecided.
type Frontier struct {
	// Kept are the indices of the candidates that no other is proven to
	// dominate, ascending. Of equal candidates the first is kept.
	Kept []int
	// PrunedBy maps each other index to a candidate (kept or pruned) that
	// is proven to dominate it.
	PrunedBy map[int]int
	// Undecided lists the pairs {i, j} of Kept, i < j, for which some
	// direction was neither proven nor refuted; ascending.
	Undecided [][2]int
	witnesses
}

// witnesses are a frontier's witnesses, held densely: a training step's
// frontier has hundreds of members, a million ordered pairs.
type witnesses struct {
	vars   []string    // the variables of every point, sorted
	kept   []int       // Kept as Prune made it
	place  map[int]int // a member of kept → its place in kept
	n      int         // len(kept)
	has    []bool      // pair (i, j) at place(i)·n + place(j): refuted
	points []int64     // pair (i, j)'s point at (place(i)·n + place(j))·len(vars)
}

// Witness returns, for an ordered pair (i, j) of Kept whose domination was
// refuted, an integer point (every variable of every candidate ≥ 1) where
// candidate j is larger than candidate i; ok is false for any other pair.
func (f *Frontier) Witness(i, j int) (at map[string]int64, ok bool) {
	w := &f.witnesses
	pi, ok1 := w.place[i]
	pj, ok2 := w.place[j]
	if !ok1 || !ok2 || !w.has[pi*w.n+pj] {
		return nil, false
	}
	return w.point(pi*w.n + pj), true
}

// Witnesses yields every ordered pair of Kept that has a witness, and the
// witness, in the order of Kept as Prune made it. A Frontier not made by
// Prune has none.
func (f *Frontier) Witnesses() iter.Seq2[[2]int, map[string]int64] {
	return func(yield func([2]int, map[string]int64) bool) {
		w := &f.witnesses
		for a, i := range w.kept {
			for b, j := range w.kept {
				if p := a*w.n + b; w.has[p] && !yield([2]int{i, j}, w.point(p)) {
					return
				}
			}
		}
	}
}

// point returns the witness of the pair at p as a map.
func (w *witnesses) point(p int) map[string]int64 {
	k := len(w.vars)
	at := make(map[string]int64, k)
	for v, x := range w.points[p*k:][:k] {
		at[w.vars[v]] = x
	}
	return at
}

// MoveWitnesses adds by[v] to the coordinate v of every witness: for a
// caller whose domain starts above 1, as a model's does.
func (f *Frontier) MoveWitnesses(by map[string]int64) {
	w := &f.witnesses
	k := len(w.vars)
	for v, name := range w.vars {
		d := by[name]
		if d == 0 {
			continue
		}
		for p := range w.has {
			if w.has[p] {
				w.points[p*k+v] += d
			}
		}
	}
}

// pruner holds the working state of Prune.
type pruner struct {
	vars    []string
	ms      []poly.Poly // the candidates, over vars
	samples []sample
	shifted []*poly.Poly // each candidate with every variable x replaced by 1 + x, once computed
	dup     []bool       // pruned as equal to an earlier candidate
	out     *Frontier

	// The shifted coefficients as dense int64 arrays, when they fit, kept
	// for the frontier's members and the candidate at hand.
	shape *poly.DenseShift // nil when the arrays would be too large
	dense map[int][]int64  // by candidate; nil: does not fit
	free  [][]int64        // arrays to reuse
}

// Prune keeps the candidates that no other is proven to dominate at every
// integer point with all dimensions ≥ 1, and for each pair of those either
// a witness that neither dominates or a note that the pair is undecided.
//
// Floating-point samples only choose which pairs to check; each pruning
// rests on an exact proof (Dominates), and which candidates are kept is
// exactly what comparing every pair with Dominates would keep.
func Prune(cands []Candidate) *Frontier {
	pr := newPruner(cands)
	distinct := pr.dedupe()
	// By the values at the sample points, the largest point first,
	// descending; equal ones by index.
	order := slices.Clone(distinct)
	slices.SortFunc(order, func(a, b int) int {
		if c := slices.Compare(pr.samples[b].val, pr.samples[a].val); c != 0 {
			return c
		}
		return a - b
	})
	var frontier []int
	for _, c := range order {
		if by := pr.dominator(c, frontier); by >= 0 {
			pr.out.PrunedBy[c] = by
			pr.forget(c)
			continue
		}
		// c may dominate members that rounding ordered before it.
		frontier = slices.DeleteFunc(frontier, func(f int) bool {
			if sampleGE(pr.samples[c], pr.samples[f]) && pr.proves(c, f) {
				pr.out.PrunedBy[f] = c
				pr.forget(f)
				return true
			}
			return false
		})
		frontier = append(frontier, c)
	}
	slices.Sort(frontier)
	pr.finalize(frontier)
	return pr.out
}

func newPruner(cands []Candidate) *pruner {
	pr := &pruner{
		ms:      make([]poly.Poly, len(cands)),
		samples: make([]sample, len(cands)),
		shifted: make([]*poly.Poly, len(cands)),
		dup:     make([]bool, len(cands)),
		dense:   map[int][]int64{},
		out:     &Frontier{PrunedBy: map[int]int{}},
	}
	// The variables some candidate uses, sorted; every candidate over them.
	var vars, last []string
	for _, c := range cands {
		if vs := c.Poly.Vars(); !slices.Equal(vs, last) {
			last = vs
			for _, v := range vs {
				if !slices.Contains(vars, v) {
					vars = append(vars, v)
				}
			}
		}
	}
	slices.Sort(vars)
	var deg []int
	for _, v := range vars {
		d := 0
		for _, c := range cands {
			d = max(d, c.Poly.Degree(v))
		}
		if d > 0 {
			pr.vars = append(pr.vars, v)
			deg = append(deg, d)
		}
	}
	for i, c := range cands {
		pr.ms[i] = poly.WithVars(c.Poly, pr.vars)
	}
	pts := samplePoints(len(pr.vars))
	slab := make([]float64, 2*len(pts)*len(cands))
	for i, m := range pr.ms {
		pr.samples[i] = sampleOf(m, pts, slab[2*len(pts)*i:2*len(pts)*(i+1)])
	}
	pr.shape = poly.NewDenseShift(deg, maxDense)
	return pr
}

// maxDense bounds the length of a dense array of shifted coefficients.
const maxDense = 512

// dedupe prunes each candidate equal to an earlier one by that one, and
// returns the indices of the first of each.
func (pr *pruner) dedupe() []int {
	first := make(map[uint64]int, len(pr.ms))
	more := map[uint64][]int{} // further distinct candidates with a hash already taken
	var distinct []int
	for i, m := range pr.ms {
		h := hash(m)
		j, ok := first[h]
		if !ok {
			first[h] = i
			distinct = append(distinct, i)
			continue
		}
		if !pr.ms[j].Equal(m) {
			k := slices.IndexFunc(more[h], func(j int) bool { return pr.ms[j].Equal(m) })
			if k < 0 {
				more[h] = append(more[h], i)
				distinct = append(distinct, i)
				continue
			}
			j = more[h][k]
		}
		pr.out.PrunedBy[i] = j
		pr.dup[i] = true
	}
	return distinct
}

// dominator returns a member of among proven to dominate c, or -1. It tries
// only members whose samples are all about ≥ c's: first the cheap
// certificate (every coefficient ≥ 0 after x = 1 + y), then the others.
func (pr *pruner) dominator(c int, among []int) int {
	var eligible []int
	for _, f := range among {
		if f != c && sampleGE(pr.samples[f], pr.samples[c]) {
			eligible = append(eligible, f)
		}
	}
	for _, f := range eligible {
		if pr.shiftGE(f, c) {
			return f
		}
	}
	for _, f := range eligible {
		if (&prover{budget: proofBudget}).nonneg(pr.ms[f].Sub(pr.ms[c])) != nil {
			return f
		}
	}
	return -1
}

// proves reports whether f is proven to dominate c.
func (pr *pruner) proves(f, c int) bool {
	return pr.shiftGE(f, c) || (&prover{budget: proofBudget}).nonneg(pr.ms[f].Sub(pr.ms[c])) != nil
}

// shiftGE reports whether every coefficient of f − c is ≥ 0 after x = 1 + y
// for every variable, comparing the shifted forms coefficient by
// coefficient: as dense arrays when they fit in int64s.
func (pr *pruner) shiftGE(f, c int) bool {
	if a, ok := pr.denseOf(f); ok {
		if b, ok := pr.denseOf(c); ok {
			return geq(a, b)
		}
	}
	return allNonneg(pr.shift(f).Sub(*pr.shift(c)))
}

// geq reports whether a[i] ≥ b[i] for every i.
func geq(a, b []int64) bool {
	for i, x := range a {
		if x < b[i] {
			return false
		}
	}
	return true
}

// denseOf returns candidate i's shifted coefficients as a dense array,
// computed once until forgotten, and false when they do not fit.
func (pr *pruner) denseOf(i int) ([]int64, bool) {
	if pr.shape == nil {
		return nil, false
	}
	if d, ok := pr.dense[i]; ok {
		return d, d != nil
	}
	var d []int64
	if n := len(pr.free); n > 0 {
		d, pr.free = pr.free[n-1], pr.free[:n-1]
	} else {
		d = make([]int64, pr.shape.Len())
	}
	if !pr.shape.Shifted(pr.ms[i], d) {
		pr.free = append(pr.free, d)
		d = nil
	}
	pr.dense[i] = d
	return d, d != nil
}

// forget drops candidate i's shifted forms, once it is pruned.
func (pr *pruner) forget(i int) {
	if d := pr.dense[i]; d != nil {
		pr.free = append(pr.free, d)
	}
	delete(pr.dense, i)
	pr.shifted[i] = nil
}

// shift returns candidate i with every variable x replaced by 1 + x,
// computed once until forgotten.
func (pr *pruner) shift(i int) *poly.Poly {
	if pr.shifted[i] == nil {
		s := pr.ms[i].Shift(poly.Int(1))
		pr.shifted[i] = &s
	}
	return pr.shifted[i]
}

// hash returns a hash of m (FNV-1a) that equal polynomials over the same
// variables share.
func hash(m poly.Poly) uint64 {
	h := uint64(14695981039346656037)
	put := func(x uint64) {
		for range 8 {
			h ^= x & 0xff
			h *= 1099511628211
			x >>= 8
		}
	}
	for i := range m.Len() {
		c, exp := m.Term(i)
		if n, d, ok := c.Small(); ok {
			put(uint64(n))
			put(uint64(d))
		} else {
			for _, b := range []byte(c.String()) {
				put(uint64(b))
			}
		}
		for _, e := range exp {
			put(uint64(e))
		}
	}
	return h
}
