package reports

import (
	"bytes"
	"fmt"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"memsym/explain"
)

func init() { Register(pdfRenderer{}) }

// pdfRenderer writes chapter13.pdf: A4 pages with the DejaVu fonts
// embedded, tables ruled, figures drawn as vector lines and formulas with
// raised exponents. Two renders of a document are byte-identical.
type pdfRenderer struct{}

func (pdfRenderer) Name() string { return "pdf" }

func (pdfRenderer) Render(doc *explain.Document, dir string) ([]string, error) {
	b, err := pdfBytes(doc)
	if err != nil {
		return nil, err
	}
	return writeAll(dir, files{"chapter13.pdf": b})
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
	y       float64
	w, h    float64
	figures int
}

func (d *pdfDoc) width(text string, f font) float64 {
	d.f.SetFont(f.family, f.style, f.size)
	return d.f.GetStringWidth(text)
}

// pdfBytes renders doc as a PDF.
func pdfBytes(doc *explain.Document) ([]byte, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCreationDate(pdfEpoch)
	f.SetModificationDate(pdfEpoch)
	f.SetCatalogSort(true)
	f.SetCompression(true)
	f.SetTitle(pdfSafe(doc.Title), true)
	f.SetCreator("memsym", true)
	f.SetProducer("memsym", true)
	f.AddUTF8FontFromBytes(sans, "", bytes.Clone(dejaVuSans)) // fpdf changes the bytes it is given
	f.AddUTF8FontFromBytes(sans, "B", bytes.Clone(dejaVuSansBold))
	f.AddUTF8FontFromBytes(mono, "", bytes.Clone(dejaVuSansMono))
	f.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	f.SetAutoPageBreak(false, pdfFooter)
	f.SetFooterFunc(func() {
		f.SetFont(sans, "", 8)
		f.SetTextColor(110, 110, 110)
		label := pdfSafe(fmt.Sprintf("%s · page %d", doc.Title, f.PageNo()))
		w, h := f.GetPageSize()
		f.Text((w-f.GetStringWidth(label))/2, h-pdfFooter/2, label)
		f.SetTextColor(0, 0, 0)
	})
	d := &pdfDoc{f: f}
	d.w, d.h = f.GetPageSize()
	d.newPage()
	d.heading(doc.Title, 17, 6)
	for _, s := range doc.Sections {
		d.heading(s.Title, 13, 5)
		for _, b := range s.Blocks {
			switch b := b.(type) {
			case *explain.Paragraph:
				d.paragraph(b.Inlines, font{sans, "", pdfBodyPt}, 0)
			case *explain.List:
				for _, item := range b.Items {
					d.bullet(item)
				}
				d.y += 1.5
			case *explain.Table:
				d.table(b)
			case *explain.Figure:
				d.figure(b)
			}
		}
	}
	if err := f.Error(); err != nil {
		return nil, fmt.Errorf("chapter13.pdf: %w", err)
	}
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		return nil, fmt.Errorf("chapter13.pdf: %w", err)
	}
	return out.Bytes(), nil
}

func (d *pdfDoc) newPage() {
	d.f.AddPage()
	d.y = pdfMargin
}

// textWidth is the width between the margins.
func (d *pdfDoc) textWidth() float64 { return d.w - 2*pdfMargin }

// room starts a new page unless h millimetres fit on this one.
func (d *pdfDoc) room(h float64) {
	if d.y+h > d.h-pdfMargin-pdfFooter/2 {
		d.newPage()
	}
}

// lineHeight is the height of a line of text in f.
func lineHeight(f font) float64 { return f.size * ptToMM * pdfLineGap }

// heading writes a heading in bold, kept with the start of what follows.
func (d *pdfDoc) heading(text string, size, after float64) {
	f := font{sans, "B", size}
	lh := lineHeight(f)
	d.room(lh + 25)
	d.y += 2
	lines := lineBreak(d, words([]explain.Inline{explain.Text(text)}, f, false), d.textWidth(), f)
	for _, l := range lines {
		d.drawLine(l, pdfMargin, d.y+lh*0.75, f)
		d.y += lh
	}
	d.y += after - 2
}

// paragraph writes inline runs as a paragraph indented by indent.
func (d *pdfDoc) paragraph(ins []explain.Inline, f font, indent float64) {
	lh := lineHeight(f)
	for _, l := range lineBreak(d, words(ins, f, false), d.textWidth()-indent, f) {
		d.room(lh)
		d.drawLine(l, pdfMargin+indent, d.y+lh*0.75, f)
		d.y += lh
	}
	d.y += lh * 0.5
}

// bullet writes a list item.
func (d *pdfDoc) bullet(item []explain.Inline) {
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
