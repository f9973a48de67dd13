package interp

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// The model of a grid whose operations repeat along one dimension, once
// align.go has placed every recording on one template.
//
// A run of L iterations is read as a compiler reads a loop it peels: the
// first iteration, the middle ones and, when the grid starts at L = 2, the
// last. The first iteration stands apart, for it reads the caller's inputs
// where the others read the block before; the last, peeled, stands apart
// too, for it may be the last to read a buffer every block reads (the
// course GPT's causal mask) and free it. Each fixed operation's live bytes,
// each first and each peeled last iteration's, the parameters, the inputs
// and the outputs are interpolated over the whole grid, as in any model.
// The middle iterations step by equal bytes: at middle iteration t an
// operation's live bytes are base + t·step. The step, a polynomial in the
// other dimensions, is read from the recording with two middle iterations;
// the base, linear in the folding dimension, from those with one or more.
// Buffers are modelled the same way.
//
// The model holds from the grid's least value lo of the folding dimension,
// the grid being lo, lo + 1 and lo + 2: from 1 when the grid starts there
// (the last iteration is then a middle one, on their line), from 2 when it
// starts at 2 (the last is peeled: at L = 1 the one block would be both the
// first and the last, as neither is). The middle ones' bytes being linear
// in t, the largest of them is the first middle one's or the last's, so
// the peak is the largest of the fixed operations', the first iteration's,
// the first and the last middle ones' and the peeled last's live bytes,
// each a polynomial, whatever the step's sign. The structure is the
// recording at lo + 2, whose iterations stand for those. At lo no middle
// iteration runs, so each middle polynomial must there be at most a real
// live set's, lest it overstate the peak or claim it for an operation that
// does not run; that is proven too (foldcheck.go).

// fold is a model's folding dimension and its terms, kept for checking
// recordings at other values and for numbering their operations.
type fold struct {
	dim                     string // the folding dimension
	prefix                  string // the fold's call path
	lo                      int64  // the least value of dim the model holds for: 1, or 2 when the last iteration is peeled
	tmpl                    template
	slotPolys               // the bytes, live bytes for operations' slots
	params, inputs, outputs poly.Poly
	// Per operation of the structure (the recording at the dimension's
	// value lo + 2): how many operations more come before it at each unit
	// of the dimension beyond lo + 2, in the recording at that value.
	opPerUnit []int
	opShift   []int // per operation of the structure: how far its iteration lies from the one it stands for
	flow      flow  // what the grid's operations read, write and launch (alignflow.go)

	// What Measure needs: the grid, the folding dimension's index in it,
	// and the layouts of its recordings and of the check points'.
	g       *grid
	j       int
	lays    []*layout
	ref     *layout // the structure's
	checked []*layout
}

// peeled reports whether the last iteration stands apart.
func (f *fold) peeled() bool { return f.lo == 2 }

// refN is the structure's value of the folding dimension: the least with
// two middle iterations.
func (f *fold) refN() int64 { return f.lo + 2 }

// lastMiddle returns the last middle iteration of a run of n iterations:
// n − 1, or n − 2 when the last is peeled; 0 when there is none.
func (f *fold) lastMiddle(n int64) int {
	if f.peeled() {
		return max(int(n-2), 0)
	}
	return int(n - 1)
}

// isLast reports whether iteration t of a run of n is the peeled last.
func (f *fold) isLast(t int, n int64) bool { return f.peeled() && t > 0 && int64(t) == n-1 }

// foldDim returns the one dimension along which the grid's recordings'
// operation counts differ, or "" when there is no such one; counts holds
// each recording's, in the grid's order.
func foldDim(g *grid, counts []int) string {
	var found []string
	for j, v := range g.vars {
		for i := range counts {
			for k := range counts {
				if counts[i] != counts[k] && sameBut(g.dims[i], g.dims[k], j) && !slices.Contains(found, v) {
					found = append(found, v)
				}
			}
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// opCounts returns how many operations each recording of the grid holds,
// those known (known[i] ≥ 0) as they are, the others found by reading them
// as streams, as many at once as there are cores, and keeping nothing of
// them; ok is false when one cannot be read through (an error, which
// reading it whole finds again).
func opCounts(grid []Source, known []int) (counts []int, ok bool) {
	counts = make([]int, len(grid))
	var failed atomic.Bool
	next := make(chan int, len(grid))
	for i := range grid {
		if known != nil && known[i] >= 0 {
			counts[i] = known[i]
			continue
		}
		next <- i
	}
	close(next)
	var all sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(grid)) {
		all.Go(func() {
			for i := range next {
				if failed.Load() {
					return
				}
				n, ok := opCount(grid[i], &failed)
				if !ok {
					failed.Store(true)
					return
				}
				counts[i] = n
			}
		})
	}
	all.Wait()
	return counts, !failed.Load()
}

// opCount counts the operations of src's recording; it gives up, reporting
// false, on an error or once stop is set. A recording in text is counted
// from its lines' starts (record.Scanner.CountOps): exact for a recording
// the Scanner reads, and what it says of another does not matter here, as
// buildFolded refuses such a grid whatever the counts, reading it whole.
func opCount(src Source, stop *atomic.Bool) (int, bool) {
	s, err := open(src)
	if err != nil {
		return 0, false
	}
	defer release(s)
	if c, ok := s.(interface{ CountOps() (int, error) }); ok {
		n, err := c.CountOps() // a recording in text, counted from its lines' starts
		return n, err == nil
	}
	n := 0
	for k := 0; s.Scan(); k++ {
		if s.Record().Kind == record.KindOp {
			n++
		}
		if k%4096 == 0 && stop.Load() {
			return 0, false
		}
	}
	return n, s.Err() == nil
}

// sameBut reports whether two points differ in dimension j alone.
func sameBut(a, b []record.Dim, j int) bool {
	for i := range a {
		if i != j && a[i].Value != b[i].Value {
			return false
		}
	}
	return a[j].Value != b[j].Value
}

// buildFolded is Build for a grid whose operations differ: when they differ
// along one dimension alone, that dimension counts blocks of operations and
// the recordings align, it models them; it says which operation does not
// align; and when no dimension counts blocks it returns cause, why the
// recordings were refused record by record.
// known holds the recordings' counts of operations where they are known,
// −1 elsewhere; nil for none.
func buildFolded(grid, checks []Source, cause error, known []int) (*Model, error) {
	g, err := formGrid(grid)
	if err != nil {
		return nil, cause
	}
	// Which dimension could count blocks follows from the operations'
	// counts alone, which a pass over each recording finds holding nothing:
	// a grid refused for operations that differ otherwise (the usual
	// mistake) is not then held whole, every point of it, to say so.
	counts, ok := opCounts(grid, known)
	if !ok {
		return nil, cause
	}
	dim := foldDim(g, counts)
	if dim == "" {
		return nil, cause
	}
	recs := make([]*record.Recording, len(grid))
	resultLines := make([]int, len(grid))
	for i, src := range grid {
		st, err := readStructure(src, pointName(g.dims[i]), nil)
		if err != nil {
			return nil, cause
		}
		recs[i], resultLines[i] = st.rec, st.resultLine
	}
	j := slices.Index(g.vars, dim)
	var prefixes []string
	for i, rec := range recs {
		ps := foldPrefixes(rec, g.dims[i][j].Value)
		if i == 0 {
			prefixes = ps
		} else {
			prefixes = slices.DeleteFunc(prefixes, func(p string) bool { return !slices.Contains(ps, p) })
		}
	}
	if len(prefixes) == 0 {
		return nil, cause // no fold's iterations are counted by dim
	}
	f := &fold{dim: dim, prefix: prefixes[0], lo: g.values[j][0]}
	if f.lo > 2 || g.values[j] != [3]int64{f.lo, f.lo + 1, f.lo + 2} {
		return nil, fmt.Errorf("%w; %s counts the iterations of %s, and memsym models such a count from the grid %s ∈ {1, 2, 3}, for every %s ≥ 1, or %s ∈ {2, 3, 4}, for every %s ≥ 2, the first and the last block then standing apart",
			cause, dim, prefixes[0], dim, dim, dim, dim)
	}
	lays := make([]*layout, len(recs))
	ref := -1 // the structure: the first grid point at dim = lo + 2
	for _, i := range g.order {
		if ref < 0 && g.dims[i][j].Value == f.refN() {
			ref = i
		}
	}
	// The recordings at 1 last: their buffers are placed on the
	// structure's template (placeBuffers).
	for _, atOne := range []bool{false, true} {
		for _, i := range g.order {
			n := g.dims[i][j].Value
			if (n == 1) != atOne {
				continue
			}
			var hint *template
			if atOne {
				hint = &lays[ref].tmpl
			}
			if lays[i], err = layoutOf(recs[i], grid[i].Name, n, f.prefix, hint); err != nil {
				return nil, err
			}
			lays[i].resultLine = resultLines[i]
		}
	}
	for _, i := range g.order[1:] {
		if err := lays[i].alignTo(lays[g.order[0]]); err != nil {
			return nil, err
		}
	}
	f.tmpl = lays[ref].tmpl
	if f.flow, err = f.flowOf(lays, g.order, ref); err != nil {
		return nil, err
	}
	f.g, f.j, f.lays, f.ref = g, j, lays, lays[ref]
	if err := f.interpolate(g, j, lays); err != nil {
		return nil, err
	}
	if err := f.atLeast(lays[ref]); err != nil {
		return nil, err
	}
	m := f.model(g, lays[ref])
	for i, src := range checks {
		dims, err := g.checkPoint(src, true)
		if err != nil {
			return nil, &CheckError{Index: i, Err: err}
		}
		l, err := f.check(m, src, dims)
		if err != nil {
			return nil, &CheckError{Index: i, Err: err}
		}
		f.checked = append(f.checked, l)
		m.Checked = append(m.Checked, dimValues(dims))
	}
	return m, nil
}

// slots returns the number of slots, operations' then buffers', and
// whether slot s lies in a run.
func (t *template) slots() int { return len(t.opKeys) + len(t.bufKeys) }

func (t *template) inRun(s int) bool {
	if s < len(t.opKeys) {
		return t.opRun[s] >= 0
	}
	return t.bufRun[s-len(t.opKeys)] >= 0
}

// byIter returns a recording's values by slot and iteration: live bytes
// for operations' slots, bytes for buffers'.
func (l *layout) byIter(c *count.Counts) map[place]poly.Rat {
	nops := len(l.tmpl.opKeys)
	out := map[place]poly.Rat{}
	for i, p := range l.ops {
		out[p] = c.Live[i]
	}
	for i, p := range l.bufs {
		out[place{nops + p.slot, p.iter}] = l.rec.Buffers.Bytes(i)
	}
	return out
}
