package model

import (
	"context"
	"slices"
	"testing"

	"memsym/record"
	"memsym/source"
)

// buildProgram models a bundled program on the grid given.
func buildProgram(t *testing.T, name string, consts map[string]int64, grid ...source.GridDim) (*Model, source.Source) {
	t.Helper()
	src, err := source.NewProgram(name, consts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(context.Background(), src, source.Spec{Grid: grid})
	if err != nil {
		t.Fatal(err)
	}
	return m, src
}

// bert-encoder on T ∈ {510, 511, 512} runs at no T past the grid (T ≤ P =
// 512) nor between its values, but at every T below it: the fresh points
// are found there, however many are asked for and whatever the seed, each
// off the grid, where the program runs, no check point and no other.
func TestFreshPointsBelowTheGrid(t *testing.T) {
	m, src := buildProgram(t, "bert-encoder", nil, source.GridDim{Name: "T", Values: [3]int64{510, 511, 512}})
	grid := m.GridValues()
	for _, seed := range []uint64{1, 2, 9} {
		for _, n := range []int{1, 3, 8} {
			points, why := m.FreshPoints(src, n, seed)
			if len(points) != n || why != "" {
				t.Fatalf("seed %d: %d points of %d, why %q", seed, len(points), n, why)
			}
			for i, p := range points {
				for d, dim := range p {
					if slices.Contains(grid[d][:], dim.Value) || dim.Value < 1 {
						t.Errorf("seed %d: %s is on the grid in %s", seed, p, dim.Name)
					}
				}
				if T, _ := p.Value("T"); T >= 510 {
					t.Errorf("seed %d: %s is not below the grid's T", seed, p)
				}
				if err := source.Limit(src, p); err != nil {
					t.Errorf("seed %d: %s: %v", seed, p, err)
				}
				if slices.ContainsFunc(m.CheckPoints(), p.Equal) || slices.ContainsFunc(points[:i], p.Equal) {
					t.Errorf("seed %d: %s is a check point or taken twice", seed, p)
				}
			}
			again, _ := m.FreshPoints(src, n, seed)
			if !slices.EqualFunc(points, again, record.Point.Equal) {
				t.Errorf("seed %d: %v, then %v", seed, points, again)
			}
		}
	}
}

// Where the program runs at no value off the grid along a dimension, the
// search says which it tried, up to source.FarFactor times the grid's
// largest value, and the program's words for the first.
func TestFreshPointsNone(t *testing.T) {
	m, src := buildProgram(t, "bert-encoder", map[string]int64{"P": 3}, source.GridDim{Name: "T", Values: [3]int64{1, 2, 3}})
	points, why := m.FreshPoints(src, 3, 1)
	if want := "it runs at none of T = 4 to 192 (T = 4 is more than P = 3)"; len(points) != 0 || why != want {
		t.Errorf("%v, %q; want none, %q", points, why, want)
	}
}

func TestValuesString(t *testing.T) {
	for _, c := range []struct {
		xs    []int64
		whole bool
		want  string
	}{
		{[]int64{4, 5, 6}, true, "T = 4 to 6"},
		{[]int64{4, 5}, true, "T = 4, 5"},
		{[]int64{1, 2, 3, 7, 9, 10, 513, 514, 515, 516}, true, "T = 1 to 3, 7, 9, 10, 513 to 516"},
		{[]int64{1, 5, 2048}, false, "the 3 values of T tried from 1 to 2048"},
	} {
		if got := valuesString("T", c.xs, c.whole); got != c.want {
			t.Errorf("%v: %q, want %q", c.xs, got, c.want)
		}
	}
}

// Where fewer points than asked for exist, FreshPoints finds every one of
// them and why says where it searched: mlp-train-step on B ∈ {1, 2, 3}
// runs at each B from 4 to 192 = 64 · 3, two of them its check points.
func TestFreshPointsFewer(t *testing.T) {
	m, src := buildProgram(t, "mlp-train-step", nil, source.GridDim{Name: "B", Values: [3]int64{1, 2, 3}})
	points, why := m.FreshPoints(src, 200, 1)
	want := "no more were found searching B = 1 to 192, off the grid in every coordinate, where the program runs, and not at the 2 check points already checked"
	if len(points) != 187 || why != want {
		t.Errorf("%d points, %q; want 187, %q", len(points), why, want)
	}
	seen := map[int64]bool{}
	for _, p := range points {
		b := p[0].Value
		if b < 4 || b > 192 || seen[b] || slices.ContainsFunc(m.CheckPoints(), p.Equal) {
			t.Errorf("B = %d: out of range, repeated or a check point", b)
		}
		seen[b] = true
	}
	if points, why := m.FreshPoints(src, 187, 1); len(points) != 187 || why != "" {
		t.Errorf("%d points of 187, why %q", len(points), why)
	}
}
