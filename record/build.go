package record

import (
	"fmt"
	"strings"
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
	written   []bool // by position in rec.Buffers: some operation has written it
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{rec: Recording{index: make(map[int64]int)}}
}

// Add checks r against what came before and adds it.
func (b *Builder) Add(r *Record) error {
	if b.hasResult {
		return fmt.Errorf("a %s after the result: the result must be the last line", r.Kind)
	}
	if !b.hasHeader && r.Kind != KindHeader {
		return fmt.Errorf("a %s before the header: the first line must be the header {\"memsym\": 1, \"dims\": {...}}", r.Kind)
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
	if h.Version != Version {
		return fmt.Errorf("format version %d: this memsym reads version %d", h.Version, Version)
	}
	seen := make(map[string]bool)
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
	}
	b.rec.Header = *h
	b.hasHeader = true
	return nil
}

// checkName accepts a letter followed by letters, digits and underscores:
// the names the polynomials can print and parse back.
func checkName(what, name string) error {
	if name == "" {
		return fmt.Errorf("an empty %s name", what)
	}
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(letter || c == '_' && i > 0 || c >= '0' && c <= '9' && i > 0) {
			return fmt.Errorf("%s name %q: expected a letter followed by letters, digits or _", what, name)
		}
	}
	return nil
}

func (b *Builder) addBuffer(buf *Buffer, line int) error {
	what := "buffer"
	if buf.IsView {
		what = "view"
	}
	if _, dup := b.rec.index[buf.ID]; dup {
		return fmt.Errorf("%s %d is declared twice: ids are unique", what, buf.ID)
	}
	if buf.IsView {
		if buf.Of == buf.ID {
			return fmt.Errorf("view %d is a view of itself: \"of\" must name a buffer declared before it", buf.ID)
		}
		if _, ok := b.rec.index[buf.Of]; !ok {
			return fmt.Errorf("view %d is of %d, which is not declared before it", buf.ID, buf.Of)
		}
		buf.Role = Temp
	} else if buf.Bytes.Sign() < 0 {
		return fmt.Errorf("buffer %d has %s bytes: sizes are not negative", buf.ID, buf.Bytes)
	}
	buf.Line = line
	b.rec.index[buf.ID] = len(b.rec.Buffers)
	b.rec.Buffers = append(b.rec.Buffers, *buf)
	b.written = append(b.written, false)
	return nil
}

func (b *Builder) addOp(op *Op, line int) error {
	n := len(b.rec.Ops) + 1
	if op.Label == "" {
		return fmt.Errorf("operation %d has no label: \"op\" names the operation", n)
	}
	for _, id := range op.Reads {
		i, err := b.base(id, n, "reads")
		if err != nil {
			return err
		}
		if buf := &b.rec.Buffers[i]; !buf.Role.Held() && !b.written[i] {
			return fmt.Errorf("operation %d (%s) reads buffer %d before any operation writes it (a caller-held input? declare it with \"role\": \"input\")", n, op.Label, buf.ID)
		}
	}
	for _, id := range op.Writes {
		i, err := b.base(id, n, "writes")
		if err != nil {
			return err
		}
		b.written[i] = true
	}
	op.Line = line
	b.rec.Ops = append(b.rec.Ops, *op)
	return nil
}

// base returns the position of the buffer that id stands for.
func (b *Builder) base(id int64, op int, verb string) (int, error) {
	i, ok := b.rec.index[id]
	if !ok {
		return 0, fmt.Errorf("operation %d %s %d, which is not declared before it", op, verb, id)
	}
	for b.rec.Buffers[i].IsView {
		i = b.rec.index[b.rec.Buffers[i].Of]
	}
	return i, nil
}

func (b *Builder) addResult(ids []int64) error {
	for _, id := range ids {
		i, ok := b.rec.index[id]
		if !ok {
			return fmt.Errorf("the result names %d, which is not declared", id)
		}
		for b.rec.Buffers[i].IsView {
			i = b.rec.index[b.rec.Buffers[i].Of]
		}
		if buf := &b.rec.Buffers[i]; !buf.Role.Held() && !b.written[i] {
			return fmt.Errorf("the result names buffer %d, which no operation writes", buf.ID)
		}
	}
	b.rec.Result = ids
	b.hasResult = true
	return nil
}

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
