package record

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"memsym/doc"
)

// SyntaxError is a mistake in a recording, at a line of a file.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

// Error returns "file:line: message", the file's name as ShowFile shows it.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", ShowFile(e.File), e.Line, e.Msg)
}

// ShowFile returns a file's name for the "file:line: " that starts a
// message: as it is, spaces and letters such as ü included, or quoted with
// escapes (strconv.Quote) when it holds invalid UTF-8 or a character that
// would break the line, drive the terminal or reorder the text (doc.Hidden),
// so that a message stays one line that shows what it says.
func ShowFile(name string) string {
	if !utf8.ValidString(name) {
		return strconv.Quote(name)
	}
	for _, c := range name {
		if doc.Hidden(c) {
			return strconv.Quote(name)
		}
	}
	return name
}

// Stream is a sequence of records in file order: a Scanner reading a file,
// or a Recording's Replay.
type Stream interface {
	// Scan advances to the next record and reports whether there is one.
	Scan() bool
	// Record returns the current record. It is valid until the next Scan,
	// which may reuse it and its slices; the caller must not change it.
	Record() *Record
	// Err returns the error that stopped Scan, or nil at the end.
	Err() error
}

// MaxLine is the longest line a Scanner reads: a longer one is an error,
// not a reason to run out of memory.
const MaxLine = 64 << 20

// Scanner reads a recording one record at a time, as bufio.Scanner reads
// lines. It checks each line alone: its JSON, its keys and their types, the
// dtypes and sizes, and the header's dimensions. Whether ids are declared
// before use, temps written before they are read, and the result last is
// the recording's whole; Read checks that.
//
// Scanning allocates little: the Record and its slices are reused from one
// line to the next, and short strings are shared.
type Scanner struct {
	r       io.Reader
	file    string
	buf     []byte
	pos     int // the unread bytes are buf[pos:end]
	end     int
	eof     bool
	line    int
	maxLine int
	err     error
	done    bool

	lex  lexer
	rec  Record
	ids  idSlices
	strs interner
	cut  bool // the current line is the file's last and has no newline

	// The current record's size value ("shape" or "bytes"), as a span of
	// its line: sizeAt < 0 when it has none.
	sizeAt, sizeEnd int

	cur      []byte // the current record's line, for Keep
	read     int64  // the bytes read from r
	lastKind Kind   // the kind of the last record read, by Scan or Follow
	lastLine int    // and its line
	lastPath string // the path of the last operation, which was valid

	// parseFast's guesses, from the lines before: the pattern of the key
	// that followed each key, and of the first key after each kind of
	// record (at nKeys + the kind); and the last named dtype, with its
	// name's word.
	keyPat    [32]keyPat
	dtypeWord uint64
	dtypeLast DType

	shapes *shapeMemo // the shapes Follow read, made when it first reads one

	// A file Follow reads in place (scan_map.go): may it be mapped, its
	// mapping, the part of that below mlo given back already (buf starts
	// at mlo), and the step it is shown in. m is nil while the input is
	// read.
	mayMap bool
	m      []byte
	mlo    int
	step   int

	skipFast int  // lines to read before trying fastRecord in place again
	slowOnly bool // for tests: parse reads every line, as the reference
}

// NewScanner returns a Scanner that reads r; file names it in errors.
func NewScanner(r io.Reader, file string) *Scanner {
	s := &Scanner{r: r, file: file, maxLine: MaxLine}
	for i := range s.keyPat {
		s.keyPat[i] = noKeyPat
	}
	return s
}

// Scan advances to the next record, skipping blank lines, and reports
// whether there is one. It returns false at the end of the input or at the
// first error, which Err returns.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	if s.m != nil {
		return s.scanMapped()
	}
	return s.scan()
}

// scan is Scan, the Scanner not done.
func (s *Scanner) scan() bool {
	// Mostly a line in the usual form, read where it lies in the buffer,
	// its end found after it.
	fast := !s.slowOnly
	if s.line > 0 && s.skipFast == 0 && fast {
		// With parseFast's fastRecord, in place in the buffer, when the
		// line is in the usual form and the buffer holds it whole.
		b := s.buf[s.pos:s.end]
		if i, seen, ok := s.fastRecord(b, 0); ok {
			if i >= len(b) || b[i] != '\n' {
				i = lineEnd(b, i)
			}
			if i >= 0 && i <= s.maxLine { // else for readLine's error
				s.line++
				if s.finishFast(seen) {
					s.pos += i + 1
					s.cut = false
					s.cur, s.lastKind, s.lastLine = b[:i], s.rec.Kind, s.line
					return true
				}
				s.line--
			}
		}
		// The line again, from the start: for parse, unless it lay
		// whole in the buffer, when parseFast would fail as it did here.
		fast = false
	} else if s.skipFast > 0 {
		s.skipFast--
	}
	for {
		before := s.read
		line, ok := s.readLine()
		if !ok {
			s.done = true
			return false
		}
		if s.line == 1 && bytes.HasPrefix(line, byteOrderMark) {
			line = line[len(byteOrderMark):]
		}
		if isBlank(line) {
			fast = !s.slowOnly
			continue
		}
		if s.slowOnly {
			fast = false
		} else if !fast && (s.read != before || line[0] != '{') {
			fast = true // cut off by the buffer's end, or spaced
		} else if !fast {
			// Lines not in the usual form come in runs: fastRecord in
			// place is tried again some lines later.
			s.skipFast = skipFastLines
		}
		if !fast || !s.parseFast(line) {
			if err := s.parse(line); err != nil {
				s.err = s.parseError(err)
				s.done = true
				return false
			}
		}
		s.cur, s.lastKind, s.lastLine = line, s.rec.Kind, s.line
		return true
	}
}

// parseError returns the SyntaxError of parse's error on the current line.
// When the line is the file's last, without its newline, and its end caused
// the error (the lexer's hitEnd: the line ends where a value, a comma or a
// closing quote was due, or cuts short a number, a literal, a character's
// UTF-8 or an escape), the message says the file is cut off.
func (s *Scanner) parseError(err error) *SyntaxError {
	msg := err.Error()
	if s.cut && s.lex.hitEnd {
		msg = "the file ends in the middle of a record (cut off?): " + msg
	}
	return &SyntaxError{File: s.file, Line: s.line, Msg: msg}
}

// lineEnd returns where the line that b[i:] ends, after spaces, ends: the
// position of its newline, or -1 if b ends first or holds anything else.
func lineEnd(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != '\n' {
		return -1
	}
	return i
}

// skipFastLines is how many lines Scan reads without trying fastRecord in
// place after one that it could not read and parse must.
const skipFastLines = 8

// firstBuffer is the size of a Scanner's buffer to start with: large
// enough that reading costs few calls, small beside a recording.
const firstBuffer = 64 << 10

// byteOrderMark is skipped at the start of a file, as some editors write it.
var byteOrderMark = []byte("\ufeff")

// Record returns the current record, valid until the next call to Scan.
func (s *Scanner) Record() *Record { return &s.rec }

// Err returns the first error the Scanner met, or nil if it read the whole
// input. Mistakes in the recording are *SyntaxError.
func (s *Scanner) Err() error { return s.err }

// Offset returns how many bytes of the input the Scanner has passed: the
// lines read, whole.
func (s *Scanner) Offset() int64 { return s.read - int64(s.end-s.pos) }

// Line returns the number of the line last read, counting from 1.
func (s *Scanner) Line() int { return s.line }

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// readLine returns the next line without its newline. It returns false at
// the end of the input or on an error, which it records.
func (s *Scanner) readLine() ([]byte, bool) {
	scanned := 0 // bytes of buf[pos:end] known to hold no newline
	empty := 0
	for {
		if i := bytes.IndexByte(s.buf[s.pos+scanned:s.end], '\n'); i >= 0 {
			line := s.buf[s.pos : s.pos+scanned+i]
			s.pos += scanned + i + 1
			s.line++
			s.cut = false
			if len(line) > s.maxLine {
				return nil, s.fail(s.tooLong())
			}
			return line, true
		}
		scanned = s.end - s.pos
		if scanned > s.maxLine {
			s.line++
			return nil, s.fail(s.tooLong())
		}
		if s.eof {
			if scanned == 0 {
				return nil, false
			}
			line := s.buf[s.pos:s.end]
			s.pos = s.end
			s.line++
			s.cut = true
			return line, true
		}
		s.fill()
		if s.err != nil {
			return nil, false
		}
		if s.end-s.pos == scanned && !s.eof {
			if empty++; empty > 100 {
				return nil, s.fail(fmt.Errorf("%s: %w", ShowFile(s.file), io.ErrNoProgress))
			}
		}
	}
}

// fill reads more input after the unread bytes, moving them to the front
// and growing the buffer as needed, never beyond a line's limit.
func (s *Scanner) fill() {
	if s.m != nil {
		if s.mlo+s.end < len(s.m) {
			s.fillMapped()
			return
		}
		s.leaveMapping()
	}
	if s.pos > 0 {
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
	}
	if s.end == len(s.buf) {
		n := max(2*len(s.buf), firstBuffer)
		n = min(n, s.maxLine+1)
		if n <= len(s.buf) {
			n = len(s.buf) + 1
		}
		buf := make([]byte, n)
		copy(buf, s.buf[:s.end])
		s.buf = buf
	}
	n, err := s.r.Read(s.buf[s.end:])
	s.end += n
	s.read += int64(n)
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.fail(fmt.Errorf("%s:%d: %w", ShowFile(s.file), s.line+1, err))
	}
}

func (s *Scanner) fail(err error) bool {
	if s.err == nil {
		s.err = err
	}
	return false
}

func (s *Scanner) tooLong() error {
	limit := fmt.Sprintf("%d bytes", s.maxLine)
	if s.maxLine%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB", s.maxLine>>20)
	}
	return &SyntaxError{File: s.file, Line: s.line, Msg: "line longer than " + limit}
}

// interner shares the strings a recording repeats, such as labels, paths
// and names, so that scanning them does not allocate each time: a cache of
// the strings seen last, by their hash, which grows while strings come
// that it lacks, to at most internMaxSlots. A string whose slot another
// took is made again; a table of every string instead would miss the
// processor's caches for each new one, which costs more than making it.
type interner struct {
	// near holds the strings looked up last by a few bits of their hash:
	// small enough to stay in the processor's nearest cache, where the
	// names, labels and paths that a recording repeats from line to line
	// are found without a miss. slots backs it.
	near   [internNear]internSlot
	slots  []internSlot // a power of two of them, or none before the first
	shift  uint         // 64 − log2(len(slots))
	misses int          // strings made since the cache last grew
	// block is where the next strings are made, many to an allocation: a
	// recording names tens of thousands of groups and paths once each.
	// The bytes of block[:len(block)] are never written again.
	block []byte
}

// internSlot holds a string and its key: for a string of at most sixteen
// bytes, its bytes as two little-endian words, zero past its end, which
// with its length say which string it is; for a longer one, its hash in
// w0, which only says where to look.
type internSlot struct {
	w0, w1 uint64
	s      string
}

const (
	internMaxLen    = 64
	internNearBits  = 6
	internNear      = 1 << internNearBits
	internMinSlots  = 1 << 8
	internMaxSlots  = 1 << 11
	internGrowAfter = 1 // misses per slot that make the cache grow
)

func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > internMaxLen {
		return string(b)
	}
	if len(b) <= 16 {
		w0, w1 := textWords(b)
		return in.lookup(b, w0, w1)
	}
	return in.lookup(b, hashBytes(b), 0)
}

// internHash returns a key's hash: the product's high bits, which depend
// on all of the key's bits, pick its slots.
func internHash(w0, w1 uint64, n int) uint64 {
	return (w0 + 3*w1 + uint64(n)) * 0x9e3779b97f4a7c15
}

// index returns the slot in slots of a key.
func (in *interner) index(w0, w1 uint64, n int) uint64 {
	return internHash(w0, w1, n) >> in.shift
}

// nearSlot returns the slot in near of a key.
func (in *interner) nearSlot(w0, w1 uint64, n int) *internSlot {
	return &in.near[internHash(w0, w1, n)>>(64-internNearBits)]
}

// holds reports whether the slot holds b, whose key is w0 and w1.
func (o *internSlot) holds(b []byte, w0, w1 uint64) bool {
	return len(o.s) == len(b) && o.w0 == w0 && o.w1 == w1 && (len(b) <= 16 || o.s == string(b))
}

// lookup returns b as a string, shared if the cache holds it; w0 and w1
// are its key, as internSlot holds it. b is not empty and has at most
// internMaxLen bytes.
func (in *interner) lookup(b []byte, w0, w1 uint64) string {
	near := in.nearSlot(w0, w1, len(b))
	if near.holds(b, w0, w1) {
		return near.s
	}
	return in.lookupFar(b, w0, w1, near)
}

// lookupFar is lookup once the key's near slot, near, has not held it:
// fastRecord tries that slot itself first.
func (in *interner) lookupFar(b []byte, w0, w1 uint64, near *internSlot) string {
	if in.slots == nil {
		in.slots = make([]internSlot, internMinSlots)
		in.shift = 64 - uint(bits.TrailingZeros(internMinSlots))
	}
	slot := &in.slots[in.index(w0, w1, len(b))]
	if slot.holds(b, w0, w1) {
		*near = *slot
		return slot.s
	}
	s := in.newString(b)
	*slot = internSlot{w0: w0, w1: w1, s: s}
	*near = *slot
	if in.misses++; in.misses > internGrowAfter*len(in.slots) && len(in.slots) < internMaxSlots {
		in.grow()
	}
	return s
}

// internBlock is the size of the blocks the interner makes its strings in.
const internBlock = 4 << 10

// newString returns a string of b's bytes, made in the current block.
func (in *interner) newString(b []byte) string {
	if len(b) > cap(in.block)-len(in.block) {
		in.block = make([]byte, 0, internBlock)
	}
	n := len(in.block)
	in.block = append(in.block, b...)
	return unsafe.String(&in.block[n], len(b))
}

// grow doubles the cache, keeping what it holds.
func (in *interner) grow() {
	old := in.slots
	in.slots, in.shift, in.misses = make([]internSlot, 2*len(old)), in.shift-1, 0
	for _, o := range old {
		if o.s != "" {
			in.slots[in.index(o.w0, o.w1, len(o.s))] = o
		}
	}
}

// hashBytes mixes b eight bytes at a time; it only picks a cache slot.
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		h ^= h >> 31
		b = b[8:]
	}
	var t uint64
	for i, c := range b {
		t |= uint64(c) << (8 * i)
	}
	h = (h ^ t) * 0xc4ceb9fe1a85ec53
	return h ^ h>>29
}

// idSlices are the Scanner's reused slices of integers.
type idSlices struct {
	shape, reads, writes, result []int64
	follow                       []int64 // the shapes Follow reads
	dims                         []Dim
	consts                       []Const
}

// CountOps reads the rest of the recording and returns how many of its
// records are operations, fast: a line that starts as memsym's writers
// start an operation's, a buffer's or a view's ({"op": , {"buffer": ,
// {"view": ) is taken to be one by its start alone, and any other line is
// parsed. It checks nothing else: of a recording Scan would refuse the
// count may be wrong, or an error found; of one Scan reads, it is the count
// of its operations. For telling a recording's shape, not for reading it.
func (s *Scanner) CountOps() (n int, err error) {
	if s.m != nil {
		defer s.guard(func() { n, err = 0, s.err })()
	}
	return s.countOps()
}

// countOps is CountOps.
func (s *Scanner) countOps() (int, error) {
	n := 0
	for !s.done {
		line, ok := s.readLine()
		if !ok {
			s.done = true
			break
		}
		if s.line == 1 {
			line = bytes.TrimPrefix(line, byteOrderMark)
		}
		switch {
		case bytes.HasPrefix(line, opStart):
			n++
		case bytes.HasPrefix(line, bufferStart), bytes.HasPrefix(line, viewStart), isBlank(line):
		default:
			if err := s.parse(line); err != nil {
				s.err = s.parseError(err)
				s.done = true
				return 0, s.err
			}
			if s.rec.Kind == KindOp {
				n++
			}
		}
	}
	return n, s.err
}

// How memsym's writers start the lines of operations, buffers and views.
var (
	opStart     = []byte(`{"op": `)
	bufferStart = []byte(`{"buffer": `)
	viewStart   = []byte(`{"view": `)
)
