package reports

import "memsym/explain"

// Tables' font and cell padding, in millimetres.
const (
	tablePt   = 9.0
	cellPadX  = 1.8
	cellPadY  = 1.0
	tableRule = 0.2
)

// pdfRow is a table row laid out: each cell's lines and the row's height.
type pdfRow struct {
	lines  [][][]word
	height float64
	font   font
	header bool
}

// table draws t ruled, numbers right-aligned. A short table is kept on one
// page; a long one repeats its header on each page it runs over.
func (d *pdfDoc) table(t *explain.Table) {
	body, bold := font{sans, "", tablePt}, font{sans, "B", tablePt}
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	// A formula that fits in half the width is kept on one line.
	keep := func(c explain.Cell, f font) bool {
		return lineWidth(d, words(c, f, true), f) <= d.textWidth()/2
	}
	cellWords := func(cells []explain.Cell, f font) [][]word {
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
	widths := d.columnWidths(all, cols, bold)
	lh := lineHeight(body)
	rows := make([]pdfRow, len(all))
	total := 0.0
	for k, cells := range all {
		r := pdfRow{lines: make([][][]word, cols), font: body, header: k == 0}
		if r.header {
			r.font = bold
		}
		n := 1
		for i, ws := range cells {
			r.lines[i] = lineBreak(d, ws, widths[i]-2*cellPadX, r.font)
			n = max(n, len(r.lines[i]))
		}
		r.height = float64(n)*lh + 2*cellPadY
		rows[k] = r
		total += r.height
	}
	usable := d.h - 2*pdfMargin - pdfFooter/2
	if total <= usable*0.4 {
		d.room(total)
	} else if len(rows) > 1 {
		d.room(rows[0].height + rows[1].height)
	}
	align := func(i int) explain.Align {
		if i < len(t.Align) {
			return t.Align[i]
		}
		return explain.AlignLeft
	}
	for k, r := range rows {
		if k > 0 && d.y+r.height > d.h-pdfMargin-pdfFooter/2 {
			d.newPage()
			d.tableRow(rows[0], widths, align, lh)
		}
		d.tableRow(r, widths, align, lh)
	}
	d.y += lineHeight(font{sans, "", pdfBodyPt}) * 0.6
}

// tableRow draws one row at the current position.
func (d *pdfDoc) tableRow(r pdfRow, widths []float64, align func(int) explain.Align, lh float64) {
	x := pdfMargin
	d.f.SetLineWidth(tableRule)
	d.f.SetDrawColor(150, 150, 150)
	d.f.SetFillColor(238, 238, 238)
	for i, lines := range r.lines {
		style := "D"
		if r.header {
			style = "FD"
		}
		d.f.Rect(x, d.y, widths[i], r.height, style)
		for j, l := range lines {
			lx := x + cellPadX
			if align(i) == explain.AlignRight {
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
func (d *pdfDoc) columnWidths(rows [][][]word, cols int, f font) []float64 {
	natural := make([]float64, cols)
	least := make([]float64, cols)
	for _, r := range rows {
		for i, ws := range r {
			natural[i] = max(natural[i], lineWidth(d, ws, f)+2*cellPadX)
			for _, w := range ws {
				least[i] = max(least[i], wordWidth(d, w)+2*cellPadX)
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
