package record

import (
	"strings"
	"testing"

	"memsym/poly"
)

// TestBuilderChecksWhatChanges checks that the Builder, which checks a
// path or a dtype only when it is not the one before, still refuses a bad
// one whatever came before it: records built in memory (a Live stream, a
// Recorder) reach no Scanner that would have refused them first.
func TestBuilderChecksWhatChanges(t *testing.T) {
	f32 := DType{Name: "f32", Bits: 32}
	buf := func(id int64, dt DType) *Record {
		return &Record{Kind: KindBuffer, Buffer: Buffer{ID: id, DType: dt, Shape: []int64{4}, Bytes: sizeOf(dt, []int64{4})}}
	}
	op := func(label, path string, writes int64) *Record {
		return &Record{Kind: KindOp, Op: Op{Label: label, Path: path, Writes: []int64{writes}, Launch: true}}
	}
	for _, c := range []struct {
		name string
		recs []*Record
		want string // in the last record's error
	}{
		{"a bad dtype after a good one", []*Record{buf(1, f32), buf(2, DType{Name: "f32", Bits: 16})}, `unknown dtype "f32" of 16 bits`},
		{"a bad dtype first", []*Record{buf(1, DType{Name: "f7", Bits: 7})}, `unknown dtype "f7"`},
		{"a bad path after a good one", []*Record{buf(1, f32), buf(2, f32), op("f", "a.b", 1), op("g", "a..b", 2)}, `path "a..b"`},
		{"the same bad path as a good label's", []*Record{buf(1, f32), buf(2, f32), op("f", "a", 1), op("", "a", 2)}, "without a label"},
		{"a bad path first", []*Record{buf(1, f32), op("f", "a[", 1)}, `path "a["`},
	} {
		b := NewBuilder()
		if err := b.Add(&Record{Kind: KindHeader, Header: Header{Version: Version}}); err != nil {
			t.Fatal(err)
		}
		var err error
		for i, r := range c.recs {
			err = b.Add(r)
			if i < len(c.recs)-1 && err != nil {
				t.Fatalf("%s: record %d: %v", c.name, i+1, err)
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	// And the same type and path again are taken.
	b := NewBuilder()
	for _, r := range []*Record{{Kind: KindHeader, Header: Header{Version: Version}}, buf(1, f32), buf(2, f32), op("f", "a.b", 1), op("g", "a.b", 2), {Kind: KindResult, Result: []int64{2}}} {
		if err := b.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if rec, err := b.Finish(); err != nil || rec.Ops.Len() != 2 || !rec.Buffers.Bytes(1).Equal(poly.Int(16)) {
		t.Fatalf("%v, %+v", err, rec)
	}
}
