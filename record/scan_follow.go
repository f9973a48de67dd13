package record

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"memsym/poly"
)

// Reading by comparison. The recordings of one program at several points
// hold the same lines but for their sizes: the values of "shape" and
// "bytes". Templates keep one recording's lines as Scan read them, and
// Follow reads another recording's lines by comparing each with its
// template, reading only the size, a plain array of integers or a plain
// integer or fraction, where the template has one. A line that differs
// anywhere else, or whose size is written in any other way, stops Follow
// before it: Scan then reads it in full, so that Follow never accepts what
// Scan would refuse, nor reads it differently (FuzzFollow checks it).

// Templates are lines of a recording kept, in order, to read the same lines
// of another recording of the program by comparison (Scanner.Follow).
type Templates struct {
	text  []byte // the lines, each ended by a newline
	lines []template
	// Or the records a Live stream kept (Live.Keep), for Live.Follow: a
	// Templates holds lines or records, never both.
	recs []liveTemplate
	ints []int64 // the slices of recs
	held int     // about the bytes recs hold, for Size
	open int     // the last line with a size, whose unit may go on (template.unit); −1 for none
}

// template is one line of Templates, in 32 bytes (28 on a 32-bit
// machine): every reader of a grid point goes through them all.
type template struct {
	end    int   // the line's end in text, after its newline
	at, to int32 // the size's value, from the line's start; at < 0 when it has none
	// For a line with a size: the line after the last of the lines
	// without one that follow it, which followUnit compares with it as one;
	// 0 while those lines go on to the last line kept; noUnit when one of
	// them is a view, whose size (zero) would be owed.
	unit  int32
	rank  int32 // for a shape, its rank
	bits  int32 // for a buffer's shape, its dtype's bits
	memo  int16 // for a shape, its entry in a shapeMemo, or −1
	kind  Kind  // the record's kind
	bytes bool  // the size is "bytes" (else "shape")
}

// noUnit is template.unit for a line that followUnit does not read.
const noUnit = -1

// Len returns the number of lines kept.
func (t *Templates) Len() int { return len(t.lines) + len(t.recs) }

// Size returns the bytes of text kept, or about the bytes the records kept
// hold.
func (t *Templates) Size() int { return len(t.text) + t.held }

// Reset empties t, keeping its memory. The strings of records kept stay
// referenced until their places are kept again or t is dropped: a chunk's
// worth of a program's names, which clearing them at each Reset would cost
// more to let go (a pass over every record) than holding them does.
func (t *Templates) Reset() {
	t.text = t.text[:0]
	t.lines = t.lines[:0]
	t.recs = t.recs[:0]
	t.ints = t.ints[:0]
	t.held = 0
}

// Kind returns the kind of line i's record.
func (t *Templates) Kind(i int) Kind {
	if len(t.recs) > 0 {
		return t.recs[i].kind
	}
	return t.lines[i].kind
}

// Grow makes room in t for about n more bytes of lines, so that keeping
// them copies nothing as t grows.
func (t *Templates) Grow(n int) {
	t.text = slices.Grow(t.text, n)
	t.lines = slices.Grow(t.lines, n/64)
}

// Keep adds the current record's line to t. The record must be whole: Keep
// is for a Scan that returned true.
func (s *Scanner) Keep(t *Templates) {
	if s.m != nil {
		defer s.guard(func() {})()
	}
	s.keep(t)
}

// keep is Keep.
func (s *Scanner) keep(t *Templates) {
	if len(t.lines) == 0 { // a new Templates, or one Reset
		t.open = -1
	}
	t.text = append(t.text, s.cur...)
	t.text = append(t.text, '\n')
	l := template{end: len(t.text), at: -1, to: -1, kind: s.rec.Kind, memo: -1}
	if s.sizeAt >= 0 && (l.kind == KindBuffer || l.kind == KindView) {
		l.at, l.to = int32(s.sizeAt), int32(s.sizeEnd) // a line is at most MaxLine bytes
		b := &s.rec.Buffer
		if b.Shape == nil {
			l.bytes = true
		} else {
			l.rank, l.bits = int32(len(b.Shape)), int32(b.DType.Bits)
			l.memo = memoIndex(s.cur[s.sizeAt:s.sizeEnd])
		}
	}
	switch n := len(t.lines); {
	case l.at >= 0: // the unit before, if any, ends here, and this one starts
		if t.open >= 0 {
			t.lines[t.open].unit = int32(n)
		}
		t.open = n
	case l.kind == KindView && t.open >= 0:
		t.lines[t.open].unit = noUnit
		t.open = -1
	}
	t.lines = append(t.lines, l)
}

// Follow reads the next records as long as each line is the same as its
// template in t, in order from t's line from, but for the value of its
// size. It stops before the first that differs otherwise, or whose size is
// written otherwise than as a plain array of integers, a plain integer or a
// string "N" or "N/M" (Scan reads that one), or at the end of t. It appends
// the bytes of each buffer and view it read to sizes (zero for a view), and
// returns the index in t of the first line it did not read. Record is left
// as it was; Keep is not for the records Follow read. A File's Follow
// reads the file in place where it can (scan_map.go).
func (s *Scanner) Follow(t *Templates, from int, sizes *Sizes) (n int) {
	if s.m == nil && s.mayMap && !s.done {
		s.startMapping()
	}
	if s.m != nil {
		defer s.guard(func() { n = from })()
	}
	return s.follow(t, from, sizes)
}

// follow is Follow.
func (s *Scanner) follow(t *Templates, from int, sizes *Sizes) int {
	n := from
	if s.done || n >= len(t.lines) || len(t.recs) > 0 {
		return n
	}
	s.cur = nil
	start := 0 // where line n starts in t.text
	if n > 0 {
		start = t.lines[n-1].end
	}
	for n < len(t.lines) {
		l := &t.lines[n]
		if l.at < 0 {
			// Lines without a size, in a run: compared as one.
			m := n + 1
			for m < len(t.lines) && t.lines[m].at < 0 {
				m++
			}
			k := s.followRun(t, n, m, start)
			for ; n < k; n++ {
				if t.lines[n].kind == KindView { // a view without a shape
					sizes.Append(poly.Rat{})
				}
				start = t.lines[n].end
			}
			if k < m {
				return n
			}
			continue
		}
		// A line with a size and the lines without one after it, as one;
		// line by line where that fails, to stop at the right line.
		if m, ok := s.followKnown(t, n, start, sizes); ok {
			start = t.lines[m-1].end
			n = m
			continue
		}
		if size, m, ok := s.followUnit(t, n, start); ok {
			sizes.Append(size)
			start = t.lines[m-1].end
			n = m
			continue
		}
		size, ok := s.followSized(t.text[start:l.end], int(l.at), int(l.to), l)
		if !ok {
			return n
		}
		sizes.Append(size)
		start = l.end
		n++
	}
	return n
}

// maxUnit bounds the bytes followUnit compares at once.
const maxUnit = 64 << 10

// followUnit reads line n of t, which has a size, and the lines without one
// after it up to line m, in one comparison, where the input holds them as t
// does but for the size; it reads nothing, and returns false, otherwise.
// start is where line n starts in t.text.
func (s *Scanner) followUnit(t *Templates, n, start int) (size poly.Rat, m int, ok bool) {
	l := &t.lines[n]
	switch m = int(l.unit); m {
	case noUnit:
		return poly.Rat{}, 0, false
	case 0:
		m = len(t.lines)
	}
	unit := t.text[start:t.lines[m-1].end]
	if len(unit) > maxUnit {
		return poly.Rat{}, 0, false
	}
	if need := len(unit) + sizeSlack + 20*int(l.rank); s.end-s.pos < need {
		s.more(need) // at the end of the input, less
	}
	b := s.buf[s.pos:s.end]
	at := int(l.at)
	if len(b) < at || !bytes.Equal(b[:at], unit[:at]) {
		return poly.Rat{}, 0, false
	}
	size, end, ok := s.followValue(b, at, l)
	rest := unit[l.to:]
	if !ok || len(b)-end < len(rest) || !bytes.Equal(b[end:end+len(rest)], rest) {
		return poly.Rat{}, 0, false
	}
	s.pos += end + len(rest)
	s.line += m - n
	s.lastKind, s.lastLine = t.lines[m-1].kind, s.line
	return size, m, true
}

// followKnown is followUnit for a buffer whose shape is one the shape
// memo holds, as most are in a recording whose shapes repeat: the
// comparison, the memo's look-up and the size in one function, the size
// appended to sizes. It returns false, having read nothing, wherever
// followUnit would do anything else (a shape new to the memo, a size that
// is not a whole number of bytes, a buffer that may need more input
// read); followUnit then reads the unit, or finds that it differs.
func (s *Scanner) followKnown(t *Templates, n, start int, sizes *Sizes) (int, bool) {
	l := &t.lines[n]
	m := int(l.unit)
	switch {
	case m == noUnit || l.memo < 0 || l.kind != KindBuffer || s.shapes == nil:
		return 0, false
	case m == 0:
		m = len(t.lines)
	}
	unit := t.text[start:t.lines[m-1].end]
	at := int(l.at)
	b := s.buf[s.pos:s.end]
	// With as many bytes as followUnit wants, it reads no more, and the
	// shape's memoWidth bytes are there (at < len(unit)).
	if len(unit) > maxUnit || len(b) < len(unit)+sizeSlack+20*int(l.rank) || string(b[:at]) != string(unit[:at]) {
		return 0, false
	}
	e := s.shapes.known(b, at, l)
	if e == nil {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(e.p), uint64(l.bits))
	if hi != 0 || lo > math.MaxInt64 || lo%8 != 0 {
		return 0, false
	}
	end := at + e.n
	rest := unit[l.to:]
	if len(b)-end < len(rest) || string(b[end:end+len(rest)]) != string(rest) {
		return 0, false
	}
	s.pos += end + len(rest)
	s.line += m - n
	s.lastKind, s.lastLine = t.lines[m-1].kind, s.line
	sizes.ints = append(sizes.ints, int64(lo/8))
	return m, true
}

// followRun reads lines n to m−1 of t, which have no size, where the input
// holds them byte for byte; it returns the first line not read. start is
// where line n starts in t.text.
func (s *Scanner) followRun(t *Templates, n, m, start int) int {
	for n < m {
		avail := s.end - s.pos
		// The lines that the buffer holds whole.
		k := n
		for k < m && t.lines[k].end-start <= avail {
			k++
		}
		if k == n {
			if !s.more(t.lines[n].end - start) {
				return n
			}
			continue
		}
		seg := t.text[start:t.lines[k-1].end]
		if !bytes.Equal(s.buf[s.pos:s.pos+len(seg)], seg) {
			// Find the first line that differs; those before it are read.
			for n < k && bytes.Equal(s.buf[s.pos:s.pos+t.lines[n].end-start], t.text[start:t.lines[n].end]) {
				s.advance(t.lines[n].end-start, t.lines[n].kind)
				start = t.lines[n].end
				n++
			}
			return n
		}
		s.pos += len(seg)
		s.line += k - n
		s.lastKind, s.lastLine = t.lines[k-1].kind, s.line
		start = t.lines[k-1].end
		n = k
	}
	return n
}

// advance passes one line of length n, whose record is of kind k.
func (s *Scanner) advance(n int, k Kind) {
	s.pos += n
	s.line++
	s.lastKind, s.lastLine = k, s.line
}

// more reads until the buffer holds at least n unread bytes, and reports
// whether it does; it reports false at the end of the input or an error.
func (s *Scanner) more(n int) bool {
	for s.end-s.pos < n {
		if s.eof || s.err != nil || n > s.maxLine+1 {
			return false
		}
		before := s.end - s.pos
		s.fill()
		if s.err != nil {
			return false
		}
		if s.end-s.pos == before && !s.eof {
			return false // no progress: Scan says why
		}
	}
	return true
}

// sizeSlack is the most a size's value may outgrow its template's and be
// read by Follow: its digits and spacing may differ in length.
const sizeSlack = 64

// followSized reads one line like line, whose size is its bytes [at, to),
// and returns the line's size; ok is false, and nothing read, if the input
// has no such line next.
func (s *Scanner) followSized(line []byte, at, to int, l *template) (poly.Rat, bool) {
	slack := sizeSlack + 20*int(l.rank)
	s.more(len(line) + slack) // at the end of the input, less
	b := s.buf[s.pos:s.end]
	if len(b) < at || !bytes.Equal(b[:at], line[:at]) {
		return poly.Rat{}, false
	}
	size, end, ok := s.followValue(b, at, l)
	rest := line[to:]
	if !ok || len(b)-end < len(rest) || !bytes.Equal(b[end:end+len(rest)], rest) {
		return poly.Rat{}, false
	}
	s.advance(end+len(rest), l.kind)
	return size, true
}

// followValue reads the size at b[at] of a line like l, and returns its
// bytes and the position after it.
func (s *Scanner) followValue(b []byte, at int, l *template) (poly.Rat, int, bool) {
	switch {
	case !l.bytes:
		return s.followShape(b, at, l)
	case at < len(b) && b[at] == '"':
		return followFraction(b, at)
	}
	v, end, ok := fastInt(b, at, false)
	return poly.Int(v), end, ok
}

// followShape reads a shape at b[at] and returns its buffer's bytes (zero
// for a view's) and the position after it.
func (s *Scanner) followShape(b []byte, at int, l *template) (poly.Rat, int, bool) {
	if at >= len(b) || b[at] != '[' {
		return poly.Rat{}, 0, false
	}
	if s.shapes == nil {
		s.shapes = new(shapeMemo)
	}
	if p, end, ok := s.shapes.product(b, at, l); ok {
		if l.kind == KindView {
			return poly.Rat{}, end, true
		}
		if hi, lo := bits.Mul64(uint64(p), uint64(l.bits)); hi == 0 && lo <= math.MaxInt64 {
			if lo%8 == 0 {
				return poly.Int(int64(lo / 8)), end, true
			}
			return poly.Frac(int64(lo), 8), end, true
		}
	}
	// A shape whose product does not fit, or written otherwise.
	shape, end, ok := fastInts(b, at, s.ids.follow, false)
	s.ids.follow = shape
	if !ok || len(shape) != int(l.rank) {
		return poly.Rat{}, 0, false
	}
	if l.kind == KindView {
		return poly.Rat{}, end, true
	}
	return sizeOfBits(int64(l.bits), shape), end, true
}

// shapeProduct reads a shape of the given rank at b[at] == '[', its
// numbers of at most 18 digits without leading zeros, and returns the
// product of its numbers and the position after it; ok is false for
// anything else, and for a product beyond int64.
func shapeProduct(b []byte, at, rank int) (p int64, end int, ok bool) {
	i := skipSpace(b, at+1)
	if rank == 0 {
		if i < len(b) && b[i] == ']' {
			return 1, i + 1, true
		}
		return 0, 0, false
	}
	p = 1
	for n := 0; ; {
		start := i
		var v uint64
		for i < len(b) && b[i]-'0' <= 9 {
			v = v*10 + uint64(b[i]-'0')
			i++
		}
		if d := i - start; d == 0 || d > 18 || d > 1 && b[start] == '0' {
			return 0, 0, false
		}
		hi, lo := bits.Mul64(uint64(p), v)
		if hi != 0 || lo > math.MaxInt64 {
			return 0, 0, false
		}
		p = int64(lo)
		n++
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, 0, false
		}
		if b[i] == ']' {
			if n != rank {
				return 0, 0, false
			}
			return p, i + 1, true
		}
		if b[i] != ',' || n == rank {
			return 0, 0, false
		}
		i = skipSpace(b, i+1)
	}
}

// shapeMemo remembers the shapes Follow read and their products: a
// recording writes few distinct shapes, and comparing a shape's text with
// one read before costs less than reading its numbers again. Its entries
// are found by the text of the template's shape, which Keep hashes
// (template.memo): lines whose shapes are alike at point 0 are alike at
// another point too, as a rule, and an entry holds the last two shapes
// that were new to it, for shapes that point 0 makes alike by chance
// (B·T·T and B·T·D are both [1, 64, 64] at B = 1, T = D = 64). A shape is
// taken from one only when its text is the entry's byte for byte, "[" to
// "]", and its rank the same, so its product is the one shapeProduct
// gives: shapeProduct reads nothing past the "]". Another shape is read as
// ever, and takes the place of the entry's shape read less lately. (Which
// was read last is noted beside the entries, rather than by moving them: a
// template whose shapes alternate at another point, B·T·T and B·T·D, would
// move them at every line.)
type shapeMemo struct {
	e    [memoSize][2]shapeEntry // two shapes an entry
	last [memoSize]uint8         // which of an entry's two was read last
}

const memoSize = 256

type shapeEntry struct {
	w, mask [3]uint64 // the text, little-endian, and which of its bytes are
	n       int       // its length; 0 for no entry
	rank    int
	p       int64
}

// holds reports whether the entry holds the shape of the given rank whose
// text starts the words w0, w1, w2 (the bytes at the shape, little-endian).
func (e *shapeEntry) holds(rank int, w0, w1, w2 uint64) bool {
	return e.n > 0 && e.rank == rank && w0&e.mask[0] == e.w[0] && w1&e.mask[1] == e.w[1] && w2&e.mask[2] == e.w[2]
}

// memoWidth is the longest shape text a shapeMemo holds.
const memoWidth = 24

// memoIndex returns where the entry for a template whose shape's text is
// text is found, or −1 for a text too long to hold.
func memoIndex(text []byte) int16 {
	n := len(text)
	if n > memoWidth {
		return -1
	}
	var w0, w1, w2 uint64
	if full := text[:cap(text)]; len(full) >= memoWidth {
		// The text's words read in place, the bytes past it masked off.
		w0 = binary.LittleEndian.Uint64(full) & wordBytes(n)
		w1 = binary.LittleEndian.Uint64(full[8:]) & wordBytes(n-8)
		w2 = binary.LittleEndian.Uint64(full[16:]) & wordBytes(n-16)
	} else {
		var w [memoWidth]byte
		copy(w[:], text)
		w0, w1, w2 = binary.LittleEndian.Uint64(w[:]), binary.LittleEndian.Uint64(w[8:]), binary.LittleEndian.Uint64(w[16:])
	}
	h := w0*0x9e3779b97f4a7c15 ^ w1*0xc2b2ae3d27d4eb4f ^ w2*0x165667b19e3779f9 ^ uint64(n)
	return int16((h * 0xff51afd7ed558ccd) >> (64 - 8))
}

// wordBytes returns the mask of a word's first n bytes, n clamped to 0..8.
func wordBytes(n int) uint64 {
	switch {
	case n <= 0:
		return 0
	case n >= 8:
		return ^uint64(0)
	}
	return lowBytes(n)
}

// known returns the entry that holds the shape at b[at] of a line like l,
// noting it as the one read last; nil where the memo holds none, or l has
// no entry, or b ends within memoWidth bytes of at.
func (m *shapeMemo) known(b []byte, at int, l *template) *shapeEntry {
	if l.memo < 0 || len(b)-at < memoWidth {
		return nil
	}
	w0 := binary.LittleEndian.Uint64(b[at:])
	w1 := binary.LittleEndian.Uint64(b[at+8:])
	w2 := binary.LittleEndian.Uint64(b[at+16:])
	es := &m.e[l.memo]
	for k := range es {
		if e := &es[k]; e.holds(int(l.rank), w0, w1, w2) {
			m.last[l.memo] = uint8(k)
			return e
		}
	}
	return nil
}

// product is shapeProduct for a shape at b[at] of a line like l, by the
// memo where it can be.
func (m *shapeMemo) product(b []byte, at int, l *template) (p int64, end int, ok bool) {
	if e := m.known(b, at, l); e != nil {
		return e.p, at + e.n, true
	}
	p, end, ok = shapeProduct(b, at, int(l.rank))
	if n := end - at; ok && n <= memoWidth && l.memo >= 0 && len(b)-at >= memoWidth {
		w0 := binary.LittleEndian.Uint64(b[at:])
		w1 := binary.LittleEndian.Uint64(b[at+8:])
		w2 := binary.LittleEndian.Uint64(b[at+16:])
		es := &m.e[l.memo]
		k := 1 - m.last[l.memo]&1 // the one read less lately
		m.last[l.memo] = k
		e := &es[k]
		var mask [3]uint64
		for i := range mask {
			switch k := n - 8*i; {
			case k >= 8:
				mask[i] = ^uint64(0)
			case k > 0:
				mask[i] = ^uint64(0) >> (64 - 8*k)
			}
		}
		*e = shapeEntry{w: [3]uint64{w0 & mask[0], w1 & mask[1], w2 & mask[2]}, mask: mask, n: n, rank: int(l.rank), p: p}
	}
	return p, end, ok
}

// followFraction reads a string "N" or "N/M" at b[at] == '"', its numbers
// of at most 18 digits without leading zeros and M > 0, and returns its
// value and the position after it.
func followFraction(b []byte, at int) (poly.Rat, int, bool) {
	n, i, ok := fastInt(b, at+1, false)
	if !ok || i >= len(b) {
		return poly.Rat{}, 0, false
	}
	if b[i] == '"' {
		return poly.Int(n), i + 1, true
	}
	if b[i] != '/' {
		return poly.Rat{}, 0, false
	}
	d, i, ok := fastInt(b, i+1, false)
	if !ok || d == 0 || i >= len(b) || b[i] != '"' {
		return poly.Rat{}, 0, false
	}
	return poly.Frac(n, d), i + 1, true
}
