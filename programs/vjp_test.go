package programs

import "testing"

// TestEveryOperationHasARule checks that each operation a bundled program
// launches has its vector-Jacobian product listed, rather than left to the
// default that reads every input: a new operation must say what its
// backward reads.
func TestEveryOperationHasARule(t *testing.T) {
	for _, p := range All() {
		if p.stepRefusal != "" {
			continue
		}
		rec, err := p.Record(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range rec.Ops.All() {
			if _, ok := vjps[op.Label]; op.Launch && !ok {
				t.Errorf("%s: operation %q has no vector-Jacobian product in vjps", p.Name, op.Label)
			}
		}
	}
}
