package reports

import (
	"math"
	"slices"

	"memsym/doc"
)

// Tables' font sizes, in points: the usual one, and the smallest a table
// too wide for the page is shrunk to, half a point at a time.
const (
	tablePt    = 9.0
	minTablePt = 7.0
	shrinkPt   = 0.5
)

// tableSetting is one way to set a table: its font size, whether every
// formula may break before its + and − signs, and whether a word wider
// than its column is cut into pieces that fit.
type tableSetting struct {
	size          float64
	breakFormulas bool
	cut           bool
}

// tableSettings are the ways to set a table, the preferred first: as it
// is; with its formulas broken; then smaller, down to minTablePt; and at
// last with its widest words cut, which always fits (unless the table has
// so many columns that their padding alone is wider than the page).
var tableSettings = func() []tableSetting {
	out := []tableSetting{{size: tablePt}}
	for size := tablePt; size >= minTablePt; size -= shrinkPt {
		out = append(out, tableSetting{size: size, breakFormulas: true})
	}
	return append(out, tableSetting{size: minTablePt, breakFormulas: true, cut: true})
}()

// fitTable chooses how to set t's cols columns so that the table fits
// between the margins, as a typesetter would: the first of tableSettings
// whose columns fit, or else the last, which cuts words to fit. It returns
// that setting, the cells' words in it and the columns' widths.
func (d *pdfDoc) fitTable(t *doc.Table, cols int, indents []float64) (tableSetting, [][][]word, []float64) {
	var (
		s      tableSetting
		all    [][][]word
		widths []float64
	)
	for _, s = range tableSettings {
		all = d.tableWords(t, cols, s)
		var fits bool
		if widths, fits = d.columnWidths(all, indents, cols, font{sans, "B", s.size}); fits {
			break
		}
	}
	return s, all, widths
}

// columnWidths sizes the columns: each as wide as its widest line when
// the table fits between the margins; otherwise each at least as wide as
// its widest word, the room left shared out by how much each would take.
// A row's indent widens its first cell. When even the widest words do not
// fit, it reports so, and caps the widest columns (cappedWidths).
func (d *pdfDoc) columnWidths(rows [][][]word, indents []float64, cols int, f font) ([]float64, bool) {
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
		return natural, true
	}
	if sumLeast > avail+1e-6 {
		return cappedWidths(least, avail), false
	}
	widths := make([]float64, cols)
	spare := max(avail-sumLeast, 0)
	for i := range widths {
		widths[i] = least[i] + spare*(natural[i]-least[i])/(sumNatural-sumLeast)
	}
	return widths, true
}

// cappedWidths gives each column its least width, but no more than a cap
// chosen so that the widths sum to total: the narrow columns keep their
// words whole and the widest share what is left equally.
func cappedWidths(least []float64, total float64) []float64 {
	sorted := slices.Sorted(slices.Values(least))
	limit, rest := math.Inf(1), total
	for i, w := range sorted {
		if share := rest / float64(len(sorted)-i); w > share {
			limit = share
			break
		}
		rest -= w
	}
	widths := make([]float64, len(least))
	for i, w := range least {
		widths[i] = min(w, limit)
	}
	return widths
}

// cutWords cuts each of ws wider than width into pieces as wide as fit,
// each of at least one character; the pieces after the first follow it
// with no space between.
func cutWords(m measurer, ws []word, width float64) []word {
	var out []word
	for _, w := range ws {
		if wordWidth(m, w) <= width+1e-6 {
			out = append(out, w)
			continue
		}
		cur, used := word{space: w.space}, 0.0
		for _, p := range w.pieces {
			start := 0 // where the part of p in cur begins
			for i, r := range p.text {
				rw := m.width(string(r), p.font)
				if used+rw > width+1e-6 && used > 0 {
					if i > start {
						cur.pieces = append(cur.pieces, piece{p.text[start:i], p.font})
					}
					out = append(out, cur)
					cur, used, start = word{}, 0, i
				}
				used += rw
			}
			if start < len(p.text) {
				cur.pieces = append(cur.pieces, piece{p.text[start:], p.font})
			}
		}
		out = append(out, cur)
	}
	return out
}
