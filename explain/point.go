package explain

import (
	"fmt"

	"memsym/poly"
)

// atPoint is the section of the counts at one assignment: the totals, what
// is live at the peak, the calls' shares and a figure of the live bytes.
func atPoint(in *Input) Section {
	pc := in.Point
	s := Section{Title: "At " + PlainText(assignment(pc.At), ThinSpace)}
	s.Blocks = append(s.Blocks, para("At ", assignment(pc.At), ", ", Code(in.Entry), " runs ",
		pc.Ops, " ", plural(pc.Ops, "operation"), " in ", pc.Launches, " ", pick(pc.Launches == 1, "launch", "launches"), "."))
	s.Blocks = append(s.Blocks, totals(pc))
	s.Blocks = append(s.Blocks, livePeak(in)...)
	s.Blocks = append(s.Blocks, callsTable(in)...)
	if len(pc.Live) > 0 {
		s.Blocks = append(s.Blocks, liveFigure(in))
	}
	return s
}

// totals is the table of the counts at the point.
func totals(pc *PointCounts) *Table {
	t := &Table{
		Header: []Cell{cell(""), cell("bytes"), cell("about")},
		Align:  []Align{AlignLeft, AlignRight, AlignRight},
	}
	row := func(what []any, n poly.Rat) {
		t.Rows = append(t.Rows, []Cell{cell(what...), cell(n), cell(human(n))})
	}
	row([]any{"the parameters, ", pc.ParamElements, " ", plural(elementsCount(pc.ParamElements), "element")}, pc.Params)
	row([]any{"the inputs, the parameters among them"}, pc.Inputs)
	row([]any{"the peak of live bytes, at operation ", pc.PeakOp, " of ", pc.Ops}, pc.Peak)
	row([]any{"the outputs"}, pc.Outputs)
	row([]any{"what is needed: the inputs and the peak"}, pc.Needs)
	if !pc.Placed.IsZero() {
		row([]any{"placed: each buffer at an offset by its life, rounded to 64"}, pc.Placed)
	}
	return t
}

// elementsCount is n as an int for choosing a word's number (1 or more).
func elementsCount(n poly.Rat) int {
	if v, ok := n.Int64(); ok && v == 1 {
		return 1
	}
	return 2
}

// livePeak says where the peak is and which buffers are live there.
func livePeak(in *Input) []Block {
	pc := in.Point
	where := []any{"The peak is at operation ", pc.PeakOp}
	if pc.PeakLabel != "" {
		where = append(where, ", ", Code(pc.PeakLabel))
	}
	if pc.PeakPath != "" {
		where = append(where, " in ", Code(pc.PeakPath))
	}
	where = append(where, ". ")
	if len(pc.LiveAtPeak) == 0 {
		return []Block{para(where...)}
	}
	n := len(pc.LiveAtPeak)
	where = append(where, capital(count(n)), " ", plural(n, "buffer"), pick(n == 1, " is", " are"), " live there:")
	t := &Table{
		Header: []Cell{cell("buffer"), cell("made by"), cell("type and shape"), cell("bytes")},
		Align:  []Align{AlignLeft, AlignLeft, AlignLeft, AlignRight},
	}
	for _, b := range pc.LiveAtPeak {
		t.Rows = append(t.Rows, []Cell{cell(Code(b.Name)), cell(madeBy(in.Entry, b.MadeBy)), cell(b.DType + " " + b.Shape), cell(b.Bytes)})
	}
	return []Block{para(where...), t}
}

// callsTable is the calls' shares of the peak and own peaks, and a sentence
// on the call that holds most of it.
func callsTable(in *Input) []Block {
	pc := in.Point
	if len(pc.Calls) == 0 {
		return nil
	}
	intro := para("Each call is counted by its path, a fold's iterations together. ",
		"Its share is what it made that is live at the peak; the shares of the entry's own and of its calls sum to the peak. ",
		"Its own peak is the most that what it made weighs while it runs.")
	t := &Table{
		Header: []Cell{cell("call"), cell("share of the peak"), cell("own peak")},
		Align:  []Align{AlignLeft, AlignRight, AlignRight},
	}
	for _, c := range pc.Calls {
		t.Rows = append(t.Rows, []Cell{cell(callName(in.Entry, c)), cell(c.Share), cell(c.OwnPeak)})
	}
	blocks := []Block{intro, t}
	if s := holderSentence(in); s != nil {
		blocks = append(blocks, s)
	}
	return blocks
}

// holderSentence names the top call with the largest share and, inside it,
// the deepest call with the largest share: "Of the 149 504 bytes live at the
// peak, blocks ×2 made 147 456, blocks.ff.up 131 072 of them."
func holderSentence(in *Input) *Paragraph {
	pc := in.Point
	top := -1
	for i, c := range pc.Calls {
		if c.Depth == 1 && c.Share.Sign() > 0 && (top < 0 || c.Share.Cmp(pc.Calls[top].Share) > 0) {
			top = i
		}
	}
	if top < 0 {
		return nil
	}
	t := pc.Calls[top]
	parts := []any{"Of the ", pc.Peak, " bytes live at the peak, ", callName(in.Entry, t), " made ", t.Share}
	inner := -1
	for i := top + 1; i < len(pc.Calls) && pc.Calls[i].Depth > t.Depth; i++ {
		c := pc.Calls[i]
		if c.Share.Sign() <= 0 {
			continue
		}
		if inner < 0 || c.Depth > pc.Calls[inner].Depth ||
			(c.Depth == pc.Calls[inner].Depth && c.Share.Cmp(pc.Calls[inner].Share) > 0) {
			inner = i
		}
	}
	if inner >= 0 {
		parts = append(parts, ", ", Code(pc.Calls[inner].Path), " ", pc.Calls[inner].Share, " of them")
	}
	parts = append(parts, ".")
	return para(parts...)
}

// liveFigure is the figure of the live bytes at each operation, the peak
// marked.
func liveFigure(in *Input) *Figure {
	pc := in.Point
	f := &Figure{
		Name: "live", XLabel: "operation", YLabel: "live bytes", YBytes: true,
		Caption: inlines("Live bytes at each of the ", pc.Ops, " operations of ", Code(in.Entry), " at ",
			assignment(pc.At), "; the peak, ", pc.Peak, " bytes, is first reached at operation ", pc.PeakOp, "."),
	}
	series := Series{Label: "live bytes", Steps: true}
	for i, v := range pc.Live {
		series.Points = append(series.Points, Point{X: poly.Int(int64(i + 1)), Y: v})
	}
	f.Series = []Series{series}
	f.Marks = []Mark{{At: Point{X: poly.Int(int64(pc.PeakOp)), Y: pc.Peak}, Label: fmt.Sprintf("peak, operation %d", pc.PeakOp)}}
	return f
}
