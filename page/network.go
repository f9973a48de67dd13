package page

import "memsym/doc"

// Network is the drawing of a program's calls as nested boxes: a frame
// for the entry, in it a box for the entry's own operations and one per
// top-level call, and in each call's box its callees' boxes. A fold's
// iterations share one box ("blocks ×6"). Sizes are in pixels; the page
// draws doc.CallBoxes' layout, the one the chapter's figure of the calls
// draws too.
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

// layoutNetwork lays out the calls under a frame titled entry.
func layoutNetwork(calls []Call, entry string) *Network {
	cb := make([]doc.CallBox, len(calls))
	for k := range calls {
		cb[k] = doc.CallBox{Title: calls[k].Title(), Depth: calls[k].Depth, Ops: calls[k].Ops}
	}
	boxes := doc.CallBoxes(entry, cb)
	// The boxes are the frame, then one per call in the calls' order, the
	// entry's own left out when it has no operations.
	k := 0
	if len(calls) > 0 && calls[0].Ops == 0 {
		k = 1
	}
	net := &Network{W: boxes.Width, H: boxes.Height}
	for i, b := range boxes.Boxes {
		call := -1
		if i > 0 {
			call = k
			k++
		}
		net.Boxes = append(net.Boxes, Box{Call: call, X: b.X, Y: b.Y, W: b.W, H: b.H, Title: b.Title, Leaf: b.Leaf})
	}
	return net
}
