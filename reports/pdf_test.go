package reports

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/tooltest"
	"memsym/poly"
)

// Two renders of the same document must be byte-identical, and a different
// document must give a different file.
func TestPDFReproducible(t *testing.T) {
	a, err := pdfBytes(chapter(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pdfBytes(chapter(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of the same chapter differ")
	}
	in := input(t, "gpt-course")
	in.Point = nil
	c, err := pdfBytes(explain.Chapter(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Fatal("two different chapters render the same")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", a[:8])
	}
	if !bytes.Contains(a, []byte("/Producer ("+writtenBy+")")) {
		t.Errorf("the PDF does not say memsym wrote it")
	}
}

// plainSpaces turns every kind of space into a plain one and superscript
// digits into digits, as pdftotext gives a PDF's text.
func plainSpaces(s string) string { return strings.Map(plainRune, s) }

// plainPages is plainSpaces for pdftotext's output, its line and page
// breaks kept.
func plainPages(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\f' {
			return r
		}
		return plainRune(r)
	}, s)
}

// plainRune is r as plainSpaces has it.
func plainRune(r rune) rune {
	if d, ok := superscripts[r]; ok {
		return d
	}
	if unicode.IsSpace(r) || r == '\u2009' || r == '\u202f' {
		return ' '
	}
	return r
}

// pdfText renders d as a PDF and returns its text, as pdftotext reads it,
// and its path.
func pdfText(t *testing.T, name string) (string, string) {
	tooltest.Need(t, "pdftotext", "the PDF's text is not checked")
	d := explain.Chapter(input(t, name))
	dir, _ := render(t, "pdf", d)
	path := filepath.Join(dir, "chapter13.pdf")
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return plainPages(string(out)), path
}

// The PDF's text must hold the chapter's numbers and formulas, numbered,
// and its fonts must be embedded, italics among them.
func TestPDFText(t *testing.T) {
	text, path := pdfText(t, "gpt-course")
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		"13 Memory: what GPT.apply needs", "13.1 What is counted", "13.5 How it was checked",
		"149 504", "903 424", "903 168", "1 052 928", "23 552", "147 456", "131 072",
		"882 KiB", "146 KiB", "1.00 MiB",
		"Linear.apply/%5", "blocks[0].ff.up", "blocks ×2",
		"B ∈ {16, 32, 48}",
		"Table 13.1. The counts at B = 2, T = 16.",
		"Figure 13.1. Live bytes at each of the 45 operations",
		"48 · B · T2 + 1 024 · B · T + 8 · T2",
		"4 608 · B · T + 8 · T2",
		"peak, operation 19", "T = 75", "counted",
		// The calls as boxes: a title and a per cent on a box's header.
		"Figure 13.2. The calls of GPT.apply as boxes", "own operations 1.4%", "blocks ×2 98.6%", "up 87.7%",
		"page 4",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
	tooltest.Need(t, "pdffonts", "the PDF's fonts are not checked")
	fonts, err := exec.Command("pdffonts", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(fonts)), "\n")
	if len(lines) < 3 {
		t.Fatalf("pdffonts lists no font:\n%s", fonts)
	}
	italic := false
	for _, l := range lines[2:] {
		// name, type, encoding, then emb, sub, uni, object and generation.
		if f := strings.Fields(l); !strings.Contains(f[0], "dejavu") || len(f) < 6 || f[len(f)-5] != "yes" {
			t.Errorf("a font is not DejaVu embedded: %s", l)
		}
		italic = italic || strings.Contains(l, "dejavuI")
	}
	if !italic {
		t.Errorf("the PDF sets no variable in italics:\n%s", fonts)
	}
}

// The PDF has an outline: the chapter, and each section below it.
func TestPDFOutline(t *testing.T) {
	b, err := pdfBytes(chapter(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("/Outlines")) || !bytes.Contains(b, []byte("/PageMode /UseOutlines")) {
		t.Fatalf("the PDF has no outline")
	}
	// The document's title, then one for each entry of the outline.
	titles := bytes.Count(b, []byte("/Title (")) - 1
	if got, want := titles, 1+len(chapter(t).Sections); got != want {
		t.Errorf("the outline has %d entries, want the chapter and its %d sections", got, want-1)
	}
}

// No table leaves fewer than minRows rows on a page, nor is a table's
// caption left at a page's foot: in every bundled program's PDF, a page
// that ends in a table has at least minRows of its rows, and a caption
// line is followed by its table's header on its page.
func TestPDFTablesKeptTogether(t *testing.T) {
	for _, name := range []string{"gpt-course", "llama2-7b-block", "encdec-cross", "mlp-train-step"} {
		text, _ := pdfText(t, name)
		for p, page := range strings.Split(text, "\f") {
			lines := nonEmpty(strings.Split(page, "\n"))
			// The last lines before the footer.
			if len(lines) < 2 {
				continue
			}
			body := lines[:len(lines)-1]
			last := strings.TrimSpace(body[len(body)-1])
			if strings.HasPrefix(last, "Table ") || strings.HasPrefix(last, "call share of the peak") {
				t.Errorf("%s, page %d: ends with a table's caption or header: %q", name, p+1, last)
			}
		}
	}
}

func nonEmpty(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// Tables break with at least minRows rows on each side.
func TestTableChunks(t *testing.T) {
	d := &pdfDoc{h: 297, w: 210}
	rows := make([]pdfRow, 30)
	for i := range rows {
		rows[i].height = 10
	}
	// The caller makes room for the header and minRows rows first.
	for _, first := range []float64{20, 150, 200, 235, 239} {
		chunks := d.tableChunks(rows, first, 30, 10)
		n := 0
		for i, c := range chunks {
			n += len(c)
			if len(c) < minRows && len(chunks) > 1 {
				t.Errorf("from y = %v: page %d holds %d rows: %v", first, i+1, len(c), chunks)
			}
		}
		if n != len(rows)-1 {
			t.Errorf("from y = %v: %d rows set, want %d", first, n, len(rows)-1)
		}
	}
}

// Formulas are drawn with their variables in italics and their exponents
// as superscript characters, upright: an italic "T" and a "²", which a
// reader copying the formula gets as it is.
func TestFormulaPieces(t *testing.T) {
	base, it := font{sans, "", 10}, font{sans, "I", 10}
	ps := formulaPieces("T²", base, it)
	if len(ps) != 2 || ps[0].text != "T" || ps[0].font != it || ps[1].text != "²" || ps[1].font != base {
		t.Errorf("formulaPieces(T²) = %+v", ps)
	}
	ps = formulaPieces("48", base, it)
	if len(ps) != 1 || ps[0].font != base {
		t.Errorf("formulaPieces(48) = %+v", ps)
	}
	ps = formulaPieces("B¹²T", base, it)
	if len(ps) != 3 || ps[0].text != "B" || ps[1].text != "¹²" || ps[1].font != base || ps[2].text != "T" || ps[2].font != it {
		t.Errorf("formulaPieces(B¹²T) = %+v", ps)
	}
}

// What a section of headingsDoc opens with.
const (
	opensParagraph = iota // a paragraph of four lines
	opensList             // a paragraph of three lines that announces a list
	opensTable            // a table of five rows
	opensFigure           // a figure
	opensLongTable        // a table as long as a page, but for its heading
	opensTallBoxes        // a figure of boxes as tall as a page leaves room for
	opensKinds
)

// headingsSection is a section of headingsDoc: what it opens with, how
// many one-line paragraphs follow, and whether a table of a page's height
// (pageTable) ends it, so that the next section starts a page.
type headingsSection struct {
	opens, fill int
	pageAfter   bool
}

// pageTable is the number of rows of a table whose caption, header and
// rows are within a millimetre of a page's height.
const pageTable = 37

// headingsDoc is a document of sections as ss says. Every word of section
// i's first block carries its marker, "s7w" in section 7's.
func headingsDoc(ss []headingsSection) *doc.Document {
	d := &doc.Document{Title: "Headings kept with what follows", Number: 13}
	table := func(m string, rows int) *doc.Table {
		tb := &doc.Table{Caption: inlinesOf(m + "caption."), Header: []doc.Cell{inlinesOf(m + "name"), inlinesOf("bytes")}}
		for r := range rows {
			tb.Rows = append(tb.Rows, []doc.Cell{inlinesOf(fmt.Sprintf("%srow%d", m, r)), {doc.Number{Value: poly.Int(int64(1000 * r))}}})
		}
		return tb
	}
	for i, hs := range ss {
		m := fmt.Sprintf("s%dw", i)
		var ws []string
		for j := range 56 {
			ws = append(ws, fmt.Sprintf("%s%d", m, j))
		}
		s := doc.Section{Title: fmt.Sprintf("Heading %d", i)}
		switch hs.opens {
		case opensParagraph:
			s.Blocks = append(s.Blocks, &doc.Paragraph{Inlines: inlinesOf(strings.Join(ws, " "))})
		case opensList:
			s.Blocks = append(s.Blocks, &doc.Paragraph{Inlines: inlinesOf(strings.Join(ws[:40], " ") + ":")},
				&doc.List{Items: [][]doc.Inline{inlinesOf(strings.Join(ws[40:48], " ")), inlinesOf(strings.Join(ws[48:], " "))}})
		case opensTable:
			s.Blocks = append(s.Blocks, table(m, 5))
		case opensLongTable:
			s.Blocks = append(s.Blocks, table(m, pageTable))
		case opensFigure:
			f := &doc.Figure{Name: fmt.Sprintf("f%d", i), XLabel: inlinesOf("operation"), YLabel: inlinesOf("live bytes"), YBytes: true,
				Caption: inlinesOf(m + "caption.")}
			sr := doc.Series{Label: "live bytes", Steps: true}
			for x := range 20 {
				sr.Points = append(sr.Points, doc.XY{X: poly.Int(int64(x + 1)), Y: poly.Int(int64(100 + (x*37)%50))})
			}
			f.Series = []doc.Series{sr}
			s.Blocks = append(s.Blocks, f)
		case opensTallBoxes:
			// Its caption three lines long.
			caption := m + "caption. " + strings.Repeat("A caption that goes on. ", 15)
			bx := &doc.Boxes{Width: 400, Height: 5000, Boxes: []doc.Box{{W: 400, H: 5000, Title: m + "frame"}}}
			s.Blocks = append(s.Blocks, &doc.Figure{Name: fmt.Sprintf("f%d", i), Boxes: bx, Caption: inlinesOf(caption)})
		}
		for j := range hs.fill {
			s.Blocks = append(s.Blocks, &doc.Paragraph{Inlines: inlinesOf(fmt.Sprintf("Filler %d.%d.", i, j))})
		}
		if hs.pageAfter {
			s.Blocks = append(s.Blocks, table(fmt.Sprintf("page%d", i), pageTable))
		}
		d.Sections = append(d.Sections, s)
	}
	return d
}

// headingLine is a line of headingsDoc's PDF that is a section's heading.
var headingLine = regexp.MustCompile(`^13\.[0-9]+ Heading ([0-9]+)$`)

// No heading is left at a page's foot: each heading's page holds the
// start of what follows it, which pdftotext reads after it: a paragraph's
// first two lines, a table's caption, header and first row, a figure's
// caption. The documents put headings all over their pages: sixty
// sections of every kind, and each kind's section after a section of 0 to
// 33 lines (a page's worth), at the top of a page. A heading with room for
// a few lines, but not for what follows it, once stood alone at the foot
// of page 12 of the course GPT's training step's chapter, above a
// paragraph of three lines that announces a list.
func TestPDFHeadingsKeptWithWhatFollows(t *testing.T) {
	tooltest.Need(t, "pdftotext", "whether a heading is kept with what follows it is not checked")
	var mixed, sweep []headingsSection
	for i := range 60 {
		mixed = append(mixed, headingsSection{opens: i % opensKinds, fill: (i * 7) % 12})
	}
	for open := range opensKinds {
		for n := range 34 {
			sweep = append(sweep, headingsSection{opens: opensParagraph, fill: n}, headingsSection{opens: open, pageAfter: true})
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		ss   []headingsSection
	}{{"mixed", mixed}, {"sweep", sweep}} {
		b, err := pdfBytes(headingsDoc(tc.ss), Options{})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, tc.name+".pdf")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for p, page := range strings.Split(plainPages(string(out)), "\f") {
			lines := nonEmpty(strings.Split(page, "\n"))
			for k, l := range lines {
				h := headingLine.FindStringSubmatch(strings.TrimSpace(l))
				if h == nil {
					continue
				}
				found++
				i, _ := strconv.Atoi(h[1])
				m := fmt.Sprintf("s%dw", i)
				after := lines[k+1:]
				var want []string
				switch tc.ss[i].opens {
				case opensParagraph, opensList:
					if len(after) < 3 || !strings.Contains(after[0], m) || !strings.Contains(after[1], m) {
						t.Errorf("%s, page %d: %q is not followed by two lines of its paragraph on its page:\n%s", tc.name, p+1, l, strings.Join(after, "\n"))
					}
				case opensTable, opensLongTable:
					want = []string{m + "caption.", m + "name", m + "row0"}
				case opensFigure, opensTallBoxes:
					want = []string{m + "caption."}
				}
				for _, w := range want {
					if !strings.Contains(strings.Join(after, "\n"), w) {
						t.Errorf("%s, page %d: %q is not followed on its page by %q:\n%s", tc.name, p+1, l, w, strings.Join(after, "\n"))
					}
				}
			}
		}
		if found != len(tc.ss) {
			t.Fatalf("%s: pdftotext read %d of the %d headings:\n%s", tc.name, found, len(tc.ss), out)
		}
	}
}

// The PDF's text, as pdftotext reads it (and as a reader copying from it
// gets it), holds each of the chapter's formulas exactly, its exponents
// the superscript characters the Markdown writes and its coefficients'
// digits grouped as the prose's numbers are: "48 · B · T² + 12 288 · …". They
// were once digits drawn raised, which pdftotext put on the line above,
// leaving "48 · B · T + 12288 · B · T + 8 · T", another polynomial. The
// course GPT at six blocks, its step stored and recomputed, as a tester
// found it.
func TestPDFFormulasReadBack(t *testing.T) {
	tooltest.Need(t, "pdftotext", "the PDF's formulas are not read back")
	at := map[string]int64{"B": 16, "T": 256}
	d := explain.Chapter(variantInput(t, "gpt-course", sixBlocks, at, bothRemats))
	dir, _ := render(t, "pdf", d)
	// The text read back with only its spaces made plain: no superscript
	// becomes a digit. In -raw's order a formula wrapped in a table's
	// cell reads on; -layout's, a reader's copy, sets cells side by side.
	read := func(mode string) string {
		out, err := exec.Command("pdftotext", "-enc", "UTF-8", mode, filepath.Join(dir, "chapter13.pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.FieldsFunc(string(out), func(r rune) bool {
			return unicode.IsSpace(r) || r == '\u2009' || r == '\u202f'
		}), " ")
	}
	flat, layout := read("-raw"), read("-layout")
	squared := 0
	for _, f := range d.Formulas {
		want := strings.Join(strings.Fields(strings.NewReplacer("\u2009", " ", "\u202f", " ").Replace(doc.FormulaText(f.Poly, doc.ThinSpace))), " ")
		if strings.ContainsRune(want, '²') {
			squared++
		}
		if !strings.Contains(flat, want) {
			t.Errorf("the PDF's text lacks %s, %q", f.Label, want)
		}
	}
	if squared == 0 {
		t.Errorf("no formula has an exponent: nothing is checked")
	}
	for _, want := range []string{"48 · B · T² + 12 288 · B · T + 8 · T²", "144 · B · T² + 6 144 · B · T + 8 · T²"} {
		if !strings.Contains(layout, want) {
			t.Errorf("the PDF's text, laid out, lacks %q", want)
		}
	}
}
