package dominance

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"memsym/poly"
)

// finalize decides every ordered pair of the frontier exactly, prunes the
// members another is proven to dominate, then makes sure no pruned
// candidate is proven to dominate a member still kept, and records the
// witnesses and the undecided pairs.
func (pr *pruner) finalize(frontier []int) {
	ans := pr.decideAll(frontier)
	var kept []int
	for c, j := range frontier {
		by := -1
		for r, i := range frontier {
			if r != c && ans.d[r*ans.n+c].verdict == Proven {
				by = i
				break
			}
		}
		if by >= 0 {
			pr.out.PrunedBy[j] = by
			continue
		}
		kept = append(kept, j)
	}
	kept = pr.recheck(kept, ans)
	pr.out.Kept = kept
	n, k := len(kept), len(pr.vars)
	w := &pr.out.witnesses
	*w = witnesses{vars: pr.vars, kept: slices.Clone(kept), place: make(map[int]int, n), n: n, has: make([]bool, n*n), points: make([]int64, n*n*k)}
	at := ans.places(kept)
	for a, i := range kept {
		w.place[i] = a
	}
	note := func(a, b int, d *decision) {
		if d.verdict == Refuted {
			w.has[a*n+b] = true
			copy(w.points[(a*n+b)*k:][:k], d.witness)
		}
	}
	for a, i := range kept {
		for b := a + 1; b < n; b++ {
			ij, ji := &ans.d[at[a]*ans.n+at[b]], &ans.d[at[b]*ans.n+at[a]]
			note(a, b, ij)
			note(b, a, ji)
			if ij.verdict != Refuted || ji.verdict != Refuted {
				pr.out.Undecided = append(pr.out.Undecided, [2]int{i, kept[b]})
			}
		}
	}
}

// answers are the decisions of every ordered pair of a frontier's members.
type answers struct {
	at map[int]int // a member → its place in the frontier
	n  int
	d  []decision // pair (i, j) at place(i)·n + place(j): i − j ≥ 0?
}

// places returns each of members' place in the frontier.
func (a *answers) places(members []int) []int {
	out := make([]int, len(members))
	for x, f := range members {
		out[x] = a.at[f]
	}
	return out
}

// decideAll decides every ordered pair of the frontier, its rows shared
// out among the cores: a training step's frontier may hold hundreds of
// members, each pair a decision of its own.
func (pr *pruner) decideAll(frontier []int) *answers {
	n := len(frontier)
	a := &answers{at: make(map[int]int, n), n: n, d: make([]decision, n*n)}
	for k, i := range frontier {
		a.at[i] = k
		// The shifted forms shiftGE reads, made here, both of them (a
		// pair may have one dense and one not): the cores below only
		// read them.
		pr.denseOf(i)
		pr.shift(i)
	}
	cores := min(runtime.GOMAXPROCS(0), max(n/16, 1))
	pts, vals := pr.gridValues(frontier, cores)
	g := len(pts)
	eachRow(n, cores, func(r int) {
		i := frontier[r]
	pairs:
		for c, j := range frontier {
			if c == r {
				continue
			}
			// Mostly a point of the witness grid where j > i, read from
			// the members' values there; else the decision in full.
			vi, vj := vals[r*g:][:g], vals[c*g:][:g]
			for p := range vi {
				if vi[p].Cmp(vj[p]) < 0 {
					a.d[r*n+c] = decision{verdict: Refuted, witness: pts[p]}
					continue pairs
				}
			}
			a.d[r*n+c] = decideWith(pr.ms[i].Sub(pr.ms[j]), func() bool { return pr.shiftGE(i, j) }, false)
		}
	})
	return a
}

// eachRow calls row with each of 0 to n−1, the rows shared out among
// cores goroutines as each takes the next, and returns when all are done.
func eachRow(n, cores int, row func(r int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range cores {
		wg.Go(func() {
			for {
				r := int(next.Add(1)) - 1
				if r >= n {
					return
				}
				row(r)
			}
		})
	}
	wg.Wait()
}

// maxGridValues bounds the values gridValues computes: members times
// points.
const maxGridValues = 1 << 22

// gridValues returns the points of the witness grid over the pruner's
// variables (gridPoints) and each member's value at each, member r's from
// r·len(pts): a difference of two members is negative at a point exactly
// where the first's value is the smaller, so that one evaluation a member
// and a point serves every pair. It returns nothing when the grid is the
// sparse one or too large for the members.
func (pr *pruner) gridValues(frontier []int, cores int) ([][]int64, []poly.Rat) {
	pts := gridPoints(len(pr.vars))
	if len(pr.vars) == 0 || pts == nil || len(frontier)*len(pts) > maxGridValues {
		return nil, nil
	}
	g := len(pts)
	vals := make([]poly.Rat, len(frontier)*g)
	eachRow(len(frontier), cores, func(r int) {
		m := pr.ms[frontier[r]]
		for p, at := range pts {
			vals[r*g+p] = m.EvalInts(at)
		}
	})
	return pts, vals
}

// recheck removes from kept the members that a pruned candidate is proven
// to dominate, and returns the rest.
//
// Every pruned candidate k hangs, through PrunedBy, below a kept member f
// that truly is ≥ k (each link is a proof). If some point shows j > f, then
// j > k there too and no proof of k ≥ j can exist; so only the candidates
// below an f whose domination of j is undecided need an exact check. Those
// equal to an earlier candidate are checked through that one.
func (pr *pruner) recheck(kept []int, ans *answers) []int {
	isKept := make(map[int]bool, len(kept))
	for _, f := range kept {
		isKept[f] = true
	}
	below := map[int][]int{} // kept member → the distinct pruned candidates below it
	for k := range pr.ms {
		if isKept[k] || pr.dup[k] {
			continue
		}
		if f, ok := pr.root(k, isKept); ok {
			below[f] = append(below[f], k)
		}
	}
	pos := ans.places(kept)
	var out []int
	for y, j := range kept {
		by := -1
		for x, f := range kept {
			if x == y || ans.d[pos[x]*ans.n+pos[y]].verdict != Undecided {
				continue
			}
			by = pr.dominator(j, below[f])
			for _, k := range below[f] {
				pr.forget(k)
			}
			if by >= 0 {
				break
			}
		}
		if by >= 0 {
			pr.out.PrunedBy[j] = by
			continue
		}
		out = append(out, j)
	}
	return out
}

// root follows PrunedBy from k to a kept member.
func (pr *pruner) root(k int, isKept map[int]bool) (int, bool) {
	for steps := 0; steps <= len(pr.ms); steps++ {
		if isKept[k] {
			return k, true
		}
		next, ok := pr.out.PrunedBy[k]
		if !ok {
			return 0, false
		}
		k = next
	}
	return 0, false // a cycle: impossible, as each link is a proof between distinct candidates
}
