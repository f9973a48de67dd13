package reports

import "memsym/doc"

// The TikZ figure of the calls is laid out at the width of the line it is
// set in, which only TeX knows: the file holds the drawing laid out for
// each of a few widths, each narrower than the one before (more of its
// rows of boxes one under another), and TeX draws the widest that fits
// the line, its text at its size. Each layout is doc.LayoutBoxesAt's.

// widestBoxes is, in pixels, the widest a drawing is laid out: at 0.5 pt a
// pixel, 600 pt, wider than a page's text.
const widestBoxes = 1200

// boxLayouts lays out bx's boxes at each width at which they differ, from
// at most widestBoxes pixels wide to the narrowest they go, each layout
// narrower than the one before; bx alone when it was not laid out from a
// doc.Nest.
func boxLayouts(bx *doc.Boxes) []*doc.Boxes {
	if bx.Nest == nil {
		return []*doc.Boxes{bx}
	}
	var out []*doc.Boxes
	for maxW := widestBoxes; ; {
		l := doc.LayoutBoxesAt(bx.Nest, maxW, 0)
		l.Whole = bx.Whole
		if len(out) > 0 && l.Width >= out[len(out)-1].Width {
			return out
		}
		out = append(out, l)
		maxW = l.Width - 1
	}
}
