package model

import (
	"strings"
	"testing"

	"memsym/programs"
	"memsym/record"
)

// TestCompareRecordedOptimizer: a step's recording compared without its
// program takes the optimizer its entry names ("GPT.step(sgd)", as the
// PyTorch recorder writes it): momentum SGD's rule, one fp32 state per
// parameter. An entry that names none takes AdamW's rule and says so.
// The bundled programs' schedule keeps a step count, which the row
// names.
func TestCompareRecordedOptimizer(t *testing.T) {
	p, err := programs.Lookup("gpt-course")
	if err != nil {
		t.Fatal(err)
	}
	states := func(entry string, o programs.Optimizer) CompareRow {
		t.Helper()
		pt, err := RecordStepAt(p, nil, nil, programs.StepOptions{Optimizer: o})
		if err != nil {
			t.Fatal(err)
		}
		pt.Rec.Header.Entry = entry
		cmp, err := CompareAt(pt.Rec, pt.Count, nil, programs.StepOptions{}, record.DType{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range cmp.Rows {
			if r.Term == "optimizer's states" {
				return r
			}
		}
		t.Fatalf("%s: no states row", entry)
		return CompareRow{}
	}
	sgd := states("GPT.step(sgd)", programs.SGD)
	if sgd.Rule != "4·P (one fp32 momentum)" || !strings.HasSuffix(sgd.Why, ", and the step count") || strings.Contains(sgd.Why, "names no optimizer") {
		t.Errorf("SGD named: %s; %s", sgd.Rule, sgd.Why)
	}
	adam := states("GPT.step(adamw)", programs.AdamW)
	if adam.Rule != "8·P (two fp32 moments)" || !strings.HasSuffix(adam.Why, ", and the step count") || strings.Contains(adam.Why, "names no optimizer") {
		t.Errorf("AdamW named: %s; %s", adam.Rule, adam.Why)
	}
	unnamed := states("GPT.apply", programs.SGD)
	if unnamed.Rule != "8·P (two fp32 moments)" || !strings.Contains(unnamed.Why, "names no optimizer") {
		t.Errorf("unnamed: %s; %s", unnamed.Rule, unnamed.Why)
	}
}
