package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"memsym/poly"
	"memsym/record"
)

// Terms are the model's terms at one point, from the polynomials alone:
// nothing is recorded.
type Terms struct {
	Point                   record.Point
	Params, Inputs, Outputs poly.Rat
	// Kept are the kept candidates' bytes, in the order of Front.Kept.
	Kept []poly.Rat
	// Peak is the largest of them; PeakOp the first operation whose live
	// bytes reach it (0 when there are no operations), numbered as in a
	// recording at the point; Op the same operation in the model's
	// recordings (Model.Op), which differs when a dimension counts blocks
	// of operations; Holder the candidate (an index into Cands) live
	// there, -1 when there are no operations.
	Peak   poly.Rat
	PeakOp int
	Op     int
	Holder int
	// Needs are the inputs and the peak.
	Needs poly.Rat
}

// PointOf orders values as the model's dimensions, refusing a dimension
// the model lacks, one left out, or a value below 1.
func (m *Model) PointOf(values map[string]int64) (record.Point, error) {
	var unknown []string
	for k := range values {
		if !contains(m.Vars, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("no dimension %s (the dimensions are %s)", unknown[0], m.varList())
	}
	p := make(record.Point, len(m.Vars))
	var missing []string
	for i, v := range m.Vars {
		x, ok := values[v]
		if !ok {
			missing = append(missing, v)
			continue
		}
		if x < 1 {
			return nil, fmt.Errorf("%s = %d: dimensions are integers of at least 1", v, x)
		}
		p[i] = record.Dim{Name: v, Value: x}
		if err := m.InDomain(p[i : i+1]); err != nil {
			return nil, err
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no value for %s: every dimension (%s) needs one", strings.Join(missing, ", "), m.varList())
	}
	return p, nil
}

// varList writes the dimensions "B, T", or "none".
func (m *Model) varList() string {
	if len(m.Vars) == 0 {
		return "none"
	}
	return strings.Join(m.Vars, ", ")
}

// Eval returns the model's terms at p, a value for each dimension.
func (m *Model) Eval(p record.Point) (*Terms, error) {
	if err := m.negativeAt(p); err != nil {
		return nil, err
	}
	at := p.Map()
	t := &Terms{Point: p, Holder: -1}
	var err error
	for _, f := range []struct {
		dst *poly.Rat
		p   poly.Poly
	}{{&t.Params, m.Params}, {&t.Inputs, m.Inputs}, {&t.Outputs, m.Outputs}} {
		if *f.dst, err = f.p.EvalInt(at); err != nil {
			return nil, err
		}
	}
	for _, c := range m.Kept() {
		v, err := c.Poly.EvalInt(at)
		if err != nil {
			return nil, err
		}
		t.Kept = append(t.Kept, v)
	}
	if t.Peak, t.Op, err = m.Peak(p); err != nil {
		return nil, err
	}
	t.PeakOp = m.OpAt(t.Op, at)
	if t.Op > 0 {
		t.Holder = int(m.LiveAt[t.Op-1])
	}
	t.Needs = t.Inputs.Add(t.Peak)
	return t, nil
}

// NeedsPoly returns the needs' polynomial where candidate c holds the
// peak: the inputs and c's live bytes.
func (m *Model) NeedsPoly(c int) poly.Poly {
	return m.Inputs.Add(m.Cands[c].Poly)
}

// EvalJSON is `memsym eval --json --at ...`'s object.
type EvalJSON struct {
	Entry      string          `json:"entry"`
	Point      OrderedPoint    `json:"point"`
	Params     TermJSON        `json:"params"`
	Inputs     TermJSON        `json:"inputs"`
	Outputs    TermJSON        `json:"outputs"`
	Peak       EvalPeakJSON    `json:"peak"`
	Needs      TermJSON        `json:"needs"`
	Candidates []CandValueJSON `json:"candidates"`
	Checked    []OrderedPoint  `json:"checked"`
	AtOneJSON
}

// TermJSON is one term: its polynomial and its bytes at the point.
type TermJSON struct {
	Poly  string `json:"poly"`
	Bytes string `json:"bytes"`
}

// EvalPeakJSON is the peak at a point: its bytes, the first operation that
// reaches them, and the candidate live there (its op is that candidate's
// first operation, which may come before the peak's).
type EvalPeakJSON struct {
	Bytes     string        `json:"bytes"`
	Operation int           `json:"operation"`
	Holder    CandidateJSON `json:"holder"`
}

// noHolder is the holder of the peak of a program without operations: the
// empty live set, 0 bytes at no operation.
var noHolder = CandidateJSON{Poly: "0"}

// CandValueJSON is a kept candidate and its bytes at the point.
type CandValueJSON struct {
	CandidateJSON
	Bytes string `json:"bytes"`
}

// EvalJSON returns terms t as JSON.
func (m *Model) EvalJSON(t *Terms) *EvalJSON {
	out := &EvalJSON{
		Entry: m.Header().Entry, Point: OrderedPoint(t.Point),
		Params:     TermJSON{m.Params.ASCII(), t.Params.String()},
		Inputs:     TermJSON{m.Inputs.ASCII(), t.Inputs.String()},
		Outputs:    TermJSON{m.Outputs.ASCII(), t.Outputs.String()},
		Peak:       EvalPeakJSON{Bytes: t.Peak.String(), Operation: t.PeakOp},
		Needs:      TermJSON{m.Inputs.ASCII(), t.Needs.String()},
		Candidates: []CandValueJSON{},
		Checked:    m.CheckedJSON(),
	}
	if t.Holder >= 0 {
		out.Peak.Holder = m.CandidateJSON(t.Holder)
		out.Needs.Poly = m.NeedsPoly(t.Holder).ASCII()
	} else {
		out.Peak.Holder = noHolder // no operations: nothing is live
	}
	for i, k := range m.Front.Kept {
		out.Candidates = append(out.Candidates, CandValueJSON{m.CandidateJSON(k), t.Kept[i].String()})
	}
	return out
}

// UnmarshalJSON reads a point written by MarshalJSON, keeping its keys'
// order, so that Go code decodes memsym's JSON into the same structs.
func (d *OrderedPoint) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("a point is an object of dimensions and integers, found %s", data)
	}
	p := OrderedPoint{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v int64
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("dimension %v: %w", k, err)
		}
		p = append(p, record.Dim{Name: k.(string), Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*d = p
	return nil
}
