package record

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Read reads a whole recording from r and checks it: each line as the
// Scanner does, and the recording as a whole as the Builder does (ids
// declared before use, temps written before they are read, one header
// first, the result last). Every error it returns about the recording is a
// *SyntaxError, "file:line: what was expected".
//
// A large recording, or one whose size its input cannot tell, is read on
// two cores: the Builder takes the records on a goroutine of its own,
// handed over in batches as they are scanned (readPiped).
func Read(r io.Reader, file string) (*Recording, error) {
	s := NewScanner(r, file)
	b := NewBuilder()
	size := sizeHint(r)
	b.GrowFor(size)
	if size == 0 || size >= pipeFrom {
		return readPiped(s, b, file)
	}
	for s.Scan() {
		rec := s.Record()
		if err := b.Add(rec); err != nil {
			return nil, &SyntaxError{File: file, Line: rec.Line, Msg: err.Error()}
		}
	}
	return finish(s, b, file)
}

// pipeFrom is the least size of an input Read reads on two cores; tests
// lower it.
var pipeFrom int64 = 1 << 20

// readPiped is Read with the Builder on a goroutine of its own (Pipe): the
// same recording, and the same first mistake in the order of the records.
func readPiped(s *Scanner, b *Builder, file string) (*Recording, error) {
	p := Pipe{Mistake: func(line int, err error) error { return &SyntaxError{File: file, Line: line, Msg: err.Error()} }}
	if err := p.Build(s, b); err != nil {
		return nil, err
	}
	return finish(s, b, file)
}

// finish returns the Builder's recording once the Scanner has read all it
// holds, or the Scanner's error.
func finish(s *Scanner, b *Builder, file string) (*Recording, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	rec, err := b.Finish()
	if err != nil {
		return nil, &SyntaxError{File: file, Line: max(s.Line(), 1), Msg: err.Error()}
	}
	return rec, nil
}

// Read sizes the recording ahead from its input's size, when the input can
// tell, so that the Builder need not copy its buffers and operations as they
// grow. The lines of memsym's recordings hold about 80 to 105 bytes, 50% to
// 66% of them buffers and views and 30% to 50% operations: Read estimates
// size/bytesPerLine lines and makes room for two thirds as many buffers and
// half as many operations. Shorter lines make the estimate short, and the
// Builder grows as usual past it; maxLinesAhead bounds what a huge input of
// long lines reserves.
const (
	bytesPerLine  = 80
	maxLinesAhead = 1 << 22
)

// GrowFor makes room in b for the records of a recording of about size
// bytes, as Read does when its input can tell its size.
func (b *Builder) GrowFor(size int64) {
	if lines := min(size/bytesPerLine, maxLinesAhead); lines > 0 {
		b.growLazy(int(lines*2/3), int(lines/2))
	}
}

// sizeHint returns how many bytes r holds when it can tell, without reading
// any: the unread length of an in-memory reader (bytes.Reader, strings.Reader,
// bytes.Buffer) or a regular file's size; 0 otherwise.
func sizeHint(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return 0
}

// ReadFile reads the recording in the named file; "-" is the standard input.
func ReadFile(path string) (*Recording, error) {
	return withFile(path, Read)
}

// withFile opens the named recording file ("-" is the standard input) and
// hands it to read with the name its messages give it.
func withFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	if path == "-" {
		return read(os.Stdin, "<stdin>")
	}
	f, err := openRecording(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", ShowFile(path), err) // as a grid's files are named
	}
	defer f.Close()
	return read(f, path)
}

// File is a recording file read one record at a time: a Scanner that
// closes the file once it has read it whole, at its first error or at
// Close, and refuses a recording whose records end before its result line,
// as a recorder that died while writing leaves it.
type File struct {
	*Scanner
	c    io.Closer
	name string
	size int64
	err  error
}

// OpenFile opens the recording in the named file as a File; "-" is the
// standard input. Its error does not name the file: the caller does.
func OpenFile(path string) (*File, error) {
	if path == "-" {
		return &File{Scanner: NewScanner(os.Stdin, "<stdin>"), name: "<stdin>"}, nil
	}
	f, err := openRecording(path)
	if err != nil {
		return nil, err
	}
	return newFile(f, path), nil
}

// newFile returns a File that reads f, naming it name. Follow may map it.
func newFile(f *os.File, name string) *File {
	s := NewScanner(f, name)
	s.mayMap = true
	return &File{Scanner: s, c: f, name: name, size: sizeHint(f)}
}

// openRecording opens the named file for reading a recording from it,
// refusing a directory; its error does not name the file.
func openRecording(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read the recording: %w", err)
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		f.Close()
		return nil, errors.New("cannot read the recording: is a directory")
	}
	return f, nil
}

// OpenNamed opens the recording in the file at path as OpenFile does, its
// messages naming it name: a recording a recorder wrote for a point, say,
// named "recorder(B=16,T=256)" rather than by its temporary file.
func OpenNamed(path, name string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return newFile(f, name), nil
}

// Name returns the name the file's messages give it.
func (f *File) Name() string { return f.name }

// Size returns the file's size in bytes, or 0 when it cannot tell (the
// standard input, a pipe).
func (f *File) Size() int64 { return f.size }

// Scan advances to the next record, as the Scanner's Scan does.
func (f *File) Scan() bool {
	if f.err != nil {
		return false
	}
	if f.Scanner.Scan() {
		return true
	}
	s := f.Scanner
	if s.Err() == nil && s.lastLine > 0 && s.lastKind != KindResult {
		f.err = fmt.Errorf("%s:%d: the recording ends without the result line {\"result\": [...]}", ShowFile(f.name), s.lastLine)
	}
	f.Close()
	return false
}

// Err returns the error that stopped Scan, or nil at the end.
func (f *File) Err() error {
	if f.err != nil {
		return f.err
	}
	return f.Scanner.Err()
}

// Close closes the file, if it is not closed yet.
func (f *File) Close() error {
	if f.c == nil {
		return nil
	}
	f.Scanner.unmapAll()
	err := f.c.Close()
	f.c = nil
	return err
}

// Replay returns the recording's records in file order, from memory: the
// header, the buffers, views and operations interleaved as they were
// declared (by their Line; all buffers first when lines are unknown), and
// the result. The records share the recording's slices: do not change them.
func (r *Recording) Replay() Stream {
	return &replay{rec: r}
}

type replay struct {
	rec    *Recording
	stage  int // 0 header, 1 body, 2 result, 3 done
	bi, oi int
	cur    Record
}

func (p *replay) Scan() bool {
	r := p.rec
	switch p.stage {
	case 0:
		p.cur = Record{Kind: KindHeader, Line: 1, Header: r.Header}
		p.stage = 1
		return true
	case 1:
		if p.bi < r.Buffers.Len() || p.oi < r.Ops.Len() {
			if p.oi == r.Ops.Len() || p.bi < r.Buffers.Len() && r.Buffers.At(p.bi).Line <= r.Ops.At(p.oi).Line {
				b := r.Buffers.At(p.bi)
				p.cur = Record{Kind: KindBuffer, Line: b.Line, Buffer: b}
				if b.IsView {
					p.cur.Kind = KindView
				}
				p.bi++
				return true
			}
			op := r.Ops.At(p.oi)
			p.cur = Record{Kind: KindOp, Line: op.Line, Op: op}
			p.oi++
			return true
		}
		p.stage = 2
		fallthrough
	case 2:
		p.cur = Record{Kind: KindResult, Result: r.Result, Line: r.lastLine() + 1}
		p.stage = 3
		return true
	}
	return false
}

func (p *replay) Record() *Record { return &p.cur }

func (p *replay) Err() error { return nil }

// lastLine returns the line of the last buffer or operation, 0 if unknown.
func (r *Recording) lastLine() int {
	last := 0
	if n := r.Buffers.Len(); n > 0 {
		last = r.Buffers.At(n - 1).Line
	}
	if n := r.Ops.Len(); n > 0 {
		last = max(last, r.Ops.At(n-1).Line)
	}
	return last
}
