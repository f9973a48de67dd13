package explain

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memsym/count"
	"memsym/dominance"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// Content is what a chapter is written from: one model, the recording
// counted at one point at the model's constants, the model's checks, and
// the crossovers at other constants.
type Content struct {
	// Program names the program: a bundled program's name or a file.
	Program string
	// FromFiles says the recordings were read from files rather than
	// recorded by memsym.
	FromFiles bool
	// Model is the memory model; nil for a chapter of counts alone.
	Model *model.Model
	// Along is the dimension along which the chapter says where each
	// candidate holds the peak; "" takes the model's last.
	Along string
	// Crossovers are the model's along Along, as Crossovers finds them;
	// nil has Build find them.
	Crossovers *model.Crossovers
	// Confirmed are recordings on both sides of each crossover (from
	// Model.Confirm); Unconfirmed says why there are none, if there are
	// crossovers.
	Confirmed   []model.Confirmation
	Unconfirmed string
	// AtOne names the dimensions the model holds from 1 though nothing
	// was recorded at 1 (model.Model.UnrecordedAtOne over every
	// dimension); none for a bundled program.
	AtOne []string
	// Reach is where a bundled program stops running along Along, at the
	// point the crossovers are confirmed at (Model.RunsTo); zero where it
	// does not stop.
	Reach model.Reach
	// Counted is the recording counted at one point; nil for none. Its
	// constants must be the model's.
	Counted *record.Recording
	// Verified are the model's checks at further points (check M3);
	// Unverified says why there are none.
	Verified   []model.Check
	Unverified string
	// Elsewhere are the crossovers at other constants.
	Elsewhere []Other
	// Scale says how the candidates' figure draws its axes.
	Scale Scale
	// Steps are the program's training step under one remat or two, at
	// the model's constants; none when no step was asked for.
	Steps []StepContent
}

// Other is a model at other constants than the chapter's, of which the
// chapter gives the crossovers.
type Other struct {
	Model       *model.Model
	Crossovers  *model.Crossovers
	Confirmed   []model.Confirmation
	Unconfirmed string
}

// Build turns content into the chapter's input.
func Build(c *Content) (*Input, error) {
	in := &Input{Program: c.Program, FromFiles: c.FromFiles, Scale: c.Scale, Unverified: c.Unverified}
	var h *record.Header
	switch {
	case c.Model != nil:
		h = c.Model.Header()
	case c.Counted != nil:
		h = &c.Counted.Header
	default:
		return nil, fmt.Errorf("a chapter needs a model or a recording counted at a point")
	}
	in.Entry, in.Realization, in.Vars = h.Entry, h.Realization, h.Dims.Names()
	if c.Model != nil {
		in.Least = leastOf(c.Model)
		for _, v := range c.AtOne {
			in.AtOne = append(in.AtOne, record.Dim{Name: v, Value: c.Model.Recorded(slices.Index(c.Model.Vars, v))})
		}
	}
	in.Consts = nameValues(h.Consts)
	if c.Counted != nil {
		if c.Model != nil && constsString(c.Counted.Header.Consts) != constsString(h.Consts) {
			return nil, fmt.Errorf("the point is counted at %s but the model is at %s: a chapter has one set of constants",
				constsWords(c.Counted.Header.Consts), constsWords(h.Consts))
		}
		in.Point = pointCounts(c.Counted)
	}
	if c.Model != nil && len(c.Model.Vars) == 0 && in.Point == nil {
		// Without dimensions the one recording is the program at every
		// call: its counts are the model's.
		in.Point = pointCounts(c.Model.Structure)
	}
	if c.Model != nil {
		var at record.Point
		if c.Counted != nil {
			at = c.Counted.Header.Dims
		}
		sym, err := symbolicInput(c.Model, c.Along, at, c.Crossovers, c.Confirmed, c.Unconfirmed)
		if err != nil {
			return nil, err
		}
		if sym.Cross != nil {
			sym.Cross.Reach = c.Reach
		}
		in.Symbolic = sym
	}
	for _, o := range c.Elsewhere {
		if o.Model == nil || o.Crossovers == nil {
			return nil, fmt.Errorf("the crossovers at other constants need their model and their crossovers")
		}
		cands, cross, _ := crossRowsIndexed(o.Model, o.Crossovers, o.Confirmed, o.Unconfirmed)
		common := nameCandidates(o.Model, cands, cross)
		in.Elsewhere = append(in.Elsewhere, Elsewhere{Consts: nameValues(o.Model.Header().Consts), Checked: o.Model.CheckPoints(), Candidates: cands, Common: common, Cross: cross})
	}
	step, err := stepInput(c.Steps)
	if err != nil {
		return nil, err
	}
	in.Step = step
	for _, chk := range c.Verified {
		row := VerifyRow{Point: chk.Point}
		if chk.Err != nil {
			row.Err = strings.ReplaceAll(chk.Err.Error(), "\n", " ")
		}
		in.Verified = append(in.Verified, row)
	}
	return in, nil
}

// Crossovers finds the model's crossovers along the dimension along ("":
// defaultAlong's): for every value of the others where their order is proven
// not to depend on them, else with the others at at's values, raised to
// the least the model holds from (or, for those at leaves out, the grid's
// smallest). It is nil for a model without dimensions or without
// operations (no peak to follow).
func Crossovers(m *model.Model, along string, at record.Point) (*model.Crossovers, error) {
	if len(m.Vars) == 0 || len(m.Front.Kept) == 0 {
		return nil, nil
	}
	if along == "" {
		along = defaultAlong(m)
	}
	c, err := m.Crossovers(along, nil)
	var dep *dominance.DependsError
	if !errors.As(err, &dep) {
		return c, err
	}
	fixed := map[string]int64{}
	for i, v := range m.Vars {
		if v == along {
			continue
		}
		fixed[v] = m.Grid[i][0]
		if x, ok := within(m, at).Value(v); ok {
			fixed[v] = x
		}
	}
	return m.Crossovers(along, fixed)
}

// defaultAlong is the dimension the crossovers go along when none is
// asked for: the last on which some kept candidate depends, along which
// the peak can change hands (gpt-depth's T, not its L, which every
// candidate ignores); else the last.
func defaultAlong(m *model.Model) string {
	for i := len(m.Vars) - 1; i >= 0; i-- {
		for _, k := range m.Front.Kept {
			if m.Cands[k].Poly.Degree(m.Vars[i]) > 0 {
				return m.Vars[i]
			}
		}
	}
	return m.Vars[len(m.Vars)-1]
}

// leastOf returns the dimensions whose claims hold from a value above 1,
// with that value; nil when there are none.
func leastOf(m *model.Model) map[string]int64 {
	var out map[string]int64
	for _, d := range m.Domain() {
		if d.Value > 1 {
			if out == nil {
				out = map[string]int64{}
			}
			out[d.Name] = d.Value
		}
	}
	return out
}

func nameValues(cs []record.Const) []NameValue {
	var out []NameValue
	for _, c := range cs {
		out = append(out, NameValue{Name: c.Name, Value: c.Value})
	}
	return out
}

func constsString(cs []record.Const) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+"="+c.Value)
	}
	return strings.Join(parts, ",")
}

func constsWords(cs []record.Const) string {
	if len(cs) == 0 {
		return "no constants"
	}
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+" = "+c.Value)
	}
	return strings.Join(parts, ", ")
}

// pointCounts turns the counts of one recording into the chapter's.
func pointCounts(rec *record.Recording) *PointCounts {
	c := count.At(rec)
	pc := &PointCounts{
		At:  rec.Header.Dims,
		Ops: c.Ops, Launches: c.Launches,
		Params: c.Params, ParamElements: poly.FromBigInt(c.ParamElements),
		Inputs: c.Inputs, Peak: c.Peak, Outputs: c.Outputs, Needs: c.Needs, Placed: c.Placed,
		PeakOp: c.PeakOp, Live: c.Live,
	}
	if c.PeakOp > 0 {
		op := rec.Ops.At(c.PeakOp - 1)
		pc.PeakLabel, pc.PeakPath = op.Label, op.Path
	}
	for k, i := range c.AtPeak {
		b := rec.Buffers.At(i)
		lb := LiveBuffer{Name: b.Name, Bytes: b.Bytes}
		if lb.Name == "" {
			lb.Name = fmt.Sprintf("buffer %d", b.ID)
		}
		if !b.DType.IsZero() {
			lb.DType = b.DType.String()
		}
		if b.Shape != nil {
			lb.Shape = shapeString(b.Shape)
		}
		if f := c.MadeBy[k]; f > 0 {
			lb.MadeBy = rec.Ops.Path(f - 1)
		}
		pc.LiveAtPeak = append(pc.LiveAtPeak, lb)
	}
	sortedByBytes(pc.LiveAtPeak)
	for _, call := range c.Calls {
		it := max(call.Iterations, 1)
		pc.Calls = append(pc.Calls, CallRow{Path: call.Path, Iterations: it, Depth: call.Depth, Share: call.Share, OwnPeak: call.OwnPeak,
			Fold: call.Iterations > 0, Ops: call.Ops})
	}
	pc.Bands = callBands(rec)
	return pc
}

// callBands returns the runs of operations of each top-level call
// (blocks[0], then blocks[1]), in order.
func callBands(rec *record.Recording) []CallBand {
	var out []CallBand
	for i := range rec.Ops.Len() {
		top, _, _ := strings.Cut(rec.Ops.Path(i), ".")
		if top == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Name == top && out[n-1].Last == i {
			out[n-1].Last = i + 1
			continue
		}
		out = append(out, CallBand{Name: top, First: i + 1, Last: i + 1})
	}
	return out
}

func shapeString(shape []int64) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// symbolicInput turns the model into the chapter's, with its crossovers
// (found here when cross is nil) and their confirmations.
func symbolicInput(m *model.Model, along string, at record.Point, cross *model.Crossovers, confirmed []model.Confirmation, unconfirmed string) (*SymbolicModel, error) {
	s := &SymbolicModel{Grid: m.Grid, Checked: m.CheckPoints(), Inputs: m.Inputs, Params: m.Params, Outputs: m.Outputs,
		Ops: m.Structure.Ops.Len(), Distinct: len(m.Cands), Pruned: len(m.Front.PrunedBy), Kept: len(m.Front.Kept),
		Fold: m.FoldDim()}
	if s.Fold != "" {
		s.OpsAt, s.FoldApart = m.Structure.Header.Dims, m.Least(s.Fold) > 1
	}
	if n := m.Negative(); n != nil {
		b := m.Structure.Buffers.At(n.Pos)
		name := b.Name
		if name == "" {
			name = "buffer " + strconv.FormatInt(b.ID, 10)
		}
		s.Negative = &NegativeRow{Name: name, Bytes: n.Bytes, At: n.At, There: n.There}
	}
	for i := range m.Structure.Buffers.Len() {
		b := m.Structure.Buffers.At(i)
		if b.IsView {
			continue
		}
		s.Buffers++
		if b.Shape == nil {
			s.Shapeless++
		}
		if _, fixed := m.Bytes(i).IsConst(); b.Role == record.Param && !fixed {
			if s.GrowingCount++; len(s.Growing) < maxGrowing {
				s.Growing = append(s.Growing, paramName(m, i))
			}
			for _, v := range m.Vars {
				if m.Bytes(i).Degree(v) > 0 && !slices.Contains(s.GrowingVars, v) {
					s.GrowingVars = append(s.GrowingVars, v)
				}
			}
		}
	}
	slices.SortFunc(s.GrowingVars, func(a, b string) int { return slices.Index(m.Vars, a) - slices.Index(m.Vars, b) })
	if cross == nil && len(m.Vars) > 0 {
		var err error
		if cross, err = Crossovers(m, along, at); err != nil {
			return nil, err
		}
	}
	var cands []CandidateRow
	var index map[int]int
	cands, s.Cross, index = crossRowsIndexed(m, cross, confirmed, unconfirmed)
	s.Common = nameCandidates(m, cands, s.Cross)
	s.Candidates = cands
	for _, pr := range m.Front.Undecided {
		s.Undecided = append(s.Undecided, [2]int{index[pr[0]], index[pr[1]]})
	}
	if kept := m.Front.Kept; len(kept) <= maxRechecked {
		for _, i := range kept {
			for _, j := range kept {
				at, ok := m.Front.Witness(i, j)
				if !ok || slices.Contains(m.Front.Undecided, [2]int{min(i, j), max(i, j)}) {
					continue // the undecided pairs are said apart
				}
				p := make(record.Point, len(m.Vars))
				for k, v := range m.Vars {
					x, ok := at[v]
					if !ok {
						x = m.Least(v) // neither candidate depends on v
					}
					p[k] = record.Dim{Name: v, Value: x}
				}
				small, err1 := m.Cands[i].Poly.EvalInt(at)
				large, err2 := m.Cands[j].Poly.EvalInt(at)
				if err1 != nil || err2 != nil || large.Cmp(small) <= 0 {
					return nil, fmt.Errorf("explain: the witness %s of candidates %d and %d does not hold", p, index[i]+1, index[j]+1)
				}
				if len(kept) > maxWitnessed {
					s.Rechecked++
					continue
				}
				s.Witnesses = append(s.Witnesses, Witness{Smaller: index[i], Larger: index[j], At: p, SmallerBytes: small, LargerBytes: large})
			}
		}
	}
	return s, nil
}

// maxWitnessed bounds the kept candidates whose witnesses the chapter
// lists: four make twelve ordered pairs, a list one reads.
const maxWitnessed = 4

// maxRechecked bounds the kept candidates whose witnesses the chapter
// evaluates again without listing them: 64 make 4 032 ordered pairs.
const maxRechecked = 64

// crossRowsIndexed returns the kept candidates' rows, with any pruned
// candidate that holds the peak after them, the crossovers' rows (nil
// when cross is), and each candidate's row by its index in m.Cands.
func crossRowsIndexed(m *model.Model, cross *model.Crossovers, confirmed []model.Confirmation, unconfirmed string) ([]CandidateRow, *CrossRows, map[int]int) {
	index := map[int]int{}
	var cands []CandidateRow
	add := func(i int) int {
		if k, ok := index[i]; ok {
			return k
		}
		// Named as in the recording the structure is: where a dimension
		// counts blocks, a first middle block's operation may stand for
		// the last's (model.Model.StructureOp).
		c := m.Cands[i]
		n, op := m.OpInStructure(c.Op)
		index[i] = len(cands)
		cands = append(cands, CandidateRow{Poly: c.Poly, Op: n, Label: op.Label, Path: op.Path})
		return index[i]
	}
	for _, i := range m.Front.Kept {
		add(i)
	}
	if cross == nil {
		return cands, nil, index
	}
	rows := &CrossRows{Along: cross.Dim, Unconfirmed: unconfirmed, Least: leastOf(m)}
	for _, v := range m.Vars {
		if v == cross.Dim {
			continue
		}
		if x, ok := cross.Fixed[v]; ok {
			rows.Fixed = append(rows.Fixed, record.Dim{Name: v, Value: x})
		} else {
			rows.Free = append(rows.Free, v)
		}
	}
	for _, seg := range cross.Segments {
		rows.Segments = append(rows.Segments, SegmentRow{From: seg.From, To: seg.To, Holder: add(seg.Holder)})
	}
	for _, f := range confirmed {
		rows.Confirmed = append(rows.Confirmed, ConfirmRow{Point: f.Point, Peak: f.Peak, PeakOp: f.PeakOp,
			Predicted: add(f.Predicted), PredictedPeak: f.PredictedPeak, PredictedOp: m.NumberAt(m.Cands[f.Predicted].Op, f.Point.Map()), Differs: f.Differs})
	}
	return cands, rows, index
}

// nameCandidates names each candidate by its largest live buffer (see
// candidateNames) and returns the buffers live at every one of them that
// it leaves out, if any.
func nameCandidates(m *model.Model, cands []CandidateRow, cross *CrossRows) *BufferName {
	ops := make([]int, len(cands))
	for i, c := range cands {
		ops[i] = c.Op
	}
	names, common := candidateNames(m, ops, namingPoints(m, len(cands), cross))
	for i := range cands {
		cands[i].Largest = names[i]
	}
	return common
}

// namingPoints returns, for each of n candidates, the point at which its
// buffers are compared to name it by its largest: where it holds the peak
// along cross's dimension (the last value of its last stretch, or for a
// stretch without end its first or the grid's largest, whichever is
// larger), the other dimensions at cross's values
// or, free, at their largest grid values; and for a candidate that holds
// it nowhere along the line, or without cross, the grid's largest values.
// A candidate that holds the peak only from T = 936 on is named by what is
// large there, not by what is large at the grid's T = 768, where it does
// not hold it.
func namingPoints(m *model.Model, n int, cross *CrossRows) []map[string]int64 {
	refs := make([]map[string]int64, n)
	for i := range refs {
		refs[i] = topOfGrid(m)
	}
	if cross == nil {
		return refs
	}
	for _, seg := range cross.Segments {
		ref := topOfGrid(m)
		for _, d := range cross.Fixed {
			ref[d.Name] = d.Value
		}
		// Its stretch's last value; for a stretch without end, its first
		// or the grid's largest, whichever is larger: a candidate that
		// holds the peak from T = 1 on is named by what is large at the
		// sizes a grid stands for, not by what is at T = 1.
		top := ref[cross.Along]
		ref[cross.Along] = seg.To
		if seg.To == 0 {
			ref[cross.Along] = max(seg.From, top)
		}
		refs[seg.Holder] = ref
	}
	return refs
}

// topOfGrid is each dimension at its largest grid value.
func topOfGrid(m *model.Model) map[string]int64 {
	ref := map[string]int64{}
	for i, v := range m.Vars {
		ref[v] = m.Grid[i][len(m.Grid[i])-1]
	}
	return ref
}

// NameRunes returns the characters of the names the recordings give (the
// entry's, the buffers' and their groups', the operations' labels and
// paths), each once, in the order met: what the chapter writes that memsym
// did not.
func (c *Content) NameRunes() []rune {
	var recs []*record.Recording
	if c.Model != nil {
		recs = append(recs, c.Model.Structure)
	}
	if c.Counted != nil {
		recs = append(recs, c.Counted)
	}
	var out []rune
	seen := map[rune]bool{}
	note := func(s string) {
		for _, r := range s {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	for _, rec := range recs {
		note(rec.Header.Entry)
		for i := range rec.Buffers.Len() {
			note(rec.Buffers.Name(i))
			note(rec.Buffers.At(i).Group)
		}
		for i := range rec.Ops.Len() {
			note(rec.Ops.Label(i))
			note(rec.Ops.Path(i))
		}
	}
	return out
}
