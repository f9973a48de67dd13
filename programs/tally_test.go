package programs_test

import (
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// tally is what the tests count from a recording by themselves, apart from
// count.At, following the seed's rules: a temp buffer lives from its
// first write to its last read or write; a view stands for its base; the
// result lives to the end; parameters and inputs are counted apart.
type tally struct {
	params, inputs, outputs, peak poly.Rat
	peakOp                        int        // the first operation at the peak, from 1
	live                          []poly.Rat // by operation, from 0
	atPeak                        []int      // positions in rec.Buffers
}

func tallyOf(rec *record.Recording) tally {
	pos := make(map[int64]int, rec.Buffers.Len())
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
	first := make([]int, rec.Buffers.Len())
	last := make([]int, rec.Buffers.Len())
	for n, op := range rec.Ops.All() {
		for _, id := range op.Writes {
			if i := base(id); first[i] == 0 {
				first[i] = n + 1
			}
		}
		for _, id := range append(append([]int64(nil), op.Reads...), op.Writes...) {
			last[base(id)] = n + 1
		}
	}
	var t tally
	seen := make(map[int]bool)
	for _, id := range rec.Result {
		i := base(id)
		last[i] = rec.Ops.Len()
		if !seen[i] {
			seen[i] = true
			t.outputs = t.outputs.Add(rec.Buffers.Bytes(i))
		}
	}
	for _, b := range rec.Buffers.All() {
		if b.Role == record.Param {
			t.params = t.params.Add(b.Bytes)
		}
		if b.Role != record.Temp {
			t.inputs = t.inputs.Add(b.Bytes)
		}
	}
	t.live = make([]poly.Rat, rec.Ops.Len())
	for i, b := range rec.Buffers.All() {
		if b.IsView || b.Role != record.Temp || first[i] == 0 {
			continue
		}
		for op := first[i]; op <= last[i]; op++ {
			t.live[op-1] = t.live[op-1].Add(b.Bytes)
		}
	}
	for n, l := range t.live {
		if t.peakOp == 0 || l.Cmp(t.peak) > 0 {
			t.peak, t.peakOp = l, n+1
		}
	}
	for i, b := range rec.Buffers.All() {
		if !b.IsView && b.Role == record.Temp && first[i] != 0 && first[i] <= t.peakOp && t.peakOp <= last[i] {
			t.atPeak = append(t.atPeak, i)
		}
	}
	return t
}

// recordAt records the named program, failing the test on an error.
func recordAt(t testing.TB, name string, dims, consts map[string]int64) *record.Recording {
	t.Helper()
	p, err := programs.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := p.Record(dims, consts)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestTallyAgreesWithCount checks count.At against the tests' own count
// on every program at its defaults.
func TestTallyAgreesWithCount(t *testing.T) {
	for _, p := range programs.All() {
		t.Run(p.Name, func(t *testing.T) {
			rec := recordAt(t, p.Name, nil, nil)
			want := tallyOf(rec)
			got := count.At(rec)
			for _, c := range []struct {
				what      string
				got, want poly.Rat
			}{
				{"params", got.Params, want.params},
				{"inputs", got.Inputs, want.inputs},
				{"outputs", got.Outputs, want.outputs},
				{"peak", got.Peak, want.peak},
				{"needs", got.Needs, want.inputs.Add(want.peak)},
			} {
				if !c.got.Equal(c.want) {
					t.Errorf("%s: count.At says %s, the tally %s", c.what, c.got, c.want)
				}
			}
			if got.PeakOp != want.peakOp {
				t.Errorf("peak at operation %d, the tally says %d", got.PeakOp, want.peakOp)
			}
			for i := range want.live {
				if !got.Live[i].Equal(want.live[i]) {
					t.Fatalf("operation %d: %s live, the tally says %s", i+1, got.Live[i], want.live[i])
				}
			}
			if !equalInts(got.AtPeak, want.atPeak) {
				t.Errorf("at the peak %v, the tally says %v", got.AtPeak, want.atPeak)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func lookup(t *testing.T, name string) *programs.Program {
	t.Helper()
	p, err := programs.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
