package reports

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"memsym/doc"
)

func init() { Register(pdfRenderer{}) }

// pdfRenderer writes STEM.pdf: A4 pages with the DejaVu fonts embedded, a
// numbered chapter with an outline, tables ruled lightly, figures drawn as
// vector lines and formulas with italic variables and exponents set as
// superscript characters (T², which pdftotext and a copy read as such).
// Two renders of a document are byte-identical.
type pdfRenderer struct{}

func (pdfRenderer) Name() string { return "pdf" }

func (pdfRenderer) Render(d *doc.Document, dir string, o Options) ([]string, error) {
	b, err := pdfBytes(d, o)
	if err != nil {
		return nil, err
	}
	return writeAll(dir, files{o.stem() + ".pdf": b})
}

// pdfEpoch is every PDF's creation date, so that output depends on the
// document alone.
var pdfEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Page layout, in millimetres, and the body's font.
const (
	pdfMargin  = 20.0
	pdfFooter  = 14.0
	pdfBodyPt  = 10.0
	pdfLineGap = 1.45 // line height as a multiple of the font size
	ptToMM     = 25.4 / 72
)

// pdfDoc is a PDF being written top to bottom: y is where the next block
// goes on the current page.
type pdfDoc struct {
	f       *fpdf.Fpdf
	chapter *doc.Document
	y       float64
	w, h    float64
	tables  int
	figures int
}

func (d *pdfDoc) width(text string, f font) float64 {
	d.f.SetFont(f.family, f.style, f.size)
	return d.f.GetStringWidth(text)
}

// pdfBytes renders chapter as a PDF.
func pdfBytes(chapter *doc.Document, o Options) ([]byte, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCreationDate(pdfEpoch)
	f.SetModificationDate(pdfEpoch)
	f.SetCatalogSort(true)
	f.SetCompression(true)
	f.SetTitle(pdfSafe(chapterTitle(chapter)), true)
	f.SetCreator("memsym", false)
	f.SetProducer(writtenBy, false)
	f.AddUTF8FontFromBytes(sans, "", bytes.Clone(dejaVuSans)) // fpdf changes the bytes it is given
	f.AddUTF8FontFromBytes(sans, "B", bytes.Clone(dejaVuSansBold))
	f.AddUTF8FontFromBytes(sans, "I", bytes.Clone(dejaVuSansOblique))
	f.AddUTF8FontFromBytes(mono, "", bytes.Clone(dejaVuSansMono))
	f.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	f.SetAutoPageBreak(false, pdfFooter)
	f.SetFooterFunc(func() {
		f.SetFont(sans, "", 8)
		f.SetTextColor(110, 110, 110)
		w, h := f.GetPageSize()
		title, page := []rune(pdfSafe(chapterTitle(chapter))), fmt.Sprintf(" · page %d", f.PageNo())
		label := string(title) + page
		for len(title) > 0 && f.GetStringWidth(label) > w-2*pdfMargin {
			// A title too long for the line, cut short.
			title = title[:len(title)-1]
			label = string(title) + "…" + page
		}
		f.Text((w-f.GetStringWidth(label))/2, h-pdfFooter/2, label)
		f.SetTextColor(0, 0, 0)
	})
	d := &pdfDoc{f: f, chapter: chapter}
	d.w, d.h = f.GetPageSize()
	d.newPage()
	// Each heading is kept with what follows it: the chapter's with the
	// first section's heading and the start of its first block, a
	// section's with the start of its first block. above is the height of
	// the headings just written, which the next block is kept with.
	sections := make([]pdfHeading, len(chapter.Sections))
	for i := range chapter.Sections {
		sections[i] = pdfHeading{sectionTitle(chapter, i), 1, 13, 5}
	}
	above := d.heading(pdfHeading{chapterTitle(chapter), 0, 17, 6}, 0, func(above float64) float64 {
		if len(sections) == 0 {
			return 0
		}
		h := d.headingHeight(sections[0])
		return h + d.keep(chapter.Sections[0].Blocks, above+h)
	})
	for i, s := range chapter.Sections {
		if i > 0 {
			above = 0
		}
		above += d.heading(sections[i], above, func(above float64) float64 { return d.keep(s.Blocks, above) })
		for k, b := range s.Blocks {
			var next doc.Block
			if k+1 < len(s.Blocks) {
				next = s.Blocks[k+1]
			}
			switch b := b.(type) {
			case *doc.Paragraph:
				d.paragraphBlock(b, next, above)
			case *doc.List:
				for _, item := range b.Items {
					d.bullet(item)
				}
				d.y += 1.5
			case *doc.Table:
				d.table(b, above)
			case *doc.Figure:
				d.figure(b, above)
			}
			above = 0
		}
	}
	if err := f.Error(); err != nil {
		return nil, fmt.Errorf("%s.pdf: %w", o.stem(), err)
	}
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		return nil, fmt.Errorf("%s.pdf: %w", o.stem(), err)
	}
	return out.Bytes(), nil
}

func (d *pdfDoc) newPage() {
	d.f.AddPage()
	d.y = pdfMargin
}

// textWidth is the width between the margins.
func (d *pdfDoc) textWidth() float64 { return d.w - 2*pdfMargin }

// bottom is the lowest y a block may reach on a page.
func (d *pdfDoc) bottom() float64 { return d.h - pdfMargin - pdfFooter/2 }

// usable is the height a page holds, from its top margin to bottom().
func (d *pdfDoc) usable() float64 { return d.bottom() - pdfMargin }

// room starts a new page unless h millimetres fit on this one or nothing
// is on this one yet (h is more than a page holds: a new page would not
// help).
func (d *pdfDoc) room(h float64) {
	if d.y+h > d.bottom() && d.y > pdfMargin {
		d.newPage()
	}
}

// lineHeight is the height of a line of text in f.
func lineHeight(f font) float64 { return f.size * ptToMM * pdfLineGap }

// pdfHeading is a heading: its text, its level in the outline, its size
// in points and the space after it, in millimetres.
type pdfHeading struct {
	text  string
	level int
	size  float64
	after float64
}

func (h pdfHeading) font() font { return font{sans, "B", h.size} }

// headingLines is h's text broken into lines.
func (d *pdfDoc) headingLines(h pdfHeading) [][]word {
	return textLines(d, words([]doc.Inline{doc.Text(h.text)}, h.font(), false), d.textWidth(), h.font())
}

// headingHeight is the height h takes, the space after it included.
func (d *pdfDoc) headingHeight(h pdfHeading) float64 {
	return float64(len(d.headingLines(h)))*lineHeight(h.font()) + h.after
}

// heading writes h in bold, marks it in the outline and returns its
// height. It is kept with the start of what follows: it starts a new page
// unless it fits on this one with keep(a) millimetres below it, where a
// is the height of the headings it is written under (above) and its own,
// which keep's block goes below too.
func (d *pdfDoc) heading(h pdfHeading, above float64, keep func(above float64) float64) float64 {
	f := h.font()
	lh := lineHeight(f)
	lines := d.headingLines(h)
	height := float64(len(lines))*lh + h.after
	d.room(height + keep(above+height))
	d.y += 2
	d.f.SetFont(sans, "B", h.size)
	d.f.Bookmark(pdfSafe(h.text), h.level, d.y)
	for _, l := range lines {
		d.drawLine(l, pdfMargin, d.y+lh*0.75, f)
		d.y += lh
	}
	d.y += h.after - 2
	return height
}

// keepLines is how many of a paragraph's or a list item's first lines a
// heading above it keeps on its page.
const keepLines = 2

// keep is the height the first of blocks needs on the page it starts on,
// written below above millimetres of headings that must stay on its page:
// the part of it it keeps together at its top (a table whole or its
// caption, header and first rows, a figure whole, a paragraph's or a
// list's first lines), as each block itself asks room for it.
func (d *pdfDoc) keep(blocks []doc.Block, above float64) float64 {
	if len(blocks) == 0 {
		return 0
	}
	var next doc.Block
	if len(blocks) > 1 {
		next = blocks[1]
	}
	switch b := blocks[0].(type) {
	case *doc.Paragraph:
		return d.paragraphKeep(b, next, above)
	case *doc.List:
		if len(b.Items) == 0 {
			return 0
		}
		f := font{sans, "", pdfBodyPt}
		n := len(textLines(d, words(b.Items[0], f, false), d.textWidth()-bulletIndent, f))
		return float64(min(n, keepLines)) * lineHeight(f)
	case *doc.Table:
		return d.layTable(b).keep(d, above)
	case *doc.Figure:
		return d.figureHeight(b, above)
	}
	return 0
}

// paragraphBlock writes a paragraph; one that announces the block after it
// (ending with a colon) is kept with that block's first lines.
func (d *pdfDoc) paragraphBlock(p *doc.Paragraph, next doc.Block, above float64) {
	if next != nil && endsWithColon(p.Inlines) {
		d.room(d.paragraphKeep(p, next, above))
	}
	d.paragraph(p.Inlines, font{sans, "", pdfBodyPt}, 0)
}

// paragraphKeep is the height paragraph p needs on the page it starts on,
// below above millimetres of headings: its first keepLines lines, or,
// when it announces the block after it (ending with a colon), all its
// lines and three more for that block's start, as long as these fit on a
// page below the headings.
func (d *pdfDoc) paragraphKeep(p *doc.Paragraph, next doc.Block, above float64) float64 {
	f := font{sans, "", pdfBodyPt}
	n := len(textLines(d, words(p.Inlines, f, false), d.textWidth(), f))
	if next != nil && endsWithColon(p.Inlines) {
		if h := float64(n+3) * lineHeight(f); above+h <= d.usable() {
			return h
		}
	}
	return float64(min(n, keepLines)) * lineHeight(f)
}

// endsWithColon reports whether inline runs end with a colon.
func endsWithColon(ins []doc.Inline) bool {
	if len(ins) == 0 {
		return false
	}
	t, ok := ins[len(ins)-1].(doc.Text)
	return ok && strings.HasSuffix(strings.TrimSpace(string(t)), ":")
}

// paragraph writes inline runs as a paragraph indented by indent.
func (d *pdfDoc) paragraph(ins []doc.Inline, f font, indent float64) {
	lh := lineHeight(f)
	for _, l := range textLines(d, words(ins, f, false), d.textWidth()-indent, f) {
		d.room(lh)
		d.drawLine(l, pdfMargin+indent, d.y+lh*0.75, f)
		d.y += lh
	}
	d.y += lh * 0.5
}

// bulletIndent is a list item's text's indent, in millimetres.
const bulletIndent = 7.0

// bullet writes a list item.
func (d *pdfDoc) bullet(item []doc.Inline) {
	f := font{sans, "", pdfBodyPt}
	lh := lineHeight(f)
	d.room(lh)
	d.f.SetFont(sans, "", pdfBodyPt)
	d.f.Text(pdfMargin+2, d.y+lh*0.75, "•")
	d.paragraph(item, f, bulletIndent)
	d.y -= lh * 0.35
}

// drawLine draws a line of words starting at x on the baseline y.
func (d *pdfDoc) drawLine(line []word, x, y float64, base font) {
	space := d.width(" ", base)
	for i, w := range line {
		if i > 0 && w.space {
			x += space
		}
		for _, p := range w.pieces {
			d.f.SetFont(p.font.family, p.font.style, p.font.size)
			d.f.Text(x, y, p.text)
			x += d.f.GetStringWidth(p.text)
		}
	}
}
