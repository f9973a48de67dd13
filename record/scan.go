package record

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// SyntaxError is a mistake in a recording, at a line of a file.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

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

	cur      []byte        // the current record's line, for Keep
	read     int64         // the bytes read from r
	lastKind Kind          // the kind of the last record read, by Scan or Follow
	lastLine int           // and its line
	lastPath string        // the path of the last operation, which was valid
	last     [nKeys]string // the last string value of each key, which lines in a row often repeat
}

// NewScanner returns a Scanner that reads r; file names it in errors.
func NewScanner(r io.Reader, file string) *Scanner {
	return &Scanner{r: r, file: file, maxLine: MaxLine}
}

// Scan advances to the next record, skipping blank lines, and reports
// whether there is one. It returns false at the end of the input or at the
// first error, which Err returns.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	for {
		line, ok := s.readLine()
		if !ok {
			s.done = true
			return false
		}
		if s.line == 1 && bytes.HasPrefix(line, byteOrderMark) {
			line = line[len(byteOrderMark):]
		}
		if isBlank(line) {
			continue
		}
		if !s.parseFast(line) {
			if err := s.parse(line); err != nil {
				msg := err.Error()
				if s.cut && s.lex.hitEnd {
					msg = "the file ends in the middle of a record (cut off?): " + msg
				}
				s.err = &SyntaxError{File: s.file, Line: s.line, Msg: msg}
				s.done = true
				return false
			}
		}
		s.cur, s.lastKind, s.lastLine = line, s.rec.Kind, s.line
		return true
	}
}

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
				return nil, s.fail(fmt.Errorf("%s: %w", s.file, io.ErrNoProgress))
			}
		}
	}
}

// fill reads more input after the unread bytes, moving them to the front
// and growing the buffer as needed, never beyond a line's limit.
func (s *Scanner) fill() {
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
		s.fail(fmt.Errorf("%s:%d: %w", s.file, s.line+1, err))
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
	slots  []internSlot // a power of two of them, or none before the first
	misses int          // strings made since the cache last grew
}

type internSlot struct {
	hash uint64
	s    string
}

const (
	internMaxLen    = 64
	internMinSlots  = 1 << 8
	internMaxSlots  = 1 << 13
	internGrowAfter = 1 // misses per slot that make the cache grow
)

func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > internMaxLen {
		return string(b)
	}
	if in.slots == nil {
		in.slots = make([]internSlot, internMinSlots)
	}
	h := hashBytes(b)
	slot := &in.slots[h&uint64(len(in.slots)-1)]
	if slot.hash == h && slot.s == string(b) {
		return slot.s
	}
	s := string(b)
	slot.hash, slot.s = h, s
	if in.misses++; in.misses > internGrowAfter*len(in.slots) && len(in.slots) < internMaxSlots {
		in.grow()
	}
	return s
}

// grow doubles the cache, keeping what it holds.
func (in *interner) grow() {
	slots := make([]internSlot, 2*len(in.slots))
	for _, old := range in.slots {
		if old.s != "" {
			slots[old.hash&uint64(len(slots)-1)] = old
		}
	}
	in.slots, in.misses = slots, 0
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
