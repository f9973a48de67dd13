package explain

import (
	"fmt"
	"strings"

	"memsym/doc"
	"memsym/poly"
)

// atPoint is the section of the counts at one point: the totals, what
// is live at the peak, the calls' shares and a figure of the live bytes.
func (w *writer) atPoint() doc.Section {
	in := w.in
	pc := in.Point
	title := "Its counts"
	if len(pc.At) > 0 {
		title = "At " + point(pc.At).Plain(doc.ThinSpace)
	}
	s := doc.Section{Title: title}
	name := w.table()
	s.Blocks = append(s.Blocks, para(append(atWords(pc, true), ", ", entryName(in.Entry), " runs ",
		plural(pc.Ops, "operation", "operations"), " in ", plural(pc.Launches, "launch", "launches"), " (", name, ").")...))
	s.Blocks = append(s.Blocks, w.totals())
	s.Blocks = append(s.Blocks, w.livePeak()...)
	s.Blocks = append(s.Blocks, w.callsTable()...)
	if len(pc.Live) > 0 {
		s.Blocks = append(s.Blocks, w.liveFigure())
	}
	if f := w.callsFigure(); f != nil {
		s.Blocks = append(s.Blocks, f)
	}
	return s
}

// totals is the table of the counts at the point.
func (w *writer) totals() *doc.Table {
	pc := w.in.Point
	t := &doc.Table{
		Caption: inlines(append(append([]any{"The counts "}, atWords(pc, false)...), ".")...),
		Header:  []doc.Cell{cell(""), cell("bytes"), cell("in binary units")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignRight, doc.AlignRight},
	}
	row := func(what []any, n poly.Rat) {
		t.Rows = append(t.Rows, []doc.Cell{cell(what...), cell(n), cell(approx(n))})
	}
	defer func() {
		// A column of binary units left empty says nothing: drop it.
		for _, r := range t.Rows {
			if len(r[2]) > 0 {
				return
			}
		}
		t.Header, t.Align = t.Header[:2], t.Align[:2]
		for i := range t.Rows {
			t.Rows[i] = t.Rows[i][:2]
		}
	}()
	elements := 2
	if v, ok := pc.ParamElements.Int64(); ok && v == 1 {
		elements = 1
	}
	row([]any{"the parameters, ", pc.ParamElements, " ", doc.Inflect(elements, "element", "elements")}, pc.Params)
	row([]any{"the inputs, the parameters among them"}, pc.Inputs)
	if pc.PeakOp == 0 {
		row([]any{"the peak of live bytes: no operations"}, pc.Peak)
	} else {
		row([]any{"the peak of live bytes, at operation ", pc.PeakOp, " of ", pc.Ops}, pc.Peak)
	}
	row([]any{"the outputs"}, pc.Outputs)
	row([]any{"what is needed: the inputs and the peak"}, pc.Needs)
	if !pc.Placed.IsZero() {
		row([]any{"placed: each buffer at an offset by its life, each offset a multiple of 64"}, pc.Placed)
	}
	return t
}

// atWords says where the counts are: "at B = 2, T = 16", or "at every
// call" for a program without dimensions; capital begins a sentence.
func atWords(pc *PointCounts, capital bool) []any {
	at := pick(capital, "At", "at")
	if len(pc.At) == 0 {
		return []any{at + " every call"}
	}
	return []any{at + " ", point(pc.At)}
}

// livePeak says where the peak is and which buffers are live there.
func (w *writer) livePeak() []doc.Block {
	in := w.in
	pc := in.Point
	if pc.PeakOp == 0 {
		return []doc.Block{para("There are no operations: nothing is live, and the peak is 0 bytes.")}
	}
	where := []any{"The peak is at operation ", pc.PeakOp}
	if pc.PeakLabel != "" {
		where = append(where, ", ", doc.Code(pc.PeakLabel))
	}
	if pc.PeakPath != "" {
		where = append(where, " in ", doc.Code(pc.PeakPath))
	}
	where = append(where, ".")
	if len(pc.LiveAtPeak) == 0 {
		return []doc.Block{para(where...)}
	}
	n := len(pc.LiveAtPeak)
	name := w.table()
	where = append(where, " ", doc.Capital(doc.Spell(n)), " ", doc.Inflect(n, "buffer is", "buffers are"), " live there (", name, ").")
	t := &doc.Table{
		Caption: inlines("The buffers live at the peak, operation ", pc.PeakOp, pick(n > 1, ", the largest first.", ".")),
		Header:  []doc.Cell{cell("buffer"), cell("made by"), cell("type and shape"), cell("bytes")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignLeft, doc.AlignLeft, doc.AlignRight},
	}
	for _, b := range pc.LiveAtPeak {
		kind := b.DType + " " + b.Shape
		if b.Shape == "" {
			kind = "given in bytes"
		}
		t.Rows = append(t.Rows, []doc.Cell{cell(doc.Code(b.Name)), cell(madeBy(in.Entry, b.MadeBy)), cell(kind), cell(b.Bytes)})
	}
	return []doc.Block{para(where...), t}
}

// callsTable is the calls' shares of the peak and own peaks, indented by
// depth, with the rows that sum to the peak summed, and a sentence on the
// call that holds most of it.
func (w *writer) callsTable() []doc.Block {
	in := w.in
	pc := in.Point
	if len(pc.Calls) == 0 || pc.PeakOp == 0 { // no operations: no call's share
		return nil
	}
	name := w.table()
	intro := para("Each call is counted by its path, a fold's iterations together. ",
		"A call's share is what it made that is live at the peak, and its own peak is the most that what it made weighs while it runs. ",
		"The shares of the entry's own operations and of the top-level calls sum to the peak; an indented call's share is part of the share of the call above it (", name, ").")
	t := &doc.Table{
		Caption: inlines("The calls' shares of the peak, ", bytesWords(pc.Peak), ", at operation ", pc.PeakOp, "."),
		Header:  []doc.Cell{cell("call"), cell("share of the peak"), cell("%"), cell("own peak")},
		Align:   []doc.Align{doc.AlignLeft, doc.AlignRight, doc.AlignRight, doc.AlignRight},
	}
	sum := poly.Int(0)
	for _, c := range pc.Calls {
		t.Rows = append(t.Rows, []doc.Cell{cell(callName(in.Entry, c)), cell(c.Share), cell(percent(c.Share, pc.Peak)), cell(c.OwnPeak)})
		t.Indent = append(t.Indent, max(c.Depth-1, 0))
		if c.Depth <= 1 {
			sum = sum.Add(c.Share)
		}
	}
	t.Foot = [][]doc.Cell{{cell("the peak: the sum of the unindented shares"), cell(sum), cell(percent(sum, pc.Peak)), cell("")}}
	blocks := []doc.Block{intro, t}
	if s := w.holderSentence(); s != nil {
		blocks = append(blocks, s)
	}
	return blocks
}

// percent writes part as a per cent of whole as doc.PercentDigits does
// ("98.6", "<0.1", "100"), "" when whole is 0.
func percent(part, whole poly.Rat) string {
	if whole.IsZero() {
		return ""
	}
	return doc.PercentDigits(part, whole)
}

// holderSentence names the top-level call with the largest share and,
// inside it, the call that made most of it, found by going down from it
// to the call with the largest share among those directly inside, for as
// long as that call is the only one with that share and holds more than
// half of the share of the call it is inside: "Of the 149 504 bytes live
// at the peak, blocks ×2 made 147 456 (98.6 %), blocks.ff.up 131 072 of
// them." A call that ties with another beside it, or made less than half
// of what the call it is in made, is never named.
func (w *writer) holderSentence() *doc.Paragraph {
	in := w.in
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
	parts := []any{"Of the ", bytesWords(pc.Peak), " live at the peak, ", callName(in.Entry, t), " made ", t.Share, " (", percent(t.Share, pc.Peak), " %)"}
	inner := -1
	for at := top; ; {
		// The calls directly inside the call at at follow it, each
		// before the calls inside it.
		next, tied := -1, false
		for i := at + 1; i < len(pc.Calls) && pc.Calls[i].Depth > pc.Calls[at].Depth; i++ {
			c := pc.Calls[i]
			if c.Depth != pc.Calls[at].Depth+1 || c.Share.Sign() <= 0 {
				continue
			}
			switch {
			case next < 0 || c.Share.Cmp(pc.Calls[next].Share) > 0:
				next, tied = i, false
			case c.Share.Cmp(pc.Calls[next].Share) == 0:
				tied = true
			}
		}
		if next < 0 || tied || pc.Calls[next].Share.Add(pc.Calls[next].Share).Cmp(pc.Calls[at].Share) <= 0 {
			break
		}
		inner, at = next, next
	}
	if inner >= 0 {
		parts = append(parts, ", ", doc.Code(pc.Calls[inner].Path), " ", pc.Calls[inner].Share, " of them")
	}
	parts = append(parts, ".")
	return para(parts...)
}

// liveFigure is the figure of the live bytes at each operation, the
// top-level calls as bands and the peak marked.
func (w *writer) liveFigure() *doc.Figure {
	in := w.in
	pc := in.Point
	caption := []any{"Live bytes at each of the ", plural(pc.Ops, "operation", "operations"), " of ", entryName(in.Entry)}
	if pc.Ops == 1 {
		caption = []any{"Live bytes at the one operation of ", entryName(in.Entry)}
	}
	if len(pc.At) > 0 {
		caption = append(caption, " at ", point(pc.At))
	}
	if len(pc.Bands) > 0 {
		caption = append(caption, ", each top-level call's operations in a band, every other band shaded")
	}
	caption = append(caption, "; the peak, ", bytesWords(pc.Peak), ", is first reached at operation ", pc.PeakOp, ".")
	w.figure()
	f := &doc.Figure{
		Name: "live", XLabel: inlines("operation"), YLabel: inlines("live bytes"), YBytes: true,
		Caption: inlines(caption...),
	}
	series := doc.Series{Label: "live bytes", Steps: true}
	for i, v := range pc.Live {
		series.Points = append(series.Points, doc.XY{X: poly.Int(int64(i + 1)), Y: v})
	}
	f.Series = []doc.Series{series}
	f.Marks = []doc.Mark{{At: doc.XY{X: poly.Int(int64(pc.PeakOp)), Y: pc.Peak}, Label: inlines("peak, operation ", pc.PeakOp)}}
	for _, b := range pc.Bands {
		// An operation's live bytes hold from its number to the next.
		where := inlines("operation ", b.First)
		if b.Last > b.First {
			where = inlines("operations ", b.First, "–", b.Last)
		}
		f.Bands = append(f.Bands, doc.Band{From: poly.Int(int64(b.First)), To: poly.Int(int64(b.Last + 1)), Label: b.Name, Where: where})
	}
	return f
}

// callsFigure is the figure of the calls as nested boxes, each call's box
// coloured by its share of the peak with the share in per cent on its
// header: the drawing memsym's page makes of the network. It is nil
// without calls.
func (w *writer) callsFigure() *doc.Figure {
	in := w.in
	pc := in.Point
	if len(pc.Calls) < 2 {
		return nil
	}
	calls := make([]doc.CallBox, len(pc.Calls))
	for k, c := range pc.Calls {
		calls[k] = doc.CallBox{Title: callTitle(c), Depth: c.Depth, Ops: c.Ops, Shared: true, Share: c.Share}
	}
	boxes := doc.CallBoxes(entryText(in.Entry), calls)
	boxes.Whole = pc.Peak
	caption := []any{"The calls of ", entryName(in.Entry), " as boxes, each inside its caller's and a fold's iterations in one box"}
	if len(pc.At) > 0 {
		caption = append(caption, ", at ", point(pc.At))
	}
	caption = append(caption, ". A box's colour is the call's share of the peak, ", bytesWords(pc.Peak),
		", from pale (none) to dark (all of it), and its header gives that share in per cent.")
	w.figure()
	return &doc.Figure{Name: "calls", Caption: inlines(caption...), Boxes: boxes}
}

// callTitle names a call on its box: the last call of its path, and a
// fold's iterations ("blocks ×6", "up"); the entry's own is "own
// operations".
func callTitle(c CallRow) string {
	if c.Path == "" {
		return "own operations"
	}
	name := c.Path[strings.LastIndexByte(c.Path, '.')+1:]
	if c.Fold {
		name += fmt.Sprintf(" ×%d", c.Iterations)
	}
	return name
}
