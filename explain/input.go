package explain

import "memsym/poly"

// Input is what the chapter is written from, as plain data: the command
// fills it from the recording, the interpolation and the dominance checks,
// so that this package depends on none of them.
type Input struct {
	// Program is the program's name or file, Entry the entry recorded
	// (`GPT.apply`), Realization its stored types ("f64").
	Program, Entry, Realization string
	// Consts are the program's constants, as given.
	Consts []NameValue
	// Vars are the dimensions, in order (B, T).
	Vars []string
	// Point holds the counts at one assignment of the dimensions; nil
	// when no point was asked for.
	Point *PointCounts
	// Symbolic holds the polynomials; nil when they were not asked for.
	Symbolic *SymbolicModel
	// Verified holds the checks of the polynomials against recordings at
	// further assignments (statement M3), if any were made.
	Verified []VerifyRow
}

// NameValue is a constant as given on the command line: D = 64.
type NameValue struct{ Name, Value string }

// NameInt is a dimension's value: B = 2.
type NameInt struct {
	Name  string
	Value int64
}

// PointCounts are the counts of one recording at one assignment. All byte
// counts are exact.
type PointCounts struct {
	// At is the assignment of the dimensions.
	At []NameInt
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
	// an offset by its life, rounded to 64; zero when not computed.
	Placed poly.Rat
	// PeakOp is the 1-based operation at which the peak is first reached,
	// PeakLabel its label (`Linear.apply/%5`), PeakPath the call it is in
	// (blocks[0].ff.up).
	PeakOp    int
	PeakLabel string
	PeakPath  string
	// LiveAtPeak are the buffers live at the peak.
	LiveAtPeak []LiveBuffer
	// Calls are the calls' rows, parents before their children; the rows
	// of depth 1 and the entry's own (path "") sum to the peak.
	Calls []CallRow
	// Live is the live bytes at each operation, in order (Live[0] is at
	// operation 1).
	Live []poly.Rat
}

// LiveBuffer is one buffer live at the peak.
type LiveBuffer struct {
	// Name is the buffer's name in the program (%5); DType its stored
	// type (f64); Shape its shape as written ("[2, 16, 256]").
	Name, DType, Shape string
	Bytes              poly.Rat
	// MadeBy is the path of the call that wrote it.
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
	// Depth is the number of calls from the entry (1 for blocks).
	Depth int
	// Share is the bytes the call made that are live at the peak.
	Share poly.Rat
	// OwnPeak is the most the bytes it made weigh while it runs.
	OwnPeak poly.Rat
}

// SymbolicModel is the memory model as polynomials in the dimensions.
type SymbolicModel struct {
	// Consts are the constants the polynomials were made at, when they
	// differ from Input.Consts; nil means Input.Consts.
	Consts []NameValue
	// Grid holds, for each of Input.Vars, the values recorded at.
	Grid [][]int64
	// Checked holds the assignments the polynomials were checked at, each
	// aligned with Input.Vars.
	Checked [][]int64
	// Inputs and Outputs are the inputs' and the result's bytes.
	Inputs, Outputs poly.Poly
	// Candidates are the live sets of which the peak is the largest, none
	// dominating another for dimensions of at least 1.
	Candidates []CandidateRow
	// Undecided holds pairs of indices into Candidates whose order along
	// Along could not be decided for every value of the other dimensions.
	Undecided [][2]int
	// Along is the dimension the peak's holders are told along (T).
	Along string
	// Fixed are the values of the other dimensions at which Segments were
	// found and at which the candidates are drawn; a dimension left out is
	// drawn at 1.
	Fixed []NameInt
	// ForAll says that Segments hold for every value of at least 1 of the
	// other dimensions, not only at Fixed.
	ForAll bool
	// Segments say which candidate holds the peak along Along, in order.
	Segments []SegmentRow
}

// CandidateRow is one candidate for the peak: a live set's bytes.
type CandidateRow struct {
	Poly poly.Poly
	// Op is the 1-based operation, Label its label and Path its call.
	Op          int
	Label, Path string
	// Name says in words what dominates the live set ("the attention's
	// probabilities"); Plural says it takes a plural verb. Both optional.
	Name   string
	Plural bool
}

// SegmentRow says that candidate Holder (an index into Candidates) holds
// the peak for Along from From to To, both included; To 0 means without
// end.
type SegmentRow struct {
	From, To int64
	Holder   int
}

// VerifyRow is the check of the polynomials against a recording at one
// assignment.
type VerifyRow struct {
	Point  []NameInt
	OK     bool
	Detail string
}
