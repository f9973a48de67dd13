package record

import (
	"math"
	"testing"
)

// TestIDIndex checks the id index against a map, for ids in turn (from
// several firsts, the extremes included), ids that leave the turn after a
// while, and ids far apart: every id set is found at its position, no
// other id is found, and idOf gives each position's id back.
func TestIDIndex(t *testing.T) {
	seq := func(first int64, n int) []int64 {
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = first + int64(i)
		}
		return ids
	}
	cases := map[string][]int64{
		"in turn from 1":            seq(1, 5000),
		"in turn from 0":            seq(0, 10),
		"in turn from −3":           seq(-3, 10),
		"in turn to the largest":    seq(math.MaxInt64-4, 5),
		"in turn from the least":    seq(math.MinInt64, 5),
		"out of turn after 3000":    append(seq(1, 3000), 5000, 3001, 3002),
		"out of turn at once":       {7, 3, 4, 5},
		"far apart":                 {1, 2, 1 << 40, -5, 3},
		"a gap, then in turn again": append(seq(1, 100), seq(200, 100)...),
	}
	for name, ids := range cases {
		var x idIndex
		want := map[int64]int{}
		for pos, id := range ids {
			if _, ok := x.get(id); ok {
				t.Fatalf("%s: id %d found before it was set", name, id)
			}
			x.set(id, pos)
			want[id] = pos
		}
		for id, pos := range want {
			if got, ok := x.get(id); !ok || got != pos {
				t.Errorf("%s: get(%d) = %d, %v; want %d", name, id, got, ok, pos)
			}
			if got := x.idOf(pos); got != id {
				t.Errorf("%s: idOf(%d) = %d, want %d", name, pos, got, id)
			}
		}
		for _, id := range []int64{ids[0] - 1, ids[len(ids)-1] + 1, 0, -1, 1 << 50, math.MinInt64, math.MaxInt64} {
			if _, set := want[id]; set {
				continue
			}
			if p, ok := x.get(id); ok {
				t.Errorf("%s: get(%d) = %d, true for an id never set", name, id, p)
			}
		}
	}
}
