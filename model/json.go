package model

import (
	"encoding/json"
	"fmt"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// The types below are memsym's JSON outputs (`--json`), documented in
// docs/json.md. Byte counts are strings, for they may be fractions or exceed
// 64 bits; polynomials are in the ASCII notation poly.Parse reads back.

// SymbolicJSON is `memsym symbolic --json`'s object.
type SymbolicJSON struct {
	Entry       string             `json:"entry"`
	Realization string             `json:"realization"`
	Dims        []string           `json:"dims"`
	Grid        map[string][]int64 `json:"grid"`
	Checked     []OrderedPoint     `json:"checked"`
	Domain      OrderedPoint       `json:"domain"`
	Operations  int                `json:"operations"`
	Params      PolyJSON           `json:"params"`
	Inputs      PolyJSON           `json:"inputs"`
	Outputs     PolyJSON           `json:"outputs"`
	Peak        []CandidateJSON    `json:"peak"`
	Undecided   []UndecidedJSON    `json:"undecided"`
	Candidates  int                `json:"candidates"`
	// Negative is a buffer whose bytes are negative at a point where the
	// model holds: there, and wherever else that is, the polynomials are
	// not the program's. Absent when every buffer's bytes are proven not
	// negative (or not refuted so).
	Negative *NegativeJSON `json:"negative_bytes,omitempty"`
}

// NegativeJSON is a buffer whose bytes are negative at a point: its id
// and name, its bytes, the point and its bytes there.
type NegativeJSON struct {
	Buffer int64        `json:"buffer"`
	Name   string       `json:"name"`
	Bytes  string       `json:"bytes"`
	At     OrderedPoint `json:"at"`
	There  string       `json:"bytes_there"`
}

// PolyJSON is a polynomial of bytes.
type PolyJSON struct {
	Poly string `json:"poly"`
}

// CandidateJSON is one of the peak's candidates: its live bytes and the
// first operation that reaches them.
type CandidateJSON struct {
	Poly  string `json:"poly"`
	Op    int    `json:"op"`
	Label string `json:"label"`
	Path  string `json:"path"`
}

// UndecidedJSON is a pair of kept candidates neither of which was proven to
// dominate the other nor refuted.
type UndecidedJSON struct {
	A CandidateJSON `json:"a"`
	B CandidateJSON `json:"b"`
}

// CandidateJSON returns candidate i (an index into Cands) as JSON, its
// operation as in the recording the structure is (StructureOp).
func (m *Model) CandidateJSON(i int) CandidateJSON {
	c := m.Cands[i]
	n, o := m.OpInStructure(c.Op)
	return CandidateJSON{Poly: c.Poly.ASCII(), Op: n, Label: o.Label, Path: o.Path}
}

// CheckedJSON returns the points off the grid the model was checked at, as
// the JSON objects' "checked" says them: [] for an unchecked model.
func (m *Model) CheckedJSON() []OrderedPoint {
	out := []OrderedPoint{}
	for _, p := range m.CheckPoints() {
		out = append(out, OrderedPoint(p))
	}
	return out
}

// DomainJSON returns each dimension's least value the model holds for, as
// the JSON objects' "domain" says it: 1 for most, 2 for a block count
// whose last block stands apart.
func (m *Model) DomainJSON() OrderedPoint { return OrderedPoint(m.Domain()) }

// JSON returns the model as `memsym symbolic --json` writes it.
func (m *Model) JSON() *SymbolicJSON {
	h := m.Header()
	out := &SymbolicJSON{
		Entry: h.Entry, Realization: h.Realization,
		Dims: m.Vars, Grid: map[string][]int64{}, Checked: m.CheckedJSON(), Domain: m.DomainJSON(),
		Operations: m.Structure.Ops.Len(),
		Params:     PolyJSON{m.Params.ASCII()},
		Inputs:     PolyJSON{m.Inputs.ASCII()},
		Outputs:    PolyJSON{m.Outputs.ASCII()},
		Peak:       []CandidateJSON{}, Undecided: []UndecidedJSON{},
		Candidates: len(m.Cands),
	}
	if out.Dims == nil {
		out.Dims = []string{}
	}
	for i, v := range m.Vars {
		out.Grid[v] = m.Grid[i]
	}
	for _, i := range m.Front.Kept {
		out.Peak = append(out.Peak, m.CandidateJSON(i))
	}
	if n := m.negative(); n != nil {
		b := m.Structure.Buffers.At(n.Pos)
		out.Negative = &NegativeJSON{Buffer: b.ID, Name: b.Name, Bytes: n.Bytes.ASCII(), At: OrderedPoint(n.At), There: n.There.String()}
	}
	for _, pr := range m.Front.Undecided {
		out.Undecided = append(out.Undecided, UndecidedJSON{m.CandidateJSON(pr[0]), m.CandidateJSON(pr[1])})
	}
	return out
}

// CrossoverJSON is `memsym crossover --json`'s object.
type CrossoverJSON struct {
	Entry    string        `json:"entry"`
	Along    string        `json:"along"`
	Fixed    OrderedPoint  `json:"fixed"`
	ForAll   []string      `json:"for_all"` // the other dimensions left free: the segments hold for every value in Domain
	Domain   OrderedPoint  `json:"domain"`
	Segments []SegmentJSON `json:"segments"`
	Confirm  []ConfirmJSON `json:"confirmed,omitempty"`
	// NotConfirmed says why --confirm recorded nothing: a side of a
	// crossover lies past the program's sizes.
	NotConfirmed string `json:"not_confirmed,omitempty"`
	ReachJSON
	// NegativeBytes are the values along the line at which some buffer's
	// bytes are negative, every other dimension given a value
	// (Model.NegativeAlong): there the segments are the polynomials', not
	// the program's.
	NegativeBytes []SpanJSON     `json:"negative_bytes,omitempty"`
	Checked       []OrderedPoint `json:"checked"`
	AtOneJSON
}

// ReachJSON is a Reach in CrossoverJSON and PiecewiseJSON: RunsTo is, for
// a bundled program that stops running along the dimension, the last
// value it runs at, NotRunning why not at the next; RunsFrom, for one that
// starts running above the least value, the first value it runs at,
// NotRunningBelow why not at the one before.
type ReachJSON struct {
	RunsTo          int64  `json:"runs_to,omitempty"`
	NotRunning      string `json:"not_running,omitempty"`
	RunsFrom        int64  `json:"runs_from,omitempty"`
	NotRunningBelow string `json:"not_running_below,omitempty"`
}

// JSON returns r as ReachJSON.
func (r Reach) JSON() ReachJSON { return ReachJSON{r.Last, r.Why, r.First, r.BelowWhy} }

// SegmentJSON says that from From to To (0: without end) the candidate
// holds the peak.
type SegmentJSON struct {
	From   int64         `json:"from"`
	To     int64         `json:"to"`
	Holder CandidateJSON `json:"holder"`
}

// ConfirmJSON is one recording made beside a crossover.
type ConfirmJSON struct {
	Point         OrderedPoint `json:"point"`
	PredictedOp   int          `json:"predicted_op"`
	PredictedPeak string       `json:"predicted_peak"`
	PeakOp        *int         `json:"peak_op"` // null where unrecorded
	Peak          *string      `json:"peak"`    // null where unrecorded
	OK            bool         `json:"ok"`
	// Differs says how the recording is not the model's there: its
	// operations or buffers, or some buffer's bytes.
	Differs string `json:"differs,omitempty"`
	// Unrecorded says why no recording was made at the point (its
	// recorder failed): nothing was confirmed there.
	Unrecorded string `json:"unrecorded,omitempty"`
}

// CrossoverJSON returns crossovers c, and their confirmations if any, as
// JSON.
func (m *Model) CrossoverJSON(c *Crossovers, confirmed []Confirmation) *CrossoverJSON {
	out := &CrossoverJSON{Entry: m.Header().Entry, Along: c.Dim, Fixed: OrderedPoint{}, ForAll: []string{}, Segments: []SegmentJSON{}, Checked: m.CheckedJSON(), Domain: m.DomainJSON()}
	for _, v := range m.Vars {
		if v == c.Dim {
			continue
		}
		if x, ok := c.Fixed[v]; ok {
			out.Fixed = append(out.Fixed, record.Dim{Name: v, Value: x})
		} else {
			out.ForAll = append(out.ForAll, v)
		}
	}
	for _, s := range c.Segments {
		out.Segments = append(out.Segments, SegmentJSON{From: s.From, To: s.To, Holder: m.CandidateJSON(s.Holder)})
	}
	if neg, err := m.NegativeAlong(c.Dim, c.Fixed); err == nil {
		for _, g := range neg {
			out.NegativeBytes = append(out.NegativeBytes, SpanJSON{g.From, g.To})
		}
	}
	for i := range confirmed {
		f := &confirmed[i]
		c := ConfirmJSON{
			Point: OrderedPoint(f.Point), PredictedOp: m.NumberAt(m.Cands[f.Predicted].Op, f.Point.Map()), PredictedPeak: f.PredictedPeak.String(),
			OK: f.OK(m), Differs: f.Differs,
		}
		if f.Unrecorded != nil {
			c.Unrecorded = f.Unrecorded.Error()
		} else {
			op, peak := f.PeakOp, f.Peak.String()
			c.PeakOp, c.Peak = &op, &peak
		}
		out.Confirm = append(out.Confirm, c)
	}
	return out
}

// VerifyJSON is `memsym verify --json`'s object.
type VerifyJSON struct {
	Programs []VerifyProgramJSON `json:"programs"`
	Checked  int                 `json:"checked"`
	Asked    int                 `json:"asked"`
	Refused  int                 `json:"refused_as_expected"`
	Failed   int                 `json:"failed"`
	// Unrecorded counts the failed points where no recording was made
	// (the recorder failed): the model was not checked there.
	Unrecorded int `json:"unrecorded"`
}

// VerifyProgramJSON is one program's verification: its model refused (as
// expected or not), or checked at points.
type VerifyProgramJSON struct {
	Program string `json:"program"`
	Refused string `json:"refused,omitempty"` // why the model was refused, if it was
	Failed  string `json:"failed,omitempty"`  // why the program failed as a whole, if it did
	// At is the check point the model was refused or failed at, when it
	// was one; empty when it was the grid, or nothing was refused.
	At     OrderedPoint      `json:"at,omitempty"`
	Points []VerifyPointJSON `json:"points"`
	// Asked is how many fresh points were asked for (--points), 0 where
	// no model was built to check; Fewer says why fewer than Asked were
	// found, empty when as many were.
	Asked int    `json:"asked"`
	Fewer string `json:"fewer,omitempty"`
}

// VerifyPointJSON is one point checked: Error is empty when the model holds
// there.
type VerifyPointJSON struct {
	Point OrderedPoint `json:"point"`
	OK    bool         `json:"ok"`
	Error string       `json:"error,omitempty"`
	// Unrecorded says no recording was made at the point (its recorder
	// failed, Error says how): the model was not checked there.
	Unrecorded bool `json:"unrecorded,omitempty"`
}

// MemoryJSON is `memsym memory --json`'s object; its fields' order is the
// keys' order.
type MemoryJSON struct {
	Entry       string           `json:"entry"`
	Dims        OrderedPoint     `json:"dims"`
	Realization string           `json:"realization"`
	Operations  int              `json:"operations"`
	Launches    int              `json:"launches"`
	Parameters  ParamsJSON       `json:"parameters"`
	Inputs      string           `json:"inputs"`
	Peak        PeakJSON         `json:"peak"`
	Outputs     string           `json:"outputs"`
	Needs       string           `json:"needs"`
	Placed      string           `json:"placed"`
	Live        []string         `json:"live"`
	LiveAtPeak  []LiveBufferJSON `json:"live_at_peak"`
	Calls       []CallJSON       `json:"calls"`
}

// ParamsJSON is the parameters' bytes and elements, by stored type.
type ParamsJSON struct {
	Bytes    string          `json:"bytes"`
	Elements string          `json:"elements"`
	ByDType  []TypeCountJSON `json:"by_dtype"`
}

// TypeCountJSON is the parameters of one stored type.
type TypeCountJSON struct {
	DType    string `json:"dtype"` // "" for the parameters given in bytes
	Elements string `json:"elements"`
	Bytes    string `json:"bytes"`
}

// PeakJSON is the peak at a point and where it is first reached.
type PeakJSON struct {
	Bytes     string `json:"bytes"`
	Operation int    `json:"operation"` // 0 when there are no operations
	Label     string `json:"label"`
	Path      string `json:"path"`
}

// LiveBufferJSON is a buffer live at the peak.
type LiveBufferJSON struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	DType  string  `json:"dtype"`
	Shape  []int64 `json:"shape"`
	Bytes  string  `json:"bytes"`
	MadeBy int     `json:"made_by"` // the operation that first writes it
}

// CallJSON is one row of the calls' table.
type CallJSON struct {
	Path       string `json:"path"`
	Iterations int    `json:"iterations"`
	Depth      int    `json:"depth"`
	Share      string `json:"share"`
	OwnPeak    string `json:"own_peak"`
	Operations int    `json:"operations"`
}

// OrderedPoint writes a point as an object in the point's order.
type OrderedPoint record.Point

func (d OrderedPoint) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, dim := range d {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(dim.Name)
		if err != nil {
			return nil, err
		}
		b = append(b, name...)
		b = fmt.Appendf(b, ":%d", dim.Value)
	}
	return append(b, '}'), nil
}

// Memory returns the counts c of recording rec as `memsym memory --json`
// writes them.
func Memory(rec *record.Recording, c *count.Counts) *MemoryJSON {
	h := &rec.Header
	out := &MemoryJSON{
		Entry: h.Entry, Dims: OrderedPoint(h.Dims), Realization: h.Realization,
		Operations: c.Ops, Launches: c.Launches,
		Parameters: ParamsJSON{Bytes: c.Params.String(), Elements: c.ParamElements.String(), ByDType: []TypeCountJSON{}},
		Inputs:     c.Inputs.String(),
		Peak:       PeakJSON{Bytes: c.Peak.String(), Operation: c.PeakOp},
		Outputs:    c.Outputs.String(), Needs: c.Needs.String(), Placed: c.Placed.String(),
		Live: ratStrings(c.Live), LiveAtPeak: []LiveBufferJSON{}, Calls: []CallJSON{},
	}
	for _, t := range c.ParamsByDType {
		dt := ""
		if !t.DType.IsZero() {
			dt = t.DType.String()
		}
		out.Parameters.ByDType = append(out.Parameters.ByDType, TypeCountJSON{dt, t.Elements.String(), t.Bytes.String()})
	}
	if c.PeakOp > 0 {
		op := rec.Ops.At(c.PeakOp - 1)
		out.Peak.Label, out.Peak.Path = op.Label, op.Path
	}
	for k, i := range c.AtPeak {
		b := rec.Buffers.At(i)
		l := LiveBufferJSON{ID: b.ID, Name: b.Name, Shape: b.Shape, Bytes: b.Bytes.String(), MadeBy: c.MadeBy[k]}
		if !b.DType.IsZero() {
			l.DType = b.DType.String()
		}
		out.LiveAtPeak = append(out.LiveAtPeak, l)
	}
	for _, call := range c.Calls {
		if call.Path == "" && call.Ops == 0 {
			continue // the entry's own operations, where it has none: as the text
		}
		out.Calls = append(out.Calls, CallJSON{call.Path, call.Iterations, call.Depth, call.Share.String(), call.OwnPeak.String(), call.Ops})
	}
	return out
}

func ratStrings(xs []poly.Rat) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}
