package model

import (
	"context"
	"testing"

	"memsym/count"
	"memsym/record"
)

// TestEvalAgreesWithRecording: the terms at points off the grid, from the
// polynomials alone, are what a recording there counts.
func TestEvalAgreesWithRecording(t *testing.T) {
	m, src := mustGPT(t)
	for _, p := range []record.Point{
		{{Name: "B", Value: 8}, {Name: "T", Value: 4096}},
		{{Name: "B", Value: 3}, {Name: "T", Value: 149}},
		{{Name: "B", Value: 3}, {Name: "T", Value: 150}},
		{{Name: "B", Value: 1}, {Name: "T", Value: 1}},
	} {
		tm, err := m.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := src.Record(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		c := count.At(rec)
		for _, x := range []struct {
			name      string
			got, want interface{ String() string }
		}{
			{"params", tm.Params, c.Params}, {"inputs", tm.Inputs, c.Inputs}, {"outputs", tm.Outputs, c.Outputs},
			{"peak", tm.Peak, c.Peak}, {"needs", tm.Needs, c.Needs},
		} {
			if x.got.String() != x.want.String() {
				t.Errorf("%s: %s %s, recorded %s", p, x.name, x.got, x.want)
			}
		}
		if tm.PeakOp != c.PeakOp {
			t.Errorf("%s: peak at operation %d, recorded at %d", p, tm.PeakOp, c.PeakOp)
		}
		if !m.Cands[tm.Holder].Poly.Equal(m.Live(tm.PeakOp)) {
			t.Errorf("%s: the holder is not the live set at the peak's operation", p)
		}
	}
}

func TestPointOf(t *testing.T) {
	m, _ := mustGPT(t)
	for _, c := range []struct {
		at   map[string]int64
		want string
	}{
		{map[string]int64{"B": 1}, "no value for T: every dimension (B, T) needs one"},
		{map[string]int64{"B": 1, "T": 2, "X": 3}, "no dimension X (the dimensions are B, T)"},
		{map[string]int64{"B": -1, "T": 2}, "B = -1: dimensions are integers of at least 1"},
	} {
		if _, err := m.PointOf(c.at); err == nil || err.Error() != c.want {
			t.Errorf("PointOf(%v): %v, want %q", c.at, err, c.want)
		}
	}
	p, err := m.PointOf(map[string]int64{"T": 5, "B": 2})
	if err != nil || p.String() != "B = 2, T = 5" {
		t.Errorf("PointOf: %s, %v", p, err)
	}
}
