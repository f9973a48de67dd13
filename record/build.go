package record

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"memsym/doc"
	"memsym/internal/pages"
	"memsym/poly"
)

// Builder assembles a Recording from its records in file order, checking each
// as it comes: the header first and once, ids unique and declared before use,
// views of declared buffers, temps written before they are read, the result
// last. Its errors say what was expected, without a position: the Scanner and
// Read put the file and line in front.
type Builder struct {
	rec       Recording
	hasHeader bool
	hasResult bool
	bufs      []bufInfo // by position: what the checks need of each buffer and view
	uses      []Use     // by position in rec.Buffers: a temp's use so far (First ≠ 0: some operation has written it)
	nops      int       // the operations so far
	phases    phases    // the operations' phases so far
	tab       *table    // the records' strings and the copies of their slices
	light     bool      // check only, keeping no buffers or operations (Validate)
	lastPath  string    // the path of the last operation, which was valid
	lastDType DType     // the type of the last buffer or view, which was valid
}

// bufInfo is what the Builder's checks need of a buffer or view. Its id,
// which only a refusal needs, is the Recording's (idAt).
type bufInfo struct {
	base int32 // the position of the buffer it stands for: its own, or a view's base's
	role Role
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{}
}

// Add checks r against what came before and adds it.
func (b *Builder) Add(r *Record) error {
	if b.hasResult {
		return fmt.Errorf("%s after the result: the result must be the last line", r.Kind.WithArticle())
	}
	if !b.hasHeader && r.Kind != KindHeader {
		return fmt.Errorf("%s before the header: the first line must be the header {\"memsym\": 1, \"dims\": {...}}", r.Kind.WithArticle())
	}
	if r.Line > math.MaxInt32 {
		return fmt.Errorf("a recording holds at most %d lines", math.MaxInt32)
	}
	switch r.Kind {
	case KindHeader:
		return b.addHeader(&r.Header)
	case KindBuffer, KindView:
		return b.addBuffer(&r.Buffer, r.Line)
	case KindOp:
		return b.addOp(&r.Op, r.Line)
	case KindResult:
		return b.addResult(r.Result)
	}
	return fmt.Errorf("unknown record kind %d", r.Kind)
}

func (b *Builder) addHeader(h *Header) error {
	if b.hasHeader {
		return fmt.Errorf("a second header: a recording has one header, on its first line")
	}
	if err := checkHeader(h); err != nil {
		return err
	}
	b.rec.Header = *h
	b.rec.Header.Dims = append([]Dim(nil), h.Dims...)
	b.rec.Header.Consts = append([]Const(nil), h.Consts...)
	b.hasHeader = true
	return nil
}

// checkHeader checks a header alone: its version, and its dimensions' and
// constants' names and values.
func checkHeader(h *Header) error {
	if h.Version != Version && h.Version != StepVersion {
		return fmt.Errorf("format version %d: this memsym reads versions %d and %d", h.Version, Version, StepVersion)
	}
	seen := make(map[string]bool, len(h.Dims)+len(h.Consts))
	for _, d := range h.Dims {
		if err := checkName("dimension", d.Name); err != nil {
			return err
		}
		if seen[d.Name] {
			return fmt.Errorf("dimension %q given twice", d.Name)
		}
		seen[d.Name] = true
		if d.Value < 1 {
			return fmt.Errorf("dimension %s = %d: dimensions are integers of at least 1", d.Name, d.Value)
		}
	}
	for _, c := range h.Consts {
		if err := checkName("constant", c.Name); err != nil {
			return err
		}
		if seen[c.Name] {
			return fmt.Errorf("%q is given twice among the dimensions and constants", c.Name)
		}
		seen[c.Name] = true
		if !isJSONNumber(c.Value) {
			return fmt.Errorf("constant %s = %q: expected a JSON number", c.Name, c.Value)
		}
	}
	return nil
}

// isJSONNumber reports whether s is exactly one JSON number.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	l := lexer{b: []byte(s)}
	_, _, err := l.number()
	return err == nil && l.i == len(s)
}

// checkName accepts an ASCII letter followed by ASCII letters, digits and
// underscores: the names the polynomials can print and parse back.
func checkName(what, name string) error {
	if name == "" {
		return fmt.Errorf("an empty %s name", what)
	}
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(letter || c == '_' && i > 0 || c >= '0' && c <= '9' && i > 0) {
			return fmt.Errorf("%s name %q: expected an ASCII letter followed by ASCII letters, digits or _", what, name)
		}
	}
	return nil
}

func (b *Builder) addBuffer(buf *Buffer, line int) error {
	what := "buffer"
	if buf.IsView {
		what = "view"
	}
	if _, dup := b.rec.index.get(buf.ID); dup {
		return fmt.Errorf("%s %d is declared twice: ids are unique", what, buf.ID)
	}
	if buf.DType != b.lastDType { // mostly the type before, already checked
		if err := checkDType(buf); err != nil {
			return err
		}
		b.lastDType = buf.DType
	}
	if buf.IsView {
		if buf.Of == buf.ID {
			return fmt.Errorf("view %d is a view of itself: \"of\" must name a buffer declared before it", buf.ID)
		}
		if _, ok := b.rec.index.get(buf.Of); !ok {
			return fmt.Errorf("view %d is of %d, which is not declared before it", buf.ID, buf.Of)
		}
		buf.Role = Temp
		buf.Bytes = poly.Rat{}
	} else if buf.Bytes.Sign() < 0 {
		return fmt.Errorf("buffer %d has %s bytes: sizes are not negative", buf.ID, buf.Bytes)
	} else if !buf.DType.IsZero() {
		if want := sizeOf(buf.DType, buf.Shape); !buf.Bytes.Equal(want) {
			return fmt.Errorf("buffer %d has %s bytes, but its dtype and shape make %s", buf.ID, buf.Bytes, want)
		}
	}
	if buf.Role > State {
		return fmt.Errorf("buffer %d has an unknown role %d", buf.ID, buf.Role)
	}
	if buf.Role == State && b.rec.Header.Version < StepVersion {
		return fmt.Errorf("buffer %d has the role \"state\", which is new in version %d: the header says version %d", buf.ID, StepVersion, b.rec.Header.Version)
	}
	pos := len(b.bufs)
	info := bufInfo{base: int32(pos), role: buf.Role}
	if buf.IsView {
		info.base = b.bufs[b.rec.index.at(buf.Of)].base
	}
	b.rec.index.set(buf.ID, pos)
	b.bufs = append(grow(b.bufs), info)
	b.uses = append(grow(b.uses), Use{})
	if b.light {
		return nil
	}
	kept := *buf
	kept.Line = line
	if kept.Shape == nil && !buf.IsView && !buf.DType.IsZero() {
		kept.Shape = []int64{} // a scalar: a shape, empty
	}
	b.rec.Buffers.add(&kept, b.table())
	return nil
}

// checkDType checks that a buffer's type is one the format can write: a
// named type with its bits, or an unnamed one of at least one bit.
func checkDType(buf *Buffer) error {
	t := buf.DType
	if t.IsZero() {
		return nil
	}
	if t.Name == "" {
		if t.Bits < 1 {
			return fmt.Errorf("buffer %d has a type of %d bits: expected at least 1", buf.ID, t.Bits)
		}
		return nil
	}
	if known, ok := namedDType(t.Name); !ok || known.Bits != t.Bits {
		return fmt.Errorf("buffer %d has an unknown dtype %q of %d bits: expected %s", buf.ID, t.Name, t.Bits, dtypeList)
	}
	return nil
}

func (b *Builder) addOp(op *Op, line int) error {
	if b.nops == math.MaxInt32 {
		return fmt.Errorf("operation %d: a recording holds at most %d operations", int64(b.nops)+1, math.MaxInt32)
	}
	n := b.nops + 1
	// Mostly the path of the operation before, already checked: a
	// recording's operations come in runs of one call's.
	if op.Label == "" || op.Path != b.lastPath {
		if err := checkOp(op); err != nil {
			return fmt.Errorf("operation %d: %w", n, err)
		}
		b.lastPath = op.Path
	}
	if err := b.checkPhase(op, n); err != nil {
		return err
	}
	for _, id := range op.Reads {
		i, err := b.base(id, n, "reads")
		if err != nil {
			return err
		}
		buf := &b.bufs[i]
		if !buf.role.Held() && b.uses[i].First == 0 {
			through := ""
			if b.idAt(i) != id {
				through = fmt.Sprintf(" (through view %d)", id)
			}
			return fmt.Errorf("buffer %d is read%s by operation %d (%s) before any operation writes it%s", b.idAt(i), through, n, Show(op.Label), unwrittenHint(op))
		}
		if err := b.checkState(op, n, i, "reads"); err != nil {
			return err
		}
		if !buf.role.Held() {
			b.uses[i].touch(int32(n), false)
		}
	}
	for _, id := range op.Writes {
		i, err := b.base(id, n, "writes")
		if err != nil {
			return err
		}
		if err := b.checkState(op, n, i, "writes"); err != nil {
			return err
		}
		if !b.bufs[i].role.Held() {
			b.uses[i].touch(int32(n), true)
		}
	}
	b.nops++
	if b.light {
		return nil
	}
	op.Line = line
	b.rec.Ops.add(op, b.table())
	return nil
}

// idAt returns the id of the buffer or view at position pos: the kept
// buffer's, or, checking only (light), the id the index maps to pos, found
// by a search that only a refusal makes.
func (b *Builder) idAt(pos int) int64 {
	if !b.light {
		return b.rec.Buffers.ID(pos)
	}
	return b.rec.index.idOf(pos)
}

// checkOp checks an operation alone: its label and its path.
func checkOp(op *Op) error {
	if op.Label == "" {
		return fmt.Errorf("an operation without a label: \"op\" names it, such as \"Linear.apply/%%5\"")
	}
	return checkPath(op.Path)
}

// base returns the position of the buffer that id stands for.
func (b *Builder) base(id int64, op int, verb string) (int, error) {
	i, ok := b.rec.index.get(id)
	if !ok {
		return 0, fmt.Errorf("operation %d %s %d, which is not declared before it", op, verb, id)
	}
	return int(b.bufs[i].base), nil
}

func (b *Builder) addResult(ids []int64) error {
	for _, id := range ids {
		i, ok := b.rec.index.get(id)
		if !ok {
			return fmt.Errorf("the result names %d, which is not declared", id)
		}
		i = int(b.bufs[i].base)
		if buf := &b.bufs[i]; !buf.role.Held() && b.uses[i].First == 0 {
			if b.idAt(i) != id {
				return fmt.Errorf("the result names view %d of buffer %d, which no operation before it writes (the result is the last line)", id, b.idAt(i))
			}
			return fmt.Errorf("the result names buffer %d, which no operation before it writes (the result is the last line)", b.idAt(i))
		}
	}
	b.rec.Result = b.table().ints.keep(ids)
	if b.rec.Result == nil {
		b.rec.Result = []int64{}
	}
	b.hasResult = true
	return nil
}

// Show returns a label or name from a recording for a message or a table:
// in backquotes, or quoted with escapes when it has characters that would
// break the line or the quotes.
func Show(s string) string {
	for _, c := range s {
		if c == '`' || c == utf8.RuneError || doc.Hidden(c) {
			return strconv.Quote(s)
		}
	}
	return "`" + s + "`"
}

// WithArticle returns the kind with its article, for a message: "a
// buffer", "an op".
func (k Kind) WithArticle() string {
	if k == KindOp {
		return "an op"
	}
	return "a " + k.String()
}

// Grow makes room for at least buffers more buffers and views and ops more
// operations, so that a recording whose size is known ahead is assembled
// without copying what it holds as it grows. Negative counts are taken as 0.
// The room may be made resident at once (pages.Grow): the counts should be
// known, or estimated closely, not guessed (GrowFor).
func (b *Builder) Grow(buffers, ops int) { b.room(buffers, ops, false) }

// growLazy is Grow for counts guessed, which may be far over: the room
// costs nothing where it stays unused (pages.GrowLazy).
func (b *Builder) growLazy(buffers, ops int) { b.room(buffers, ops, true) }

func (b *Builder) room(buffers, ops int, lazy bool) {
	buffers, ops = max(buffers, 0), max(ops, 0)
	b.rec.Buffers.room(buffers, lazy)
	b.rec.Ops.room(ops, lazy)
	b.bufs = growBy(b.bufs, buffers, lazy)
	b.uses = growBy(b.uses, buffers, lazy)
	b.rec.index.room(buffers)
}

// growBy is pages.GrowLazy when lazy, pages.Grow otherwise.
func growBy[T any](s []T, n int, lazy bool) []T {
	if lazy {
		return pages.GrowLazy(s, n)
	}
	return pages.Grow(s, n)
}

// grow returns s with room for one more element, doubling its capacity
// when full: append grows large slices by a quarter, which copies a
// recording of a million operations many times over.
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return pages.GrowLazy(s, max(cap(s), 64))
}

// idIndex maps buffer ids to positions in a Recording's Buffers. While
// each id is the first one plus its position, as recorders number them,
// it holds nothing but the first: a position is a subtraction away. The
// first id out of turn makes it a slice for the small non-negative ids
// recordings mostly use and a map for others, holding those so far.
type idIndex struct {
	first   int64   // the first id, while in turn
	n       int     // the ids set
	general bool    // some id came out of turn: dense and other hold them all
	dense   []int32 // id → position+1, 0 for none, for 0 ≤ id < len(dense)
	other   map[int64]int
}

// room makes the dense index large enough for n more ids numbered on from
// the ones so far, as recordings number them, rather than doubling as
// they come (copies, and memory the collector must free): its pages cost
// nothing until an id is set there. Ids in turn need no room.
func (x *idIndex) room(n int) {
	if want := x.n + n + 1; x.general && n > 0 && want > len(x.dense) {
		dense := pages.MakeLazy[int32](want, want)
		copy(dense, x.dense)
		x.dense = dense
	}
}

func (x *idIndex) get(id int64) (int, bool) {
	if !x.general {
		// id − first wraps around to a negative number where it would
		// overflow.
		if d := id - x.first; x.n > 0 && id >= x.first && d >= 0 && d < int64(x.n) {
			return int(d), true
		}
		return 0, false
	}
	if id >= 0 && id < int64(len(x.dense)) {
		if p := x.dense[id]; p != 0 {
			return int(p) - 1, true
		}
	}
	if x.other == nil {
		return 0, false
	}
	p, ok := x.other[id]
	return p, ok
}

// at returns the position of an id known to be there.
func (x *idIndex) at(id int64) int {
	p, _ := x.get(id)
	return p
}

// set notes that id is at position pos, the next position: ids are set in
// the order of their positions, each once.
func (x *idIndex) set(id int64, pos int) {
	if !x.general {
		if x.n == 0 {
			x.first = id
		}
		if d := id - x.first; id >= x.first && d == int64(pos) && pos == x.n {
			x.n++
			return
		}
		// Out of turn: the ids so far, then this one, the general way.
		n := x.n
		x.general, x.n = true, 0
		x.room(n + 1)
		for p := range n {
			x.setGeneral(x.first+int64(p), p)
		}
	}
	x.setGeneral(id, pos)
}

func (x *idIndex) setGeneral(id int64, pos int) {
	x.n++
	if id >= 0 && id < int64(len(x.dense)) && pos < math.MaxInt32 {
		x.dense[id] = int32(pos + 1)
		return
	}
	if id >= 0 && id < 2*int64(x.n)+1024 && pos < math.MaxInt32 {
		n := max(id+1, 2*int64(len(x.dense)))
		dense := pages.MakeLazy[int32](int(n), int(n))
		copy(dense, x.dense)
		x.dense = dense
		x.dense[id] = int32(pos + 1)
		return
	}
	if x.other == nil {
		x.other = make(map[int64]int)
	}
	x.other[id] = pos
}

// idOf returns the id at position pos, which must be set: a search, unless
// the ids are in turn.
func (x *idIndex) idOf(pos int) int64 {
	if !x.general {
		return x.first + int64(pos)
	}
	for id, p := range x.dense {
		if int(p) == pos+1 {
			return int64(id)
		}
	}
	for id, p := range x.other {
		if p == pos {
			return id
		}
	}
	return 0
}

// table returns the table of strings and slices the recording's buffers
// and operations share.
func (b *Builder) table() *table {
	if b.tab == nil {
		b.tab = newTable()
	}
	return b.tab
}

// Uses returns the use of each buffer and view added, by position, as
// Uses finds them from the recording. The Builder keeps the slice.
func (b *Builder) Uses() []Use { return b.uses }

// Finish checks that the recording is whole and returns it. The Builder must
// not be used after.
func (b *Builder) Finish() (*Recording, error) {
	var missing []string
	if !b.hasHeader {
		missing = append(missing, "the header")
	}
	if !b.hasResult {
		missing = append(missing, "the result line {\"result\": [...]}")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the recording ends without %s", strings.Join(missing, " and "))
	}
	return &b.rec, nil
}
