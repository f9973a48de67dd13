package page

import (
	"math/big"
	"strconv"
	"strings"

	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

var bigOne = big.NewInt(1)

// Call is one call of the program, a fold's iterations together, as the
// calls' table of memsym memory lists them and the network draws them:
// the entry's own operations first, then each call before its callees.
type Call struct {
	Path       string // grouped, such as "blocks.ff.up"; "" for the entry's own operations
	Name       string // the last call of Path, such as "up"
	Iterations int    // the fold's iterations (6 for blocks ×6); 0 when not a fold
	Depth      int    // the calls in Path; 0 for the entry's own
	Parent     int    // the caller's index; -1 for a top-level call and the entry's own
	Children   []int
	Ops        int // the operations under the call, its callees' included
}

// Title returns the call's name for people: "blocks ×6", "up".
func (c *Call) Title() string {
	if c.Iterations > 0 {
		return c.Name + " ×" + itoa(c.Iterations)
	}
	return c.Name
}

// callTree is the calls of a recording and, per operation, its innermost
// call.
type callTree struct {
	calls []Call
	leaf  []int // by operation (index op−1): its innermost call
}

// buildCalls groups rec's operations by call.
func buildCalls(rec *record.Recording) *callTree {
	type node struct {
		Call
		iters map[int64]bool
	}
	nodes := []*node{{Call: Call{Parent: -1}}}
	byPath := map[string]int{}
	byRaw := map[string]int{"": 0}
	leaf := make([]int, rec.Ops.Len())
	for n := range rec.Ops.Len() {
		raw := rec.Ops.Path(n)
		l, ok := byRaw[raw]
		if !ok {
			parent, grouped := -1, ""
			for i, seg := range strings.Split(raw, ".") {
				name, iters := record.SplitPath(seg)
				if i > 0 {
					grouped += "."
				}
				grouped += name
				k, ok := byPath[grouped]
				if !ok {
					k = len(nodes)
					nodes = append(nodes, &node{Call: Call{Path: grouped, Name: name, Depth: i + 1, Parent: parent}})
					byPath[grouped] = k
					if parent >= 0 {
						nodes[parent].Children = append(nodes[parent].Children, k)
					}
				}
				if len(iters) > 0 {
					if nodes[k].iters == nil {
						nodes[k].iters = map[int64]bool{}
					}
					nodes[k].iters[iters[0]] = true
				}
				parent = k
			}
			l = parent
			byRaw[raw] = l
		}
		leaf[n] = l
		for k := l; ; k = nodes[k].Parent {
			nodes[k].Ops++
			if nodes[k].Parent < 0 {
				break
			}
		}
	}
	// The table's order: the entry's own, then each call before its
	// callees, siblings in order of appearance.
	var order []int
	var visit func(int)
	visit = func(k int) {
		order = append(order, k)
		for _, c := range nodes[k].Children {
			visit(c)
		}
	}
	order = append(order, 0)
	for k := 1; k < len(nodes); k++ {
		if nodes[k].Parent == -1 {
			visit(k)
		}
	}
	pos := make([]int, len(nodes))
	for i, k := range order {
		pos[k] = i
	}
	t := &callTree{leaf: make([]int, len(leaf))}
	for _, k := range order {
		c := nodes[k].Call
		c.Iterations = len(nodes[k].iters)
		if c.Parent >= 0 {
			c.Parent = pos[c.Parent]
		}
		c.Children = nil
		for _, ch := range nodes[k].Children {
			c.Children = append(c.Children, pos[ch])
		}
		t.calls = append(t.calls, c)
	}
	for n, l := range leaf {
		t.leaf[n] = pos[l]
	}
	return t
}

// chain calls f for call k and each of its callers.
func (t *callTree) chain(k int, f func(int)) {
	for ; k >= 0; k = t.calls[k].Parent {
		f(k)
	}
}

// shares returns, for each of m's candidates, each call's share of its
// live bytes at the candidate's first operation: the bytes of the
// buffers made under the call (first written by an operation in it or
// its callees) and live there. At the peak's operation these are the
// shares memsym memory's calls' table gives.
func (t *callTree) shares(m *model.Model) [][]poly.Poly {
	zero := poly.New(m.Vars, nil)
	out := make([][]poly.Poly, len(m.Candidates))
	for c, cand := range m.Candidates {
		row := make([]poly.Poly, len(t.calls))
		for k := range row {
			row[k] = zero
		}
		op := cand.Op
		for i, l := range m.Lives {
			if l.First == 0 || op < int(l.First) || op > int(l.Last) || m.Bytes(i).IsZero() {
				continue
			}
			b := poly.WithVars(m.Bytes(i), m.Vars)
			t.chain(t.leaf[l.First-1], func(k int) { row[k] = row[k].Add(b) })
		}
		out[c] = row
	}
	return out
}

// Band is a run of operations under one top-level call, drawn under the
// live bytes' curve.
type Band struct {
	From, To int // operations, both included
	Label    string
}

// maxBands is how many bands are drawn one per call before a fold's
// iterations are drawn as one band.
const maxBands = 48

// bands returns the runs of operations under one top-level call: one per
// iteration of a fold ("blocks[0]"), or one per fold ("cells ×2000")
// when there would be more than maxBands.
func bands(rec *record.Recording) []Band {
	var runs []Band
	var grouped []string
	for n := range rec.Ops.Len() {
		top, _, _ := strings.Cut(rec.Ops.Path(n), ".")
		if top == "" {
			continue
		}
		if k := len(runs) - 1; k >= 0 && runs[k].Label == top && runs[k].To == n {
			runs[k].To = n + 1
			continue
		}
		runs = append(runs, Band{From: n + 1, To: n + 1, Label: top})
		name, _ := record.SplitPath(top)
		grouped = append(grouped, name)
	}
	if len(runs) <= maxBands {
		return runs
	}
	var out []Band
	var distinct []map[string]bool
	for i, r := range runs {
		if k := len(out) - 1; k >= 0 && grouped[i] == grouped[i-1] {
			out[k].To = r.To
			distinct[k][r.Label] = true
			continue
		}
		out = append(out, r)
		distinct = append(distinct, map[string]bool{r.Label: true})
	}
	for k := range out {
		if n := len(distinct[k]); n > 1 {
			name, _ := record.SplitPath(out[k].Label)
			out[k].Label = name + " ×" + itoa(n)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
