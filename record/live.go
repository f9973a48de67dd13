package record

import (
	"runtime"
	"slices"
	"unsafe"

	"memsym/poly"
)

// Live is a Stream of a recording that Go code makes as it is read: the
// code (the maker) records through a Recorder (NewRecorderTo) on a
// goroutine of its own, which makes records only as the reader asks for
// them, so that a recording of millions of operations is never held whole.
// Like a Scanner, a Live stream can keep its records (Keep) and read
// another point's recording of the same program by comparison with them
// (Follow): the maker's records are then compared as they are made, never
// copied, and a Recorder's calls the same as their templates but for their
// sizes make no record at all.
//
// Its records are not checked: a Builder reading the stream checks them as
// it checks a file's.
type Live struct {
	req   chan liveReq
	resp  chan liveResp
	stop  chan struct{} // closed by Close: the maker stops
	buf   *batch        // records made and not yet read, from next
	spare *batch        // the other batch, asked for ahead when ahead
	next  int
	ahead bool // a batch is asked for and not yet received
	asked int  // batches asked for: the first holds one record, the header
	ended bool // the maker has finished: buf holds the last of its records
	rec   *Record
	err   error
	grow  [2]int // the room the maker said it needs, from the records read
}

// liveReq asks the maker for the next records: a batch of them (batch
// non-nil), or to read them by comparison with t from its record n on
// (follow), up to t's end or the first that differs.
type liveReq struct {
	batch *batch
	max   int // the most records the batch is to hold
	t     *Templates
	n     int
	sizes *Sizes // the reader's, which it does not touch until answered
}

// liveResp answers a liveReq; ended says the maker has finished, with the
// error err.
type liveResp struct {
	batch *batch
	n     int
	ended bool
	err   error
}

// liveBatchRecords is how many records the maker makes ahead of a reader
// that scans.
const liveBatchRecords = 1024

// NewLive returns the stream of the records gen hands to its sink, which
// gen makes on a goroutine of its own as the stream is read. gen's error,
// if any, ends the stream and is its Err. Close the stream when done with
// it, read to its end or not: the maker, stopped, does not return from
// its sink's Add (runtime.Goexit), so gen must hold nothing that needs
// releasing by code after Add.
func NewLive(gen func(sink Sink) error) *Live {
	l := &Live{
		req:   make(chan liveReq),
		resp:  make(chan liveResp, 1),
		stop:  make(chan struct{}),
		buf:   &batch{},
		spare: &batch{},
	}
	go func() {
		w := &liveSink{l: l}
		if !w.wait() {
			return
		}
		err := gen(w)
		if err == nil {
			err = w.err
		}
		// Answer the last request, waiting for one if none is pending.
		for w.req == nil {
			if !w.wait() {
				return
			}
		}
		w.reply(true, err)
	}()
	return l
}

// liveSink is the maker's side of a Live stream: it answers the reader's
// requests with the records the maker makes.
type liveSink struct {
	l    *Live
	req  *liveReq // the request being answered; nil when none is
	cur  liveReq
	err  error
	made [2]int // the buffers and views, and the operations, made so far
	// While a request to follow is answered, its templates, the index of
	// the next one to compare (the request's n, as it goes on) and the
	// reader's sizes, held here so that a Recorder's call reaches them
	// at once; recs is nil while no such request is.
	recs  []liveTemplate
	ints  []int64 // the templates' ints
	n     int
	sizes *Sizes
}

// count counts a record of kind k made.
func (w *liveSink) count(k Kind) {
	switch k {
	case KindBuffer, KindView:
		w.made[0]++
	case KindOp:
		w.made[1]++
	}
}

// wait waits for the reader's next request; when the stream is closed it
// reports false, or in Add ends the maker.
func (w *liveSink) wait() bool {
	select {
	case w.cur = <-w.l.req:
		w.req = &w.cur
		if w.cur.batch == nil {
			w.recs, w.ints, w.n, w.sizes = w.cur.t.recs, w.cur.t.ints, w.cur.n, w.cur.sizes
		}
		return true
	case <-w.l.stop:
		return false
	}
}

// answer sends the answer to the pending request.
func (w *liveSink) answer() { w.reply(false, nil) }

// reply answers the pending request, saying whether the maker has ended,
// with its error.
func (w *liveSink) reply(ended bool, err error) {
	r := w.req
	if r.batch == nil {
		r.n = w.n
	}
	w.req, w.recs, w.ints, w.sizes = nil, nil, nil, nil
	w.l.resp <- liveResp{batch: r.batch, n: r.n, ended: ended, err: err}
}

// Grow passes the maker's Grow on to the reader, with the batch being
// made, as the counts the recording will hold: those made so far and the
// room asked for.
func (w *liveSink) Grow(buffers, ops int) {
	if w.req == nil && !w.wait() {
		runtime.Goexit()
	}
	if w.req.batch != nil {
		w.req.batch.grow = [2]int{w.made[0] + max(buffers, 0), w.made[1] + max(ops, 0)}
	}
}

func (w *liveSink) Add(r *Record) error {
	for {
		if w.req == nil && !w.wait() {
			runtime.Goexit() // the stream is closed: make nothing more
		}
		q := w.req
		if q.batch != nil {
			w.count(r.Kind)
			q.batch.add(r, true)
			if len(q.batch.recs) >= q.max {
				w.answer()
			}
			return nil
		}
		if w.n < len(w.recs) && sameButSize(&w.recs[w.n], w.ints, r) {
			switch r.Kind {
			case KindBuffer:
				w.took(r.Buffer.Bytes, true)
			case KindView:
				w.took(poly.Rat{}, true)
			default:
				w.took(poly.Rat{}, false)
			}
			return nil
		}
		// r differs from its template, or comes after the last: the
		// reader reads it otherwise, on its next request.
		w.answer()
	}
}

// keepInts copies s to the end of *ints and returns the copy; nil stays
// nil. The copies made before stay valid when *ints grows.
func keepInts(ints *[]int64, s []int64) []int64 {
	if s == nil {
		return nil
	}
	n := len(*ints)
	*ints = append(*ints, s...)
	return (*ints)[n:len(*ints):len(*ints)]
}

// ask sends the maker a request, unless it has finished.
func (l *Live) ask(q liveReq) bool {
	if l.ended {
		return false
	}
	l.asked++
	l.req <- q
	return true
}

// receive waits for the answer to a request.
func (l *Live) receive() liveResp {
	a := <-l.resp
	if a.ended {
		l.ended, l.err = true, a.err
	}
	return a
}

// askBatch asks for the next batch of records into the spare batch.
func (l *Live) askBatch() {
	max := liveBatchRecords
	if l.asked == 0 {
		max = 1 // the header alone: a reader of headers stops there
	}
	l.spare.reset()
	l.ahead = l.ask(liveReq{batch: l.spare, max: max})
}

// fill makes buf hold records not yet read, if the maker has any more: it
// receives the batch asked for ahead, asking for one if none is, and asks
// for the one after it.
func (l *Live) fill() bool {
	for l.next == len(l.buf.recs) {
		if !l.ahead {
			l.askBatch()
			if !l.ahead {
				return false
			}
		}
		a := l.receive()
		l.ahead = false
		l.buf, l.spare, l.next = a.batch, l.buf, 0
		if a.batch.grow != [2]int{} {
			l.grow = a.batch.grow
		}
		if l.asked > 1 {
			l.askBatch()
		}
	}
	return true
}

// Scan advances to the next record.
func (l *Live) Scan() bool {
	l.rec = nil
	if !l.fill() {
		return false
	}
	l.rec = &l.buf.recs[l.next]
	l.next++
	return true
}

// Expected returns how many buffers (views included) and operations the
// maker said its recording holds: those it had made when it asked for room
// (Recorder.Grow), and that room; or zeros.
func (l *Live) Expected() (buffers, ops int) { return l.grow[0], l.grow[1] }

// Record returns the current record, valid until the next Scan or Follow.
func (l *Live) Record() *Record { return l.rec }

// Err returns the maker's error, once the stream has ended.
func (l *Live) Err() error { return l.err }

// Close stops the maker, if it has not finished.
func (l *Live) Close() error {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	// A batch asked for ahead is the maker's to finish and drop.
	l.buf, l.spare, l.rec = &batch{}, &batch{}, nil
	l.next, l.ended, l.ahead = 0, true, false
	return nil
}

// liveTemplate is a record kept by Live.Keep: what Follow compares of it,
// in 96 bytes (on a 64-bit machine): every maker of another point goes
// through them all.
type liveTemplate struct {
	kind   Kind
	isView bool // a buffer's or a view's
	launch bool // an operation's
	role   Role
	phase  Phase
	rank   int32 // the shape's axes; −1 for none
	bits   int32 // the dtype's bits
	id, of int64
	dtype  string // the dtype's name
	name   string // a buffer's name, an operation's label
	group  string // a buffer's group, an operation's path
	// An operation's reads and writes, or a result's ids, in the
	// Templates' ints: from at, n of them, an operation's first split its
	// reads.
	at, n, split int32
}

// ints returns the integers k keeps, in ints, the Templates' ints.
func (k *liveTemplate) ints(ints []int64) []int64 { return ints[k.at : k.at+k.n] }

// Keep adds the current record to t, for Follow; t must hold records
// kept by a Live stream, or nothing.
func (l *Live) Keep(t *Templates) {
	r := l.rec
	k := liveTemplate{kind: r.Kind, rank: -1, at: int32(len(t.ints))}
	switch r.Kind {
	case KindBuffer, KindView:
		b := &r.Buffer
		k.isView, k.role, k.id, k.of, k.name, k.group = b.IsView, b.Role, b.ID, b.Of, b.Name, b.Group
		k.dtype, k.bits = b.DType.Name, int32(b.DType.Bits)
		if b.Shape != nil {
			k.rank = int32(len(b.Shape))
		}
	case KindOp:
		o := &r.Op
		k.launch, k.phase, k.name, k.group = o.Launch, o.Phase, o.Label, o.Path
		k.split = int32(len(o.Reads))
		t.ints = append(t.ints, o.Reads...)
		t.ints = append(t.ints, o.Writes...)
	case KindResult:
		t.ints = append(t.ints, r.Result...)
	}
	k.n = int32(len(t.ints)) - k.at
	t.recs = append(t.recs, k)
	// About a line of text: a record, its integers and its names.
	t.held += 64 + 8*int(k.n) + len(k.name) + len(k.group)
}

// Follow reads the next records as long as each is the same as its
// template in t, in order from t's record from, but for its size: the
// values of its shape, or its bytes. It stops before the first that
// differs otherwise, or at the end of t, as Scanner.Follow does, appending
// each buffer's bytes and each view's zero to sizes, and returns the index
// in t of the first record it did not read. t must hold records kept by a
// Live stream; Follow reads nothing of templates of lines. Record is not
// for the records Follow read.
func (l *Live) Follow(t *Templates, from int, sizes *Sizes) int {
	n := from
	l.rec = nil
	// The records made ahead first.
	for n < len(t.recs) && (l.next < len(l.buf.recs) || l.ahead) {
		if l.next == len(l.buf.recs) {
			a := l.receive()
			l.ahead = false
			l.buf, l.spare, l.next = a.batch, l.buf, 0
			continue
		}
		r := &l.buf.recs[l.next]
		if !sameButSize(&t.recs[n], t.ints, r) {
			return n
		}
		switch r.Kind {
		case KindBuffer:
			sizes.Append(r.Buffer.Bytes)
		case KindView:
			sizes.Append(poly.Rat{})
		}
		l.next++
		n++
	}
	if n == len(t.recs) || !l.ask(liveReq{t: t, n: n, sizes: sizes}) {
		return n
	}
	return l.receive().n
}

// sameButSize reports whether record r is the same as the one kept as k
// but for the values of a buffer's or a view's shape (not its rank) and a
// buffer's bytes, and its line.
func sameButSize(k *liveTemplate, ints []int64, r *Record) bool {
	if k.kind != r.Kind {
		return false
	}
	switch r.Kind {
	case KindBuffer, KindView:
		b := &r.Buffer
		rank := int32(-1)
		if b.Shape != nil {
			rank = int32(len(b.Shape))
		}
		return k.sameBuffer(b.ID, b.Of, b.IsView, rank, b.Role, b.DType, b.Name, b.Group)
	case KindOp:
		o := &r.Op
		return k.sameOp(ints, o.Launch, o.Phase, o.Label, o.Path, o.Reads, o.Writes)
	case KindResult:
		return slices.Equal(k.ints(ints), r.Result)
	}
	return false // headers differ from point to point
}

// sameBuffer reports whether the buffer or view k kept is the same as one
// with these fields, of a shape of rank axes (−1 for none), but for its
// shape's values and its bytes; k's kind is the caller's to compare.
func (k *liveTemplate) sameBuffer(id, of int64, isView bool, rank int32, role Role, t DType, name, group string) bool {
	return k.id == id && k.isView == isView && k.of == of && k.rank == rank &&
		k.role == role && int(k.bits) == t.Bits && sameString(k.dtype, t.Name) &&
		sameString(k.name, name) && sameString(k.group, group)
}

// sameString is a == b, deciding without a call where a and b are the same
// string, as a program's names at each point mostly are: its literals, or
// strings it shares between points.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// sameOp reports whether the operation k kept is the same as one with
// these fields; k's kind is the caller's to compare. A nil list and an
// empty one are the same: the format writes both as [] or leaves them out.
func (k *liveTemplate) sameOp(ints []int64, launch bool, phase Phase, label, path string, reads, writes []int64) bool {
	ints = k.ints(ints)
	return k.launch == launch && k.phase == phase && sameString(k.name, label) && sameString(k.group, path) &&
		slices.Equal(ints[:k.split], reads) && slices.Equal(ints[k.split:], writes)
}

// following returns the template the maker's next record is to be
// compared with, when the reader reads by comparison (Follow) and has a
// template left; else nil. A Recorder asks it before making a record: when
// its call is the same as the template but for its size, it tells one of
// the took methods and makes no record at all.
func (w *liveSink) following() *liveTemplate {
	if w.n >= len(w.recs) { // recs is nil unless a follow is answered
		return nil
	}
	return &w.recs[w.n]
}

// took takes the record compared with the next template, which was the
// same but for its size: a buffer's bytes or a view's zero when sized, an
// operation's or a result's nothing.
func (w *liveSink) took(size poly.Rat, sized bool) {
	w.count(w.recs[w.n].kind)
	if sized {
		w.sizes.Append(size)
	}
	w.next()
}

// tookBuffer is took for a buffer of size bytes, an int64.
func (w *liveSink) tookBuffer(size int64) {
	w.made[0]++
	w.sizes.AppendInt(size)
	w.next()
}

// tookOp is took for an operation.
func (w *liveSink) tookOp() {
	w.made[1]++
	w.next()
}

// next moves past the template compared, answering the request at the
// last.
func (w *liveSink) next() {
	w.n++
	if w.n == len(w.recs) {
		w.answer()
	}
}
