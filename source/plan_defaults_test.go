package source

import (
	"testing"

	"memsym/record"
)

// A bundled program's check points of memsym's own choosing where it does
// not run are left out, and the plan counts only those kept as its own:
// a check point given is never taken for one of them.
func TestProgramPlanDefaultsLeftOut(t *testing.T) {
	src, err := NewProgram("bert-encoder", nil)
	if err != nil {
		t.Fatal(err)
	}
	given := record.Point{{Name: "B", Value: 5}, {Name: "T", Value: 300}}
	spec := Spec{Grid: []GridDim{{Name: "T", Values: [3]int64{320, 416, 512}}}, Checks: []record.Point{given}}
	pl, err := src.Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	// memsym plans at least two of its own, one past the grid's T = 512.
	if len(pl.Checks) >= 3 {
		t.Fatalf("no check point of memsym's own was left out: %v", pl.Checks)
	}
	if got := pl.Checks[len(pl.Checks)-1]; !got.Equal(given) || pl.Defaults != len(pl.Checks)-1 {
		t.Errorf("check points %v, %d of memsym's own; want the given %v last and the rest memsym's own", pl.Checks, pl.Defaults, given)
	}
}
