package explaintest

import (
	"memsym/explain"
	"memsym/poly"
)

// The course GPT's constants at the point and for the polynomials.
var (
	gptSmall  = gptConsts{D: 64, H: 2, L: 2, V: 92}
	gptCourse = gptConsts{D: 384, H: 6, L: 6, V: 92}
)

// gptCandidateOps are the operations (1-based, in block 0) whose live sets
// are the peak's candidates at the course constants.
var gptCandidateOps = []int{10, 12, 19}

// GPTCourse returns the input of the course GPT's chapter: `GPT.apply` in
// f64, counted at D = 64, H = 2, L = 2, B = 2, T = 16, and as polynomials in
// B and T at the course constants D = 384, H = 6, L = 6, with the peak's
// holders along T for every B and checks at three assignments.
func GPTCourse() *explain.Input {
	in := &explain.Input{
		Program: "gpt-course", Entry: "GPT.apply", Realization: "f64",
		Consts: []explain.NameValue{{Name: "D", Value: "64"}, {Name: "H", Value: "2"}, {Name: "L", Value: "2"}},
		Vars:   []string{"B", "T"},
	}
	small := gpt(gptSmall)
	in.Point = pointCounts(small, []explain.NameInt{{Name: "B", Value: 2}, {Name: "T", Value: 16}}, "f64")

	course := gpt(gptCourse)
	inputs, _ := course.inputBytes(false)
	live := course.liveBytes()
	names := []struct {
		name   string
		plural bool
	}{{"the attention's scores", true}, {"the attention's probabilities", true}, {"the feed-forward's up projection", false}}
	sym := &explain.SymbolicModel{
		Consts:  []explain.NameValue{{Name: "D", Value: "384"}, {Name: "H", Value: "6"}, {Name: "L", Value: "6"}},
		Grid:    [][]int64{{16, 32, 48}, {256, 512, 768}},
		Checked: [][]int64{{64, 1024}},
		Inputs:  inputs,
		Outputs: course.bytes(course.bufs[course.result]),
		Along:   "T",
		Fixed:   []explain.NameInt{{Name: "B", Value: 1}},
		ForAll:  true,
		// Up to T = 149 the feed-forward's live set is the largest; from
		// T = 150 the attention's probabilities are (TestGPTCourseSegments
		// checks this against the polynomials).
		Segments: []explain.SegmentRow{{From: 1, To: 149, Holder: 2}, {From: 150, Holder: 1}},
	}
	for i, op := range gptCandidateOps {
		o := course.ops[op-1]
		sym.Candidates = append(sym.Candidates, explain.CandidateRow{
			Poly: live[op-1], Op: op, Label: o.label, Path: o.path,
			Name: names[i].name, Plural: names[i].plural,
		})
	}
	in.Symbolic = sym
	for _, at := range [][2]int64{{1, 149}, {1, 150}, {3, 100}} {
		in.Verified = append(in.Verified, verify(course, sym, at[0], at[1]))
	}
	return in
}

// verify checks the candidates against p's own count at B = b, T = t: the
// peak counted operation by operation must be the largest candidate.
func verify(p *program, sym *explain.SymbolicModel, b, t int64) explain.VerifyRow {
	env := map[string]int64{"B": b, "T": t}
	row := explain.VerifyRow{Point: []explain.NameInt{{Name: "B", Value: b}, {Name: "T", Value: t}}}
	var counted, predicted poly.Rat
	for _, lb := range p.liveBytes() {
		if v := eval(lb, env); v.Cmp(counted) > 0 {
			counted = v
		}
	}
	for _, c := range sym.Candidates {
		if v := eval(c.Poly, env); v.Cmp(predicted) > 0 {
			predicted = v
		}
	}
	row.OK = counted.Equal(predicted)
	row.Detail = "peak " + explain.Group(counted, explain.ThinSpace) + " bytes counted, " +
		explain.Group(predicted, explain.ThinSpace) + " by the polynomials"
	return row
}
