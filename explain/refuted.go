package explain

import (
	"fmt"
	"strings"

	"memsym/doc"
)

// Refuted returns the error of a chapter that fresh recordings contradict,
// or that could not be checked where it was to be: the model's checks off
// the grid (M3) or a step's, or the recordings beside the crossovers. Such
// a chapter is not written: its formulas would go into a paper as if they
// held.
func Refuted(c *Content, in *Input) error {
	const hint = " (nothing was written)"
	line := func(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
	for _, v := range c.Verified {
		switch {
		case v.Unrecorded:
			return fmt.Errorf("the model could not be checked at %s, where nothing was recorded: %s%s", v.Point, line(v.Err), hint)
		case v.Err != nil:
			return fmt.Errorf("the model does not hold at %s: %s%s", v.Point, line(v.Err), hint)
		}
	}
	for _, st := range c.Steps {
		for _, v := range st.Verified {
			switch {
			case v.Unrecorded:
				return fmt.Errorf("the model of the step (%s) could not be checked at %s, where nothing was recorded: %s%s", st.Options.Remat, v.Point, line(v.Err), hint)
			case v.Err != nil:
				return fmt.Errorf("the model of the step (%s) does not hold at %s: %s%s", st.Options.Remat, v.Point, line(v.Err), hint)
			}
		}
	}
	switch bad, first := contradictions(in); {
	case bad == 1:
		return fmt.Errorf("the recordings contradict the crossovers %s%s", first, hint)
	case bad > 1:
		return fmt.Errorf("the recordings contradict the crossovers at %d points, the first %s%s", bad, first, hint)
	}
	return nil
}

// contradictions counts the recordings beside the crossovers, the
// forward's and the step's, that do not show what the crossovers
// predict, and says the first: where, what was recorded and what was
// predicted.
func contradictions(in *Input) (bad int, first string) {
	units := doc.IEC
	count := func(c *CrossRows, consts []NameValue) {
		if c == nil {
			return
		}
		for _, f := range c.Confirmed {
			if f.OK() {
				continue
			}
			if bad++; bad == 1 {
				at := f.Point.String()
				if len(consts) > 0 {
					at += " (at " + doc.PlainText(constants(consts), "") + ")"
				}
				first = fmt.Sprintf("at %s: recorded peak %s at operation %d, where candidate %d predicts %s at operation %d",
					at, units.Bytes(f.Peak), f.PeakOp, f.Predicted+1, units.Bytes(f.PredictedPeak), f.PredictedOp)
				if f.Differs != "" {
					first += "; the recording is not the model's there: " + f.Differs
				}
			}
		}
	}
	if in.Symbolic != nil {
		count(in.Symbolic.Cross, nil)
	}
	for _, e := range in.Elsewhere {
		count(e.Cross, e.Consts)
	}
	if in.Step == nil {
		return bad, first
	}
	for _, c := range in.Step.Columns {
		if c.Symbolic == nil || c.Symbolic.Cross == nil {
			continue
		}
		for _, k := range c.Symbolic.Cross.Confirmed {
			if k.Refused != "" || k.OK() {
				continue
			}
			if bad++; bad == 1 {
				larger := pick(k.Predicted == 1, "the kept activations", "the states")
				first = fmt.Sprintf("at %s, the step %s: recorded %s kept for the backward and %s of the optimizer's states, where the crossover predicts %s larger",
					k.Point, rematWord(c.Remat), units.Bytes(k.Kept), units.Bytes(k.States), larger)
			}
		}
	}
	return bad, first
}
