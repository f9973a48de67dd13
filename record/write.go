package record

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"memsym/poly"
)

// Writer writes records in the format's canonical form: one line each, keys
// in a fixed order, defaults left out ("role": "temp", "launch": true, an
// empty name, group or path, no phase), "reads" and "writes" always given. Reading
// what it writes and writing it again gives the same bytes.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer to w. Call Flush when done.
func NewWriter(w io.Writer) *Writer {
	return newWriterSize(w, writes)
}

// newWriterSize returns a Writer to w that writes size bytes at a time.
func newWriterSize(w io.Writer, size int) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, size)}
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Write writes one record as one line.
func (w *Writer) Write(r *Record) error {
	b := w.buf[:0]
	var err error
	switch r.Kind {
	case KindHeader:
		b, err = appendHeader(b, &r.Header)
	case KindBuffer, KindView:
		b, err = appendBuffer(b, &r.Buffer, r.Kind == KindView)
	case KindOp:
		b, err = appendOp(b, &r.Op)
	case KindResult:
		b = append(b, `{"result": `...)
		b = appendIDs(b, r.Result)
		b = append(b, '}')
	default:
		err = fmt.Errorf("record: cannot write a record of kind %d", r.Kind)
	}
	w.buf = b
	if err != nil {
		return err
	}
	b = append(b, '\n')
	w.buf = b
	_, err = w.w.Write(b)
	return err
}

// A recording of largeRecording records or more is written largeWrites
// bytes at a time, each write at a multiple of that: a file system that
// caches a file in folios as large as the writes that wrote it (Linux
// 6.18's ext4) then holds it in folios of 2 MiB, which a reader that maps
// the file (as Follow does, scan_map.go) maps a huge page at a time: about
// 100 faults for a file of 200 MB, against 3 000 for one written 64 KiB
// at a time.
const (
	writes         = 64 << 10 // a Writer's, and a small recording's
	largeRecording = 10_000
	largeWrites    = 2 << 20
)

// WriteTo writes the recording in canonical form, its records in file
// order (see Replay), and returns the bytes written.
func (rec *Recording) WriteTo(out io.Writer) (int64, error) {
	cw := &countingWriter{w: out}
	size := writes
	if rec.Buffers.Len()+rec.Ops.Len() >= largeRecording {
		size = largeWrites
	}
	w := newWriterSize(cw, size)
	s := rec.Replay()
	for s.Scan() {
		if err := w.Write(s.Record()); err != nil {
			return cw.n, err
		}
	}
	err := w.Flush()
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func appendHeader(b []byte, h *Header) ([]byte, error) {
	b = append(b, `{"memsym": `...)
	b = strconv.AppendInt(b, int64(h.Version), 10)
	var err error
	if h.Entry != "" {
		b = append(b, `, "entry": `...)
		if b, err = appendString(b, h.Entry); err != nil {
			return b, err
		}
	}
	b = append(b, `, "dims": {`...)
	for i, d := range h.Dims {
		if i > 0 {
			b = append(b, ", "...)
		}
		if b, err = appendString(b, d.Name); err != nil {
			return b, err
		}
		b = append(b, ": "...)
		b = strconv.AppendInt(b, d.Value, 10)
	}
	b = append(b, '}')
	if len(h.Consts) > 0 {
		b = append(b, `, "consts": {`...)
		for i, c := range h.Consts {
			if i > 0 {
				b = append(b, ", "...)
			}
			if b, err = appendString(b, c.Name); err != nil {
				return b, err
			}
			if !isJSONNumber(c.Value) {
				return b, fmt.Errorf("record: constant %s = %q is not a JSON number", c.Name, c.Value)
			}
			b = append(b, ": "...)
			b = append(b, c.Value...)
		}
		b = append(b, '}')
	}
	if h.Realization != "" {
		b = append(b, `, "realization": `...)
		b, err = appendString(b, h.Realization)
	}
	return append(b, '}'), err
}

func appendBuffer(b []byte, buf *Buffer, view bool) ([]byte, error) {
	if view {
		b = append(b, `{"view": `...)
		b = strconv.AppendInt(b, buf.ID, 10)
		b = append(b, `, "of": `...)
		b = strconv.AppendInt(b, buf.Of, 10)
	} else {
		b = append(b, `{"buffer": `...)
		b = strconv.AppendInt(b, buf.ID, 10)
	}
	if !buf.DType.IsZero() {
		b = append(b, `, "dtype": `...)
		if buf.DType.Name != "" {
			b = strconv.AppendQuote(b, buf.DType.Name) // a known name: plain ASCII
		} else {
			b = append(b, `{"bits": `...)
			b = strconv.AppendInt(b, int64(buf.DType.Bits), 10)
			b = append(b, '}')
		}
	}
	if buf.Shape != nil || !view && !buf.DType.IsZero() {
		b = append(b, `, "shape": `...)
		b = appendIDs(b, buf.Shape)
	}
	if !view && buf.DType.IsZero() {
		b = append(b, `, "bytes": `...)
		b = appendBytes(b, buf.Bytes)
	}
	if !view && buf.Role != Temp {
		b = append(b, `, "role": "`...)
		b = append(b, buf.Role.String()...)
		b = append(b, '"')
	}
	var err error
	if buf.Name != "" {
		b = append(b, `, "name": `...)
		if b, err = appendString(b, buf.Name); err != nil {
			return b, err
		}
	}
	if !view && buf.Group != "" {
		b = append(b, `, "group": `...)
		b, err = appendString(b, buf.Group)
	}
	return append(b, '}'), err
}

// appendBytes writes an exact size: a JSON integer, or a string "3/2".
func appendBytes(b []byte, x poly.Rat) []byte {
	if x.IsInt() {
		if n, ok := x.Int64(); ok {
			return strconv.AppendInt(b, n, 10)
		}
		return x.Num().Append(b, 10)
	}
	b = append(b, '"')
	b = append(b, x.String()...)
	return append(b, '"')
}

func appendOp(b []byte, op *Op) ([]byte, error) {
	b = append(b, `{"op": `...)
	b, err := appendString(b, op.Label)
	if err != nil {
		return b, err
	}
	if op.Path != "" {
		b = append(b, `, "path": `...)
		if b, err = appendString(b, op.Path); err != nil {
			return b, err
		}
	}
	b = append(b, `, "reads": `...)
	b = appendIDs(b, op.Reads)
	b = append(b, `, "writes": `...)
	b = appendIDs(b, op.Writes)
	if !op.Launch {
		b = append(b, `, "launch": false`...)
	}
	if op.Phase != NoPhase {
		b = append(b, `, "phase": "`...)
		b = append(b, op.Phase.String()...)
		b = append(b, '"')
	}
	return append(b, '}'), nil
}

func appendIDs(b []byte, ids []int64) []byte {
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return append(b, ']')
}

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, everything else as it is. s must be valid UTF-8.
func appendString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return b, fmt.Errorf("record: %q is not valid UTF-8", s)
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"'), nil
}
