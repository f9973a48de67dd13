package explain_test

import (
	"testing"

	"memsym/explain"
	"memsym/poly"
	"memsym/record"
)

// A recording beside a crossover at other constants that contradicts it
// refuses the chapter, saying where, at which constants, and what was
// recorded against what was predicted; two say how many.
func TestRefutedAtOtherConstants(t *testing.T) {
	bad := explain.ConfirmRow{Point: record.Point{{Name: "T", Value: 9}}, Peak: poly.Int(1090), PeakOp: 2, Predicted: 1, PredictedPeak: poly.Int(90), PredictedOp: 2}
	in := &explain.Input{Elsewhere: []explain.Elsewhere{{
		Consts: []explain.NameValue{{Name: "D", Value: "30522"}, {Name: "H", Value: "6"}},
		Cross:  &explain.CrossRows{Confirmed: []explain.ConfirmRow{bad}},
	}}}
	want := "the recordings contradict the crossovers at T = 9 (at D = 30522, H = 6): recorded peak 1090 bytes (1.06 KiB) at operation 2, where candidate 2 predicts 90 bytes at operation 2 (nothing was written)"
	if err := explain.Refuted(&explain.Content{}, in); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	in.Elsewhere[0].Cross.Confirmed = append(in.Elsewhere[0].Cross.Confirmed, bad)
	if err := explain.Refuted(&explain.Content{}, in); err == nil || err.Error() != "the recordings contradict the crossovers at 2 points, the first "+want[len("the recordings contradict the crossovers "):] {
		t.Errorf("two: %v", err)
	}
}
