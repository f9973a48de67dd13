package count

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// sweep is which buffers are live at each operation, worked out from the
// format's rules (docs/recording-format.md, "Liveness") without Lifetimes
// and without record's id index. It is deliberately naive: for each
// operation and each buffer it asks the two questions of the rules afresh.
//
//   - Only a temp is ever live: a view has no bytes and stands for its base,
//     and parameters and inputs are held by the caller, counted apart.
//   - A temp is live at operation n when some operation at or before n
//     writes it, directly or through a view, and some operation at or after
//     n reads or writes it, or the result names it (the result lives to the
//     end).
type sweep struct {
	live   [][]bool   // by operation (index op-1), then by position in rec.Buffers
	bytes  []poly.Rat // the live bytes at each operation (index op-1)
	peak   poly.Rat   // the largest live bytes
	peakOp int        // the first operation that reaches the peak; 0 with no operations
	inputs poly.Rat   // the caller-held buffers' bytes
}

func newSweep(rec *record.Recording) *sweep {
	pos := map[int64]int{}
	for i, b := range rec.Buffers.All() {
		pos[b.ID] = i
	}
	base := func(id int64) int {
		i := pos[id]
		for rec.Buffers.IsView(i) {
			i = pos[rec.Buffers.At(i).Of]
		}
		return i
	}
	// The operations that write each buffer and those that touch it.
	writers := make([][]int, rec.Buffers.Len())
	touchers := make([][]int, rec.Buffers.Len())
	for n, op := range rec.Ops.All() {
		for _, id := range op.Writes {
			writers[base(id)] = append(writers[base(id)], n+1)
			touchers[base(id)] = append(touchers[base(id)], n+1)
		}
		for _, id := range op.Reads {
			touchers[base(id)] = append(touchers[base(id)], n+1)
		}
	}
	inResult := make([]bool, rec.Buffers.Len())
	for _, id := range rec.Result {
		inResult[base(id)] = true
	}

	s := &sweep{}
	for _, b := range rec.Buffers.All() {
		if !b.IsView && b.Role != record.Temp {
			s.inputs = s.inputs.Add(b.Bytes)
		}
	}
	for n := 1; n <= rec.Ops.Len(); n++ {
		live := make([]bool, rec.Buffers.Len())
		var bytes poly.Rat
		for i, b := range rec.Buffers.All() {
			if b.IsView || b.Role != record.Temp {
				continue
			}
			written := slices.ContainsFunc(writers[i], func(w int) bool { return w <= n })
			used := inResult[i] || slices.ContainsFunc(touchers[i], func(u int) bool { return u >= n })
			if written && used {
				live[i] = true
				bytes = bytes.Add(b.Bytes)
			}
		}
		s.live = append(s.live, live)
		s.bytes = append(s.bytes, bytes)
		if s.peakOp == 0 || bytes.Cmp(s.peak) > 0 {
			s.peak, s.peakOp = bytes, n
		}
	}
	return s
}

// first returns the first operation at which buffer i is live, 0 for none.
func (s *sweep) first(i int) int {
	for n, live := range s.live {
		if live[i] {
			return n + 1
		}
	}
	return 0
}

// compareSweep checks Lifetimes and At against the sweep on rec, and
// returns the first disagreement, "" for none.
func compareSweep(rec *record.Recording) string {
	s := newSweep(rec)
	lives := Lifetimes(rec)
	if len(lives) != rec.Buffers.Len() {
		return fmt.Sprintf("Lifetimes gives %d lives for %d buffers", len(lives), rec.Buffers.Len())
	}
	for n := 1; n <= rec.Ops.Len(); n++ {
		for i, b := range rec.Buffers.All() {
			if got, want := lives[i].Live(n), s.live[n-1][i]; got != want {
				return fmt.Sprintf("buffer %d (%q) at operation %d of %d: Lifetimes says live %v (its life %d to %d), the sweep %v",
					b.ID, b.Name, n, rec.Ops.Len(), got, lives[i].First, lives[i].Last, want)
			}
		}
	}
	// The uses a Builder finds as it goes give the same lives.
	b := record.NewBuilder()
	for r := rec.Replay(); r.Scan(); {
		if err := b.Add(r.Record()); err != nil {
			return fmt.Sprintf("building the recording again: %v", err)
		}
	}
	if _, err := b.Finish(); err != nil {
		return fmt.Sprintf("building the recording again: %v", err)
	}
	if built := LifetimesFrom(rec, b.Uses()); !slices.Equal(built, lives) {
		return fmt.Sprintf("the Builder's uses give the lives %v, Lifetimes %v", built, lives)
	}
	c := At(rec)
	if len(c.Live) != rec.Ops.Len() {
		return fmt.Sprintf("At gives live bytes at %d operations, want %d", len(c.Live), rec.Ops.Len())
	}
	for n := 1; n <= rec.Ops.Len(); n++ {
		if !c.Live[n-1].Equal(s.bytes[n-1]) {
			return fmt.Sprintf("live bytes at operation %d: At says %s, the sweep %s", n, c.Live[n-1], s.bytes[n-1])
		}
	}
	if !c.Peak.Equal(s.peak) || c.PeakOp != s.peakOp {
		return fmt.Sprintf("At's peak is %s at operation %d, the sweep's %s at %d", c.Peak, c.PeakOp, s.peak, s.peakOp)
	}
	var atPeak []int
	if s.peakOp > 0 {
		for i, live := range s.live[s.peakOp-1] {
			if live {
				atPeak = append(atPeak, i)
			}
		}
	}
	if !slices.Equal(c.AtPeak, atPeak) {
		return fmt.Sprintf("live at the peak: At says %v, the sweep %v", c.AtPeak, atPeak)
	}
	if len(c.MadeBy) != len(c.AtPeak) {
		return fmt.Sprintf("At gives %d makers for %d buffers live at the peak", len(c.MadeBy), len(c.AtPeak))
	}
	for k, i := range c.AtPeak {
		first := 0 // the first operation the sweep finds it live at: its first write
		for n := 1; n <= rec.Ops.Len() && first == 0; n++ {
			if s.live[n-1][i] {
				first = n
			}
		}
		if c.MadeBy[k] != first {
			return fmt.Sprintf("buffer at %d, live at the peak: At says operation %d made it, the sweep %d", i, c.MadeBy[k], first)
		}
	}
	if !c.Inputs.Equal(s.inputs) || !c.Needs.Equal(s.inputs.Add(s.peak)) {
		return fmt.Sprintf("At's inputs %s and needs %s, the sweep's %s and %s", c.Inputs, c.Needs, s.inputs, s.inputs.Add(s.peak))
	}
	if c.Placed.Cmp(c.Peak) < 0 {
		return fmt.Sprintf("placed %s below the peak %s", c.Placed, c.Peak)
	}
	return ""
}

// sweepPoints returns the points each bundled program is swept at: its
// defaults, its grid's ends, its check point, every dimension at 7, and
// other constants: the chapter's, and one block more and fewer.
func sweepPoints(p *programs.Program) []struct{ dims, consts map[string]int64 } {
	type point = struct{ dims, consts map[string]int64 }
	dimsAt := func(value func(programs.Dim) int64) map[string]int64 {
		m := map[string]int64{}
		for _, d := range p.Dims {
			m[d.Name] = value(d)
		}
		return m
	}
	points := []point{
		{nil, nil},
		{dimsAt(func(d programs.Dim) int64 { return d.Grid[0] }), nil},
		{dimsAt(func(d programs.Dim) int64 { return d.Grid[2] }), nil},
		{dimsAt(func(d programs.Dim) int64 { return d.Check }), nil},
		{dimsAt(func(programs.Dim) int64 { return 7 }), nil},
	}
	if p.Chapter != nil {
		points = append(points, point{nil, p.Chapter.Consts})
	}
	for _, c := range p.Consts {
		if c.Name == "L" {
			points = append(points, point{nil, map[string]int64{"L": c.Default + 1}})
			if c.Default > 1 {
				points = append(points, point{nil, map[string]int64{"L": c.Default - 1}})
			}
		}
	}
	return points
}

// TestLivenessSweepPrograms checks Lifetimes and At against the sweep on
// every bundled program at several points.
func TestLivenessSweepPrograms(t *testing.T) {
	for _, p := range programs.All() {
		t.Run(p.Name, func(t *testing.T) {
			for _, pt := range sweepPoints(p) {
				rec, err := p.Record(pt.dims, pt.consts)
				if err != nil {
					t.Fatalf("at %v %v: %v", pt.dims, pt.consts, err)
				}
				if msg := compareSweep(rec); msg != "" {
					t.Errorf("at %v %v: %s", pt.dims, pt.consts, msg)
				}
			}
		})
	}
}

// TestLivenessSweepRandom checks Lifetimes, At and the calls' table against
// the sweep on random recordings.
func TestLivenessSweepRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		rec := randomRecording(t, rng, 1+rng.IntN(40))
		if msg := compareSweep(rec); msg != "" {
			t.Fatalf("trial %d: %s", trial, msg)
		}
		checkCalls(t, rec, At(rec), newSweep(rec))
	}
}

// TestLivenessSweepByHand checks the sweep itself on a recording whose
// lives are worked out by hand, so that it cannot agree with Lifetimes by
// sharing its mistakes: buffer 1 written at 1 and read at 3; 2 written at 2
// through view 5 and never read; 3 written at 3 and 4, in the result; 4 an
// input, read at 2.
func TestLivenessSweepByHand(t *testing.T) {
	in := hdr + `{"buffer": 1, "bytes": 1}
{"buffer": 2, "bytes": 10}
{"buffer": 3, "bytes": 100}
{"buffer": 4, "bytes": 1000, "role": "input"}
{"view": 5, "of": 2}
{"op": "a", "writes": [1]}
{"op": "b", "reads": [4], "writes": [5]}
{"op": "c", "reads": [1], "writes": [3]}
{"op": "d", "writes": [3]}
{"op": "e"}
{"result": [3]}
`
	rec, err := record.Read(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := newSweep(rec)
	want := "1 11 101 100 100"
	var got []string
	for _, b := range s.bytes {
		got = append(got, b.String())
	}
	if strings.Join(got, " ") != want || s.peakOp != 3 || !s.inputs.Equal(poly.Int(1000)) {
		t.Errorf("the sweep's live bytes %v, peak at %d, inputs %s; want %s, 3, 1000", got, s.peakOp, s.inputs, want)
	}
	if msg := compareSweep(rec); msg != "" {
		t.Error(msg)
	}
}

// FuzzLivenessSweep checks Lifetimes and At against the sweep on whatever
// recordings the fuzzer finds that read.
func FuzzLivenessSweep(f *testing.F) {
	files, _ := filepath.Glob("../record/testdata/*.jsonl")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"view": 2, "of": 1}` + "\n" +
		`{"op": "f", "writes": [2]}` + "\n" + `{"op": "g", "reads": [1]}` + "\n" + `{"op": "h"}` + "\n" + `{"result": [2]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := record.Read(strings.NewReader(string(data)), "f.jsonl")
		if err != nil {
			return
		}
		if msg := compareSweep(rec); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestLifetimesLong checks the lives of a chain long enough that
// LifetimesFrom copies them in halves: temp k (from 1) is written by
// operation k and read by k + 1, and the last, the result, lives to the end.
func TestLifetimesLong(t *testing.T) {
	const n = 70_001
	r := record.NewRecorder("Chain.apply", []record.Dim{{Name: "B", Value: 1}}, nil, "f32")
	x := r.Input("x", "", record.MustDType("f32"), 4)
	prev := x
	for range n {
		y := r.Temp("y", "", record.MustDType("f32"), 4)
		r.Op("step", "", []int64{prev}, []int64{y})
		prev = y
	}
	r.Result(prev)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	lives := Lifetimes(rec)
	if lives[0] != (Life{}) {
		t.Errorf("the input lives %v", lives[0])
	}
	for k := 1; k <= n; k++ {
		want := Life{First: int32(k), Last: int32(min(k+1, n))}
		if lives[k] != want {
			t.Fatalf("temp %d lives %v, want %v", k, lives[k], want)
		}
	}
}
