package record

import (
	"math/big"
	"reflect"
	"testing"
	"unsafe"

	"memsym/poly"
)

// TestBuffersKeepEveryField checks that Buffers gives back each buffer and
// view as it was added, field by field: sizes that fit an int64 and sizes
// that do not, fractions of a byte, a scalar's empty shape apart from no
// shape, views, many types, names and groups repeated and not.
func TestBuffersKeepEveryField(t *testing.T) {
	huge := poly.FromBig(new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(3), 70), big.NewInt(1)))
	in := []Buffer{
		{ID: 1, DType: DType{Name: "f32", Bits: 32}, Shape: []int64{2, 3}, Bytes: poly.Int(24), Name: "x", Group: "blocks[0]", Line: 2, Role: Input},
		{ID: 2, DType: DType{Name: "i4", Bits: 4}, Shape: []int64{3}, Bytes: poly.Frac(3, 2), Name: "q", Line: 3},
		{ID: 3, DType: DType{Name: "f64", Bits: 64}, Shape: []int64{}, Bytes: poly.Int(8), Name: "s", Group: "blocks[0]", Line: 4, Role: Param},
		{ID: 4, Bytes: huge, Name: "big", Line: 5, Role: State},
		{ID: 5, Of: 1, IsView: true, Name: "x.T", Line: 6},
		{ID: -7, Bytes: poly.Int(0), Line: 7},
	}
	for i := range 40 { // more types than a row's first guesses
		in = append(in, Buffer{ID: int64(100 + i), DType: Bits(i + 1), Shape: []int64{8}, Bytes: poly.Int(int64(i + 1)), Name: "b", Line: 8 + i})
	}
	bs := BuffersOf(in)
	if bs.Len() != len(in) {
		t.Fatalf("Len %d, want %d", bs.Len(), len(in))
	}
	got := bs.Slice()
	for i := range in {
		if !reflect.DeepEqual(got[i], in[i]) {
			t.Errorf("buffer %d:\ngot  %+v\nwant %+v", i, got[i], in[i])
		}
		if bs.ID(i) != in[i].ID || bs.Role(i) != in[i].Role || bs.IsView(i) != in[i].IsView || !bs.Bytes(i).Equal(in[i].Bytes) || bs.Name(i) != in[i].Name {
			t.Errorf("buffer %d: the accessors give %d %v %v %s %q", i, bs.ID(i), bs.Role(i), bs.IsView(i), bs.Bytes(i), bs.Name(i))
		}
	}
	if got[2].Shape == nil || got[3].Shape != nil {
		t.Errorf("a scalar's shape is %#v, a shapeless buffer's %#v: want empty and nil", got[2].Shape, got[3].Shape)
	}
	n := 0
	for i, b := range bs.All() {
		if b.ID != in[i].ID {
			t.Errorf("All yields buffer %d at %d, want %d", b.ID, i, in[i].ID)
		}
		n++
	}
	if n != len(in) {
		t.Errorf("All yields %d buffers, want %d", n, len(in))
	}
}

// TestOpsKeepEveryField checks the same of Ops: reads and writes nil,
// empty or many, launching or not, phases.
func TestOpsKeepEveryField(t *testing.T) {
	long := make([]int64, 300) // kept apart from the arena's chunks
	for i := range long {
		long[i] = int64(i)
	}
	in := []Op{
		{Label: "a", Path: "p", Reads: []int64{1, 2}, Writes: []int64{3}, Launch: true, Line: 4},
		{Label: "b", Writes: []int64{4}, Line: 5, Phase: Backward},
		{Label: "c", Path: "p", Reads: []int64{}, Writes: []int64{}, Line: 6},
		{Label: "d", Path: "q", Reads: []int64{4}, Line: 7, Launch: true, Phase: Optimizer},
		{Label: "e", Reads: long, Writes: long[:5], Line: 8},
		{Label: "f", Reads: []int64{9}, Writes: long, Line: 9},
	}
	ops := OpsOf(in)
	if ops.Len() != len(in) {
		t.Fatalf("Len %d, want %d", ops.Len(), len(in))
	}
	for i, want := range in {
		got := ops.At(i)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("operation %d:\ngot  %+v\nwant %+v", i+1, got, want)
		}
		if !reflect.DeepEqual(ops.Reads(i), want.Reads) || !reflect.DeepEqual(ops.Writes(i), want.Writes) ||
			ops.Label(i) != want.Label || ops.Path(i) != want.Path || ops.Phase(i) != want.Phase {
			t.Errorf("operation %d: the accessors give %v %v %q %q %v", i+1, ops.Reads(i), ops.Writes(i), ops.Label(i), ops.Path(i), ops.Phase(i))
		}
		if r := got.Reads; cap(r) != len(r) {
			t.Errorf("operation %d: its reads' capacity %d is past their length %d: appending to them would write over its writes", i+1, cap(r), len(r))
		}
	}
}

// TestRowSizes checks the sizes Buffers', Ops', template's and
// liveTemplate's documentation gives.
func TestRowSizes(t *testing.T) {
	if n := unsafe.Sizeof(bufRow{}); n != 40 {
		t.Errorf("a buffer's row takes %d bytes; Buffers says 40", n)
	}
	if n := unsafe.Sizeof(opRow{}); n != 32 {
		t.Errorf("an operation's row takes %d bytes; Ops says 32", n)
	}
	// A template's end is an int: 32 bytes on a 64-bit machine, 28 on a
	// 32-bit one.
	if n, want := unsafe.Sizeof(template{}), 24+unsafe.Sizeof(0); n != want {
		t.Errorf("a line's template takes %d bytes; template says %d", n, want)
	}
	// A record's template: three strings among its fields.
	if n := unsafe.Sizeof(liveTemplate{}); unsafe.Sizeof(0) == 8 && n != 96 {
		t.Errorf("a record's template takes %d bytes; liveTemplate says 96", n)
	}
}

// TestRowsHoldNoPointer checks what Buffers' documentation says: a row
// holds no pointer, so the collector has nothing to scan in a million of
// them.
func TestRowsHoldNoPointer(t *testing.T) {
	var pointerFree func(reflect.Type) bool
	pointerFree = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return true
		case reflect.Array:
			return pointerFree(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				if !pointerFree(ty.Field(i).Type) {
					return false
				}
			}
			return true
		}
		return false // pointers, slices, strings, maps, interfaces, uintptr's like
	}
	for _, row := range []any{bufRow{}, opRow{}} {
		if ty := reflect.TypeOf(row); !pointerFree(ty) {
			t.Errorf("%v holds a pointer: the collector scans every row", ty)
		}
	}
}

// TestBufferIDsInTurn checks that Buffers holds no ids while they are in
// turn, and every id once one is not.
func TestBufferIDsInTurn(t *testing.T) {
	var in []Buffer
	for i := range 1000 {
		in = append(in, Buffer{ID: int64(41 + i), Bytes: poly.Int(8), Line: 2 + i})
	}
	bs := BuffersOf(in)
	if bs.ids != nil {
		t.Errorf("ids 41 to 1040 in turn: Buffers holds %d of them", len(bs.ids))
	}
	in = append(in, Buffer{ID: 7, Bytes: poly.Int(8), Line: 1002}, Buffer{ID: 1042, Bytes: poly.Int(8), Line: 1003})
	bs = BuffersOf(in)
	for i, b := range in {
		if got := bs.ID(i); got != b.ID {
			t.Fatalf("buffer %d: id %d, want %d", i, got, b.ID)
		}
	}
}
