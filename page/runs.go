package page

import (
	"fmt"

	"memsym/record"
)

// limitDims narrows each dimension's range to the values at which the
// program runs, the others at their first values, and says on each why
// its range stops short of 1 or of the page's largest value. The first
// point must run. Each range is found by halving, which takes the values
// at which the program runs along a dimension to be one interval, as the
// bundled programs' are at given constants (N ≥ K, T ≤ P); the box the
// ranges make must run at its corners, so a limit of one dimension that
// moves with another's value is refused rather than drawn past.
func (pg *Page) limitDims(runs func(record.Point) error) error {
	first := make(record.Point, len(pg.dims))
	for j, d := range pg.dims {
		first[j] = record.Dim{Name: d.Name, Value: d.Value}
	}
	if why := runs(first); why != nil {
		return fmt.Errorf("the page's first point: %s does not run at %s: %v", pg.title, first, why)
	}
	for j := range pg.dims {
		d := &pg.dims[j]
		along := func(v int64) error { return runs(first.With(d.Name, v)) }
		var below, above stop
		d.Min, below = edge(along, d.Value, 1)
		d.Max, above = edge(along, d.Value, d.Max)
		for _, s := range []stop{below, above} {
			if s.why != nil {
				d.Stops = append(d.Stops, fmt.Sprintf("%s does not run at %s = %d: %v", pg.title, d.Name, s.at, s.why))
			}
		}
	}
	return pg.checkCorners(runs)
}

// stop is the value next past a range's end and why the program does not
// run there; why is nil when the range reaches the end it was given.
type stop struct {
	at  int64
	why error
}

// edge returns the value nearest end, from start toward it, at which the
// program runs along one dimension, given that it runs at start, and the
// stop past it.
func edge(runs func(int64) error, start, end int64) (int64, stop) {
	why := runs(end)
	if why == nil {
		return end, stop{}
	}
	good, bad := start, end
	for good-bad > 1 || bad-good > 1 {
		mid := good + (bad-good)/2
		if err := runs(mid); err != nil {
			bad, why = mid, err
		} else {
			good = mid
		}
	}
	return good, stop{bad, why}
}

// checkCorners refuses a page whose ranges, each found with the others at
// their first values, do not run together at the corners of the box they
// make: there the program's limits depend on more than one dimension.
func (pg *Page) checkCorners(runs func(record.Point) error) error {
	corner := make(record.Point, len(pg.dims))
	for k := 0; k < 1<<len(pg.dims); k++ {
		for j, d := range pg.dims {
			corner[j] = record.Dim{Name: d.Name, Value: d.Min}
			if k&(1<<j) != 0 {
				corner[j].Value = d.Max
			}
		}
		if why := runs(corner); why != nil {
			return fmt.Errorf("the page cannot yet draw a program whose limits along one dimension depend on another's value: %s does not run at %s: %v", pg.title, corner, why)
		}
	}
	return nil
}
