package interp

import (
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// program records a program at a point, given as each dimension's value.
type program func(r *record.Recorder, at map[string]int64)

// recordAt records prog at the point vars = values.
func recordAt(t testing.TB, vars []string, values []int64, prog program) *record.Recording {
	t.Helper()
	dims := make([]record.Dim, len(vars))
	at := make(map[string]int64)
	for i, v := range vars {
		dims[i] = record.Dim{Name: v, Value: values[i]}
		at[v] = values[i]
	}
	r := record.NewRecorder("Test.apply", dims, []record.Const{{Name: "D", Value: "4"}}, "f64")
	prog(r, at)
	rec, err := r.Finish()
	if err != nil {
		t.Fatalf("recording at %v: %v", values, err)
	}
	return rec
}

// source serves rec from memory under a name.
func source(name string, rec *record.Recording) Source {
	return Source{Name: name, Open: func() (record.Stream, error) { return rec.Replay(), nil }}
}

// gridSources records prog at every point of the grid, the first
// dimension's values outermost, each source named by its point.
func gridSources(t testing.TB, vars []string, grid [][3]int64, prog program) []Source {
	t.Helper()
	var out []Source
	point := make([]int64, len(vars))
	var walk func(j int)
	walk = func(j int) {
		if j == len(vars) {
			out = append(out, pointSource(t, vars, point, prog))
			return
		}
		for _, v := range grid[j] {
			point[j] = v
			walk(j + 1)
		}
	}
	walk(0)
	return out
}

// pointSource records prog at one point, named by the point.
func pointSource(t testing.TB, vars []string, point []int64, prog program) Source {
	t.Helper()
	rec := recordAt(t, vars, point, prog)
	return source(pointName(rec.Header.Dims), rec)
}

// liveBytes counts the live bytes at each operation of rec from its sizes
// and count.Lifetimes: the truth the model's live sums are checked against.
func liveBytes(rec *record.Recording) []poly.Rat {
	lives := count.Lifetimes(rec)
	out := make([]poly.Rat, rec.Ops.Len())
	for op := 1; op <= rec.Ops.Len(); op++ {
		for i, l := range lives {
			if l.Live(op) {
				out[op-1] = out[op-1].Add(rec.Buffers.Bytes(i))
			}
		}
	}
	return out
}

// evalAt evaluates p at the point vars = values.
func evalAt(t testing.TB, p poly.Poly, vars []string, values []int64) poly.Rat {
	t.Helper()
	at := make(map[string]int64)
	for i, v := range vars {
		at[v] = values[i]
	}
	v, err := p.EvalInt(at)
	if err != nil {
		t.Fatalf("evaluating %s: %v", p, err)
	}
	return v
}

// mustBuild builds a model or fails the test.
func mustBuild(t testing.TB, grid, checks []Source) *Model {
	t.Helper()
	m, err := Build(grid, checks)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return m
}
