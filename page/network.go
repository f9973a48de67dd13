package page

import (
	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// Network is the drawing of a program's calls as nested boxes: a frame
// for the entry, in it a box for the entry's own operations and one per
// top-level call, and in each call's box its callees' boxes. A fold's
// iterations share one box ("blocks ×6"). Sizes are in pixels; the page,
// the SVG and the TikZ drawings all use this one layout.
type Network struct {
	W, H  int
	Boxes []Box // callers before callees; Boxes[0] is the entry's frame
}

// Box is one box of the network.
type Box struct {
	Call       int // index into the calls; -1 for the entry's frame
	X, Y, W, H int
	Title      string
	Leaf       bool // a call without callees: a box of its header alone
}

// The layout's measures, in pixels. Text is 12 px, whose characters are
// taken to be charW wide on average.
const (
	netMaxW  = 880
	netMinW  = 640 // the entry's frame at least, its boxes stretched to it
	netPad   = 6
	netGap   = 6
	netHead  = 22 // a caller's header
	netLeafH = 24
	charW    = 7
	// shareW is room for the share in per cent after a title: "100.0%".
	shareW = 7 * charW
)

// netNode is one box while it is laid out.
type netNode struct {
	call     int
	title    string
	children []*netNode
	across   bool // children side by side, else one under another
	w, h     int  // natural size
}

// layoutNetwork lays out the calls under a frame titled entry.
func layoutNetwork(calls []Call, entry string) *Network {
	var build func(k int) *netNode
	build = func(k int) *netNode {
		n := &netNode{call: k, title: calls[k].Title()}
		for _, c := range calls[k].Children {
			n.children = append(n.children, build(c))
		}
		return n
	}
	root := &netNode{call: -1, title: entry}
	if entry == "" {
		root.title = "the program"
	}
	if len(calls) > 0 && calls[0].Ops > 0 {
		root.children = append(root.children, &netNode{call: 0, title: "own operations"})
	}
	for k := 1; k < len(calls); k++ {
		if calls[k].Parent == -1 {
			root.children = append(root.children, build(k))
		}
	}
	measure(root, netMaxW, true)
	root.w = max(root.w, netMinW)
	net := &Network{W: root.w, H: root.h}
	place(net, root, 0, 0, root.w, root.h)
	return net
}

// measure sets n's natural size, its children side by side when they fit
// in avail and vertical does not force them one under another.
func measure(n *netNode, avail int, vertical bool) {
	titleW := len([]rune(n.title))*charW + shareW + 2*netPad
	if len(n.children) == 0 {
		n.w, n.h = max(titleW, 72), netLeafH
		return
	}
	inner := avail - 2*netPad
	sumW, maxW, sumH, maxH := 0, 0, 0, 0
	for i, c := range n.children {
		measure(c, inner, false)
		if i > 0 {
			sumW += netGap
			sumH += netGap
		}
		sumW += c.w
		sumH += c.h
		maxW = max(maxW, c.w)
		maxH = max(maxH, c.h)
	}
	n.across = !vertical && sumW <= inner
	if n.across {
		n.w, n.h = max(titleW, sumW+2*netPad), netHead+maxH+netPad
	} else {
		n.w, n.h = max(titleW, maxW+2*netPad), netHead+sumH+netPad
	}
}

// place puts n at x, y with size w × h, and its children in it: side by
// side sharing the extra width and as tall as the tallest, or one under
// another as wide as n's inside.
func place(net *Network, n *netNode, x, y, w, h int) {
	net.Boxes = append(net.Boxes, Box{Call: n.call, X: x, Y: y, W: w, H: h, Title: n.title, Leaf: len(n.children) == 0})
	if len(n.children) == 0 {
		return
	}
	inner := w - 2*netPad
	cy := y + netHead
	if !n.across {
		for _, c := range n.children {
			place(net, c, x+netPad, cy, inner, c.h)
			cy += c.h + netGap
		}
		return
	}
	natural := 0
	for i, c := range n.children {
		if i > 0 {
			natural += netGap
		}
		natural += c.w
	}
	extra := inner - natural
	rowH := h - netHead - netPad
	cx := x + netPad
	for i, c := range n.children {
		cw := c.w + extra/len(n.children)
		if i < extra%len(n.children) {
			cw++
		}
		place(net, c, cx, cy, cw, rowH)
		cx += cw + netGap
	}
}

// SharesAt returns each call's share of the peak at the point at (aligned
// with the model's dimensions), and the peak.
func (pg *Page) SharesAt(at []int64) ([]poly.Rat, poly.Rat, error) {
	m := pg.m
	peak, op, err := m.Peak(m.Point(at))
	if err != nil {
		return nil, poly.Rat{}, err
	}
	shares := make([]poly.Rat, len(pg.calls.calls))
	if op > 0 {
		for k, s := range pg.shares[m.LiveAt[op-1]] {
			shares[k] = s.EvalInts(at)
		}
	}
	return shares, peak, nil
}

// NetworkSVG draws m's network as a standalone SVG image, each call's box
// coloured by its share of the peak at p, the share in per cent on its
// header.
func NetworkSVG(m *model.Model, p record.Point) ([]byte, error) {
	return drawNetwork(m, p, (*Network).SVG)
}

// NetworkTikZ draws m's network as NetworkSVG does, as a standalone LaTeX
// document of one tikzpicture.
func NetworkTikZ(m *model.Model, p record.Point) ([]byte, error) {
	return drawNetwork(m, p, (*Network).TikZ)
}

func drawNetwork(m *model.Model, p record.Point, draw func(*Network, []poly.Rat, poly.Rat) []byte) ([]byte, error) {
	pg, err := New(m, Options{At: p})
	if err != nil {
		return nil, err
	}
	shares, peak, err := pg.SharesAt(pg.firstPoint())
	if err != nil {
		return nil, err
	}
	return draw(pg.net, shares, peak), nil
}

// firstPoint returns the dimensions' first values.
func (pg *Page) firstPoint() []int64 {
	at := make([]int64, len(pg.dims))
	for i, d := range pg.dims {
		at[i] = d.Value
	}
	return at
}
