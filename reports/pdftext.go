package reports

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"memsym/doc"
)

// font is a face and a size, in points.
type font struct {
	family, style string
	size          float64
}

// The faces the PDF uses.
const (
	sans = "dejavu"
	mono = "dejavumono"
)

// piece is a run of text in one font.
type piece struct {
	text string
	font font
}

// word is a run of pieces with no line break inside; space says a space
// comes before it when it does not start a line.
type word struct {
	pieces []piece
	space  bool
}

// superscripts maps display notation's superscript characters (a
// formula's exponents, which the PDF draws as they are) to the digits
// they raise.
var superscripts = map[rune]rune{
	'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-',
}

// words splits inline runs into words in base's font: breaks fall at the
// spaces of text and, unless keepFormulas, before a formula's + and −
// signs; numbers and code never break. A formula's and a Math's variables
// are set in italics, their exponents raised.
func words(ins []doc.Inline, base font, keepFormulas bool) []word {
	var out []word
	cur := word{}
	pending := false // a space was seen since the current word began
	flush := func() {
		if len(cur.pieces) > 0 {
			out = append(out, cur)
		}
		cur = word{space: pending}
		pending = false
	}
	add := func(p piece) {
		p.text = pdfSafe(p.text)
		if p.text == "" {
			return
		}
		if pending {
			flush()
		}
		cur.pieces = append(cur.pieces, p)
	}
	text := func(s string, f font) {
		parts := strings.Split(s, " ")
		for i, part := range parts {
			if i > 0 && unitAfterNumber(parts[i-1], part) {
				// "889 MiB" is one word: a line never breaks inside it.
				add(piece{text: " " + part, font: f})
				continue
			}
			if i > 0 {
				pending = true
			}
			add(piece{text: part, font: f})
		}
	}
	italic := font{base.family, "I", base.size}
	if base.style == "B" {
		italic = base
	}
	for _, in := range ins {
		switch in := in.(type) {
		case doc.Text:
			text(string(in), base)
		case doc.Number:
			add(piece{text: doc.NumberText(in, doc.ThinSpace), font: base})
		case doc.Code:
			add(piece{text: string(in), font: font{mono, "", base.size * 0.95}})
		case doc.Formula:
			// Its coefficients' digits grouped by thin spaces, as the
			// prose's numbers are: a line breaks at a + or a −, never
			// inside a coefficient.
			for i, tok := range strings.Split(doc.FormulaText(in.Poly, doc.ThinSpace), " ") {
				if i > 0 {
					if !keepFormulas && (tok == "+" || tok == "−") {
						pending = true
					} else {
						add(piece{text: " ", font: base})
					}
				}
				for _, p := range formulaPieces(tok, base, italic) {
					add(p)
				}
			}
		case doc.Math:
			for _, mp := range mathPieces(in, doc.ThinSpace) {
				f := base
				if mp.variable {
					f = italic
				}
				for i, part := range strings.Split(mp.text, " ") {
					if i > 0 {
						add(piece{text: " ", font: base})
					}
					for _, p := range formulaPieces(part, f, f) {
						add(p)
					}
				}
			}
		}
	}
	flush()
	return out
}

// formulaPieces splits a formula's token into pieces: its letters in
// letters' font (italics for variables), the rest, exponents among it, in
// base: "T²" is an italic "T" and a "²". An exponent is drawn as the
// fonts' superscript characters, not as digits raised, so that a reader
// who copies a formula out of the PDF (or pdftotext) gets "T²", not a "T"
// with a "2" on the line above.
func formulaPieces(tok string, base, letters font) []piece {
	var out []piece
	var run strings.Builder
	var runFont font
	for _, r := range tok {
		f := base
		if unicode.IsLetter(r) || r == '_' {
			f = letters
		}
		if run.Len() > 0 && f != runFont {
			out = append(out, piece{text: run.String(), font: runFont})
			run.Reset()
		}
		runFont = f
		run.WriteRune(r)
	}
	if run.Len() > 0 {
		out = append(out, piece{text: run.String(), font: runFont})
	}
	return out
}

// pdfSafe replaces what the PDF's fonts cannot hold by a question mark:
// characters beyond the Basic Multilingual Plane (which the PDF library
// cannot map), control characters and line or paragraph separators.
func pdfSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r > 0xFFFF || unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}

// measurer gives text widths in millimetres.
type measurer interface {
	width(text string, f font) float64
}

// wordWidth is w's width without the space before it.
func wordWidth(m measurer, w word) float64 {
	var sum float64
	for _, p := range w.pieces {
		sum += m.width(p.text, p.font)
	}
	return sum
}

// textLines is lineBreak for running text, headings and captions: a word
// wider than the line (a name of 500 characters) is cut to fit rather than
// run past the page's edge.
func textLines(m measurer, ws []word, width float64, base font) [][]word {
	return lineBreak(m, cutWords(m, ws, width), width, base)
}

// lineBreak fills lines of at most width greedily; a word wider than the
// line gets a line of its own.
func lineBreak(m measurer, ws []word, width float64, base font) [][]word {
	var lines [][]word
	var line []word
	var used float64
	space := m.width(" ", base)
	for _, w := range ws {
		ww := wordWidth(m, w)
		gap := 0.0
		if len(line) > 0 && w.space {
			gap = space
		}
		if len(line) > 0 && used+gap+ww > width+1e-6 {
			lines = append(lines, line)
			line, used, gap = nil, 0, 0
		}
		line = append(line, w)
		used += gap + ww
	}
	if len(line) > 0 {
		lines = append(lines, line)
	}
	return lines
}

// lineWidth is a line's width, spaces included.
func lineWidth(m measurer, line []word, base font) float64 {
	var sum float64
	for i, w := range line {
		if i > 0 && w.space {
			sum += m.width(" ", base)
		}
		sum += wordWidth(m, w)
	}
	return sum
}

// unitAfterNumber reports whether word is a unit of bytes ("MiB", "GB)",
// "KiB,") that follows the number prev ends with.
func unitAfterNumber(prev, word string) bool {
	if prev == "" || prev[len(prev)-1] < '0' || prev[len(prev)-1] > '9' {
		return false
	}
	switch strings.TrimRight(word, "),;.") {
	case "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "kB", "MB", "GB", "TB", "PB", "EB":
		return true
	}
	return false
}
