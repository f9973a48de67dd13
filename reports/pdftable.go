package reports

import (
	"fmt"

	"memsym/doc"
)

// Tables' font, cell padding and rules, in millimetres.
const (
	tablePt    = 9.0
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

// table draws t with its caption above it, ruled as a book sets a table:
// a rule above and below, a thin one under the header and above the foot,
// none between columns. A table that fits on a page is kept whole; a
// longer one breaks with at least minRows rows on each side, its header
// repeated, and its caption is never left alone at a page's foot.
func (d *pdfDoc) table(t *doc.Table) {
	d.tables++
	body, bold := font{sans, "", tablePt}, font{sans, "B", tablePt}
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	// A formula that fits in half the width is kept on one line.
	keep := func(c doc.Cell, f font) bool {
		return lineWidth(d, words(c, f, true), f) <= d.textWidth()/2
	}
	indentOf := func(k int) float64 {
		if k < len(t.Indent) {
			return float64(t.Indent[k]) * indentStep
		}
		return 0
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
	indents := []float64{0}
	for k, r := range t.Rows {
		all = append(all, cellWords(r, body))
		indents = append(indents, indentOf(k))
	}
	for _, r := range t.Foot {
		all = append(all, cellWords(r, bold))
		indents = append(indents, 0)
	}
	widths := d.columnWidths(all, indents, cols, bold)
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
			r.lines[i] = lineBreak(d, ws, w, r.font)
			n = max(n, len(r.lines[i]))
		}
		r.height = float64(n)*lh + 2*cellPadY
		rows[k] = r
	}
	var caption [][]word
	capFont := font{sans, "", 9}
	if len(t.Caption) > 0 {
		label := []doc.Inline{doc.Text(fmt.Sprintf("Table %s. ", numbered(d.chapter, d.tables)))}
		caption = lineBreak(d, words(append(label, t.Caption...), capFont, false), d.textWidth(), capFont)
	}
	capHeight := float64(len(caption))*lineHeight(capFont) + 1
	total := capHeight
	for _, r := range rows {
		total += r.height
	}
	usable := d.bottom() - pdfMargin
	if total <= usable {
		d.room(total)
	} else {
		head := capHeight + rows[0].height
		for k := 1; k <= minRows && k < len(rows); k++ {
			head += rows[k].height
		}
		d.room(head)
	}
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

// columnWidths sizes the columns: each as wide as its widest line when
// the table fits between the margins; otherwise each at least as wide as
// its widest word, the room left shared out by how much each would take.
// A row's indent widens its first cell.
func (d *pdfDoc) columnWidths(rows [][][]word, indents []float64, cols int, f font) []float64 {
	natural := make([]float64, cols)
	least := make([]float64, cols)
	for k, r := range rows {
		for i, ws := range r {
			extra := 2 * cellPadX
			if i == 0 {
				extra += indents[k]
			}
			natural[i] = max(natural[i], lineWidth(d, ws, f)+extra)
			for _, w := range ws {
				least[i] = max(least[i], wordWidth(d, w)+extra)
			}
		}
	}
	avail := d.textWidth()
	var sumNatural, sumLeast float64
	for i := range natural {
		natural[i] = max(natural[i], least[i], 6)
		sumNatural += natural[i]
		sumLeast += least[i]
	}
	if sumNatural <= avail {
		return natural
	}
	widths := make([]float64, cols)
	spare := max(avail-sumLeast, 0)
	for i := range widths {
		widths[i] = least[i] + spare*(natural[i]-least[i])/(sumNatural-sumLeast)
	}
	return widths
}
