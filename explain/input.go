package explain

import (
	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// Input is what the chapter is written from, as plain data: Build fills it
// from a model and the counts at a point, and Chapter writes it up. Every
// number in it is at one setting of the program's constants, Consts; the
// crossovers at other constants are in Elsewhere, each with its own.
type Input struct {
	// Program is the program's name or file, Entry the entry recorded
	// (`GPT.apply`), Realization its stored types ("f64").
	Program, Entry, Realization string
	// FromFiles says the recordings were read from files rather than
	// recorded by memsym.
	FromFiles bool
	// Consts are the constants of every number and formula of the
	// chapter but Elsewhere's, as given.
	Consts []NameValue
	// Vars are the dimensions, in order (B, T); none for a program whose
	// sizes are fixed.
	Vars []string
	// Least gives the least value a dimension's claims hold from, where
	// it is not 1 (a block count whose last block stands apart: L ≥ 2).
	Least map[string]int64
	// AtOne names the dimensions whose claims hold from 1 though nothing
	// was recorded at 1, with the least value recorded along each: the
	// claims there are the polynomials'.
	AtOne record.Point
	// Point holds the counts at one assignment of the dimensions; nil
	// when no point was counted.
	Point *PointCounts
	// Symbolic holds the polynomials; nil when they were not made.
	Symbolic *SymbolicModel
	// Verified holds the checks of the polynomials against fresh
	// recordings at further points (check M3); Unverified says why
	// there are none.
	Verified   []VerifyRow
	Unverified string
	// Elsewhere holds the crossovers at other settings of the constants.
	Elsewhere []Elsewhere
	// Scale says how the candidates' figure draws its axes.
	Scale Scale
	// Step holds the program's training step; nil when none was asked
	// for.
	Step *StepInput
}

// Scale says how a figure of the candidates draws its axes.
type Scale int

const (
	// ScaleAuto draws logarithmic axes when the first crossover would be
	// in the left quarter of linear ones, else linear axes.
	ScaleAuto Scale = iota
	// ScaleLinear draws linear axes.
	ScaleLinear
	// ScaleLog draws logarithmic axes, on which a polynomial's growth is
	// its slope.
	ScaleLog
)

// NameValue is a constant as given: D = 64.
type NameValue struct{ Name, Value string }

// PointCounts are the counts of one recording at one point. All byte
// counts are exact.
type PointCounts struct {
	// At is the point.
	At record.Point
	// Ops is the number of operations, Launches the number of launches.
	Ops, Launches int
	// Params is the parameters' bytes, ParamElements their elements.
	Params, ParamElements poly.Rat
	// Inputs is the inputs' bytes, the parameters among them.
	Inputs poly.Rat
	// Peak is the largest live set's bytes.
	Peak poly.Rat
	// Outputs is the result's bytes.
	Outputs poly.Rat
	// Needs is the inputs and the peak.
	Needs poly.Rat
	// Placed is the bytes beside the inputs when every buffer is placed at
	// an offset by its life, each offset a multiple of 64; zero when not computed.
	Placed poly.Rat
	// PeakOp is the operation (from 1) at which the peak is first reached,
	// PeakLabel its label (`Linear.apply/%5`), PeakPath its call
	// (blocks[0].ff.up).
	PeakOp    int
	PeakLabel string
	PeakPath  string
	// LiveAtPeak are the buffers live at the peak, the largest first.
	LiveAtPeak []LiveBuffer
	// Calls are the calls' rows, parents before their children; the rows
	// of depth 1 and the entry's own (path "") sum to the peak.
	Calls []CallRow
	// Live is the live bytes at each operation (Live[0] at operation 1).
	Live []poly.Rat
	// Bands are the top-level calls' runs of operations, in order.
	Bands []CallBand
}

// LiveBuffer is one buffer live at the peak.
type LiveBuffer struct {
	// Name is the buffer's name in the program (up); DType its stored
	// type (f64), Shape its shape ("[2, 16, 256]"), both "" for a buffer
	// given in bytes.
	Name, DType, Shape string
	Bytes              poly.Rat
	// MadeBy is the path of the call that wrote it, "" for the entry.
	MadeBy string
}

// CallRow is one call, counted by its path with a fold's iterations
// together (blocks ×2).
type CallRow struct {
	// Path is the call's path (blocks.ff.up); "" is the entry itself.
	Path string
	// Iterations is how many iterations of a fold the row groups (1 for a
	// plain call).
	Iterations int
	// Depth is the number of calls from the entry (1 for blocks, 0 for
	// the entry's own).
	Depth int
	// Share is the bytes the call made that are live at the peak.
	Share poly.Rat
	// OwnPeak is the most the bytes it made weigh while it runs.
	OwnPeak poly.Rat
	// Fold says the row groups a fold's iterations, however many.
	Fold bool
	// Ops is the operations under the call.
	Ops int
}

// CallBand is a run of operations, First to Last, of one top-level call
// (blocks[0]).
type CallBand struct {
	Name        string
	First, Last int
}

// SymbolicModel is the memory model as polynomials in the dimensions.
type SymbolicModel struct {
	// Grid holds, for each of Input.Vars, the values recorded at.
	Grid [][]int64
	// Checked are the points off the grid the polynomials were checked at
	// when they were made; none leaves the model unchecked.
	Checked []record.Point
	// Shapeless counts the buffers given in bytes alone, whose axes are
	// not known.
	Shapeless int
	// Negative, when not nil, is a buffer whose polynomial memsym found
	// negative at a point with every dimension at least its least: there
	// the polynomials are not the program's bytes.
	Negative *NegativeRow
	// Buffers counts the buffers (views apart).
	Buffers int
	// Inputs, Params and Outputs are the inputs' (the parameters among
	// them), the parameters' and the result's bytes.
	Inputs, Params, Outputs poly.Poly
	// Growing names the first parameters whose bytes grow with a
	// dimension (at most maxGrowing of them), in declaration order;
	// GrowingCount counts them all, and GrowingVars are the dimensions
	// among their axes, in the order of the model's.
	Growing      []*BufferName
	GrowingCount int
	GrowingVars  []string
	// Fold is the dimension that counts blocks of operations ("" for
	// none), whose recordings were aligned block by block; OpsAt is then
	// the point of the recording whose Ops operations the candidates
	// number.
	Fold  string
	OpsAt record.Point
	// FoldApart is set when the fold's first and last blocks stand apart
	// (the model holds from Fold = 2).
	FoldApart bool
	// Ops counts the operations; Distinct the distinct live-bytes
	// polynomials among them, of which Pruned were proven at most another
	// one everywhere.
	Ops, Distinct, Pruned int
	// Candidates are the live sets of which the peak is the largest: the
	// kept ones first, then any pruned one that holds the peak where it
	// ties a kept one at an earlier operation.
	Candidates []CandidateRow
	// Kept is how many of Candidates were kept by the pruning.
	Kept int
	// Undecided holds pairs of indices into Candidates of which memsym
	// could neither prove nor refute that one dominates the other.
	Undecided [][2]int
	// Witnesses are, when few candidates are kept (maxWitnessed), the
	// points memsym found where one kept candidate exceeds another: each
	// ordered pair whose domination was refuted, in the candidates'
	// order.
	Witnesses []Witness
	// Rechecked counts, when more candidates are kept than the chapter
	// lists the witnesses of (up to maxRechecked), the witnesses memsym
	// evaluated both candidates at again, each found to hold; 0 where they
	// are listed or too many to evaluate.
	Rechecked int
	// Common, when set, are buffers live at every candidate and larger
	// than some candidate's Largest, which names the largest of its
	// others.
	Common *BufferName
	// Cross says which candidate holds the peak along one dimension; nil
	// for a program without dimensions.
	Cross *CrossRows
}

// NegativeRow is a buffer whose bytes' polynomial is negative at a point:
// its name (or "buffer ID"), the polynomial, the point and its value there.
type NegativeRow struct {
	Name  string
	Bytes poly.Poly
	At    record.Point
	There poly.Rat
}

// CandidateRow is one candidate for the peak: a live set's bytes.
type CandidateRow struct {
	Poly poly.Poly
	// Op is the first operation (from 1) whose live bytes are Poly in the
	// recording the model's structure is (model.Model.StructureOp), Label
	// its label and Path its call.
	Op          int
	Label, Path string
	// Largest is its largest live buffer; nil when it has none.
	Largest *BufferName
}

// Witness is a point where candidate Larger's live bytes exceed candidate
// Smaller's (indices into Candidates), with both there.
type Witness struct {
	Smaller, Larger           int
	At                        record.Point
	SmallerBytes, LargerBytes poly.Rat
}

// BufferName names a buffer for a reader: "the attention's
// `probabilities`, B · H · T² reals".
type BufferName struct {
	// Names are the buffers' names in the program, each once: one, or
	// several of the same size; Count is how many buffers they are.
	Names []string
	Count int
	// Path is the innermost call that holds the calls that make them (its
	// path), Call that call in words ("attention"); Call is "" when it has
	// no usual name, and both are "" for the entry's own.
	Path, Call string
	// Size is its size in elements in the dimensions and constants
	// (B · H · T²) and Kind what they are ("reals"); Size is nil for a
	// buffer given in bytes, whose Bytes say its size.
	Size  doc.Math
	Kind  string
	Bytes poly.Poly
	// at is the bytes of each at the point they were compared at.
	at poly.Rat
}

// CrossRows say which candidate holds the peak along one dimension.
type CrossRows struct {
	// Along is the dimension (T).
	Along string
	// Fixed are the other dimensions given a value; Free those left free,
	// for every value of which (from Least's, else 1) Segments are
	// proven.
	Fixed record.Point
	Free  []string
	Least map[string]int64
	// Segments say which candidate holds the peak along Along, in order.
	Segments []SegmentRow
	// Confirmed are recordings made on both sides of each crossover.
	Confirmed []ConfirmRow
	// Unconfirmed says why nothing was recorded to confirm the
	// crossovers, when there are some and nothing was.
	Unconfirmed string
	// Reach is where the program stops running along Along; zero where
	// it does not (past it, the segments are the polynomials').
	Reach model.Reach
}

// SegmentRow says that candidate Holder (an index into Candidates) holds
// the peak for Along from From to To, both included; To 0 means without
// end.
type SegmentRow struct {
	From, To int64
	Holder   int
}

// ConfirmRow is a recording made beside a crossover: the peak it shows,
// and what the candidates predict there.
type ConfirmRow struct {
	Point  record.Point
	Peak   poly.Rat
	PeakOp int
	// Predicted is the candidate (an index into Candidates) the segments
	// say holds the peak there, PredictedPeak its bytes and PredictedOp
	// its operation.
	Predicted     int
	PredictedPeak poly.Rat
	PredictedOp   int
	// Differs says how the recording is not the model's there (its
	// operations, its buffers or their bytes); "" when it is.
	Differs string
}

// OK reports whether the recording is the model's there and shows the
// predicted peak at the predicted operation.
func (c ConfirmRow) OK() bool {
	return c.Differs == "" && c.Peak.Equal(c.PredictedPeak) && c.PeakOp == c.PredictedOp
}

// Elsewhere are the crossovers at another setting of the constants, from
// a model of its own.
type Elsewhere struct {
	Consts     []NameValue
	Checked    []record.Point // the points off its grid its model was checked at
	Candidates []CandidateRow
	Common     *BufferName
	Cross      *CrossRows
}

// VerifyRow is the check of the polynomials against a fresh recording at
// one point.
type VerifyRow struct {
	Point record.Point
	// Err says what differs; "" when everything agrees.
	Err string
}
