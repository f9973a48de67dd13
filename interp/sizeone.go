package interp

import (
	"fmt"
	"slices"
	"strings"

	"memsym/record"
)

// A grid whose points differ in their operations is refused with advice
// for a dimension that changes them (whyOps). Some recorders record other
// operations where a size is 1 (PyTorch's broadcasting and squeezing: a
// reshape that copies at B ≥ 2 makes a view at B = 1), and a grid that
// starts at 1 then differs there alone. That advice is given only when the
// recordings show it: the points that differ from the others are exactly
// those with some dimension at 1, the others all agreeing.

// maxSizeOneDims bounds the dimensions starting at 1 whose sets are tried.
const maxSizeOneDims = 4

// sizeOne returns the dimensions at 1 that alone set apart the grid's
// recordings that differ: a set S of the dimensions whose least grid value
// is 1, the least such, such that a point's recording differs from the
// recording of a point with no dimension at 1 exactly when some dimension
// of S is 1 there; nil when there is none. It reads every recording again,
// keeping nothing of them; it is asked only of a grid refused, the
// recording at the point differ found to differ first.
func sizeOne(g *grid, sources []Source, differ []record.Dim) []int {
	var ones []int
	for j := range g.vars {
		if g.values[j][0] == 1 {
			ones = append(ones, j)
		}
	}
	if len(ones) == 0 || len(ones) > maxSizeOneDims {
		return nil
	}
	// The reference: the first grid point with no dimension at 1.
	digits := make([]byte, len(g.vars))
	for _, j := range ones {
		digits[j] = 1
	}
	ref := g.order[pointIndex(digits)]
	st, err := readStructure(sources[ref], pointName(g.dims[ref]), nil)
	if err != nil {
		return nil
	}
	// The points with no dimension at 1 first, the one found to differ
	// first of all: one of them that differs from the reference sets the
	// grid apart otherwise, and the others need not be read.
	order := make([]int, 0, len(sources))
	for i := range sources {
		if slices.Equal(g.dims[i], differ) {
			order = append([]int{i}, order...)
		} else {
			order = append(order, i)
		}
	}
	differs := make([]bool, len(sources))
	for _, atOne := range []bool{false, true} {
		for _, i := range order {
			src := sources[i]
			if i == ref || hasOne(g, i, ones) != atOne {
				continue
			}
			err := st.walk(src, g.dims[i], nil, func(int, *record.Buffer, int) error { return nil })
			if err != nil && !isDifference(err) {
				return nil // a recording that cannot be read says nothing
			}
			if differs[i] = err != nil; differs[i] && !atOne {
				return nil
			}
		}
	}
	for size := 1; size <= len(ones); size++ {
		for mask := 1; mask < 1<<len(ones); mask++ {
			var set []int
			for b, j := range ones {
				if mask&(1<<b) != 0 {
					set = append(set, j)
				}
			}
			if len(set) != size {
				continue
			}
			if setApart(g, set, differs) {
				return set
			}
		}
	}
	return nil
}

// hasOne reports whether grid point i has some dimension of ones at 1.
func hasOne(g *grid, i int, ones []int) bool {
	for _, j := range ones {
		if g.dims[i][j].Value == 1 {
			return true
		}
	}
	return false
}

// isDifference reports whether err is a refusal for recordings that differ
// (a header, a declaration, a size's form, a phase), not a failure to read.
func isDifference(err error) bool {
	return strings.Contains(err.Error(), " differ: ")
}

// setApart reports whether the recordings that differ are exactly those
// with some dimension of set at 1.
func setApart(g *grid, set []int, differs []bool) bool {
	for i, dims := range g.dims {
		one := false
		for _, j := range set {
			if dims[j].Value == 1 {
				one = true
			}
		}
		if one != differs[i] {
			return false
		}
	}
	return true
}

// pointIndex returns the index in the grid's order of the point of the
// given grid indexes, the first dimension's most significant.
func pointIndex(digits []byte) int {
	n := 0
	for _, d := range digits {
		n = 3*n + int(d)
	}
	return n
}

// whySizeOne is the advice for recordings that differ exactly where the
// dimensions of set are 1: start them at 2.
func whySizeOne(g *grid, set []int) string {
	var at, grid, flags []string
	for _, j := range set {
		v := g.values[j]
		at = append(at, g.vars[j]+" = 1")
		grid = append(grid, fmt.Sprintf("%s ∈ {%d, %d, %d}", g.vars[j], v[0]+1, v[1]+1, v[2]+1))
		flags = append(flags, fmt.Sprintf("--grid %s=%d,%d,%d", g.vars[j], v[0]+1, v[1]+1, v[2]+1))
	}
	// Recording files are recorded again by their maker, the others by
	// memsym given the flags: the advice says both.
	return fmt.Sprintf("the points with %s are those whose operations differ, the others all agreeing: at a size of 1 a recorder may record other operations (PyTorch does, a reshape making a view where it copies at 2 and more), so start the grid at 2, %s (%s where memsym records)",
		strings.Join(at, " or "), strings.Join(grid, ", "), strings.Join(flags, " "))
}
