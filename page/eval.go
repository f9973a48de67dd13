package page

import (
	"fmt"

	"memsym/poly"
)

// Assignment is one setting of the page's controls.
type Assignment struct {
	At     []int64      // each dimension's value, aligned with the model's
	Types  []StoredType // each parameter group's stored type
	Budget poly.Rat     // the memory budget, in bytes
}

// Numbers are what the page shows at an assignment, exactly.
type Numbers struct {
	Params        poly.Rat // the parameters' bytes, re-typed
	ParamElements poly.Rat // the parameters' elements, of those with a type
	GroupBytes    []poly.Rat
	GroupElements []poly.Rat
	Inputs        poly.Rat // the parameters and the other caller-held inputs
	Outputs       poly.Rat
	Peak          poly.Rat
	PeakOp        int // the first operation reaching the peak; 0 without operations
	Holder        int // the candidate (an index into the model's Candidates) holding it; -1 without operations
	Formula       string
	Needs         poly.Rat // Inputs + Peak
	Shares        []poly.Rat
	// Over gives, per dimension, the least value from its Min to its Max
	// at which the needs exceed the budget, the other dimensions as in At;
	// 0 when there is none.
	Over []int64
	// Steps are the training steps' numbers, in the page's order.
	Steps []StepNumbers
}

// At returns the page's numbers at a: the peak from the model itself
// (model.Peak), the parameters re-typed group by group, and the budget's
// crossings by trying every value of each dimension in turn.
func (pg *Page) At(a Assignment) (*Numbers, error) {
	m := pg.m
	if len(a.At) != len(m.Vars) || len(a.Types) != len(pg.groups) {
		return nil, fmt.Errorf("an assignment of %d values and %d types for %d dimensions and %d groups", len(a.At), len(a.Types), len(m.Vars), len(pg.groups))
	}
	n := &Numbers{Holder: -1}
	n.Params, n.ParamElements, n.GroupBytes, n.GroupElements = pg.params(a.Types, a.At)
	n.Inputs = pg.inputsOther.EvalInts(a.At).Add(n.Params)
	n.Outputs = pg.outputsOther.EvalInts(a.At)
	for g := range pg.groups {
		for _, p := range pg.groups[g].Parts {
			if p.InResult > 0 {
				b, _ := p.BytesAt(a.Types[g], a.At)
				n.Outputs = n.Outputs.Add(b.Mul(poly.Int(int64(p.InResult))))
			}
		}
	}
	peak, op, err := m.Peak(m.Point(a.At))
	if err != nil {
		return nil, err
	}
	n.Peak, n.PeakOp = peak, op
	n.Needs = n.Inputs.Add(peak)
	if op > 0 {
		n.Holder = int(m.LiveAt[op-1])
		n.Formula = m.Candidates[n.Holder].Poly.String()
		for _, s := range pg.shares[n.Holder] {
			n.Shares = append(n.Shares, s.EvalInts(a.At))
		}
	} else {
		n.Formula = "0"
		n.Shares = make([]poly.Rat, len(pg.calls.calls))
	}
	for j := range m.Vars {
		n.Over = append(n.Over, pg.over(a, j))
	}
	if n.Steps, err = pg.stepsAt(a); err != nil {
		return nil, err
	}
	return n, nil
}

// params returns the parameters' bytes and elements with each group
// stored as types says, in all and by group.
func (pg *Page) params(types []StoredType, at []int64) (bytes, elements poly.Rat, byGroup, elemsByGroup []poly.Rat) {
	for g := range pg.groups {
		b, e := pg.groups[g].BytesAt(types[g], at)
		byGroup = append(byGroup, b)
		elemsByGroup = append(elemsByGroup, e)
		bytes = bytes.Add(b)
		elements = elements.Add(e)
	}
	return bytes, elements, byGroup, elemsByGroup
}

// over returns the least value of dimension j from its Min to its Max at
// which the needs exceed a's budget, the others as in a, or 0: it tries them
// all, the needs being the inputs and the largest kept candidate.
func (pg *Page) over(a Assignment, j int) int64 {
	m := pg.m
	at := append([]int64(nil), a.At...)
	name := m.Vars[j]
	var kept []poly.Poly
	for _, c := range m.Kept() {
		kept = append(kept, poly.WithVars(c.Poly, m.Vars))
	}
	// The parameters that do not vary with dimension j are counted once.
	var fixed poly.Rat
	type varying struct {
		part  *Part
		t     StoredType
		count poly.Rat
	}
	var vary []varying
	for g := range pg.groups {
		for i := range pg.groups[g].Parts {
			p := &pg.groups[g].Parts[i]
			count := poly.Int(int64(p.Count))
			if p.Bytes.Degree(name) == 0 && p.Elements.Degree(name) == 0 {
				b, _ := p.BytesAt(a.Types[g], at)
				fixed = fixed.Add(b.Mul(count))
				continue
			}
			vary = append(vary, varying{p, a.Types[g], count})
		}
	}
	for x := pg.dims[j].Min; x <= pg.dims[j].Max; x++ {
		at[j] = x
		var top poly.Rat
		for _, c := range kept {
			if v := c.EvalInts(at); v.Cmp(top) > 0 {
				top = v
			}
		}
		needs := pg.inputsOther.EvalInts(at).Add(fixed).Add(top)
		for _, v := range vary {
			b, _ := v.part.BytesAt(v.t, at)
			needs = needs.Add(b.Mul(v.count))
		}
		if needs.Cmp(a.Budget) > 0 {
			return x
		}
	}
	return 0
}
