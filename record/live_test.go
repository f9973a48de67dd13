package record_test

import (
	"errors"
	"runtime"
	"strconv"
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
	if n, sizes := b.Follow(&tm, 0, nil); n != tm.Len() || len(sizes) != 3001 {
		t.Errorf("followed %d records of %d with %d sizes; want all, 3001 sizes", n, tm.Len(), len(sizes))
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
	n, sizes := b.Follow(&tm, 0, nil)
	// x, then 7 buffers and operations: the 8th buffer is named z.
	if n != 1+2*7 || len(sizes) != 8 {
		t.Fatalf("followed %d records with %d sizes, want 15 and 8", n, len(sizes))
	}
	for i, s := range sizes {
		if s.String() != "96" {
			t.Errorf("size %d = %s, want 96 (3 × 8 f32)", i, s)
		}
	}
	if !b.Scan() || b.Record().Buffer.Name != "z" {
		t.Fatalf("the next Scan does not read the buffer z")
	}
	if n, _ := b.Follow(&tm, n+1, nil); n != tm.Len() {
		t.Errorf("following from the record after z read to %d, want the end, %d", n, tm.Len())
	}
}
