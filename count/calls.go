package count

import (
	"slices"
	"strings"

	"memsym/poly"
	"memsym/record"
)

// Call is one row of the calls' table: the operations of one call path,
// with a fold's iterations together, as the network diagram draws boxes.
type Call struct {
	Path       string   // grouped, such as "blocks.ff.up"; "" is the entry's own operations
	Iterations int      // the fold's iterations seen (2 for blocks ×2), 0 when not a fold
	Depth      int      // the number of calls in Path; 0 for the entry's own
	Share      poly.Rat // the bytes made under the call and live at the peak
	OwnPeak    poly.Rat // the most bytes made under the call live at one of its operations
	Ops        int      // the operations under the call
}

// callTree groups the operations by call.
type callTree struct {
	nodes  []callNode
	byPath map[string]int // grouped path → node
	leaf   []int          // by operation (0-based): the node of its own call
}

type callNode struct {
	path     string
	parent   int // -1 for a top-level call and for the entry's own
	depth    int
	children []int
	iters    map[int64]bool
}

// newCallTree makes the tree of rec's calls. Node 0 is the entry's own.
func newCallTree(rec *record.Recording) *callTree {
	t := &callTree{byPath: map[string]int{}, leaf: make([]int, rec.Ops.Len())}
	t.nodes = append(t.nodes, callNode{parent: -1})
	byRaw := map[string]int{"": 0}
	for n := range rec.Ops.Len() {
		raw := rec.Ops.Path(n)
		leaf, ok := byRaw[raw]
		if !ok {
			leaf = t.add(raw)
			byRaw[raw] = leaf
		}
		t.leaf[n] = leaf
	}
	return t
}

// add adds the calls of a raw path and returns its innermost call's node.
func (t *callTree) add(raw string) int {
	parent, grouped := -1, ""
	for i, seg := range strings.Split(raw, ".") {
		name, index := splitSegment(seg)
		if i > 0 {
			grouped += "."
		}
		grouped += name
		node, ok := t.byPath[grouped]
		if !ok {
			node = len(t.nodes)
			t.nodes = append(t.nodes, callNode{path: grouped, parent: parent, depth: i + 1})
			t.byPath[grouped] = node
			if parent >= 0 {
				t.nodes[parent].children = append(t.nodes[parent].children, node)
			}
		}
		if index >= 0 {
			if t.nodes[node].iters == nil {
				t.nodes[node].iters = map[int64]bool{}
			}
			t.nodes[node].iters[index] = true
		}
		parent = node
	}
	return parent
}

// chain calls f for a node and each of its ancestors.
func (t *callTree) chain(node int, f func(int)) {
	for ; node >= 0; node = t.nodes[node].parent {
		f(node)
	}
}

// order returns the nodes as the table lists them: the entry's own first,
// then each call before its children, siblings in order of appearance.
func (t *callTree) order() []int {
	out := []int{0}
	var visit func(int)
	visit = func(n int) {
		out = append(out, n)
		for _, c := range t.nodes[n].children {
			visit(c)
		}
	}
	for n := 1; n < len(t.nodes); n++ {
		if t.nodes[n].parent == -1 {
			visit(n)
		}
	}
	return out
}

// countCalls makes the calls' table. A buffer is made under a call when the
// operation that first writes it is in the call or one of its callees.
func countCalls(rec *record.Recording, lives []Life, peakOp int) []Call {
	t := newCallTree(rec)
	share := make([]poly.Rat, len(t.nodes))
	own := make([]poly.Rat, len(t.nodes))
	cur := make([]poly.Rat, len(t.nodes))
	ops := make([]int, len(t.nodes))

	born := byOp(rec, lives, rec.Ops.Len(), func(l Life) int { return int(l.First) }) // the buffers each operation makes
	dies := byOp(rec, lives, rec.Ops.Len(), func(l Life) int { return int(l.Last) })  // the buffers last live at each
	for op := 1; op <= rec.Ops.Len(); op++ {
		leaf := t.leaf[op-1]
		for _, i := range born.at(op) {
			bytes := rec.Buffers.Bytes(i)
			t.chain(leaf, func(n int) { cur[n] = cur[n].Add(bytes) })
		}
		t.chain(leaf, func(n int) {
			ops[n]++
			if cur[n].Cmp(own[n]) > 0 {
				own[n] = cur[n]
			}
		})
		if op == peakOp {
			copy(share, cur)
		}
		for _, i := range dies.at(op) {
			bytes := rec.Buffers.Bytes(i)
			t.chain(t.leaf[lives[i].First-1], func(n int) { cur[n] = cur[n].Sub(bytes) })
		}
	}

	var calls []Call
	for _, n := range t.order() {
		node := &t.nodes[n]
		calls = append(calls, Call{
			Path: node.path, Iterations: len(node.iters), Depth: node.depth,
			Share: share[n], OwnPeak: own[n], Ops: ops[n],
		})
	}
	return calls
}

// opBuckets lists buffers by operation, in declaration order within each.
type opBuckets struct {
	start []int // the buffers of operation op are items[start[op]:start[op+1]]
	items []int
}

func (b *opBuckets) at(op int) []int { return b.items[b.start[op]:b.start[op+1]] }

// byOp buckets the temps with bytes and a life by the operation key gives.
func byOp(rec *record.Recording, lives []Life, ops int, key func(Life) int) *opBuckets {
	b := &opBuckets{start: make([]int, ops+2)}
	n := 0
	for i, l := range lives {
		if l.First != 0 && rec.Buffers.Bytes(i).Sign() > 0 {
			b.start[key(l)+1]++
			n++
		}
	}
	for k := 1; k < len(b.start); k++ {
		b.start[k] += b.start[k-1]
	}
	b.items = make([]int, n)
	next := slices.Clone(b.start)
	for i, l := range lives {
		if l.First != 0 && rec.Buffers.Bytes(i).Sign() > 0 {
			k := key(l)
			b.items[next[k]] = i
			next[k]++
		}
	}
	return b
}

// splitSegment splits a valid path's "name[i]" into its name and index (-1
// when none).
func splitSegment(seg string) (string, int64) {
	name, iterations := record.SplitPath(seg)
	if len(iterations) == 0 {
		return name, -1
	}
	return name, iterations[0]
}
