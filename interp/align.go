package interp

import (
	"fmt"
	"slices"
	"strings"

	"memsym/record"
)

// A dimension that counts blocks. A layer count L changes the operations:
// the recording at L holds one block of operations L times, each an
// iteration of a fold (layers[0], layers[1], ...), so the grid's recordings
// cannot be compared record by record. They are aligned instead: each
// operation and buffer is placed on a template, a fixed one once, one in a
// block by its place in the block and its iteration. Every recording of the
// grid and every check point must have the same template; the first
// operation or buffer that does not is named. fold.go then interpolates
// every aligned term in L as in any other dimension.

// place is where an operation or buffer of one recording lies on the
// template: its slot, and its iteration in the order of execution (0 for a
// fixed one).
type place struct {
	slot, iter int
}

// template is what the recordings at every value of the folding dimension
// share: the fixed operations and buffers and the blocks' runs, each
// identified by a key.
type template struct {
	opKeys  []string       // per operation slot
	opRun   []int          // per operation slot: its run, −1 for a fixed one
	opPhase []record.Phase // per operation slot: its phase in a step
	bufKeys []string
	bufRun  []int
	runs    []runShape
}

// runShape is a run of iterations: how many operations each holds, and
// whether they run from the last index down to 0.
type runShape struct {
	width   int
	down    bool
	known   bool // the direction is known: the run has two iterations or more
	buffers bool // a run of buffers declared apart from their iterations' operations
}

// layout is one recording placed on its template.
type layout struct {
	rec    *record.Recording
	name   string // the source's name
	n      int64  // the folding dimension's value
	prefix string // the fold's call path
	tmpl   template
	ops    []place // per operation
	bufs   []place // per buffer position
	index  []int   // per operation: its fold index, −1 outside the fold
	// resultLine is the line of the recording's result, 0 when unknown.
	resultLine int
}

// foldIndex returns the iteration of the fold prefix in path ("layers[2]"
// in "layers[2].up" for the prefix "layers"), or −1.
func foldIndex(path, prefix string) int64 {
	rest, ok := strings.CutPrefix(path, prefix+"[")
	if !ok {
		return -1
	}
	digits, _, ok := strings.Cut(rest, "]")
	if !ok {
		return -1
	}
	var k int64
	if _, err := fmt.Sscan(digits, &k); err != nil {
		return -1
	}
	return k
}

// pattern returns path with the fold prefix's iteration taken out.
func pattern(path, prefix string) string {
	if foldIndex(path, prefix) < 0 {
		return path
	}
	_, rest, _ := strings.Cut(path[len(prefix):], "]")
	return prefix + "[*]" + rest
}

// foldPrefixes returns the call paths (without their iteration) whose
// iterations in rec are exactly 0 to n−1, as "layers" or "model.blocks".
func foldPrefixes(rec *record.Recording, n int64) []string {
	seen := map[string]map[int64]bool{}
	for i := range rec.Ops.Len() {
		path := rec.Ops.Path(i)
		for j := 0; j < len(path); j++ {
			if path[j] != '[' {
				continue
			}
			prefix := path[:j]
			k := foldIndex(path, prefix)
			if k < 0 {
				continue
			}
			if seen[prefix] == nil {
				seen[prefix] = map[int64]bool{}
			}
			seen[prefix][k] = true
		}
	}
	var out []string
	for prefix, ks := range seen {
		if int64(len(ks)) != n {
			continue
		}
		all := true
		for k := int64(0); k < n; k++ {
			all = all && ks[k]
		}
		if all {
			out = append(out, prefix)
		}
	}
	slices.Sort(out)
	return out
}

// misaligned is a refusal naming the first operation or buffer that does
// not align.
func (l *layout) misaligned(op int, why string) error {
	o := l.rec.Ops.At(op)
	return fmt.Errorf("%s: operation %d (%q%s) does not align: %s; a dimension that changes the operations must count blocks that repeat one block exactly (as a layer count L does), else make it a constant",
		at(l.name, o.Line), op+1, o.Label, inPath(o.Path), why)
}

// layoutOf places rec's operations and buffers, n being the folding
// dimension's value and prefix the fold's call path; hint, the structure's
// template or nil, tells at n = 1 what only the structure shows
// (placeBuffers).
func layoutOf(rec *record.Recording, name string, n int64, prefix string, hint *template) (*layout, error) {
	l := &layout{rec: rec, name: name, n: n, prefix: prefix, ops: make([]place, rec.Ops.Len()), index: make([]int, rec.Ops.Len())}
	t := &l.tmpl
	type open struct {
		run, iter  int
		index      int64
		start, pos int // the run's first operation; the position within the iteration
	}
	var cur *open
	closeRun := func(end int) error {
		if cur == nil {
			return nil
		}
		if r := &t.runs[cur.run]; cur.iter == 0 {
			r.width = cur.pos + 1
		} else if cur.pos+1 != r.width {
			return l.misaligned(end-1, fmt.Sprintf("the last iteration of %s holds %d operations, the first %d", prefix, cur.pos+1, r.width))
		}
		if int64(cur.iter+1) != n {
			return l.misaligned(end-1, fmt.Sprintf("the run of %s's iterations it ends has %d, not %s = %d", prefix, cur.iter+1, "the dimension's value", n))
		}
		cur = nil
		return nil
	}
	for i := range rec.Ops.Len() {
		o := rec.Ops.At(i)
		k := foldIndex(o.Path, prefix)
		l.index[i] = int(k)
		key := o.Label + " @ " + pattern(o.Path, prefix)
		switch {
		case k < 0:
			if err := closeRun(i); err != nil {
				return nil, err
			}
			l.ops[i] = place{slot: len(t.opKeys)}
			t.opKeys, t.opRun, t.opPhase = append(t.opKeys, key), append(t.opRun, -1), append(t.opPhase, o.Phase)
			continue
		case cur != nil && k == cur.index:
			cur.pos++
		case cur != nil && cur.iter == 0 && (k == cur.index+1 || k == cur.index-1) || cur != nil && cur.iter > 0 && k == cur.index+step(t.runs[cur.run].down):
			r := &t.runs[cur.run]
			if cur.iter == 0 {
				r.width = cur.pos + 1
				r.down, r.known = k < cur.index, true
			} else if cur.pos+1 != r.width {
				return nil, l.misaligned(i-1, fmt.Sprintf("iteration %d of %s holds %d operations, the first %d", cur.index, prefix, cur.pos+1, r.width))
			}
			cur.iter++
			cur.index, cur.pos = k, 0
		default:
			if err := closeRun(i); err != nil {
				return nil, err
			}
			if k != 0 && k != n-1 {
				return nil, l.misaligned(i, fmt.Sprintf("it begins a run of %s's iterations at %d, not at 0 or %d", prefix, k, n-1))
			}
			t.runs = append(t.runs, runShape{})
			cur = &open{run: len(t.runs) - 1, index: k, start: i}
		}
		r := &t.runs[cur.run]
		if cur.iter == 0 {
			l.ops[i] = place{slot: len(t.opKeys)}
			t.opKeys, t.opRun, t.opPhase = append(t.opKeys, key), append(t.opRun, cur.run), append(t.opPhase, o.Phase)
			continue
		}
		if cur.pos >= r.width {
			return nil, l.misaligned(i, fmt.Sprintf("iteration %d of %s holds more operations than the first, %d", k, prefix, r.width))
		}
		first := cur.start + cur.pos
		slot := l.ops[first].slot
		if t.opKeys[slot] != key {
			f := rec.Ops.At(first)
			return nil, l.misaligned(i, fmt.Sprintf("the first iteration's operation %d there is %q%s", first+1, f.Label, inPath(f.Path)))
		}
		if t.opPhase[slot] != o.Phase {
			return nil, l.misaligned(i, fmt.Sprintf("it is in %s, the first iteration's operation %d in %s", phaseName(o.Phase), first+1, phaseName(t.opPhase[slot])))
		}
		l.ops[i] = place{slot: slot, iter: cur.iter}
	}
	if err := closeRun(rec.Ops.Len()); err != nil {
		return nil, err
	}
	return l, l.placeBuffers(hint)
}

func step(down bool) int64 {
	if down {
		return -1
	}
	return 1
}

// alignTo checks that l's template is ref's, l being at another value of
// the folding dimension, and names the first operation that differs.
func (l *layout) alignTo(ref *layout) error {
	a, b := &l.tmpl, &ref.tmpl
	for s := range max(len(a.opKeys), len(b.opKeys)) {
		if s < len(a.opKeys) && s < len(b.opKeys) && a.opKeys[s] == b.opKeys[s] && a.opRun[s] == b.opRun[s] {
			continue
		}
		op := l.firstOp(s)
		if s >= len(b.opKeys) {
			return l.misaligned(op, fmt.Sprintf("the recording at %s has no operation there", ref.point()))
		}
		want := b.opKeys[s]
		if s >= len(a.opKeys) {
			return fmt.Errorf("%s: the recording ends where the recording at %s has %q: a dimension that changes the operations must count blocks that repeat one block exactly, else make it a constant", record.ShowFile(l.name), ref.point(), want)
		}
		return l.misaligned(op, fmt.Sprintf("the recording at %s has %q there", ref.point(), strings.Replace(want, " @ ", " in ", 1)))
	}
	for s, ph := range a.opPhase {
		if ph != b.opPhase[s] {
			return l.misaligned(l.firstOp(s), fmt.Sprintf("it is in %s, where the recording at %s has its operation in %s", phaseName(ph), ref.point(), phaseName(b.opPhase[s])))
		}
	}
	if len(a.runs) != len(b.runs) {
		return fmt.Errorf("%s: the recording has %d runs of iterations, the recording at %s %d: a dimension that changes the operations must count blocks that repeat one block exactly, else make it a constant", record.ShowFile(l.name), len(a.runs), ref.point(), len(b.runs))
	}
	for r := range a.runs {
		if a.runs[r].width != b.runs[r].width || a.runs[r].known && b.runs[r].known && a.runs[r].down != b.runs[r].down {
			return fmt.Errorf("%s: the %s run of iterations differs from the recording's at %s: a dimension that changes the operations must count blocks that repeat one block exactly, else make it a constant", record.ShowFile(l.name), ordinal(r+1), ref.point())
		}
	}
	if !slices.Equal(a.bufKeys, b.bufKeys) || !slices.Equal(a.bufRun, b.bufRun) {
		for s := range a.bufKeys {
			if s < len(b.bufKeys) && a.bufKeys[s] == b.bufKeys[s] && a.bufRun[s] == b.bufRun[s] {
				continue
			}
			buf := l.rec.Buffers.At(l.firstBuf(s))
			var why string
			switch {
			case s >= len(b.bufKeys):
				why = fmt.Sprintf("the recording at %s declares no buffer in its place", ref.point())
			case a.bufKeys[s] != b.bufKeys[s]:
				rb := ref.rec.Buffers.At(ref.firstBuf(s))
				why = fmt.Sprintf("the recording at %s declares buffer %d%s%s in its place", ref.point(), rb.ID, quoted(rb.Name), inGroup(rb.Group))
			default:
				why = fmt.Sprintf("it is declared %s, where the recording at %s declares its buffer %s", runWords(a.bufRun[s]), ref.point(), runWords(b.bufRun[s]))
			}
			return fmt.Errorf("%s: buffer %d%s%s does not align with the recording's at %s: %s; a dimension that changes the operations must count blocks that repeat one block exactly, else make it a constant", at(l.name, buf.Line), buf.ID, quoted(buf.Name), inGroup(buf.Group), ref.point(), why)
		}
		return fmt.Errorf("%s: the recording declares fewer buffers than the recording at %s outside the blocks: a dimension that changes the operations must count blocks that repeat one block exactly, else make it a constant", record.ShowFile(l.name), ref.point())
	}
	return nil
}

func (l *layout) point() string { return pointName(l.rec.Header.Dims) }

// firstOp returns the first operation placed on slot s (at the first
// iteration), or the last operation.
func (l *layout) firstOp(s int) int {
	for i, p := range l.ops {
		if p.slot == s && p.iter == 0 {
			return i
		}
	}
	return len(l.ops) - 1
}

func (l *layout) firstBuf(s int) int {
	for i, p := range l.bufs {
		if p.slot == s && p.iter == 0 {
			return i
		}
	}
	return 0
}

// runWords says where a buffer is declared: outside the blocks (run −1)
// or among the iterations of the blocks' run r.
func runWords(r int) string {
	if r < 0 {
		return "outside the blocks"
	}
	return fmt.Sprintf("among the %s run of iterations", ordinal(r+1))
}

// inGroup writes a buffer's group as " (in g)", or "" when it has none.
func inGroup(g string) string {
	if g == "" {
		return ""
	}
	return " (in " + g + ")"
}

// ordinal writes n as "first", "second", "third", then "4th", "21st",
// "112th".
func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
