package record_test

import (
	"bytes"
	"strings"
	"testing"

	"memsym/record"
)

// step is a small recording of a training step in version 2.
const step = `{"memsym": 2, "entry": "F.step", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2], "role": "param", "name": "w"}
{"buffer": 2, "dtype": "f32", "shape": [2], "name": "y"}
{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}
{"buffer": 3, "dtype": "f32", "shape": [2], "name": "dw"}
{"op": "f (vjp)", "reads": [2, 1], "writes": [3], "phase": "backward"}
{"buffer": 4, "dtype": "f32", "shape": [2], "role": "state", "name": "m"}
{"op": "sgd", "reads": [1, 3, 4], "writes": [1, 4], "phase": "optimizer"}
{"result": [1, 4]}
`

// TestStepRoundTrip reads a step and writes it again, byte for byte: the
// phases and the role "state" in canonical form.
func TestStepRoundTrip(t *testing.T) {
	rec, err := record.Read(strings.NewReader(step), "step.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []record.Phase{record.Forward, record.Backward, record.Optimizer}
	for i, op := range rec.Ops.All() {
		if op.Phase != want[i] {
			t.Errorf("operation %d: phase %s, want %s", i+1, op.Phase, want[i])
		}
	}
	if b, _ := rec.Buffer(4); b.Role != record.State || !b.Role.Held() {
		t.Errorf("buffer 4: role %s", b.Role)
	}
	var out bytes.Buffer
	if _, err := rec.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != step {
		t.Errorf("written again:\n%s\nwant:\n%s", out.String(), step)
	}
}

// TestVersion1Unchanged checks that a recording of one call is still
// written in version 1, without phases, and read as before.
func TestVersion1Unchanged(t *testing.T) {
	r := record.NewRecorder("F.apply", []record.Dim{{Name: "B", Value: 2}}, nil, "f32")
	f32 := record.MustDType("f32")
	x := r.Input("x", "", f32, 2)
	y := r.Temp("y", "", f32, 2)
	r.Op("f", "", []int64{x}, []int64{y})
	r.Result(y)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := rec.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, `{"memsym": 1,`) || strings.Contains(s, "phase") {
		t.Errorf("a recording of one call:\n%s", s)
	}
	again, err := record.Read(&out, "again.jsonl")
	if err != nil || again.Ops.Phase(0) != record.NoPhase {
		t.Errorf("read again: %v, phase %v", err, again.Ops.Phase(0))
	}
}

// TestStepRecorder builds the step above with the Recorder.
func TestStepRecorder(t *testing.T) {
	r := record.NewStepRecorder("F.step", []record.Dim{{Name: "B", Value: 2}}, nil, "")
	f32 := record.MustDType("f32")
	w := r.Param("w", "", f32, 2)
	r.SetPhase(record.Forward)
	y := r.Temp("y", "", f32, 2)
	r.Op("f", "", []int64{w}, []int64{y})
	r.SetPhase(record.Backward)
	dw := r.Temp("dw", "", f32, 2)
	r.Op("f (vjp)", "", []int64{y, w}, []int64{dw})
	r.SetPhase(record.Optimizer)
	m := r.State("m", "", f32, 2)
	r.Op("sgd", "", []int64{w, dw, m}, []int64{w, m})
	r.Result(w, m)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := rec.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != step {
		t.Errorf("recorded:\n%s\nwant:\n%s", out.String(), step)
	}
	// A state in a recording of one call is refused.
	r = record.NewRecorder("F.apply", nil, nil, "")
	r.State("m", "", f32, 2)
	if _, err := r.Finish(); err == nil || !strings.Contains(err.Error(), `the role "state", which is new in version 2`) {
		t.Errorf("a state in version 1: %v", err)
	}
}

func TestLookupPhase(t *testing.T) {
	for _, p := range record.Phases {
		if q, ok := record.LookupPhase(p.String()); !ok || q != p {
			t.Errorf("LookupPhase(%q) = %v, %v", p, q, ok)
		}
	}
	if _, ok := record.LookupPhase(""); ok {
		t.Error(`LookupPhase("") found a phase`)
	}
}
