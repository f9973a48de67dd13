package reports

import (
	"bytes"
	"fmt"
	"strings"

	"memsym/doc"
)

// boxesSVG draws a figure of nested boxes as a standalone SVG image, a
// pixel of the layout a pixel of the image.
func boxesSVG(f *doc.Figure) []byte {
	bx := f.Boxes
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" %s font-size="12">`+"\n",
		bx.Width, bx.Height, bx.Width, bx.Height, svgFont)
	fmt.Fprintf(&b, "<title>%s</title>\n<desc>%s</desc>\n", esc(doc.PlainText(f.Caption, doc.ThinSpace)), writtenBy)
	for i := range bx.Boxes {
		box := &bx.Boxes[i]
		fill, white := box.Fill(bx.Whole)
		text := "#000"
		if white {
			text = "#fff"
		}
		fmt.Fprintf(&b, `<rect x="%d.5" y="%d.5" width="%d" height="%d" rx="3" fill="rgb(%d,%d,%d)" stroke="#555"/>`+"\n",
			box.X, box.Y, box.W-1, box.H-1, fill[0], fill[1], fill[2])
		ty := box.Y + doc.BoxTitleY
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", box.X+doc.BoxPad, ty, text, esc(box.Title))
		if pc := box.PercentOf(bx.Whole); pc != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s" text-anchor="end" font-weight="bold">%s</text>`+"\n", box.X+box.W-doc.BoxPad, ty, text, esc(pc))
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// tikzBoxes writes a figure of nested boxes as a tikzpicture laid out
// for the line it is set in, its text sans-serif at 6 pt: of the layouts
// boxLayouts makes, the widest whose pixels at 0.5 pt fit \linewidth,
// stretched across to the line (a pixel 0.5 pt high and at least as
// wide) but, as doc stretches a drawing's frame to 640 px and no more,
// to no more than 320 pt or the layout's own width; when even the
// narrowest layout does not fit, the narrowest, shrunk to the line.
// Compiled alone it is a cropped standalone picture a column wide; \input
// in a document (after \documentclass, with TikZ loaded) it is the
// picture alone, in a paragraph's line as any picture is, so that
// \centering centres it.
func tikzBoxes(f *doc.Figure, o Options) []byte {
	bx := f.Boxes
	var b bytes.Buffer
	standalonePreamble(&b, f, "tikz", "it is laid out for \\linewidth, at most 320 pt wide but where its text needs more, and centred", "\\usepackage{tikz}", "\\linewidth")
	prefix := o.prefix()
	for i := range bx.Boxes {
		fill, _ := bx.Boxes[i].Fill(bx.Whole)
		fmt.Fprintf(&b, "\\definecolor{%sbox%s}{RGB}{%d,%d,%d}%%\n", prefix, letterName(i), fill[0], fill[1], fill[2])
	}
	layouts := boxLayouts(bx)
	for k, l := range layouts {
		fmt.Fprintf(&b, "%% laid out %d px wide, drawn with a pixel #1 wide\n", l.Width)
		fmt.Fprintf(&b, "\\def\\memsymboxes%s#1{%%\n", letterName(k))
		b.WriteString("\\begin{tikzpicture}[x=#1,y=-0.5pt,font=\\sffamily\\fontsize{6}{7}\\selectfont]\n")
		for i := range l.Boxes {
			box := &l.Boxes[i]
			_, white := box.Fill(bx.Whole)
			fmt.Fprintf(&b, "\\filldraw[fill=%sbox%s,draw=black!65,rounded corners=1.5pt] (%d,%d) rectangle (%d,%d);\n",
				prefix, letterName(i), box.X, box.Y, box.X+box.W-1, box.Y+box.H-1)
			text := ""
			if white {
				text = ",text=white"
			}
			ty := box.Y + doc.BoxTitleY
			fmt.Fprintf(&b, "\\node[anchor=base west,inner sep=0%s] at (%d,%d) {%s};\n", text, box.X+doc.BoxPad, ty, texEscape(box.Title))
			if pc := box.PercentOf(bx.Whole); pc != "" {
				fmt.Fprintf(&b, "\\node[anchor=base east,inner sep=0,font=\\sffamily\\bfseries\\fontsize{6}{7}\\selectfont%s] at (%d,%d) {%s};\n",
					text, box.X+box.W-doc.BoxPad, ty, texEscape(pc))
			}
		}
		b.WriteString("\\end{tikzpicture}}%\n")
	}
	// The widest layout that fits the line, its pixel the width it is
	// drawn (the line's, at most its cap) over the layout's, or the
	// narrowest at 0.5 pt a pixel. The pixel's width is written into the
	// picture, so that an externalized picture is made again when the
	// line's width changes.
	b.WriteString("% the widest layout that fits the line, stretched across to it, up to a width\n")
	last := len(layouts) - 1
	fmt.Fprintf(&b, "\\dimen0=\\linewidth\\relax\\ifdim\\dimen0<%s \\let\\memsymboxes\\memsymboxes%s\\dimen0=0.5pt %%\n", halfPt(layouts[last].Width), letterName(last))
	for k := last; k >= 0; k-- {
		if k > 0 {
			fmt.Fprintf(&b, "\\else\\ifdim\\dimen0<%s ", halfPt(layouts[k-1].Width))
		} else {
			b.WriteString("\\else")
		}
		wide := halfPt(max(layouts[k].Width, doc.BoxesMinW))
		fmt.Fprintf(&b, "\\let\\memsymboxes\\memsymboxes%s\\ifdim\\dimen0>%s \\dimen0=%s \\fi\\divide\\dimen0 by %d %%\n", letterName(k), wide, wide, layouts[k].Width)
	}
	b.WriteString(strings.Repeat("\\fi", len(layouts)) + "%\n")
	b.WriteString("\\setbox0=\\hbox{\\expandafter\\memsymboxes\\expandafter{\\the\\dimen0}}%\n")
	b.WriteString("\\leavevmode\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\box0}\\else\\box0 \\fi%\n")
	b.WriteString("\\ifdefined\\memsymalone\\else\\expandafter\\endinput\\fi%\n\\end{document}\n")
	return b.Bytes()
}

// halfPt writes px pixels at 0.5 pt each as a TeX dimension.
func halfPt(px int) string {
	if px%2 == 0 {
		return fmt.Sprintf("%dpt", px/2)
	}
	return fmt.Sprintf("%d.5pt", px/2)
}

// boxesScale is the millimetres a pixel of figure f's boxes takes: 0.5 pt,
// or less where the drawing would be wider than the text or taller than a
// page leaves room for below above millimetres of headings kept with it.
func (d *pdfDoc) boxesScale(f *doc.Figure, above float64) float64 {
	bx := f.Boxes
	scale := 0.5 * ptToMM
	if w := float64(bx.Width) * scale; w > d.textWidth() {
		scale = d.textWidth() / float64(bx.Width)
	}
	if maxH := d.usable() - 30 - above; float64(bx.Height)*scale > maxH {
		scale = maxH / float64(bx.Height)
	}
	return scale
}

// boxesFigure draws a figure of nested boxes as filled rectangles with
// their titles and per cents, a pixel of the layout 0.5 pt unless the
// drawing is wider than the text, and its caption below, kept on the
// figure's page, and with the above millimetres of headings above it.
func (d *pdfDoc) boxesFigure(f *doc.Figure, above float64) {
	capFont, capLines := d.figureCaption(f)
	d.room(d.figureHeight(f, above))
	d.figures++
	bx := f.Boxes
	scale := d.boxesScale(f, above)
	h := float64(bx.Height) * scale
	x0, y0 := pdfMargin, d.y+1
	pt := 12 * scale / ptToMM // the layout's 12 px text
	d.f.SetLineWidth(0.2)
	d.f.SetDrawColor(85, 85, 85)
	for i := range bx.Boxes {
		box := &bx.Boxes[i]
		fill, white := box.Fill(bx.Whole)
		d.f.SetFillColor(fill[0], fill[1], fill[2])
		x, y := x0+float64(box.X)*scale, y0+float64(box.Y)*scale
		d.f.RoundedRect(x, y, float64(box.W-1)*scale, float64(box.H-1)*scale, 1.5*scale, "1234", "FD")
		if white {
			d.f.SetTextColor(255, 255, 255)
		}
		ty := y + float64(doc.BoxTitleY)*scale
		d.f.SetFont(sans, "", pt)
		d.f.Text(x+float64(doc.BoxPad)*scale, ty, pdfSafe(box.Title))
		if pc := box.PercentOf(bx.Whole); pc != "" {
			label := pdfSafe(pc)
			d.f.SetFont(sans, "B", pt)
			d.f.Text(x+float64(box.W-doc.BoxPad)*scale-d.f.GetStringWidth(label), ty, label)
		}
		d.f.SetTextColor(0, 0, 0)
	}
	d.f.SetDrawColor(0, 0, 0)
	d.f.SetLineWidth(0.2)
	d.y += h + 4
	for _, l := range capLines {
		d.drawLine(l, pdfMargin, d.y+lineHeight(capFont)*0.75, capFont)
		d.y += lineHeight(capFont)
	}
	d.y += lineHeight(capFont) * 0.7
}
