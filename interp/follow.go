package interp

import (
	"slices"
	"sync"
	"sync/atomic"

	"memsym/internal/pages"
	"memsym/poly"
	"memsym/record"
)

// Reading all the recordings at once. The recordings of a grid hold the
// same lines but for their sizes and their headers. Point 0's recording is
// read whole, by the Scanner and the Builder, and as it is read its lines
// are handed on, in chunks, to a reader of each other grid point and each
// check point, which reads its own recording by comparison with them
// (record.Scanner.Follow): a line equal to point 0's but for its size needs
// only the size read. A merger numbers the sizes of each chunk, point by
// point, in the order of the chunks. All of it runs at once, on as many
// cores as there are, and holds a few chunks at a time.
//
// A recording that is not so like point 0's (an error, a line written
// otherwise, a stream that cannot compare) stops its reader. Then, for a
// grid point, the grid is read again the usual way, record by record, as
// readStructure and readPoints do, which also says exactly where the
// recordings differ; a check point is checked the usual way (build.check).
// When some grid points stop and others do not, the others go on to the
// end, and so does point 0. A grid point that follows point 0's recording
// to its end, with the structure's header, holds nothing readPoints could
// refuse; so the first difference readPoints would find, in the order of
// the points, is the first found by walking only the others, in that
// order (build.differs), and each point that followed holds as many
// operations as point 0 (build.counts), which buildFolded then need not
// count. A grid refused for one point's mistake is so refused in about the
// time its reading takes, and holds what that reading holds. When every
// grid point stops, the reading stops at once.

// keeper is a stream that can keep its lines for others to follow:
// record.Scanner and record.File are.
type keeper interface {
	record.Stream
	Keep(t *record.Templates)
}

// follower is a stream that can read by comparison: record.Scanner and
// record.File are.
type follower interface {
	record.Stream
	Follow(t *record.Templates, from int, sizes *record.Sizes) int
}

const (
	// chunkBytes is how much of point 0's text a chunk holds.
	chunkBytes = 256 << 10
	// chunksAhead bounds the chunks read and not yet merged, and
	// readerChunks the chunks times the readers, whose sizes they hold: a
	// grid of many points holds fewer chunks at once.
	chunksAhead  = 32
	readerChunks = 256
)

// chunk is some consecutive lines of point 0, and the sizes of their
// buffers and views at every point.
type chunk struct {
	t     record.Templates
	sizes []record.Sizes // [0]: point 0's; [1 + i]: reader i's
	left  atomic.Int32   // readers yet to read it
	read  chan struct{}
}

// reading is one reading of the grid and the check points at once.
type reading struct {
	b       *build
	readers []*reader // grid points 1..n−1, then the check points
	grid    int       // how many of readers are grid points
	free    chan *chunk
	slots   chan struct{} // a chunk takes one until it is merged
	merge   chan *chunk
	cur     *chunk
	stop    atomic.Bool  // some grid point cannot be read so: give up
	lost    atomic.Int32 // the grid points that stopped; when all have, stop
	expect  atomic.Int64 // about how many buffers and views point 0 has, once guessed
	checks  []*pointValues
	vecs    vectorCache // the merger's
	running sync.WaitGroup
}

// reader reads one recording by comparison with point 0's.
type reader struct {
	src    Source
	dims   []record.Dim // its point, as its header said when first read
	in     chan *chunk
	header record.Header
	ok     bool // it read its whole recording so
}

// lose notes that a grid point's reader stopped, and stops the reading when
// no grid point is left to follow to the end.
func (r *reading) lose() {
	if int(r.lost.Add(1)) == r.grid {
		r.stop.Store(true)
	}
}

// readFollowing reads the grid and the check points at once, as above. It
// returns false, having read nothing for good, when the grid must be read
// the usual way; and the values of the check points read so (nil for one
// to check the usual way).
func (b *build) readFollowing(grid, checks []Source, checkDims [][]record.Dim) (bool, []*pointValues, error) {
	n := len(b.g.order)
	if n+len(checks) < 2 {
		return false, nil, nil
	}
	src0 := grid[b.g.order[0]]
	s, err := open(src0)
	if err != nil {
		return false, nil, err
	}
	defer release(s)
	k, ok := s.(keeper)
	if !ok {
		return false, nil, nil
	}
	ahead := min(chunksAhead, max(2, readerChunks/(n-1+len(checks))))
	r := &reading{b: b, grid: n - 1, free: make(chan *chunk, ahead+1), slots: make(chan struct{}, ahead), merge: make(chan *chunk, ahead)}
	for p := 1; p < n; p++ {
		src := b.g.order[p]
		r.readers = append(r.readers, &reader{src: grid[src], dims: b.g.dims[src]})
	}
	for i, src := range checks {
		r.readers = append(r.readers, &reader{src: src, dims: checkDims[i]})
	}
	// The merger fills every point's level at once.
	b.pre = &prefixes{levels: make([]level, n)}
	for j := range b.pre.levels {
		b.pre.levels[j].cur = make(map[link]int32)
	}
	for i, rd := range r.readers {
		rd.in = make(chan *chunk, ahead)
		r.running.Add(1)
		go rd.run(r, 1+i)
	}
	r.running.Add(1)
	go r.merger(n)
	r.cur = r.get()

	b.st, err = readStructurePiped(s, src0, pointName(b.g.dims[b.g.order[0]]), func(rec *record.Record) error {
		k.Keep(&r.cur.t)
		switch rec.Kind {
		case record.KindBuffer:
			r.cur.sizes[0].Append(rec.Buffer.Bytes)
		case record.KindView:
			r.cur.sizes[0].Append(poly.Rat{})
		}
		if r.cur.t.Size() >= chunkBytes {
			if r.stop.Load() {
				return errStopped
			}
			r.send()
		}
		return nil
	}, func(buffers, _ int) { r.expect.Store(int64(buffers)) })
	if err == nil && !r.stop.Load() {
		r.send()
	}
	for _, rd := range r.readers {
		close(rd.in)
	}
	close(r.merge)
	r.running.Wait()
	if err != nil && err != errStopped {
		return false, nil, err
	}
	if err == errStopped || r.stop.Load() {
		return false, nil, nil
	}
	for _, rd := range r.readers[:r.grid] {
		if !rd.ok || !b.sameHeader(&rd.header, rd.dims) {
			b.counts, b.differs = r.firstDifference(grid)
			return false, nil, nil
		}
	}
	checkVals := make([]*pointValues, len(checks))
	for i, rd := range r.readers[r.grid:] {
		if rd.ok && b.sameHeader(&rd.header, rd.dims) {
			checkVals[i] = r.checks[i]
		}
	}
	b.followed = true
	return true, checkVals, nil
}

// firstDifference walks the grid points that did not follow point 0's
// recording to its end, or whose header is not the structure's, in the
// order of the points, and returns each grid point's count of operations
// where it is known, −1 elsewhere, in the grid's order; and the first
// difference readPoints finds, nil if there is none.
func (r *reading) firstDifference(grid []Source) ([]int, error) {
	b := r.b
	counts := make([]int, len(grid))
	for i := range counts {
		counts[i] = -1
	}
	counts[b.g.order[0]] = b.st.rec.Ops.Len()
	for p, rd := range r.readers[:r.grid] {
		if rd.ok && b.sameHeader(&rd.header, rd.dims) {
			counts[b.g.order[1+p]] = b.st.rec.Ops.Len()
		}
	}
	for p := range r.readers[:r.grid] {
		if src := b.g.order[1+p]; counts[src] < 0 {
			if pv := readPoint(grid[src], b.st, b.g.dims[src], 0, nil); pv.err != nil {
				return counts, pv.err
			}
		}
	}
	return counts, nil
}

// get returns an empty chunk.
func (r *reading) get() *chunk {
	select {
	case c := <-r.free:
		return c
	default:
	}
	c := &chunk{sizes: make([]record.Sizes, 1+len(r.readers))}
	c.t.Grow(chunkBytes + 4<<10)
	return c
}

// put gives back a chunk merged.
func (r *reading) put(c *chunk) {
	c.t.Reset()
	for i := range c.sizes {
		c.sizes[i].Reset()
	}
	select {
	case r.free <- c:
	default:
	}
}

// send hands the current chunk to the readers and the merger.
func (r *reading) send() {
	c := r.cur
	if c.t.Len() == 0 {
		return
	}
	r.slots <- struct{}{}
	c.left.Store(int32(len(r.readers)))
	c.read = make(chan struct{})
	for _, rd := range r.readers {
		rd.in <- c
	}
	r.merge <- c
	r.cur = r.get()
}

// run reads rd's recording, chunk by chunk; i is rd's place in the chunks'
// sizes. It takes every chunk, read or not, until there are no more.
func (rd *reader) run(r *reading, i int) {
	defer r.running.Done()
	grid := i <= r.grid
	f := rd.start()
	if f == nil && grid {
		r.stop.Store(true)
	}
	for c := range rd.in {
		if f != nil && !(grid && r.stop.Load()) {
			// As many sizes as point 0's: room for them made once, not
			// grown as they come (some 80 readers of a 3^4 grid at once).
			c.sizes[i].Grow(c.sizes[0].Len()) // empty: new, or emptied by put
			k := f.Follow(&c.t, 0, &c.sizes[i])
			if k < c.t.Len() {
				release(f)
				f = nil
				if grid {
					r.lose()
				}
			}
		}
		if c.left.Add(-1) == 0 {
			close(c.read)
		}
	}
	if f == nil {
		return
	}
	defer release(f)
	// The recording must end where point 0's did.
	rd.ok = !r.stop.Load() && !f.Scan() && f.Err() == nil
	if !rd.ok && grid && !r.stop.Load() {
		r.lose()
	}
}

// start opens rd's recording and reads its header; it returns nil when the
// stream cannot follow or the first record is not a header.
func (rd *reader) start() follower {
	s, err := open(rd.src)
	if err != nil {
		return nil
	}
	f, ok := s.(follower)
	if !ok || !f.Scan() || f.Record().Kind != record.KindHeader {
		release(s)
		return nil
	}
	h := f.Record().Header
	rd.header = h
	rd.header.Dims = append(record.Point(nil), h.Dims...)
	rd.header.Consts = append([]record.Const(nil), h.Consts...)
	return f
}

// merger numbers the sizes of each chunk, in the chunks' order, once every
// reader has read it: each buffer's value vector, point by point, and each
// check point's values.
func (r *reading) merger(n int) {
	defer r.running.Done()
	r.checks = make([]*pointValues, len(r.readers)-r.grid)
	tables := make([]*values, len(r.checks))
	for i := range r.checks {
		tables[i] = newValues(0)
		tables[i].id(poly.Rat{})
		r.checks[i] = &pointValues{}
	}
	grown := false
	for c := range r.merge {
		<-c.read
		if n := int(r.expect.Load()); !grown && n > 0 {
			// Room for every buffer's number at once, rather than copies
			// as they come.
			grown = true
			r.b.class = pages.Grow(r.b.class, max(0, n-len(r.b.class)))
			for _, pv := range r.checks {
				pv.local = pages.Grow(pv.local, max(0, n-len(pv.local)))
			}
		}
		if !r.stop.Load() && r.lost.Load() == 0 {
			r.mergeChunk(c, n, tables)
		}
		r.put(c)
		<-r.slots
	}
	for i, t := range tables {
		r.checks[i].table = t.list
	}
}

// mergeChunk extends the value vectors of a chunk's buffers and views with
// their sizes at every grid point, and records the check points' sizes.
func (r *reading) mergeChunk(c *chunk, n int, tables []*values) {
	b := r.b
	first := &c.sizes[0]
	for p := 1; p < n; p++ {
		if c.sizes[p].Len() != first.Len() {
			r.stop.Store(true)
			return
		}
	}
	if r.vecs.n != n {
		r.vecs = newVectorCache(n)
	}
	vec := make([]int64, n)
	for j := range first.Len() {
		h, whole := uint64(n), true
		for p := range n {
			v, ok := c.sizes[p].Int(j)
			if !ok {
				whole = false
				break
			}
			vec[p] = v
			h = (h ^ uint64(v)) * 0x9e3779b97f4a7c15
		}
		if whole {
			if class, ok := r.vecs.get(vec, h); ok {
				b.class = append(b.class, class)
				continue
			}
		}
		class := b.pre.extendAt(0, -1, b.vals.id(first.At(j)))
		for p := 1; p < n; p++ {
			class = b.pre.extendAt(p, class, b.vals.id(c.sizes[p].At(j)))
		}
		if whole {
			r.vecs.put(vec, h, class)
		}
		b.class = append(b.class, class)
	}
	for i, t := range tables {
		sizes := &c.sizes[n+i]
		if sizes.Len() != first.Len() {
			continue // that check point is read again
		}
		pv := r.checks[i]
		for j := range sizes.Len() {
			pv.local = append(pv.local, t.id(sizes.At(j)))
		}
	}
}

// sameHeader reports whether h is the structure's header but for its
// point, which is dims.
func (b *build) sameHeader(h *record.Header, dims []record.Dim) bool {
	sh := &b.st.rec.Header
	return h.Version == sh.Version && h.Entry == sh.Entry && h.Realization == sh.Realization &&
		slices.Equal(h.Consts, sh.Consts) && slices.Equal(h.Dims, dims) && dimNames(h.Dims) == dimNames(sh.Dims)
}
