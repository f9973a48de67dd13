package count

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"memsym/poly"
	"memsym/record"
)

// randomRecording records a random program: buffers of random sizes made,
// read through views, written again, under nested folds.
func randomRecording(t testing.TB, rng *rand.Rand, nOps int) *record.Recording {
	r := record.NewRecorder("R.apply", []record.Dim{{Name: "B", Value: 1}}, nil, "")
	var held, made []int64
	for range 1 + rng.IntN(3) {
		held = append(held, r.Bytes(record.Param, "p", "", poly.Int(rng.Int64N(100))))
	}
	paths := []string{"", "a", "a.b", "c[0]", "c[1].d", "c[0].d", "c[1]", "e[0].f[1].g", "e[1].f[0]"}
	for n := range nOps {
		var reads, writes []int64
		for range rng.IntN(3) {
			if len(made) > 0 && rng.IntN(3) > 0 {
				reads = append(reads, made[rng.IntN(len(made))])
			} else {
				reads = append(reads, held[rng.IntN(len(held))])
			}
		}
		switch {
		case len(made) > 0 && rng.IntN(4) == 0:
			writes = append(writes, made[rng.IntN(len(made))]) // in place
		case len(made) > 0 && rng.IntN(4) == 0:
			v := r.View(made[rng.IntN(len(made))], "v", record.DType{})
			made = append(made, v)
			writes = append(writes, v)
		default:
			b := r.Bytes(record.Temp, fmt.Sprint("t", n), "", poly.Frac(rng.Int64N(1000), 1+rng.Int64N(2)))
			made = append(made, b)
			writes = append(writes, b)
		}
		r.Op(fmt.Sprint("op", n), paths[rng.IntN(len(paths))], reads, writes)
	}
	var result []int64
	for range rng.IntN(3) {
		if len(made) > 0 {
			result = append(result, made[rng.IntN(len(made))])
		}
	}
	r.Result(result...)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// checkCalls checks the calls' table against its definition: the shares of
// the top-level calls and the entry's own sum to the peak, and each row's
// share and own peak are what a direct count over the sweep's live sets gives.
func checkCalls(t *testing.T, rec *record.Recording, c *Counts, s *sweep) {
	t.Helper()
	under := func(path, call string) bool {
		grouped, _ := record.SplitPath(path)
		if call == "" {
			return grouped == ""
		}
		return grouped == call || strings.HasPrefix(grouped, call+".")
	}
	maker := func(i int) string { return rec.Ops.Path(s.first(i) - 1) }
	madeUnderLiveAt := func(call string, op int) poly.Rat {
		var sum poly.Rat
		for i := range rec.Buffers.Len() {
			if s.live[op-1][i] && under(maker(i), call) {
				sum = sum.Add(rec.Buffers.Bytes(i))
			}
		}
		return sum
	}
	var total poly.Rat
	for _, call := range c.Calls {
		if call.Depth <= 1 {
			total = total.Add(call.Share)
		}
		var own poly.Rat
		ops := 0
		for n, op := range rec.Ops.All() {
			if under(op.Path, call.Path) {
				ops++
				if s := madeUnderLiveAt(call.Path, n+1); s.Cmp(own) > 0 {
					own = s
				}
			}
		}
		var share poly.Rat
		if c.PeakOp > 0 {
			share = madeUnderLiveAt(call.Path, c.PeakOp)
		}
		if !call.Share.Equal(share) || !call.OwnPeak.Equal(own) || call.Ops != ops {
			t.Fatalf("call %q: share %s, own peak %s, %d ops; want %s, %s, %d", call.Path, call.Share, call.OwnPeak, call.Ops, share, own, ops)
		}
	}
	if !total.Equal(c.Peak) {
		t.Fatalf("the shares sum to %s, the peak is %s", total, c.Peak)
	}
}
