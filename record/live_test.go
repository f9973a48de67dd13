package record_test

import (
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"memsym/record"
)

// chain makes a recording of n operations, each making a [b, 8] buffer
// from the last, through a Recorder into sink; it fails with failAt's
// error after that many operations when failAt > 0.
func chain(n, b, failAt int) func(record.Sink) error {
	return func(sink record.Sink) error {
		f32 := record.MustDType("f32")
		r := record.NewRecorderTo(sink, false, "Chain.apply", []record.Dim{{Name: "B", Value: int64(b)}}, nil, "f32")
		r.Grow(n+1, n)
		x := r.Input("x", "", f32, int64(b), 8)
		for i := range n {
			if failAt > 0 && i == failAt {
				return errors.New("chain: made to fail")
			}
			y := r.Temp("y", "layers["+strconv.Itoa(i)+"]", f32, int64(b), 8)
			r.Op("Chain.step", "layers["+strconv.Itoa(i)+"]", []int64{x}, []int64{y})
			x = y
		}
		r.Result(x)
		return r.Err()
	}
}

func TestLiveScan(t *testing.T) {
	l := record.NewLive(chain(5000, 2, 0))
	defer l.Close()
	var kinds [6]int
	for l.Scan() {
		r := l.Record()
		kinds[r.Kind]++
		if r.Kind == record.KindBuffer && r.Buffer.Role == record.Temp && r.Buffer.Bytes.String() != "64" {
			t.Fatalf("line %d: %s bytes, want 64", r.Line, r.Buffer.Bytes)
		}
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	want := [6]int{record.KindHeader: 1, record.KindBuffer: 5001, record.KindOp: 5000, record.KindResult: 1}
	if kinds != want {
		t.Errorf("records by kind %v, want %v", kinds, want)
	}
	if b, o := l.Expected(); b != 5001 || o != 5000 {
		t.Errorf("Expected() = %d, %d; want the maker's Grow, 5001, 5000", b, o)
	}
}

// TestLiveExpectedCountsMade checks that Expected counts what the maker
// had made when it asked for room, as the synthetic program does (its
// input and weights first): the reader takes Expected as the recording's
// whole size.
func TestLiveExpectedCountsMade(t *testing.T) {
	const n = 3000
	l := record.NewLive(func(sink record.Sink) error {
		f32 := record.MustDType("f32")
		r := record.NewRecorderTo(sink, false, "Chain.apply", []record.Dim{{Name: "B", Value: 2}}, nil, "f32")
		x := r.Input("x", "", f32, 2, 8)
		w := r.Param("w", "", f32, 8, 8)
		r.Grow(n, n) // room for as many more
		for i := range n {
			y := r.Temp("y", "layers["+strconv.Itoa(i)+"]", f32, 2, 8)
			r.Op("Chain.step", "layers["+strconv.Itoa(i)+"]", []int64{x, w}, []int64{y})
			x = y
		}
		r.Result(x)
		return r.Err()
	})
	defer l.Close()
	for l.Scan() {
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	if b, o := l.Expected(); b != n+2 || o != n {
		t.Errorf("Expected() = %d, %d; want the 2 buffers made before Grow and its room: %d, %d", b, o, n+2, n)
	}
}

func TestLiveError(t *testing.T) {
	l := record.NewLive(chain(5000, 2, 3000))
	defer l.Close()
	ops := 0
	for l.Scan() {
		if l.Record().Kind == record.KindOp {
			ops++
		}
	}
	if err := l.Err(); err == nil || err.Error() != "chain: made to fail" {
		t.Fatalf("Err() = %v, want the maker's error", err)
	}
	if ops != 3000 {
		t.Errorf("%d operations read before the error, want 3000", ops)
	}
}

// TestLiveClose checks that closing a stream before its end stops its
// maker: no goroutine is left behind, whether the maker was making a batch
// ahead, waiting, or following.
func TestLiveClose(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, read := range []int{0, 1, 2, 3000} {
		l := record.NewLive(chain(100000, 2, 0))
		for range read {
			if !l.Scan() {
				t.Fatal("the stream ended early")
			}
		}
		l.Close()
		if l.Scan() {
			t.Errorf("Scan after Close returned a record")
		}
	}
	// A follower stopped by a difference, then closed.
	a, b := record.NewLive(chain(3000, 2, 0)), record.NewLive(chain(3000, 3, 0))
	var tm record.Templates
	a.Scan()
	b.Scan()
	for a.Scan() {
		a.Keep(&tm)
	}
	var sizes record.Sizes
	if n := b.Follow(&tm, 0, &sizes); n != tm.Len() || sizes.Len() != 3001 {
		t.Errorf("followed %d records of %d with %d sizes; want all, 3001 sizes", n, tm.Len(), sizes.Len())
	}
	a.Close()
	b.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left behind", n-before)
	}
}

// TestLiveFollowStops checks that Follow stops before the first record that
// differs otherwise than by its size, and that Scan then reads it.
func TestLiveFollowStops(t *testing.T) {
	rename := func(sink record.Sink) error {
		f32 := record.MustDType("f32")
		r := record.NewRecorderTo(sink, false, "Chain.apply", []record.Dim{{Name: "B", Value: 3}}, nil, "f32")
		x := r.Input("x", "", f32, 3, 8)
		for i := range 10 {
			name := "y"
			if i == 7 {
				name = "z"
			}
			y := r.Temp(name, "layers["+strconv.Itoa(i)+"]", f32, 3, 8)
			r.Op("Chain.step", "layers["+strconv.Itoa(i)+"]", []int64{x}, []int64{y})
			x = y
		}
		r.Result(x)
		return r.Err()
	}
	a, b := record.NewLive(chain(10, 2, 0)), record.NewLive(rename)
	defer a.Close()
	defer b.Close()
	var tm record.Templates
	a.Scan()
	b.Scan()
	for a.Scan() {
		a.Keep(&tm)
	}
	var sizes record.Sizes
	n := b.Follow(&tm, 0, &sizes)
	// x, then 7 buffers and operations: the 8th buffer is named z.
	if n != 1+2*7 || sizes.Len() != 8 {
		t.Fatalf("followed %d records with %d sizes, want 15 and 8", n, sizes.Len())
	}
	for i, s := range sizes.Slice() {
		if s.String() != "96" {
			t.Errorf("size %d = %s, want 96 (3 × 8 f32)", i, s)
		}
	}
	if !b.Scan() || b.Record().Buffer.Name != "z" {
		t.Fatalf("the next Scan does not read the buffer z")
	}
	if n := b.Follow(&tm, n+1, new(record.Sizes)); n != tm.Len() {
		t.Errorf("following from the record after z read to %d, want the end, %d", n, tm.Len())
	}
}

// TestLiveFollowEachField checks that following a Recorder's calls, which
// are compared with the templates as they are made, stops before the first
// call that differs in any one thing but its size, and only there: the
// records before it are read with their sizes, and Scan then reads that
// call's record as it was made.
func TestLiveFollowEachField(t *testing.T) {
	f32, f16 := record.MustDType("f32"), record.MustDType("f16")
	// step makes a training step's few records at batch b, with the one
	// thing named by change made otherwise.
	step := func(b int64, change string) func(record.Sink) error {
		pick := func(what, usual, other string) string {
			if change == what {
				return other
			}
			return usual
		}
		return func(sink record.Sink) error {
			r := record.NewRecorderTo(sink, true, "Step.apply", []record.Dim{{Name: "B", Value: b}}, nil, "f32")
			r.SetPhase(record.Forward)
			x := r.Input("x", "", f32, b, 8)
			w := r.Param("w", "weights", f32, 8, 8)
			dt, role, shape := f32, record.Temp, []int64{b, 8}
			switch change {
			case "temp dtype":
				dt = f16
			case "temp role":
				role = record.Input
			case "temp rank":
				shape = []int64{b, 2, 4}
			}
			var y int64
			if role == record.Temp {
				y = r.Temp(pick("temp name", "y", "z"), pick("temp group", "layer", "block"), dt, shape...)
			} else {
				y = r.Input(pick("temp name", "y", "z"), pick("temp group", "layer", "block"), dt, shape...)
			}
			reads, writes := []int64{x, w}, []int64{y}
			switch change {
			case "op reads":
				reads = []int64{w, x}
			case "op writes":
				writes = []int64{y, x}
			case "op phase":
				r.SetPhase(record.Backward)
			}
			if change == "op launch" {
				r.NoLaunch(pick("op label", "Mul", "Add"), pick("op path", "layer", "block"), reads, writes)
			} else {
				r.Op(pick("op label", "Mul", "Add"), pick("op path", "layer", "block"), reads, writes)
			}
			of := y
			if change == "view of" {
				of = x
			}
			var v int64
			switch change {
			case "view rank":
				v = r.View(of, pick("view name", "v", "u"), f32)
			case "view dtype":
				v = r.View(of, pick("view name", "v", "u"), f16, 8*b)
			default:
				v = r.View(of, pick("view name", "v", "u"), f32, 8*b)
			}
			r.NoLaunch("View", "layer", []int64{of}, nil)
			r.Result(v)
			return r.Err()
		}
	}
	// After the header: x, w, y, the operation, v, its operation, the result.
	for _, c := range []struct {
		change string
		at     int // the record Follow stops before; 7 for none
	}{
		{"", 7},
		{"temp name", 2}, {"temp group", 2}, {"temp dtype", 2}, {"temp role", 2}, {"temp rank", 2},
		{"op label", 3}, {"op path", 3}, {"op reads", 3}, {"op writes", 3}, {"op launch", 3}, {"op phase", 3},
		{"view of", 4}, {"view name", 4}, {"view dtype", 4}, {"view rank", 4},
	} {
		a, b := record.NewLive(step(2, "")), record.NewLive(step(3, c.change))
		var tm record.Templates
		a.Scan()
		for a.Scan() {
			a.Keep(&tm)
		}
		a.Close()
		if !b.Scan() || b.Record().Kind != record.KindHeader {
			t.Fatalf("%q: no header first", c.change)
		}
		var sizes record.Sizes
		n := b.Follow(&tm, 0, &sizes)
		// The sizes of x, w, y and v at B = 3, as many as come before c.at.
		want := []string{"96", "256", "96", "0"}[:[]int{0, 1, 2, 3, 3, 4, 4, 4}[c.at]]
		got := make([]string, sizes.Len())
		for i, s := range sizes.Slice() {
			got[i] = s.String()
		}
		if n != c.at || !slices.Equal(got, want) {
			t.Errorf("%q: followed %d records, sizes %v; want %d, %v", c.change, n, got, c.at, want)
		}
		if c.at < 7 {
			if !b.Scan() || b.Record().Line != c.at+2 {
				t.Errorf("%q: Scan after Follow does not read line %d", c.change, c.at+2)
			} else if r := b.Record(); (c.change == "temp name" && r.Buffer.Name != "z") ||
				(c.change == "op label" && r.Op.Label != "Add") || (c.change == "view name" && r.Buffer.Name != "u") {
				t.Errorf("%q: Scan read %+v, not the call made otherwise", c.change, *r)
			}
		}
		b.Close()
	}
}

// TestLiveFollowOddSizes checks the sizes of calls followed whose bytes are
// not an integer (three i4 are a byte and a half), and that a call with a
// negative axis is not followed: the maker's mistake ends the stream there,
// as it does when the stream is scanned.
func TestLiveFollowOddSizes(t *testing.T) {
	i4 := record.MustDType("i4")
	at := func(b int64, bad bool) func(record.Sink) error {
		return func(sink record.Sink) error {
			r := record.NewRecorderTo(sink, false, "Odd.apply", []record.Dim{{Name: "B", Value: b}}, nil, "i4")
			x := r.Input("x", "", i4, b, 3)
			y := r.Temp("y", "", i4, b, 4)
			r.Op("Odd.step", "", []int64{x}, []int64{y})
			axis := b
			if bad {
				axis = -b
			}
			z := r.Temp("z", "", i4, axis, 5)
			r.Op("Odd.step", "", []int64{y}, []int64{z})
			r.Result(z)
			return r.Err()
		}
	}
	a := record.NewLive(at(2, false))
	var tm record.Templates
	a.Scan()
	for a.Scan() {
		a.Keep(&tm)
	}
	a.Close()
	for _, bad := range []bool{false, true} {
		b := record.NewLive(at(3, bad))
		if !b.Scan() || b.Record().Kind != record.KindHeader {
			t.Fatalf("bad %v: no header first", bad)
		}
		var sizes record.Sizes
		n := b.Follow(&tm, 0, &sizes)
		want, wantSizes := tm.Len(), []string{"9/2", "6", "15/2"}
		if bad {
			want, wantSizes = 3, wantSizes[:2]
		}
		if n != want {
			t.Errorf("bad %v: followed %d records, want %d", bad, n, want)
		}
		var got []string
		for _, s := range sizes.Slice() {
			got = append(got, s.String())
		}
		if !slices.Equal(got, wantSizes) {
			t.Errorf("bad %v: sizes %v, want %v", bad, got, wantSizes)
		}
		more := b.Scan()
		if err := b.Err(); bad && (more || err == nil || !strings.Contains(err.Error(), `buffer "z": axis of -3 elements`)) {
			t.Errorf("bad: after the records followed, Scan %v and error %v; want the axis refused", more, err)
		} else if !bad && (more || err != nil) {
			t.Errorf("after every record followed, Scan %v and error %v; want the end", more, err)
		}
		b.Close()
	}
}
