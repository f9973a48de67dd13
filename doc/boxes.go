package doc

import (
	"math/big"

	"memsym/poly"
)

// Boxes is a drawing of nested, labelled boxes, such as a program's calls
// in the calls that make them, each filled by its share of a whole (the
// peak) and showing that share in per cent on its header. A figure whose
// Boxes is set is this drawing instead of a plot. Sizes are in pixels; a
// format may scale them (TikZ draws a pixel as 0.5 pt).
type Boxes struct {
	Width, Height int
	// Whole is what the shares are parts of.
	Whole poly.Rat
	// Boxes are the boxes, each before the boxes inside it; Boxes[0] is
	// the frame holding the others.
	Boxes []Box
	// Nest is what the boxes were laid out from (LayoutBoxes), for a
	// format that lays them out again at the width it has
	// (LayoutBoxesAt); nil for boxes placed otherwise.
	Nest *Nest
}

// Box is one box of a drawing of Boxes.
type Box struct {
	X, Y, W, H int
	Title      string
	// Shared says the box has a share, Share, of the drawing's whole; a
	// box without one (the frame) is filled in grey with no per cent.
	Shared bool
	Share  poly.Rat
	// Leaf says no box is inside it: it is its header alone.
	Leaf bool
}

// Nest is a box to lay out: its title, its share, and the boxes in it.
type Nest struct {
	Title  string
	Shared bool
	Share  poly.Rat
	Inside []*Nest
}

// The boxes' measures, in pixels. Text is 12 px, whose characters are
// taken to be boxCharW wide on average.
const (
	BoxesMaxW = 880
	BoxesMinW = 640 // the frame at least, its boxes stretched to it
	// BoxPad is the space between a box's side and what is in it: its
	// title, its per cent, its boxes.
	BoxPad = 6
	// BoxTitleY is a title's baseline below its box's top.
	BoxTitleY = 16
	boxGap    = 6
	// BoxHead is a box's header above the boxes in it.
	BoxHead  = 22
	boxLeafH = 24
	boxCharW = 7
	// boxShareW is room for the per cent after a title: "100.0%".
	boxShareW = 7 * boxCharW
)

// nestBox is one box while it is laid out.
type nestBox struct {
	*Nest
	inside []*nestBox
	across bool // the boxes in it side by side, else one under another
	w, h   int  // natural size
}

// LayoutBoxes lays out root and the boxes nested in it: a box's boxes side
// by side when they fit, else one under another (the frame's always one
// under another), at most BoxesMaxW wide unless a title needs more. The
// boxes come in the order of a walk of root, each before those in it.
func LayoutBoxes(root *Nest) *Boxes { return LayoutBoxesAt(root, BoxesMaxW, BoxesMinW) }

// LayoutBoxesAt lays out root as LayoutBoxes does, at most maxW pixels
// wide unless a title needs more, and the frame at least minW wide.
func LayoutBoxesAt(root *Nest, maxW, minW int) *Boxes {
	var wrap func(n *Nest) *nestBox
	wrap = func(n *Nest) *nestBox {
		b := &nestBox{Nest: n}
		for _, c := range n.Inside {
			b.inside = append(b.inside, wrap(c))
		}
		return b
	}
	top := wrap(root)
	top.measure(maxW, true)
	top.w = max(top.w, minW)
	out := &Boxes{Width: top.w, Height: top.h, Nest: root}
	top.place(out, 0, 0, top.w, top.h)
	return out
}

// measure sets n's natural size, the boxes in it side by side when they
// fit in avail and vertical does not put them one under another.
func (n *nestBox) measure(avail int, vertical bool) {
	titleW := len([]rune(n.Title))*boxCharW + boxShareW + 2*BoxPad
	if len(n.inside) == 0 {
		n.w, n.h = max(titleW, 72), boxLeafH
		return
	}
	inner := avail - 2*BoxPad
	sumW, maxW, sumH, maxH := 0, 0, 0, 0
	for i, c := range n.inside {
		c.measure(inner, false)
		if i > 0 {
			sumW += boxGap
			sumH += boxGap
		}
		sumW += c.w
		sumH += c.h
		maxW = max(maxW, c.w)
		maxH = max(maxH, c.h)
	}
	n.across = !vertical && sumW <= inner
	if n.across {
		n.w, n.h = max(titleW, sumW+2*BoxPad), BoxHead+maxH+BoxPad
	} else {
		n.w, n.h = max(titleW, maxW+2*BoxPad), BoxHead+sumH+BoxPad
	}
}

// place puts n at x, y with size w × h, and the boxes in it: side by side
// sharing the extra width and as tall as the tallest, or one under another
// as wide as n's inside.
func (n *nestBox) place(out *Boxes, x, y, w, h int) {
	out.Boxes = append(out.Boxes, Box{X: x, Y: y, W: w, H: h, Title: n.Title, Shared: n.Shared, Share: n.Share, Leaf: len(n.inside) == 0})
	if len(n.inside) == 0 {
		return
	}
	inner := w - 2*BoxPad
	cy := y + BoxHead
	if !n.across {
		for _, c := range n.inside {
			c.place(out, x+BoxPad, cy, inner, c.h)
			cy += c.h + boxGap
		}
		return
	}
	natural := 0
	for i, c := range n.inside {
		if i > 0 {
			natural += boxGap
		}
		natural += c.w
	}
	extra := inner - natural
	rowH := h - BoxHead - BoxPad
	cx := x + BoxPad
	for i, c := range n.inside {
		cw := c.w + extra/len(n.inside)
		if i < extra%len(n.inside) {
			cw++
		}
		c.place(out, cx, cy, cw, rowH)
		cx += cw + boxGap
	}
}

// Percent writes share's part of whole in per cent, as PercentDigits does,
// with a per cent sign: "87.5%", "<0.1%", ">99.9%", "0%", "100%"; "–" when
// whole is not positive.
func Percent(share, whole poly.Rat) string {
	s := PercentDigits(share, whole)
	if s == "–" {
		return s
	}
	return s + "%"
}

// PercentDigits writes share's part of whole in per cent, rounded half up
// to one decimal in exact arithmetic: "87.5", "12.0"; "0" for none and
// "100" for the whole, and, for a part that is neither but rounds to one of
// them, "<0.1" and ">99.9", so that a share is never read as none or as all
// of the whole when it is not; "–" when whole is not positive. Every
// format's tables, prose and figures write shares with it (the page's
// script the same way).
func PercentDigits(share, whole poly.Rat) string {
	if whole.Sign() <= 0 {
		return "–"
	}
	switch {
	case share.Sign() == 0:
		return "0"
	case share.Cmp(whole) == 0:
		return "100"
	case share.Sign() < 0: // a difference, such as a saving that is none
		return "−" + PercentDigits(share.Neg(), whole)
	}
	// k = ⌊1000·share/whole + 1/2⌋ = ⌊(2000·a·d + b·c) / (2·b·c)⌋ for
	// share = a/b and whole = c/d.
	a, b, c, d := share.Num(), share.Den(), whole.Num(), whole.Den()
	num := new(big.Int).Mul(a, d)
	num.Mul(num, big.NewInt(2000))
	bc := new(big.Int).Mul(b, c)
	num.Add(num, bc)
	k, _ := new(big.Int).DivMod(num, bc.Mul(bc, big.NewInt(2)), new(big.Int))
	switch {
	case k.Sign() == 0:
		return "<0.1"
	case k.Cmp(big.NewInt(1000)) == 0 && share.Cmp(whole) < 0:
		return ">99.9"
	}
	whole10, tenth := new(big.Int).QuoRem(k, big.NewInt(10), new(big.Int))
	return whole10.String() + "." + tenth.String()
}

// shareScale is a sequential, colour-blind-safe scale (ColorBrewer's
// Oranges), from no share to the whole.
var shareScale = [][3]float64{{255, 245, 235}, {253, 208, 162}, {253, 141, 60}, {217, 72, 1}, {127, 39, 4}}

// FrameFill is the colour of a box without a share.
var FrameFill = [3]int{246, 246, 246}

// Fill returns the colour of b in a drawing whose whole is whole, and
// whether its text should be white. Colours are not figures a reader
// reads: they are computed in floating point.
func (b *Box) Fill(whole poly.Rat) ([3]int, bool) {
	if !b.Shared {
		return FrameFill, false
	}
	return ShareColour(b.Share, whole)
}

// ShareColour returns the colour of a box holding share of whole on the
// colour-blind-safe scale, and whether its text should be white.
func ShareColour(share, whole poly.Rat) ([3]int, bool) {
	f := 0.0
	if whole.Sign() > 0 {
		f = share.Quo(whole).Float64()
	}
	f = min(max(f, 0), 1)
	pos := f * float64(len(shareScale)-1)
	i := min(int(pos), len(shareScale)-2)
	t := pos - float64(i)
	var rgb [3]int
	for j := range rgb {
		rgb[j] = int(shareScale[i][j] + (shareScale[i+1][j]-shareScale[i][j])*t + 0.5)
	}
	return rgb, f > 0.6
}

// PercentOf writes b's share of whole in per cent as Percent does, "" for
// a box without a share.
func (b *Box) PercentOf(whole poly.Rat) string {
	if !b.Shared {
		return ""
	}
	return Percent(b.Share, whole)
}

// CallBox is a call of a program to draw as a box.
type CallBox struct {
	// Title names the call for people: "blocks ×6", "up".
	Title string
	// Depth is the calls from the entry: 0 for the entry's own
	// operations, 1 for a top-level call.
	Depth int
	// Ops is the operations under the call.
	Ops int
	// Shared and Share are the call's share of the drawing's whole.
	Shared bool
	Share  poly.Rat
}

// CallBoxes lays out a program's calls as nested boxes: a frame titled
// entry ("the program" when entry is ""), in it a box for the entry's own
// operations when there are any and one per top-level call, and in each
// call's box its callees' boxes. calls lists each call before its callees,
// siblings in order, calls[0] being the entry's own operations. The boxes
// are the frame, then one per call in the calls' order (the entry's own
// left out when it has no operations).
func CallBoxes(entry string, calls []CallBox) *Boxes {
	root := &Nest{Title: entry}
	if entry == "" {
		root.Title = "the program"
	}
	if len(calls) > 0 && calls[0].Ops > 0 {
		root.Inside = append(root.Inside, &Nest{Title: "own operations", Shared: calls[0].Shared, Share: calls[0].Share})
	}
	// stack[d] is the box of the last call seen at depth d+1.
	var stack []*Nest
	for k := 1; k < len(calls); k++ {
		c := calls[k]
		n := &Nest{Title: c.Title, Shared: c.Shared, Share: c.Share}
		d := min(max(c.Depth, 1), len(stack)+1)
		stack = stack[:d-1]
		if d == 1 {
			root.Inside = append(root.Inside, n)
		} else {
			p := stack[d-2]
			p.Inside = append(p.Inside, n)
		}
		stack = append(stack, n)
	}
	return LayoutBoxes(root)
}
