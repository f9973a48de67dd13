package record

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"memsym/poly"
)

func TestSizeHint(t *testing.T) {
	data := []byte(strings.Repeat("x", 1000))
	partly := bytes.NewReader(data)
	partly.Read(make([]byte, 300))
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	tests := []struct {
		name string
		r    io.Reader
		want int64
	}{
		{"bytes.Reader", bytes.NewReader(data), 1000},
		{"bytes.Reader, partly read", partly, 700},
		{"strings.Reader", strings.NewReader("abc"), 3},
		{"bytes.Buffer", bytes.NewBufferString("abcd"), 4},
		{"regular file", file, 1000},
		{"pipe", pr, 0},
		{"plain reader", io.MultiReader(bytes.NewReader(data)), 0},
	}
	for _, tt := range tests {
		if got := sizeHint(tt.r); got != tt.want {
			t.Errorf("%s: sizeHint = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestReadPresizes checks that Read sizes the recording from its input's
// size, and that the recording is the one read without a size.
func TestReadPresizes(t *testing.T) {
	var w bytes.Buffer
	if _, err := courseGPT(t, 2, 16, 64, 2, 300, 92).WriteTo(&w); err != nil {
		t.Fatal(err)
	}
	data := w.Bytes()
	rec, err := Read(bytes.NewReader(data), "gpt.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := int(int64(len(data)) / bytesPerLine)
	buffers, ops := lines*2/3, lines/2
	if rec.Buffers.Len() > buffers || rec.Ops.Len() > ops {
		t.Fatalf("%d buffers and %d operations in %d bytes: the estimates %d and %d are short, the test needs them long", rec.Buffers.Len(), rec.Ops.Len(), len(data), buffers, ops)
	}
	// Room as estimated, up to the allocator's rounding; growing by
	// doubling from 64 would give 16384 and 8192.
	if c := cap(rec.Buffers.rows); c < buffers || c > buffers+buffers/16 {
		t.Errorf("room for %d buffers, want about %d", c, buffers)
	}
	if c := cap(rec.Ops.rows); c < ops || c > ops+ops/16 {
		t.Errorf("room for %d operations, want about %d", c, ops)
	}
	plain, err := Read(io.MultiReader(bytes.NewReader(data)), "gpt.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.Header, plain.Header) || !reflect.DeepEqual(rec.Buffers.Slice(), plain.Buffers.Slice()) ||
		!reflect.DeepEqual(rec.Ops.Slice(), plain.Ops.Slice()) || !reflect.DeepEqual(rec.Result, plain.Result) {
		t.Errorf("the recording read with a size hint differs from the one read without")
	}
}

// TestBuilderGrow checks that a Builder grown ahead keeps its buffers and
// operations where they are as they come.
func TestBuilderGrow(t *testing.T) {
	b := NewBuilder()
	b.Grow(-1, -1) // nothing
	b.Grow(100, 50)
	if err := b.Add(&Record{Kind: KindHeader, Header: Header{Version: Version}}); err != nil {
		t.Fatal(err)
	}
	first := func() (*bufRow, *opRow) { return &b.rec.Buffers.rows[0], &b.rec.Ops.rows[0] }
	var buf0 *bufRow
	var op0 *opRow
	for i := range 100 {
		if err := b.Add(&Record{Kind: KindBuffer, Buffer: Buffer{ID: int64(i + 1), Bytes: poly.Int(8), Role: Input}}); err != nil {
			t.Fatal(err)
		}
		if i < 50 {
			if err := b.Add(&Record{Kind: KindOp, Op: Op{Label: "op", Reads: []int64{int64(i + 1)}}}); err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			buf0, op0 = first()
		}
	}
	if b, o := first(); b != buf0 || o != op0 {
		t.Errorf("the buffers or the operations moved as they came, after growing by 100 and 50")
	}
}

// TestBuilderOperationLimit checks that the Builder refuses an operation
// past 2^31 − 1, whose number its uses could not hold.
func TestBuilderOperationLimit(t *testing.T) {
	b := NewBuilder()
	for _, r := range []*Record{
		{Kind: KindHeader, Header: Header{Version: Version, Dims: []Dim{{Name: "B", Value: 1}}}},
		{Kind: KindBuffer, Buffer: Buffer{ID: 1, Bytes: poly.Int(4)}},
	} {
		if err := b.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	op := &Record{Kind: KindOp, Op: Op{Label: "f", Writes: []int64{1}}}
	b.nops = math.MaxInt32 - 1
	if err := b.Add(op); err != nil {
		t.Fatalf("operation 2^31 − 1: %v", err)
	}
	err := b.Add(op)
	if err == nil || !strings.Contains(err.Error(), "at most 2147483647 operations") {
		t.Fatalf("operation 2^31: %v, want a refusal", err)
	}
}

// TestBuilderLineLimit checks that the Builder refuses a record on a line
// past 2^31 − 1, which a kept buffer's or operation's line cannot hold.
func TestBuilderLineLimit(t *testing.T) {
	b := NewBuilder()
	if err := b.Add(&Record{Kind: KindHeader, Line: 1, Header: Header{Version: Version}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(&Record{Kind: KindBuffer, Line: math.MaxInt32, Buffer: Buffer{ID: 1, Bytes: poly.Int(4)}}); err != nil {
		t.Fatalf("line 2^31 − 1: %v", err)
	}
	if got := b.rec.Buffers.At(0).Line; got != math.MaxInt32 {
		t.Errorf("the buffer on line 2^31 − 1 is kept as on line %d", got)
	}
	if math.MaxInt == math.MaxInt32 {
		return // an int holds no line past 2^31 − 1
	}
	var past int64 = math.MaxInt32 + 1 // a variable: the constant overflows a 32-bit int
	err := b.Add(&Record{Kind: KindBuffer, Line: int(past), Buffer: Buffer{ID: 2, Bytes: poly.Int(4)}})
	if err == nil || err.Error() != "a recording holds at most 2147483647 lines" {
		t.Fatalf("line 2^31: %v, want a refusal", err)
	}
}

// TestSharedShapes checks that buffers of equal shapes share one copy of
// it, and that each buffer still has its own shape when many distinct
// shapes take the memo's slots from each other.
func TestSharedShapes(t *testing.T) {
	var w strings.Builder
	w.WriteString(`{"memsym": 1, "dims": {"B": 2}}` + "\n")
	var want [][]int64
	for i := range 2000 {
		shape := []int64{2, int64(1 + i%5), 3} // five shapes in turn, as a layer's
		if i%7 == 0 {
			shape = []int64{int64(i), 5} // and a new one now and then
		}
		want = append(want, shape)
		fmt.Fprintf(&w, `{"buffer": %d, "dtype": "f32", "shape": %s, "role": "input"}`+"\n", i+1, strings.ReplaceAll(fmt.Sprint(shape), " ", ", "))
	}
	w.WriteString(`{"result": [1]}` + "\n")
	rec, err := Read(strings.NewReader(w.String()), "shapes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	for i, b := range rec.Buffers.All() {
		if !reflect.DeepEqual(b.Shape, want[i]) {
			t.Fatalf("buffer %d: shape %v, declared %v", b.ID, b.Shape, want[i])
		}
		if cap(b.Shape) != len(b.Shape) {
			t.Fatalf("buffer %d: shape's capacity %d beyond its length %d: appending to it would write another's", b.ID, cap(b.Shape), len(b.Shape))
		}
		if i%7 != 0 && i >= 5 && (i-5)%7 != 0 && &b.Shape[0] == &rec.Buffers.At(i - 5).Shape[0] {
			shared++
		}
	}
	// A shape recurs five buffers on, unless a new one took its slot since:
	// most of the 1 425 that recur so share it.
	if shared < 1300 {
		t.Errorf("%d buffers share their shape with the one five before, want most of 1425", shared)
	}
}
