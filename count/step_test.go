package count

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"memsym/poly"
	"memsym/record"
)

// tinyStep is a step worked out by hand: f reads the input x and the
// parameter w and makes y; the loss reads y; its product makes dy, and f's
// makes dw from dy and x; the learning rate's call makes lr, and SGD
// updates w and its momentum m in place. Every buffer of 2 f32 is 8
// bytes, a scalar 4.
const tinyStep = `{"memsym": 2, "entry": "F.step", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2], "role": "input", "name": "x"}
{"buffer": 2, "dtype": "f32", "shape": [2], "role": "param", "name": "w"}
{"buffer": 3, "dtype": "f32", "shape": [2], "name": "y"}
{"op": "f", "reads": [1, 2], "writes": [3], "phase": "forward"}
{"buffer": 4, "dtype": "f32", "shape": [], "name": "loss"}
{"op": "loss", "reads": [3], "writes": [4], "phase": "forward"}
{"buffer": 5, "dtype": "f32", "shape": [2], "name": "dy"}
{"op": "loss (vjp)", "reads": [3], "writes": [5], "phase": "backward"}
{"buffer": 6, "dtype": "f32", "shape": [2], "name": "dw"}
{"op": "f (vjp)", "reads": [5, 1], "writes": [6], "phase": "backward"}
{"buffer": 7, "dtype": "f32", "shape": [2], "role": "state", "name": "momentum"}
{"buffer": 8, "dtype": "f32", "shape": [], "name": "lr"}
{"op": "lr", "writes": [8], "phase": "optimizer"}
{"op": "sgd", "reads": [2, 6, 7, 8], "writes": [2, 7], "phase": "optimizer"}
{"result": [2, 7]}
`

func terms(ns ...int64) Terms {
	return Terms{Params: poly.Int(ns[0]), States: poly.Int(ns[1]), Batch: poly.Int(ns[2]),
		Gradient: poly.Int(ns[3]), Kept: poly.Int(ns[4]), Own: poly.Int(ns[5])}
}

func sameTerms(a, b Terms) bool {
	return a.Params.Equal(b.Params) && a.States.Equal(b.States) && a.Batch.Equal(b.Batch) &&
		a.Gradient.Equal(b.Gradient) && a.Kept.Equal(b.Kept) && a.Own.Equal(b.Own)
}

func TestStepAtByHand(t *testing.T) {
	rec, err := record.Read(strings.NewReader(tinyStep), "tiny.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want poly.Rat
	}{
		{"parameters", s.Params, poly.Int(8)}, {"states", s.States, poly.Int(8)}, {"batch", s.Batch, poly.Int(8)},
		{"gradient (dw)", s.Gradient, poly.Int(8)}, {"kept (y)", s.Kept, poly.Int(8)},
	} {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
		}
	}
	// forward: the loop holds w, m and x (24); at "loss", y (kept) and
	// the loss. backward: at "loss (vjp)", y and dy; dw is not yet made.
	// optimizer: x is no longer held; dw (the gradient) and lr.
	want := []PhasePeak{
		{Phase: record.Forward, First: 1, Last: 2, Op: 2, Terms: terms(8, 8, 8, 0, 8, 4)},
		{Phase: record.Backward, First: 3, Last: 4, Op: 3, Terms: terms(8, 8, 8, 0, 8, 8)},
		{Phase: record.Optimizer, First: 5, Last: 6, Op: 5, Terms: terms(8, 8, 0, 8, 0, 4)},
	}
	if len(s.Phases) != len(want) {
		t.Fatalf("%d phases, want %d", len(s.Phases), len(want))
	}
	for i, w := range want {
		g := s.Phases[i]
		if g.Phase != w.Phase || g.First != w.First || g.Last != w.Last || g.Op != w.Op || !sameTerms(g.Terms, w.Terms) {
			t.Errorf("phase %d: %+v\nwant %+v", i, g, w)
		}
	}
	if s.Peak.Phase != record.Backward || !s.Peak.Terms.Sum().Equal(poly.Int(40)) {
		t.Errorf("the step's peak: %s in the %s phase, want 40 in the backward", s.Peak.Terms.Sum(), s.Peak.Phase)
	}
	if len(s.StateParts) != 1 || s.StateParts[0].Name != "momentum" {
		t.Errorf("state parts %+v", s.StateParts)
	}
}

func TestStepAtWithoutPhases(t *testing.T) {
	rec, err := record.Read(strings.NewReader(hdr+`{"buffer": 1, "bytes": 4}`+"\n"+`{"op": "a", "writes": [1]}`+"\n"+`{"result": [1]}`+"\n"), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StepAt(rec); !errors.Is(err, ErrNoPhases) {
		t.Errorf("StepAt on a recording of one call: %v, want ErrNoPhases", err)
	}
}

// An optimizer's state without a name is counted under "buffer N", not a
// blank row (memory --step printed its bytes under no name).
func TestStepUnnamedState(t *testing.T) {
	const in = `{"memsym": 2, "dims": {"B": 2}}
{"buffer": 1, "bytes": 8, "role": "state"}
{"buffer": 3, "bytes": 8, "role": "param"}
{"buffer": 4, "bytes": 4, "role": "state", "name": "m"}
{"buffer": 2, "bytes": 4}
{"op": "a", "reads": [1, 3, 4], "writes": [1, 2, 4], "phase": "optimizer"}
{"op": "b", "reads": [2], "writes": [3], "phase": "optimizer"}
{"result": [3]}
`
	rec, err := record.Read(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.StateParts {
		got = append(got, fmt.Sprintf("%s: %s", p.Name, p.Bytes))
	}
	if want := "buffer 1: 8, m: 4"; strings.Join(got, ", ") != want {
		t.Errorf("state parts %q, want %s", got, want)
	}
}
