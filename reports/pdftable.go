package reports

import (
	"fmt"

	"memsym/doc"
)

// Tables' cell padding and rules, in millimetres.
const (
	cellPadX   = 1.8
	cellPadY   = 0.9
	thickRule  = 0.35
	thinRule   = 0.2
	indentStep = 3.5
	// minRows is the fewest rows a table leaves on a page, before or after
	// a page break.
	minRows = 3
)

// pdfRow is a table row laid out: each cell's lines and the row's height.
type pdfRow struct {
	lines  [][][]word
	height float64
	font   font
	indent float64
}

// pdfTable is a table laid out: its rows, its columns' widths, its
// caption's lines and its height, caption and rows.
type pdfTable struct {
	rows      []pdfRow
	widths    []float64
	lh        float64
	caption   [][]word
	capFont   font
	capHeight float64
	total     float64
}

// table draws t with its caption above it, ruled as a book sets a table:
// a rule above and below, a thin one under the header and above the foot,
// none between columns. It is set to fit between the margins (fitTable).
// A table that fits on a page below the above millimetres of headings
// kept with it is kept whole; a longer one breaks with at least minRows
// rows on each side, its header repeated, and its caption is never left
// alone at a page's foot.
func (d *pdfDoc) table(t *doc.Table, above float64) {
	tb := d.layTable(t)
	d.room(tb.keep(d, above))
	d.tables++
	rows, widths, lh, caption, capFont := tb.rows, tb.widths, tb.lh, tb.caption, tb.capFont
	for _, l := range caption {
		d.drawLine(l, pdfMargin, d.y+lineHeight(capFont)*0.75, capFont)
		d.y += lineHeight(capFont)
	}
	d.y += 1
	width := 0.0
	for _, w := range widths {
		width += w
	}
	header := func() {
		d.rule(width, thickRule)
		d.tableRow(rows[0], widths, t.Align, lh)
		d.rule(width, thinRule)
	}
	headerH := rows[0].height + (thickRule+thinRule)/2
	foot := 1 + len(t.Rows)
	footH := 0.0
	for _, r := range rows[foot:] {
		footH += r.height + thinRule/2
	}
	chunks := d.tableChunks(rows[:foot], d.y+headerH, pdfMargin+headerH, footH)
	for i, chunk := range chunks {
		if i > 0 {
			d.newPage()
		}
		header()
		for _, k := range chunk {
			d.tableRow(rows[k], widths, t.Align, lh)
		}
		if i == len(chunks)-1 && foot < len(rows) {
			d.rule(width, thinRule)
			for _, r := range rows[foot:] {
				d.tableRow(r, widths, t.Align, lh)
			}
		}
		d.rule(width, thickRule)
	}
	d.y += lineHeight(font{sans, "", pdfBodyPt}) * 0.7
}

// layTable lays t out as table draws it, numbered as the next table.
func (d *pdfDoc) layTable(t *doc.Table) pdfTable {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	indents := rowIndents(t)
	s, all, widths := d.fitTable(t, cols, indents)
	body, bold := font{sans, "", s.size}, font{sans, "B", s.size}
	lh := lineHeight(body)
	rows := make([]pdfRow, len(all))
	for k, cells := range all {
		r := pdfRow{lines: make([][][]word, cols), font: body, indent: indents[k]}
		if k == 0 || k > len(t.Rows) {
			r.font = bold
		}
		n := 1
		for i, ws := range cells {
			w := widths[i] - 2*cellPadX
			if i == 0 {
				w -= r.indent
			}
			if s.cut {
				ws = cutWords(d, ws, w)
			}
			r.lines[i] = lineBreak(d, ws, w, r.font)
			n = max(n, len(r.lines[i]))
		}
		r.height = float64(n)*lh + 2*cellPadY
		rows[k] = r
	}
	tb := pdfTable{rows: rows, widths: widths, lh: lh, capFont: font{sans, "", 9}}
	if len(t.Caption) > 0 {
		label := []doc.Inline{doc.Text(fmt.Sprintf("Table %s. ", numbered(d.chapter, d.tables+1)))}
		tb.caption = textLines(d, words(append(label, t.Caption...), tb.capFont, false), d.textWidth(), tb.capFont)
	}
	tb.capHeight = float64(len(tb.caption))*lineHeight(tb.capFont) + 1
	tb.total = tb.capHeight
	for _, r := range rows {
		tb.total += r.height
	}
	return tb
}

// keep is the height tb needs on the page it starts on, below above
// millimetres of headings kept with it: all of it when it fits on a page
// below them, or else its caption, its header and its first minRows rows.
func (tb pdfTable) keep(d *pdfDoc, above float64) float64 {
	if above+tb.total <= d.usable() {
		return tb.total
	}
	head := tb.capHeight + tb.rows[0].height
	for k := 1; k <= minRows && k < len(tb.rows); k++ {
		head += tb.rows[k].height
	}
	return head
}

// tableWords splits t's cells into words as s sets them: the header's and
// the foot's in bold, the others' in the body's face. Unless s breaks
// every formula, a formula that fits in half the width is kept on one line.
func (d *pdfDoc) tableWords(t *doc.Table, cols int, s tableSetting) [][][]word {
	body, bold := font{sans, "", s.size}, font{sans, "B", s.size}
	keep := func(c doc.Cell, f font) bool {
		return !s.breakFormulas && lineWidth(d, words(c, f, true), f) <= d.textWidth()/2
	}
	cellWords := func(cells []doc.Cell, f font) [][]word {
		out := make([][]word, cols)
		for i := range out {
			if i < len(cells) {
				out[i] = words(cells[i], f, keep(cells[i], f))
			}
		}
		return out
	}
	all := [][][]word{cellWords(t.Header, bold)}
	for _, r := range t.Rows {
		all = append(all, cellWords(r, body))
	}
	for _, r := range t.Foot {
		all = append(all, cellWords(r, bold))
	}
	return all
}

// rowIndents gives each row's indent, in millimetres: the header's, the
// body rows' and the foot's, in order.
func rowIndents(t *doc.Table) []float64 {
	indents := make([]float64, 1+len(t.Rows)+len(t.Foot))
	for k := range t.Rows {
		if k < len(t.Indent) {
			indents[1+k] = float64(t.Indent[k]) * indentStep
		}
	}
	return indents
}

// tableChunks splits a table's body rows (rows[1:]) into pages: as many as
// fit on each, from first on the first page and from top on the next ones,
// the last page with room for footH more; then rows move from a page to
// the next until that holds at least minRows, where the page before keeps
// minRows of its own.
func (d *pdfDoc) tableChunks(rows []pdfRow, first, top, footH float64) [][]int {
	limit := d.bottom() - thickRule
	var chunks [][]int
	var cur []int
	y := first
	for k := 1; k < len(rows); k++ {
		if len(cur) > 0 && y+rows[k].height > limit {
			chunks = append(chunks, cur)
			cur, y = nil, top
		}
		cur = append(cur, k)
		y += rows[k].height
	}
	if len(cur) > 0 && y+footH > limit && len(chunks) > 0 {
		// The foot does not fit after the last rows: take one more row on
		// with it.
		prev := chunks[len(chunks)-1]
		chunks[len(chunks)-1], cur = prev[:len(prev)-1], append([]int{prev[len(prev)-1]}, cur...)
	}
	chunks = append(chunks, cur)
	for i := len(chunks) - 1; i > 0; i-- {
		for len(chunks[i]) < minRows && len(chunks[i-1]) > minRows {
			prev := chunks[i-1]
			chunks[i-1], chunks[i] = prev[:len(prev)-1], append([]int{prev[len(prev)-1]}, chunks[i]...)
		}
	}
	var out [][]int
	for _, c := range chunks {
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = [][]int{nil}
	}
	return out
}

// rule draws a horizontal rule of the table's width at the current y.
func (d *pdfDoc) rule(width, thickness float64) {
	d.f.SetLineWidth(thickness)
	d.f.SetDrawColor(60, 60, 60)
	d.f.Line(pdfMargin, d.y, pdfMargin+width, d.y)
	d.y += thickness / 2
}

// tableRow draws one row at the current position.
func (d *pdfDoc) tableRow(r pdfRow, widths []float64, aligns []doc.Align, lh float64) {
	x := pdfMargin
	for i, lines := range r.lines {
		for j, l := range lines {
			lx := x + cellPadX
			if i == 0 {
				lx += r.indent
			}
			if i < len(aligns) && aligns[i] == doc.AlignRight {
				lx = x + widths[i] - cellPadX - lineWidth(d, l, r.font)
			}
			d.drawLine(l, lx, d.y+cellPadY+float64(j)*lh+lh*0.75, r.font)
		}
		x += widths[i]
	}
	d.y += r.height
}
