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
// vector lines and formulas with italic variables and raised exponents.
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
	d.heading(chapterTitle(chapter), 0, 17, 6)
	for i, s := range chapter.Sections {
		d.heading(sectionTitle(chapter, i), 1, 13, 5)
		for k, b := range s.Blocks {
			var next doc.Block
			if k+1 < len(s.Blocks) {
				next = s.Blocks[k+1]
			}
			switch b := b.(type) {
			case *doc.Paragraph:
				d.paragraphBlock(b, next)
			case *doc.List:
				for _, item := range b.Items {
					d.bullet(item)
				}
				d.y += 1.5
			case *doc.Table:
				d.table(b)
			case *doc.Figure:
				d.figure(b)
			}
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

// room starts a new page unless h millimetres fit on this one.
func (d *pdfDoc) room(h float64) {
	if d.y+h > d.bottom() {
		d.newPage()
	}
}

// lineHeight is the height of a line of text in f.
func lineHeight(f font) float64 { return f.size * ptToMM * pdfLineGap }

// heading writes a heading in bold, kept with the start of what follows,
// and marks it in the outline at level.
func (d *pdfDoc) heading(text string, level int, size, after float64) {
	f := font{sans, "B", size}
	lh := lineHeight(f)
	d.room(lh + 25)
	d.y += 2
	d.f.SetFont(sans, "B", size)
	d.f.Bookmark(pdfSafe(text), level, d.y)
	lines := textLines(d, words([]doc.Inline{doc.Text(text)}, f, false), d.textWidth(), f)
	for _, l := range lines {
		d.drawLine(l, pdfMargin, d.y+lh*0.75, f)
		d.y += lh
	}
	d.y += after - 2
}

// paragraphBlock writes a paragraph; one that announces the block after it
// (ending with a colon) is kept with that block's first lines.
func (d *pdfDoc) paragraphBlock(p *doc.Paragraph, next doc.Block) {
	f := font{sans, "", pdfBodyPt}
	if next != nil && endsWithColon(p.Inlines) {
		lines := textLines(d, words(p.Inlines, f, false), d.textWidth(), f)
		d.room(float64(len(lines)+3) * lineHeight(f))
	}
	d.paragraph(p.Inlines, f, 0)
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

// bullet writes a list item.
func (d *pdfDoc) bullet(item []doc.Inline) {
	f := font{sans, "", pdfBodyPt}
	lh := lineHeight(f)
	d.room(lh)
	d.f.SetFont(sans, "", pdfBodyPt)
	d.f.Text(pdfMargin+2, d.y+lh*0.75, "•")
	d.paragraph(item, f, 7)
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
			d.f.Text(x, y-p.rise, p.text)
			x += d.f.GetStringWidth(p.text)
		}
	}
}
