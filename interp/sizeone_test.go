package interp

import (
	"strings"
	"testing"

	"memsym/record"
)

// squeezing records a program that runs one operation more where diff
// says, as PyTorch copies a tensor at B ≥ 2 that it views at B = 1.
func squeezing(diff func(b, t int64) bool) program {
	return func(r *record.Recorder, at map[string]int64) {
		b, t := at["B"], at["T"]
		x := r.Input("x", "", f64, b, t)
		y := r.Temp("y", "", f64, b, t, 2)
		r.Op("F.apply/%0", "", []int64{x}, []int64{y})
		if diff(b, t) {
			r.Op("F.apply/%1", "", []int64{y}, []int64{y})
		}
		z := r.Temp("z", "", f64, b, t)
		r.Op("F.apply/%2", "", []int64{y}, []int64{z})
		r.Result(z)
	}
}

// A grid refused for operations that differ advises starting at 2 when
// the points that differ are exactly those with a dimension at 1, the
// others agreeing, and keeps the advice for a dimension that changes the
// operations otherwise: many grids start at 1 rightly.
func TestSizeOneAdvice(t *testing.T) {
	const why = "; a dimension that changes the operations (such as a fold's iteration count) cannot be interpolated: make it a constant"
	const one = "at a size of 1 a recorder may record other operations (PyTorch does, a reshape making a view where it copies at 2 and more), so start the grid at 2, "
	grid := [][3]int64{{1, 2, 3}, {4, 8, 12}}
	for _, c := range []struct {
		name string
		grid [][3]int64
		diff func(b, t int64) bool
		want string
	}{
		{"B = 1 alone", grid, func(b, t int64) bool { return b == 1 }, "; the points with B = 1 are those whose operations differ, the others all agreeing: " + one + "B ∈ {2, 3, 4} (--grid B=2,3,4 where memsym records)"},
		{"B = 1 or T = 1", [][3]int64{{1, 2, 3}, {1, 5, 9}}, func(b, t int64) bool { return b == 1 || t == 1 }, "; the points with B = 1 or T = 1 are those whose operations differ, the others all agreeing: " + one + "B ∈ {2, 3, 4}, T ∈ {2, 6, 10} (--grid B=2,3,4 --grid T=2,6,10 where memsym records)"},
		// Not the size of 1 alone: B = 3 differs too, or only some of
		// the points at B = 1 do, or the grid has no 1.
		{"B = 3 too", grid, func(b, t int64) bool { return b != 2 }, why},
		{"some of B = 1", grid, func(b, t int64) bool { return b == 1 && t == 12 }, why},
		{"T along", grid, func(b, t int64) bool { return t == 12 }, why},
		{"no 1", [][3]int64{{2, 3, 4}, {4, 8, 12}}, func(b, t int64) bool { return b == 2 }, why},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Build(gridSources(t, attnVars, c.grid, squeezing(c.diff)), nil)
			if err == nil || !strings.HasSuffix(err.Error(), c.want) {
				t.Errorf("got  %v\nwant …%s", err, c.want)
			}
		})
	}
}
