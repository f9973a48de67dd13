package interp

import (
	"fmt"
	"slices"
	"strings"

	"memsym/record"
)

// grid is the sources arranged on a tensor grid of three values per
// dimension.
type grid struct {
	vars   []string
	values [][3]int64     // per dimension, ascending
	order  []int          // point index → source index; point p's base-3 digits index values, the first dimension's most significant
	dims   [][]record.Dim // per source, its header's dimensions
}

// formGrid reads each source's header and arranges the sources on the grid.
func formGrid(sources []Source) (*grid, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("no recordings: expected 3^k of them, three values of each of the k dimensions")
	}
	g := &grid{dims: make([][]record.Dim, len(sources))}
	for i, src := range sources {
		h, line, err := readHeader(src)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			for _, d := range h.Dims {
				g.vars = append(g.vars, d.Name)
			}
		} else if got, want := dimNames(h.Dims), dimNames(g.dims[0]); got != want {
			return nil, fmt.Errorf("%s: the dimensions are %s but %s's are %s: the recordings of a grid have the same dimensions", at(src.Name, line), got, record.ShowFile(sources[0].Name), want)
		}
		for _, d := range h.Dims {
			if d.Value < 1 {
				return nil, fmt.Errorf("%s: dimension %s = %d: dimensions are integers of at least 1", at(src.Name, line), d.Name, d.Value)
			}
		}
		g.dims[i] = h.Dims
	}
	for j, name := range g.vars {
		var vs []int64
		for _, dims := range g.dims {
			vs = append(vs, dims[j].Value)
		}
		slices.Sort(vs)
		vs = slices.Compact(vs)
		if len(vs) != 3 {
			values := "values"
			if len(vs) == 1 {
				values = "value"
			}
			return nil, fmt.Errorf("dimension %s takes %d %s on the grid (%s): expected exactly three, as a polynomial of degree 2 in it needs", name, len(vs), values, joinInts(vs))
		}
		g.values = append(g.values, [3]int64(vs))
	}
	return g, g.arrange(sources)
}

// arrange finds each point's source, refusing duplicates and missing points.
func (g *grid) arrange(sources []Source) error {
	byDigits := make(map[string]int, len(sources)) // a point's grid indexes → its source
	for i, dims := range g.dims {
		key := string(g.digits(dims))
		if j, dup := byDigits[key]; dup && sources[j].Name == sources[i].Name {
			return fmt.Errorf("%s is given twice: the grid has one recording per point", record.ShowFile(sources[i].Name))
		} else if dup && len(dims) == 0 {
			return fmt.Errorf("%s and %s are both recordings of a program without dimensions, which has one point: give one of them", record.ShowFile(sources[j].Name), record.ShowFile(sources[i].Name))
		} else if dup {
			return fmt.Errorf("%s and %s are both at %s: the grid has one recording per point", record.ShowFile(sources[j].Name), record.ShowFile(sources[i].Name), record.Point(dims).String())
		}
		byDigits[key] = i
	}
	// Walk the points in order; the first missing one comes within
	// len(sources)+1 steps, so a grid too large to list is never listed.
	k := len(g.vars)
	digits := make([]byte, k)
	for {
		i, ok := byDigits[string(digits)]
		if !ok {
			return fmt.Errorf("no recording at %s: the grid %s has %s points, one recording each", record.Point(g.point(digits)).String(), g.describe(), g.size())
		}
		g.order = append(g.order, i)
		j := k - 1
		for ; j >= 0 && digits[j] == 2; j-- {
			digits[j] = 0
		}
		if j < 0 {
			return nil
		}
		digits[j]++
	}
}

// digits returns the grid indexes of a point's values.
func (g *grid) digits(dims []record.Dim) []byte {
	ds := make([]byte, len(dims))
	for j, d := range dims {
		ds[j] = byte(slices.Index(g.values[j][:], d.Value))
	}
	return ds
}

// point returns the point of the given grid indexes.
func (g *grid) point(digits []byte) []record.Dim {
	p := make([]record.Dim, len(digits))
	for j, d := range digits {
		p[j] = record.Dim{Name: g.vars[j], Value: g.values[j][d]}
	}
	return p
}

// describe writes the grid as "B ∈ {16, 32, 48}, T ∈ {256, 512, 768}".
func (g *grid) describe() string {
	s := make([]string, len(g.vars))
	for j, name := range g.vars {
		s[j] = fmt.Sprintf("%s ∈ {%s}", name, joinInts(g.values[j][:]))
	}
	return strings.Join(s, ", ")
}

func (g *grid) size() string {
	if len(g.vars) == 0 {
		return "1"
	}
	return fmt.Sprintf("3^%d", len(g.vars))
}

// checkPoint reads a check source's header and returns its point, which
// must have the grid's dimensions, each off the grid when offGrid.
func (g *grid) checkPoint(src Source, offGrid bool) ([]record.Dim, error) {
	h, line, err := readHeader(src)
	if err != nil {
		return nil, err
	}
	if got, want := dimNames(h.Dims), dimNames(g.dims[0]); got != want {
		return nil, fmt.Errorf("%s: the check point's dimensions are %s but the grid's are %s", at(src.Name, line), got, want)
	}
	for j, d := range h.Dims {
		if d.Value < 1 {
			return nil, fmt.Errorf("%s: dimension %s = %d: dimensions are integers of at least 1", at(src.Name, line), d.Name, d.Value)
		}
		if offGrid && slices.Contains(g.values[j][:], d.Value) {
			return nil, fmt.Errorf("%s: the check point %s has %s = %d, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value", at(src.Name, line), record.Point(h.Dims).String(), d.Name, d.Value)
		}
	}
	return h.Dims, nil
}

func joinInts(vs []int64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}
