package reports

import (
	"context"
	"encoding/xml"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/tooltest"
	"memsym/poly"
	"memsym/programs"
	"memsym/source"
)

// pdfWord is a word as pdftotext -bbox reads it, its box in points.
type pdfWord struct {
	Text string  `xml:",chardata"`
	XMin float64 `xml:"xMin,attr"`
	XMax float64 `xml:"xMax,attr"`
	YMin float64 `xml:"yMin,attr"`
	YMax float64 `xml:"yMax,attr"`
}

// pdfWords reads the PDF at path back with pdftotext -bbox: each page's
// words and the page's width, in points.
func pdfWords(t *testing.T, path string) (pages [][]pdfWord, width float64) {
	t.Helper()
	tooltest.Need(t, "pdftotext", "where the PDF's words fall is not checked")
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", "-bbox", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	var html struct {
		Body struct {
			Doc struct {
				Pages []struct {
					Width float64   `xml:"width,attr"`
					Words []pdfWord `xml:"word"`
				} `xml:"page"`
			} `xml:"doc"`
		} `xml:"body"`
	}
	dec := xml.NewDecoder(strings.NewReader(string(out)))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	if err := dec.Decode(&html); err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	for _, p := range html.Body.Doc.Pages {
		pages = append(pages, p.Words)
		width = p.Width
	}
	if len(pages) == 0 {
		t.Fatalf("pdftotext -bbox reads no page in %s", path)
	}
	return pages, width
}

// checkOnPage fails t for each word of the PDF at path that reaches into
// the page's side margins, and for each two words on a line that overlap.
func checkOnPage(t *testing.T, name, path string) [][]pdfWord {
	t.Helper()
	pages, width := pdfWords(t, path)
	const slack = 0.5 // points: pdftotext rounds and glyphs overhang a little
	left, right := pdfMargin/ptToMM-slack, width-pdfMargin/ptToMM+slack
	for p, words := range pages {
		for i, w := range words {
			if w.XMin < left || w.XMax > right {
				t.Errorf("%s, page %d: %q spans x = %.1f to %.1f pt, outside the margins (%.1f to %.1f)", name, p+1, w.Text, w.XMin, w.XMax, left, right)
			}
			for _, v := range words[i+1:] {
				// Words on one baseline that share more than a sliver.
				if v.YMax == w.YMax && min(w.XMax, v.XMax)-max(w.XMin, v.XMin) > slack {
					t.Errorf("%s, page %d: %q and %q overlap", name, p+1, w.Text, v.Text)
				}
			}
		}
	}
	return pages
}

// wideTables are tables too wide for the page, each needing a further
// step of tableSettings: formulas to break, a smaller font, words cut.
func wideTables(t *testing.T) []*doc.Table {
	formula := func(s string) doc.Cell {
		p, err := poly.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Cell{doc.Formula{Poly: p}}
	}
	text := func(s string) doc.Cell { return doc.Cell{doc.Text(s)} }
	breaking := &doc.Table{
		Caption: []doc.Inline{doc.Text("Formulas that must break.")},
		Header:  []doc.Cell{text("term"), text("estimate"), text("exact"), text("exact − estimate")},
		Rows: [][]doc.Cell{
			{text("parameters"), formula("8192*T + 929062912"), formula("16384*T + 1858125824"), formula("8192*T + 929062913")},
			{text("kept, all layers, at the program's type, without dropout"), formula("128*B*T + 423940*B + 16384*T + 7"), formula("160*B*T + 139264*B + 11"), formula("-32*B*T + 284676*B + 16384*T + 929062914")},
		},
	}
	// Eight columns of numbers that never break: too wide at 9 pt.
	var header []doc.Cell
	var row []doc.Cell
	for i := range 8 {
		header = append(header, text(fmt.Sprintf("c%d", i)))
		row = append(row, text(fmt.Sprintf("%d", 31000000000+int64(i)*1111111)))
	}
	shrinking := &doc.Table{Caption: []doc.Inline{doc.Text("Numbers that must shrink.")}, Header: header, Rows: [][]doc.Cell{row}}
	cutting := &doc.Table{
		Caption: []doc.Inline{doc.Text("A name that must be cut.")},
		Header:  []doc.Cell{text("name")},
		Rows:    [][]doc.Cell{{doc.Cell{doc.Code(longName)}}},
	}
	return []*doc.Table{breaking, shrinking, cutting}
}

// longName is wider than the page even at minTablePt.
var longName = strings.Repeat("layers[0].", 24) + "up"

// A table too wide for the page is set between its margins, every word of
// its cells on the page and none overlapping another.
func TestPDFWideTables(t *testing.T) {
	d := &doc.Document{Number: 13, Title: "Wide tables"}
	var blocks []doc.Block
	for _, tb := range wideTables(t) {
		blocks = append(blocks, tb)
	}
	d.Sections = []doc.Section{{Title: "Tables", Blocks: blocks}}
	dir, _ := render(t, "pdf", d)
	path := filepath.Join(dir, "chapter13.pdf")
	pages := checkOnPage(t, "wide tables", path)
	have := map[string]int{}
	var all strings.Builder
	for _, words := range pages {
		for _, w := range words {
			have[w.Text]++
			all.WriteString(w.Text)
		}
	}
	for _, tb := range wideTables(t) {
		for _, r := range append([][]doc.Cell{tb.Header}, tb.Rows...) {
			for _, c := range r {
				if len(c) == 1 && c[0] == doc.Code(longName) {
					// Cut into lines, alone in its table: its pieces
					// follow one another.
					if !strings.Contains(all.String(), longName) {
						t.Errorf("the PDF lacks %q", longName)
					}
					continue
				}
				for _, w := range strings.Fields(cellText(c)) {
					if have[w] == 0 {
						t.Errorf("the PDF lacks %q of cell %q", w, cellText(c))
					}
				}
			}
		}
	}
}

// cellText is a cell's text as pdftotext reads it back.
func cellText(c doc.Cell) string {
	var b strings.Builder
	for _, in := range c {
		switch in := in.(type) {
		case doc.Text:
			b.WriteString(string(in))
		case doc.Code:
			b.WriteString(string(in))
		case doc.Formula:
			// Its digits' groups apart, as pdftotext reads them.
			b.WriteString(doc.FormulaText(in.Poly, " "))
		}
		b.WriteString(" ")
	}
	return b.String()
}

// stepChapter is the chapter `memsym explain --program name --step
// --remat both` writes.
func stepChapter(t *testing.T, name string) *doc.Document {
	t.Helper()
	src, err := source.NewProgram(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	recompute := programs.StepOptions{Remat: programs.Recompute}
	r := &explain.Request{Program: name, Source: src, At: src.Default(), Verify: 2, Confirm: true, Step: []programs.StepOptions{{}, recompute}}
	c, err := explain.Gather(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	in, err := explain.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return explain.Chapter(in)
}

// digits are the runs of digits in a text.
var digits = regexp.MustCompile(`[0-9]+`)

// The step's chapters have the widest tables of the bundled programs: the
// estimates beside the exact step, as polynomials. Their PDFs keep every
// word between the margins, and every number of the Markdown's tables,
// each as often.
func TestPDFStepTablesOnPage(t *testing.T) {
	for _, name := range []string{"llama2-7b-block", "bert-encoder"} {
		d := stepChapter(t, name)
		dir, _ := render(t, "pdf", d)
		pages := checkOnPage(t, name, filepath.Join(dir, "chapter13.pdf"))
		inPDF := map[string]int{}
		for _, words := range pages {
			for _, w := range words {
				for _, n := range digits.FindAllString(plainSpaces(w.Text), -1) {
					inPDF[n]++
				}
			}
		}
		dir, _ = render(t, "md", d)
		inTables := map[string]int{}
		for _, l := range strings.Split(string(read(t, dir, "chapter13.md")), "\n") {
			if strings.HasPrefix(l, "|") {
				for _, n := range digits.FindAllString(plainSpaces(l), -1) {
					inTables[n]++
				}
			}
		}
		if len(inTables) == 0 {
			t.Fatalf("%s: the Markdown has no table", name)
		}
		for n, k := range inTables {
			if inPDF[n] < k {
				t.Errorf("%s: %s: %d in the Markdown's tables, %d in the PDF", name, n, k, inPDF[n])
			}
		}
	}
}

// cappedWidths keeps the narrow columns whole and shares the rest of the
// width equally among the wide ones.
func TestCappedWidths(t *testing.T) {
	for _, c := range []struct {
		least []float64
		total float64
		want  []float64
	}{
		{[]float64{10, 100, 50}, 100, []float64{10, 45, 45}},
		{[]float64{10, 100, 40}, 100, []float64{10, 50, 40}},
		{[]float64{60, 60, 60}, 90, []float64{30, 30, 30}},
		{[]float64{5}, 1, []float64{1}},
	} {
		got := cappedWidths(c.least, c.total)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("cappedWidths(%v, %v) = %v, want %v", c.least, c.total, got, c.want)
		}
	}
}

// runeMeasure makes every character 1 wide.
type runeMeasure struct{}

func (runeMeasure) width(s string, _ font) float64 { return float64(len([]rune(s))) }

// cutWords cuts only what is too wide, into pieces no wider than asked
// (but one character each), keeping the text and its fonts,
// and the space before a word on its first piece alone.
func TestCutWords(t *testing.T) {
	f, it, small := font{sans, "", 9}, font{sans, "I", 9}, font{sans, "", 6}
	ws := []word{
		{pieces: []piece{{"ab", f}}},
		{pieces: []piece{{"−31·", f}, {"T", it}, {"²", small}, {"xyzw", f}}, space: true},
	}
	for _, width := range []float64{0, 1, 2, 3, 4, 10, 100} {
		got := cutWords(runeMeasure{}, ws, width)
		var joined strings.Builder
		spaces := 0
		for i, w := range got {
			if ww := wordWidth(runeMeasure{}, w); ww > max(width, 1) {
				t.Errorf("width %v: piece %d is %v wide", width, i, ww)
			}
			if w.space {
				spaces++
				if joined.String() != "ab" {
					t.Errorf("width %v: a space before piece %d, after %q", width, i, joined.String())
				}
			}
			for _, p := range w.pieces {
				if p.text == "" {
					t.Errorf("width %v: piece %d holds an empty run", width, i)
				}
				if (p.text == "T") != (p.font == it) || (p.text == "²") != (p.font == small) {
					t.Errorf("width %v: %q lost its font", width, p.text)
				}
				joined.WriteString(p.text)
			}
		}
		if joined.String() != "ab−31·T²xyzw" || spaces != 1 {
			t.Errorf("width %v: the pieces read %q, with %d spaces", width, joined.String(), spaces)
		}
		if width >= 10 && len(got) != 2 {
			t.Errorf("width %v: words that fit are cut into %d pieces", width, len(got))
		}
	}
}

// TestUnitStaysWithItsNumber: a size and its unit make one word, which a
// narrow column never splits ("889" above "MiB"); a unit after a word
// that is no number stands alone.
func TestUnitStaysWithItsNumber(t *testing.T) {
	ws := words([]doc.Inline{doc.Text("(889 MiB) and 1.74 GiB, in MiB")}, font{sans, "", 9}, false)
	var got []string
	for _, w := range ws {
		var s string
		for _, p := range w.pieces {
			s += p.text
		}
		got = append(got, s)
	}
	want := []string{"(889 MiB)", "and", "1.74 GiB,", "in", "MiB"}
	if !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}

// TestPDFLongNames: a name of 500 characters, in the chapter's title, a
// heading, a paragraph and a code span, stays within the margins, cut
// into lines, and the footer's title is cut short to fit.
func TestPDFLongNames(t *testing.T) {
	long := strings.Repeat("VeryLongModuleName", 28) // 504 characters
	d := &doc.Document{Number: 13, Title: "What " + long + " needs", Sections: []doc.Section{{
		Title: "About " + long,
		Blocks: []doc.Block{
			&doc.Paragraph{Inlines: []doc.Inline{doc.Text("It runs " + long + " and "), doc.Code(long), doc.Text(".")}},
		},
	}}}
	dir, _ := render(t, "pdf", d)
	pages := checkOnPage(t, "long names", filepath.Join(dir, "chapter13.pdf"))
	var all strings.Builder
	for _, words := range pages {
		for _, w := range words {
			all.WriteString(w.Text)
		}
	}
	if n := strings.Count(all.String(), long); n < 3 {
		t.Errorf("the long name is whole %d times in the PDF's text, want at least 3 (heading, paragraph, code)", n)
	}
}
