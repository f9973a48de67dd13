package model

import (
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
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
	// An optimizer memsym has no rule for is named, not said to be
	// missing.
	unknown := states("GPT.step(rmsprop)", programs.SGD)
	if unknown.Rule != "8·P (two fp32 moments)" || strings.Contains(unknown.Why, "names no optimizer") ||
		!strings.Contains(unknown.Why, "(the recording's entry names the optimizer `rmsprop`, for which memsym has no rule: AdamW's rule is taken)") {
		t.Errorf("an unknown optimizer: %s; %s", unknown.Rule, unknown.Why)
	}
}

// TestCompareWithoutGradient: a step whose backward phase is empty has no
// gradient at all; its row says so rather than that the gradient is of
// several types.
func TestCompareWithoutGradient(t *testing.T) {
	cmp := compareText(t, `{"memsym": 2, "entry": "F.step(sgd)", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2], "role": "param", "name": "w"}
{"buffer": 2, "dtype": "f32", "shape": [2], "name": "y"}
{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}
{"buffer": 3, "dtype": "f32", "shape": [2], "role": "state", "name": "m"}
{"op": "sgd", "reads": [1, 2, 3], "writes": [1, 3], "phase": "optimizer"}
{"result": [1, 3]}
`)
	want := map[string]string{
		"parameters":         "the rule stores parameters in fp16, 2 bytes; here f32, 4 bytes",
		"gradient":           "the rule has an fp32 gradient for every parameter; here none; 2 of the parameters' elements are not trained and have none",
		"optimizer's states": "the rule has one fp32 state per parameter; here f32, 4 bytes",
	}
	for _, r := range cmp.Rows {
		if w, ok := want[r.Term]; ok && r.Why != w {
			t.Errorf("%s: %q, want %q", r.Term, r.Why, w)
		}
	}
}

// TestCompareMasterCopy: a step that keeps a master copy of the parameters
// among its states says so in the states' row, whose exact bytes hold it
// and the rule's do not.
func TestCompareMasterCopy(t *testing.T) {
	p, err := programs.Lookup("gpt-course")
	if err != nil {
		t.Fatal(err)
	}
	types, err := programs.ParseTypes("params=bf16,activations=bf16,gradient=f32,states=f32,master=f32")
	if err != nil {
		t.Fatal(err)
	}
	opts := programs.StepOptions{Optimizer: programs.AdamW, Types: types}
	pt, err := RecordStepAt(p, nil, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := CompareAt(pt.Rec, pt.Count, p, opts, ActType(p, opts))
	if err != nil {
		t.Fatal(err)
	}
	want := "the rule has two fp32 moments per parameter; here f32, 4 bytes, a master copy of the parameters (f32) besides, and the step count"
	for _, r := range cmp.Rows {
		if r.Term == "optimizer's states" && r.Why != want {
			t.Errorf("states: %q, want %q", r.Why, want)
		}
	}
}

// TestCompareStateInBytes: a state given in bytes, without a shape, is not
// a scalar, so not a step count: the states' row says they are given in
// bytes, and names no step count.
func TestCompareStateInBytes(t *testing.T) {
	cmp := compareText(t, `{"memsym": 2, "entry": "F.step(sgd)", "dims": {"B": 2}}
{"buffer": 1, "dtype": "f32", "shape": [2], "role": "param", "name": "w"}
{"buffer": 2, "dtype": "f32", "shape": [2], "name": "y"}
{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}
{"buffer": 3, "dtype": "f32", "shape": [2], "name": "dw"}
{"op": "f (vjp)", "reads": [2, 1], "writes": [3], "phase": "backward"}
{"buffer": 4, "bytes": 8, "role": "state", "name": "m"}
{"op": "sgd", "reads": [1, 3, 4], "writes": [1, 4], "phase": "optimizer"}
{"result": [1, 4]}
`)
	want := "the rule has one fp32 state per parameter; here given in bytes, without a type"
	for _, r := range cmp.Rows {
		if r.Term == "optimizer's states" && r.Why != want {
			t.Errorf("states: %q, want %q", r.Why, want)
		}
	}
}

// compareText compares the step recorded in text with the analytic rules,
// as memory --step --compare does with no options.
func compareText(t *testing.T, text string) *Comparison {
	t.Helper()
	rec, err := record.Read(strings.NewReader(text), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := count.StepAt(rec)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := CompareAt(rec, s, nil, programs.StepOptions{}, record.DType{})
	if err != nil {
		t.Fatal(err)
	}
	return cmp
}

// A program with a size named P (bert-encoder's positions) has the 14P
// rule's parameters written Ψ, in every rule; another keeps P.
func TestCompareSymbol(t *testing.T) {
	for _, c := range []struct {
		header record.Header
		want   string
	}{
		{record.Header{Dims: record.Point{{Name: "B", Value: 2}}, Consts: []record.Const{{Name: "P", Value: "512"}}}, "Ψ"},
		{record.Header{Dims: record.Point{{Name: "P", Value: 2}}}, "Ψ"},
		{record.Header{Dims: record.Point{{Name: "B", Value: 2}}}, "P"},
	} {
		h := c.header
		cmp, err := Compare(CompareInput{Header: &h, ParamElements: poly.Const(poly.Int(10))})
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Symbol != c.want {
			t.Errorf("%v: symbol %q, want %q", h, cmp.Symbol, c.want)
		}
		for _, r := range cmp.Rows[:3] {
			if !strings.Contains(r.Rule, "·"+c.want+" ") && !strings.Contains(r.Rule, "·"+c.want+"/") {
				t.Errorf("%v: rule %q does not use %s", h, r.Rule, c.want)
			}
		}
	}
}

// TestCompareStepAddsUp: where the step's peak is above the rule's
// estimate, what its row says adds up to the difference: the rows'
// differences above (the static memory's, and the activations' where they
// are estimated), plus what the peak holds that no row counts, less what
// those rows count whole but the peak does not hold all of (at an
// optimizer's peak, what the forward kept is gone; at a backward one, part
// of it, and part of the gradient is not yet made).
func TestCompareStepAddsUp(t *testing.T) {
	for _, c := range []struct {
		program string
		consts  map[string]int64
		opts    programs.StepOptions
	}{
		{"llama2-7b-block", nil, programs.StepOptions{}},
		{"gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6}, programs.StepOptions{}},
		{"gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6}, programs.StepOptions{Remat: programs.Recompute}},
		{"gpt-course", nil, programs.StepOptions{Optimizer: programs.SGD}},
	} {
		p, err := programs.Lookup(c.program)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := RecordStepAt(p, nil, c.consts, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		cmp, err := CompareAt(pt.Rec, pt.Count, p, c.opts, record.DType{})
		if err != nil {
			t.Fatal(err)
		}
		diff := func(r CompareRow) poly.Rat {
			e, _ := r.Estimate.IsConst()
			x, _ := r.Exact.IsConst()
			return x.Sub(e)
		}
		var step, static, acts *CompareRow
		for i := range cmp.Rows {
			switch r := &cmp.Rows[i]; r.Term {
			case "the step":
				step = r
			case "static memory":
				static = r
			case "kept, all layers", "kept, all layers, recomputing":
				acts = r
			}
		}
		if step == nil || static == nil {
			t.Fatalf("%s: no step or static row", c.program)
		}
		if len(step.add) == 0 && len(step.less) == 0 {
			t.Errorf("%s %+v: the step's peak is not above the estimate here (%s); the test needs one that is", c.program, c.opts, step.Why)
			continue
		}
		sum := diff(*static)
		if acts != nil {
			sum = sum.Add(diff(*acts))
		}
		for _, a := range step.add {
			sum = sum.Add(a.Bytes)
		}
		for _, l := range step.less {
			sum = sum.Sub(l.Bytes)
		}
		if !sum.Equal(diff(*step)) {
			t.Errorf("%s %+v: the parts add up to %s, the difference is %s: %s", c.program, c.opts, sum, diff(*step), step.Why)
		}
	}
}
