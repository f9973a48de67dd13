package reports

import (
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/tooltest"
	"memsym/poly"
	"memsym/programs"
	"memsym/source"
)

// variantInput runs a bundled program through the pipeline as `memsym
// explain --program name --const consts --at at` does, with the step
// under opts when there are any; consts and at may be nil.
func variantInput(t testing.TB, name string, consts, at map[string]int64, opts []programs.StepOptions) *explain.Input {
	t.Helper()
	return built(t, fmt.Sprint("variant ", name, consts, at, opts), func() *explain.Request {
		src, err := source.NewProgram(name, consts)
		if err != nil {
			t.Fatal(err)
		}
		point := src.Default()
		for k, v := range at {
			point = point.With(k, v)
		}
		return &explain.Request{Program: name, Source: src, At: point, Verify: 2, Confirm: true, Step: opts}
	})
}

// sixBlocks is the course GPT of six blocks, the defect's program: its
// live bytes' bands are blocks[0] to blocks[5].
var sixBlocks = map[string]int64{"D": 384, "H": 6, "L": 6}

// bothRemats is --remat both: the step stored, then recomputed.
var bothRemats = []programs.StepOptions{{}, {Remat: programs.Recompute}}

// figureNamed returns the figure of d named name.
func figureNamed(t *testing.T, d *doc.Document, name string) *doc.Figure {
	t.Helper()
	for _, f := range d.Figures() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s has no figure %q", d.Title, name)
	return nil
}

// The layout keeps every mark's label, as wide as any backend draws it,
// off the names of the bands it leaves named, and so does the SVG drawn
// from it; and it names the band of llama2-7b-block's peak, which the
// peak's label once covered, the label now clear of the line as well.
func TestMarkLabelsClearBandNames(t *testing.T) {
	check := func(t *testing.T, p plot) {
		t.Helper()
		for k, m := range p.fig.Marks {
			w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
			label := markLabelBox(p.x.frac(m.At.X), p.y.frac(m.At.Y), w*labelReach, p.marks[k])
			for i := range p.fig.Bands {
				name, ok := p.bandLabelBox(i)
				if p.bandLabels[i] && (!ok || label.meets(name)) {
					t.Errorf("mark %q at %v's label %v meets band %q's name %v", doc.PlainText(m.Label, " "), p.marks[k], label, p.fig.Bands[i].Label, name)
				}
			}
		}
	}
	t.Run("llama2-7b-block", func(t *testing.T) {
		f := figureNamed(t, explain.Chapter(input(t, "llama2-7b-block")), "live")
		p := layout(f)
		check(t, p)
		svgLabelsApart(t, f) // the drawing's own boxes, apart from the layout's arithmetic
		for i, b := range p.fig.Bands {
			if b.Label == "block" && !p.bandLabels[i] {
				t.Errorf("the band block is left unnamed")
			}
		}
		// Below it and to its left the label is clear of the line too,
		// not across the steps to its right.
		for k, m := range p.fig.Marks {
			w := labelChar * float64(len([]rune(doc.PlainText(m.Label, " "))))
			if !offCurves(markLabelBox(p.x.frac(m.At.X), p.y.frac(m.At.Y), w, p.marks[k]), p.curveFracs()) {
				t.Errorf("the label %q, placed %+v, crosses the line", doc.PlainText(m.Label, " "), p.marks[k])
			}
		}
	})
	t.Run("random", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 13))
		for n := range 300 {
			f := &doc.Figure{Name: "live", YBytes: true}
			ops := 5 + rng.IntN(60)
			s := doc.Series{Label: "live bytes", Steps: true}
			for x := 1; x <= ops; x++ {
				s.Points = append(s.Points, doc.XY{X: poly.Int(int64(x)), Y: poly.Int(int64(1 + rng.IntN(1000)))})
			}
			f.Series = []doc.Series{s}
			for from := 1; from <= ops; {
				to := min(from+1+rng.IntN(ops/2+1), ops+1)
				f.Bands = append(f.Bands, doc.Band{From: poly.Int(int64(from)), To: poly.Int(int64(to)), Label: fmt.Sprintf("call%d", from)})
				from = to
			}
			for range 1 + rng.IntN(3) {
				pt := s.Points[rng.IntN(len(s.Points))]
				f.Marks = append(f.Marks, doc.Mark{At: pt, Label: inlinesOf(fmt.Sprintf("peak, operation %v", pt.X))})
			}
			t.Run(strconv.Itoa(n), func(t *testing.T) {
				check(t, layout(f))
				svgLabelsApart(t, f)
			})
		}
	})
}

func inlinesOf(s string) []doc.Inline { return []doc.Inline{doc.Text(s)} }

// segmentMeets tells a segment through a box's inside from one beside it
// or along its edge.
func TestSegmentMeets(t *testing.T) {
	b := box{0.2, 0.2, 0.4, 0.4}
	for _, c := range []struct {
		a, c [2]float64
		want bool
	}{
		{[2]float64{0, 0}, [2]float64{1, 1}, true},         // across, diagonally
		{[2]float64{0, 0.3}, [2]float64{1, 0.3}, true},     // across, level
		{[2]float64{0.3, 0}, [2]float64{0.3, 1}, true},     // across, upright
		{[2]float64{0.3, 0.3}, [2]float64{0.3, 0.3}, true}, // a point inside
		{[2]float64{0, 0.2}, [2]float64{1, 0.2}, false},    // along its edge
		{[2]float64{0, 0.5}, [2]float64{1, 0.5}, false},    // above it
		{[2]float64{0, 0.35}, [2]float64{0.35, 0}, false},  // past its corner
		{[2]float64{0, 0}, [2]float64{0.1, 0.1}, false},    // short of it
		{[2]float64{0.45, 0}, [2]float64{0.45, 1}, false},  // beside it
	} {
		if got := segmentMeets(b, c.a, c.c); got != c.want {
			t.Errorf("segmentMeets(%v, %v, %v) = %v, want %v", b, c.a, c.c, got, c.want)
		}
	}
}

// svgText is a text element of an SVG figure.
type svgText struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Anchor string  `xml:"text-anchor,attr"`
	Size   float64 `xml:"font-size,attr"`
	Weight string  `xml:"font-weight,attr"`
	Inner  string  `xml:",innerxml"`
}

// svgTextBoxes returns the boxes of an SVG figure's unturned text, each
// with its text, as wide as DejaVu Sans draws it at most on average (0.62
// of the size a character, 0.7 in bold) and from its ascent to its
// descent.
func svgTextBoxes(t *testing.T, svg []byte) (texts []string, boxes []box) {
	t.Helper()
	var s struct {
		Texts []svgText `xml:"text"`
	}
	if err := xml.Unmarshal(svg, &s); err != nil {
		t.Fatal(err)
	}
	tags := regexp.MustCompile(`<[^>]*>`)
	for _, e := range s.Texts {
		if e.X == 0 && e.Y == 0 {
			continue // a turned label
		}
		text := tags.ReplaceAllString(e.Inner, "")
		size := e.Size
		if size == 0 {
			size = 12
		}
		em := 0.62
		if e.Weight == "bold" {
			em = 0.7
		}
		w := em * size * float64(len([]rune(text)))
		x0 := e.X
		switch e.Anchor {
		case "middle":
			x0 -= w / 2
		case "end":
			x0 -= w
		}
		texts = append(texts, text)
		boxes = append(boxes, box{x0, e.Y - 0.76*size, x0 + w, e.Y + 0.24*size})
	}
	return texts, boxes
}

// svgLabelsApart fails t for each of f's marks' labels that meets a
// band's name in f's SVG, and returns how many bands the SVG names.
func svgLabelsApart(t *testing.T, f *doc.Figure) int {
	t.Helper()
	texts, boxes := svgTextBoxes(t, figureSVG(f))
	isBand, isMark := map[string]bool{}, map[string]bool{}
	for _, b := range f.Bands {
		isBand[b.Label] = true
	}
	for _, m := range f.Marks {
		isMark[doc.PlainText(m.Label, " ")] = true
	}
	named := 0
	for i := range texts {
		if !isBand[texts[i]] {
			continue
		}
		named++
		for j := range texts {
			if isMark[texts[j]] && boxes[i].meets(boxes[j]) {
				t.Errorf("the SVG's %q at %v meets the band's name %q at %v", texts[j], boxes[j], texts[i], boxes[i])
			}
		}
	}
	return named
}

// In the SVG no mark's label meets a band's name: llama2-7b-block's peak
// once sat on the name of its band, block.
func TestSVGMarkLabelsClearBandNames(t *testing.T) {
	for _, name := range []string{"llama2-7b-block", "gpt-course"} {
		t.Run(name, func(t *testing.T) {
			if svgLabelsApart(t, figureNamed(t, explain.Chapter(input(t, name)), "live")) == 0 {
				t.Errorf("the SVG names no band")
			}
		})
	}
}

// wordBox is a word's box, in points from the page's top left.
func wordBox(w pdfWord) box { return box{w.XMin, w.YMin, w.XMax, w.YMax} }

// allWords returns the words of every page of the PDF at path.
func allWords(t *testing.T, path string) []pdfWord {
	t.Helper()
	pages, _ := pdfWords(t, path)
	var out []pdfWord
	for _, p := range pages {
		out = append(out, p...)
	}
	return out
}

// phraseBox returns the box around the words of phrase, one after another
// on one line, and whether they are there.
func phraseBox(words []pdfWord, phrase string) (box, bool) {
	want := strings.Fields(phrase)
	for i := range words {
		if i+len(want) > len(words) {
			break
		}
		b, ok := wordBox(words[i]), true
		for k, w := range want {
			got := wordBox(words[i+k])
			if words[i+k].Text != w || got[1] > b[3] || got[3] < b[1] {
				ok = false
				break
			}
			b = box{min(b[0], got[0]), min(b[1], got[1]), max(b[2], got[2]), max(b[3], got[3])}
		}
		if ok {
			return b, true
		}
	}
	return box{}, false
}

// grow returns b larger by d on every side.
func (b box) grow(d float64) box { return box{b[0] - d, b[1] - d, b[2] + d, b[3] + d} }

// In the PDF, llama2-7b-block's live bytes name the band block apart from
// the peak's label, which once ran into it ("blockpeak, operation 19").
func TestPDFPeakLabelClearsBandName(t *testing.T) {
	_, path := pdfText(t, "llama2-7b-block")
	pages, _ := pdfWords(t, path)
	for n, words := range pages {
		peak, ok := phraseBox(words, "peak, operation 19")
		if !ok {
			continue
		}
		found := false
		for _, w := range words {
			// The band's name is in 6.5 pt, smaller than the text's.
			if b := wordBox(w); strings.Contains(w.Text, "block") && b[3]-b[1] < 8 {
				found = found || w.Text == "block"
				if peak.grow(0.5).meets(b) {
					t.Errorf("page %d: the peak's label %v meets %q at %v", n+1, peak, w.Text, b)
				}
			}
		}
		if !found {
			t.Errorf("page %d: the figure does not name the band block", n+1)
		}
		return
	}
	t.Errorf("no page has the peak's label peak, operation 19")
}

// standaloneFigure renders d's TikZ, compiles the figure named stem alone
// and returns the words of its PDF.
func standaloneFigure(t *testing.T, d *doc.Document, stem string) []pdfWord {
	t.Helper()
	tooltest.Need(t, "pdflatex", "the TikZ figure is not compiled")
	dir, _ := render(t, "tikz", d)
	out := t.TempDir()
	pdflatex(t, dir, out, stem+".tex")
	return allWords(t, filepath.Join(out, stem+".pdf"))
}

// In the TikZ figure the peak's label, with the white it is set on, does
// not cover the band's name block, as it once did.
func TestTikZPeakLabelClearsBandName(t *testing.T) {
	words := standaloneFigure(t, explain.Chapter(input(t, "llama2-7b-block")), "chapter13-live")
	peak, ok := phraseBox(words, "peak, operation 19")
	if !ok {
		t.Fatalf("the figure has no label peak, operation 19: %v", words)
	}
	band, ok := phraseBox(words, "block")
	if !ok {
		t.Fatalf("the figure does not name the band block: %v", words)
	}
	// The label's node has an inner sep of 2.5 pt, filled with white.
	if peak.grow(2.5).meets(band) {
		t.Errorf("the peak's label %v, and its white, meet the band's name %v", peak, band)
	}
}

// The TikZ figure of the live bytes names each block's band, as the SVG
// and the PDF do, where the name fits.
func TestTikZNamesBands(t *testing.T) {
	words := standaloneFigure(t, explain.Chapter(variantInput(t, "gpt-course", sixBlocks, nil, nil)), "chapter13-live")
	for i := range 6 {
		if _, ok := phraseBox(words, fmt.Sprintf("blocks[%d]", i)); !ok {
			t.Errorf("the figure does not name blocks[%d]: %v", i, words)
		}
	}
}

// A figure's y label, turned along its axis, is no taller than the axis,
// half the column (246 pt) high.
func TestTikZYLabelFitsAxis(t *testing.T) {
	for _, c := range []struct{ program, stem string }{
		{"decode-kv-cache", "chapter13-excess"},
		{"decode-kv-cache", "chapter13-live"},
		{"encdec-cross", "chapter13-candidates"},
	} {
		t.Run(c.program+"/"+c.stem, func(t *testing.T) {
			words := standaloneFigure(t, explain.Chapter(input(t, c.program)), c.stem)
			left := words[0].XMin
			for _, w := range words {
				left = min(left, w.XMin)
			}
			top, bottom := 1e9, -1e9
			for _, w := range words {
				if w.XMin < left+3 { // the leftmost column: the y label
					top, bottom = min(top, w.YMin), max(bottom, w.YMax)
				}
			}
			if h := bottom - top; h > 123 {
				t.Errorf("the y label is %.1f pt long, more than the axis' 123 pt", h)
			}
		})
	}
}

// The figures of encdec-cross's ten candidates, of its peak in a block's
// band and of six blocks, go into a two-column paper's columns with no
// overfull box: the candidates' legend keeps to the column, its entries
// each on as many lines as they take.
func TestTikZFiguresInColumns(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the paper is not compiled")
	paper := t.TempDir()
	var body strings.Builder
	for _, c := range []struct {
		prefix string
		d      *doc.Document
		fig    string
	}{
		{"encdec", explain.Chapter(input(t, "encdec-cross")), "candidates"},
		{"kvcache", explain.Chapter(input(t, "decode-kv-cache")), "excess"},
		{"llama", explain.Chapter(input(t, "llama2-7b-block")), "live"},
		{"gptsix", explain.Chapter(variantInput(t, "gpt-course", sixBlocks, nil, nil)), "live"},
	} {
		sub := filepath.Join(paper, c.prefix)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		r, _ := Lookup("tikz")
		if _, err := r.Render(c.d, sub, Options{TeXPrefix: c.prefix}); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&body, "\\begin{figure}\n\\centering\n\\input{%s/chapter13-%s}\n\\caption{%s}\n\\end{figure}\nText.\n\\clearpage\n", c.prefix, c.fig, c.prefix)
	}
	tex := "\\documentclass[twocolumn]{article}\n\\usepackage{amsmath}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n" + body.String() + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(tex), 0o644); err != nil {
		t.Fatal(err)
	}
	log := pdflatex(t, paper, paper, "paper.tex")
	if o := overfull(log); o != "" {
		t.Errorf("the paper has overfull boxes:\n%s", o)
	}
	words := allWords(t, filepath.Join(paper, "paper.pdf"))
	for _, want := range []string{"candidate 10,", "blocks[0]", "blocks[5]", "block"} {
		if _, ok := phraseBox(words, want); !ok {
			t.Errorf("the paper lacks %q", want)
		}
	}
}

// Every line of a figure with a legend carries its series' symbol, the
// same in its legend, each series' look its own: ten candidates differ
// each from each in their symbols.
func TestSeriesSymbols(t *testing.T) {
	f := figureNamed(t, explain.Chapter(input(t, "encdec-cross")), "candidates")
	if len(f.Series) != 10 {
		t.Fatalf("encdec-cross has %d candidates, want the ten this test is about", len(f.Series))
	}
	seen := map[symbol]int{}
	for i := range f.Series {
		s := symbolOf(i)
		if j, ok := seen[s]; ok {
			t.Errorf("series %d and %d both carry a %v", j+1, i+1, s)
		}
		seen[s] = i
		if s == (symbol{"circle", true}) {
			t.Errorf("series %d carries an open circle, which marks a crossover", i+1)
		}
	}
	p := layout(f)
	for i, at := range p.symbols {
		if len(at) < 2 {
			t.Errorf("series %d carries its symbol at %d points", i+1, len(at))
		}
	}
	tex := string(tikzFigure(f, Options{}))
	if n := len(regexp.MustCompile(`\\addplot\[[^\n]*mark indices=\{[0-9]`).FindAllString(tex, -1)); n != len(f.Series) {
		t.Errorf("the TikZ figure marks %d of its %d lines", n, len(f.Series))
	}
	if !strings.Contains(tex, "legend image post style={mark indices={2}}") {
		t.Errorf("the TikZ figure's legend does not show the symbols")
	}
	want := len(f.Series) // one in each legend entry
	for _, at := range p.symbols {
		want += len(at)
	}
	if n := strings.Count(string(figureSVG(f)), `class="symbol"`); n != want {
		t.Errorf("the SVG draws %d symbols, want %d", n, want)
	}
}

// A chapter with the training step stored and recomputed names long
// calls (Linear.apply/%4 (vjp)) in its formulas' labels; the TikZ
// document breaks them so that no line runs into the margin.
func TestTikZStepChapterFits(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the step chapter's TikZ document is not compiled")
	for _, c := range []struct {
		name   string
		consts map[string]int64
		at     map[string]int64
	}{
		{"gpt-course", sixBlocks, map[string]int64{"B": 16, "T": 256}},
		{"llama2-7b-block", nil, nil},
		{"bert-encoder", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, _ := render(t, "tikz", explain.Chapter(variantInput(t, c.name, c.consts, c.at, bothRemats)))
			ok, log := pdflatexRun(t, dir, "chapter13-tikz.tex")
			if !ok {
				t.Fatalf("chapter13-tikz.tex did not compile:\n%s", tail(log, 20))
			}
			if o := overfull(log); o != "" {
				t.Errorf("chapter13-tikz.tex has overfull boxes:\n%s", o)
			}
		})
	}
}

// A name breaks after its dots, slashes and underscores, discouraged; a
// number's decimal point, a sentence's end, a slash between spaces and an
// underscore between digits do not; "--" stays two hyphens.
func TestBreakableTeX(t *testing.T) {
	for in, want := range map[string]string{
		"operation 132 (Linear.apply/%4 (vjp))": `operation 132 (Linear.` + nameBreak + `apply/` + nameBreak + `\%4 (vjp))`,
		"in blocks[0].attn_norm":                `in blocks[0].` + nameBreak + `attn\_` + nameBreak + `norm`,
		"deep_path_segment_":                    `deep\_` + nameBreak + `path\_` + nameBreak + `segment\_`,
		"x_1_2 a--b":                            `x\_` + nameBreak + `1\_2 a-{}-b`,
		"8.03 MiB, B / T, the end.":             `8.03 MiB, B / T, the end.`,
		"AdamW.update":                          `AdamW.` + nameBreak + `update`,
	} {
		if got := breakableTeX(in); got != want {
			t.Errorf("breakableTeX(%q) = %q, want %q", in, got, want)
		}
	}
}

// No series' symbol is drawn on a mark's label: the candidates 3000,
// 100 · T and T² once carried a square on the 1 of T = 101 and a circle
// by counted, in the SVG as in TikZ, where pgfplots draws symbols last.
func TestSymbolsClearMarkLabels(t *testing.T) {
	xs := []int64{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16, 19, 20, 23, 27, 30, 31, 32, 38, 45, 50, 54, 64, 76, 90, 100, 101, 108, 128,
		152, 181, 215, 256, 304, 362, 431, 512, 609, 724, 861, 1024, 1218, 1448, 1722, 2048, 2435, 2896, 3445, 4096}
	f := &doc.Figure{Name: "candidates", XLabel: inlinesOf("T"), YLabel: inlinesOf("live bytes"), YBytes: true, LogX: true, LogY: true}
	for i, bytes := range []func(x int64) int64{
		func(int64) int64 { return 3000 }, func(x int64) int64 { return 100 * x }, func(x int64) int64 { return x * x },
	} {
		s := doc.Series{Label: fmt.Sprintf("candidate %d", i+1)}
		for _, x := range xs {
			s.Points = append(s.Points, doc.XY{X: poly.Int(x), Y: poly.Int(bytes(x))})
		}
		f.Series = append(f.Series, s)
	}
	f.Marks = []doc.Mark{
		{At: doc.XY{X: poly.Int(31), Y: poly.Int(3100)}, Label: inlinesOf("T = 31")},
		{At: doc.XY{X: poly.Int(101), Y: poly.Int(10201)}, Label: inlinesOf("T = 101")},
		{At: doc.XY{X: poly.Int(50), Y: poly.Int(5000)}, Label: inlinesOf("counted")},
	}
	svg := figureSVG(f)
	texts, boxes := svgTextBoxes(t, svg)
	var centres [][2]float64
	for _, m := range regexp.MustCompile(`<circle class="symbol" cx="([0-9.]+)" cy="([0-9.]+)"`).FindAllSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		centres = append(centres, [2]float64{x, y})
	}
	for _, m := range regexp.MustCompile(`<polygon class="symbol" points="([^"]+)"`).FindAllSubmatch(svg, -1) {
		var c [2]float64
		pts := strings.Fields(string(m[1]))
		for _, p := range pts {
			x, y, _ := strings.Cut(p, ",")
			fx, _ := strconv.ParseFloat(x, 64)
			fy, _ := strconv.ParseFloat(y, 64)
			c[0], c[1] = c[0]+fx/float64(len(pts)), c[1]+fy/float64(len(pts))
		}
		centres = append(centres, c)
	}
	if len(centres) < 3*symbolsPerLine {
		t.Fatalf("the SVG draws %d symbols, want at least %d", len(centres), 3*symbolsPerLine)
	}
	for i, text := range texts {
		if text != "T = 31" && text != "T = 101" && text != "counted" {
			continue
		}
		b := boxes[i].grow(svgSymbolRadius)
		for _, c := range centres {
			if c[0] > b[0] && c[0] < b[2] && c[1] > b[1] && c[1] < b[3] {
				t.Errorf("a symbol at (%.1f, %.1f) is drawn on the label %q at %v", c[0], c[1], text, boxes[i])
			}
		}
	}
}

// The live bytes of a long program, thousands of calls each a band, compile
// in TikZ: the bands narrower than a column are shaded as one and get no
// name's node, where one \fill and one \node a band exceeded TeX's memory.
func TestTikZManyBandsCompile(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the TikZ figure is not compiled")
	d := explain.Chapter(variantInput(t, "synthetic", map[string]int64{"N": 20000}, nil, nil))
	if n := len(figureNamed(t, d, "live").Bands); n < 4000 {
		t.Fatalf("the figure has %d bands: the test tells nothing", n)
	}
	dir, _ := render(t, "tikz", d)
	if tex := read(t, dir, "chapter13-live.tex"); strings.Count(string(tex), `\fill`) > 100 || strings.Count(string(tex), `\node`) > 100 {
		t.Errorf("the figure draws %d rectangles and %d nodes", strings.Count(string(tex), `\fill`), strings.Count(string(tex), `\node`))
	}
	pdflatex(t, dir, t.TempDir(), "chapter13-live.tex")
}

// A mark's label stays in the plot as wide as a backend draws it: the
// peak's label of gpt-depth's live bytes, at operation 19 of 80, once ran
// left past the y axis onto its tick 150 in the SVG.
func TestMarkLabelsClearTicks(t *testing.T) {
	f := figureNamed(t, explain.Chapter(input(t, "gpt-depth")), "live")
	texts, boxes := svgTextBoxes(t, figureSVG(f))
	isMark := map[string]bool{}
	for _, m := range f.Marks {
		isMark[doc.PlainText(m.Label, " ")] = true
	}
	seen := 0
	for i := range texts {
		if !isMark[texts[i]] {
			continue
		}
		seen++
		for j := range texts {
			if j != i && boxes[i].meets(boxes[j]) {
				t.Errorf("the SVG's %q at %v meets %q at %v", texts[i], boxes[i], texts[j], boxes[j])
			}
		}
	}
	if seen == 0 {
		t.Fatalf("the SVG sets no mark's label: %q", texts)
	}
}

// layoutLabels returns every label of p as the layout places it, each
// with what it says as the SVG sets it: each mark's label as wide as the
// widest backend draws it, and each guide's and band's name the figure
// draws.
func layoutLabels(p plot) (texts []string, boxes []box) {
	for k, m := range p.fig.Marks {
		text := doc.PlainText(m.Label, doc.ThinSpace)
		w := labelChar * float64(len([]rune(text))) * labelReach
		texts = append(texts, text)
		boxes = append(boxes, markLabelBox(p.x.frac(m.At.X), p.y.frac(m.At.Y), w, p.marks[k]))
	}
	for i, g := range p.fig.Guides {
		if b, ok := p.guideLabelBox(i, p.guideLabels[i]); ok {
			texts = append(texts, doc.PlainText(g.Label, doc.ThinSpace))
			boxes = append(boxes, b)
		}
	}
	for i, band := range p.fig.Bands {
		if b, ok := p.bandLabelBox(i); ok && p.bandLabels[i] {
			texts = append(texts, band.Label)
			boxes = append(boxes, b)
		}
	}
	return texts, boxes
}

// labelsApart fails t for each two of f's labels whose boxes meet, as the
// layout places them and as the SVG draws them, and for each guide's
// name the layout puts on a mark's circle.
func labelsApart(t *testing.T, f *doc.Figure) {
	t.Helper()
	p := layout(f)
	texts, boxes := layoutLabels(p)
	for i := range boxes {
		for j := range i {
			if boxes[i].meets(boxes[j]) {
				t.Errorf("the layout's %q at %v meets %q at %v", texts[i], boxes[i], texts[j], boxes[j])
			}
		}
	}
	for i, g := range f.Guides {
		b, ok := p.guideLabelBox(i, p.guideLabels[i])
		for k, m := range f.Marks {
			if ok && b.meets(p.markBox(k)) {
				t.Errorf("the guide's name %q at %v is on the mark %q", doc.PlainText(g.Label, " "), b, doc.PlainText(m.Label, " "))
			}
		}
	}
	isLabel := map[string]bool{}
	for _, text := range texts {
		isLabel[text] = true
	}
	texts, boxes = svgTextBoxes(t, figureSVG(f))
	drawn := map[string]bool{}
	for _, text := range texts {
		drawn[text] = true
	}
	for _, m := range f.Marks {
		if text := doc.PlainText(m.Label, doc.ThinSpace); !drawn[text] {
			t.Errorf("the SVG does not set the label %q as it is", text)
		}
	}
	for i := range boxes {
		for j := range i {
			if isLabel[texts[i]] && isLabel[texts[j]] && boxes[i].meets(boxes[j]) {
				t.Errorf("the SVG's %q at %v meets %q at %v", texts[i], boxes[i], texts[j], boxes[j])
			}
		}
	}
}

// linearCandidates is encdec-cross's candidates on linear axes, alone in
// a document, its caption (which says counted) short.
func linearCandidates(t *testing.T) (*doc.Figure, *doc.Document) {
	t.Helper()
	in := input(t, "encdec-cross")
	in.Scale = explain.ScaleLinear
	f := *figureNamed(t, explain.Chapter(in), "candidates")
	f.Caption = inlinesOf("The candidates.")
	return &f, &doc.Document{Title: "Figure", Number: 13, Sections: []doc.Section{{Title: "Figure", Blocks: []doc.Block{&f}}}}
}

// wordsApart fails t for each two of phrases that meet among words, and
// for each not there in one piece, as when another label's words fall
// among its own ("T counted = 27").
func wordsApart(t *testing.T, words []pdfWord, phrases ...string) {
	t.Helper()
	var boxes []box
	for _, ph := range phrases {
		b, ok := phraseBox(words, ph)
		if !ok {
			var texts []string
			for _, w := range words {
				texts = append(texts, w.Text)
			}
			t.Fatalf("no %q in one piece among %q", ph, strings.Join(texts, " "))
		}
		boxes = append(boxes, b)
	}
	for i := range boxes {
		for j := range i {
			if boxes[i].meets(boxes[j]) {
				t.Errorf("%q at %v meets %q at %v", phrases[i], boxes[i], phrases[j], boxes[j])
			}
		}
	}
}

// No two labels of a figure meet, nor does a guide's name sit on a mark,
// in the layout, the SVG, the PDF and TikZ: encdec-cross's candidates on
// linear axes once set T = 27, counted and grid on one another by the
// origin.
func TestLabelsApart(t *testing.T) {
	f, d := linearCandidates(t)
	labelsApart(t, f)
	t.Run("pdf", func(t *testing.T) {
		tooltest.Need(t, "pdftotext", "the PDF's labels are not checked")
		dir, _ := render(t, "pdf", d)
		wordsApart(t, allWords(t, filepath.Join(dir, "chapter13.pdf")), "T = 27", "counted", "grid")
	})
	t.Run("tikz", func(t *testing.T) {
		wordsApart(t, standaloneFigure(t, d, "chapter13-candidates"), "T = 27", "counted", "grid")
	})
}

// No two labels meet in any figure of any bundled program's chapter, on
// the candidates' axes as chosen, logarithmic or linear.
func TestProgramsLabelsApart(t *testing.T) {
	if testing.Short() {
		t.Skip("every bundled program is recorded")
	}
	scales := []struct {
		name  string
		scale explain.Scale
	}{{"auto", explain.ScaleAuto}, {"log", explain.ScaleLog}, {"linear", explain.ScaleLinear}}
	for _, prog := range programs.All() {
		if !explainable(t, prog.Name) {
			t.Logf("%s has no chapter", prog.Name)
			continue
		}
		for _, sc := range scales {
			t.Run(prog.Name+"/"+sc.name, func(t *testing.T) {
				in := input(t, prog.Name)
				in.Scale = sc.scale
				for _, f := range explain.Chapter(in).Figures() {
					if f.Boxes == nil {
						t.Run(f.Name, func(t *testing.T) { labelsApart(t, f) })
					}
				}
			})
		}
	}
}

// explainable reports whether the bundled program name has a chapter:
// strided-conv, whose bytes are no polynomial, has none.
func explainable(t *testing.T, name string) bool {
	t.Helper()
	src, err := source.NewProgram(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = explain.Gather(context.Background(), &explain.Request{Program: name, Source: src, At: src.Default()})
	return err == nil
}

// A figure in half of a page's text, two side by side as a paper sets
// them, keeps its mark's label inside its axis: gpt-course's live bytes
// peak at operation 19 of 46, where "peak, operation 19" once ran left
// over the y axis' "150". Its bands are each named, in the band or in the
// key below the plot.
func TestTikZNarrowFigure(t *testing.T) {
	tooltest.Need(t, "pdflatex", "the paper is not compiled")
	tooltest.Need(t, "pdftotext", "the paper's words are not read")
	paper := t.TempDir()
	renderUnder(t, paper, "gpt-course", "gpt")
	tex := "\\documentclass{article}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n\\begin{document}\n" +
		"\\begin{figure}\n\\begin{minipage}[t]{0.48\\textwidth}\\centering\n\\input{gpt/chapter13-live}\n\\end{minipage}\\hfill\n" +
		"\\begin{minipage}[t]{0.48\\textwidth}\\centering\nText.\n\\end{minipage}\n\\end{figure}\n\\end{document}\n"
	if err := os.WriteFile(filepath.Join(paper, "paper.tex"), []byte(tex), 0o644); err != nil {
		t.Fatal(err)
	}
	pdflatex(t, paper, paper, "paper.tex")
	words := allWords(t, filepath.Join(paper, "paper.pdf"))
	label, ok := phraseBox(words, "peak, operation 19")
	if !ok {
		t.Fatalf("the figure lacks its peak's label: %v", words)
	}
	for _, tick := range []string{"0", "50", "100", "150", "200"} {
		b, ok := phraseBox(words, tick)
		if !ok {
			t.Fatalf("the figure lacks the tick %q", tick)
		}
		if b[2] > label[0] {
			t.Errorf("the peak's label at %v starts left of the y axis' %q at %v", label, tick, b)
		}
	}
	for _, name := range []string{"blocks[0]", "blocks[1]", "emb", "head", "(operation 45)."} {
		if _, ok := phraseBox(words, name); !ok {
			t.Errorf("the figure does not name %q: %v", name, words)
		}
	}
}

// Every band with a name is named, in the band or in the key, and the
// formats draw the same: the layout decides which names go in the bands.
func TestBandsNamedOrKeyed(t *testing.T) {
	for _, name := range []string{"llama2-7b-block", "gpt-course"} {
		f := figureNamed(t, explain.Chapter(input(t, name)), "live")
		p := layout(f)
		key := doc.PlainText(p.bandKey(), " ")
		svg := string(figureSVG(f))
		tikz := string(tikzFigure(f, Options{}))
		for i, b := range f.Bands {
			inBand := p.bandLabels[i]
			if inBand == strings.Contains(key, b.Label+" (") {
				t.Errorf("%s: band %q is named in the band %v and in the key %q", name, b.Label, inBand, key)
			}
			node := "{" + texEscape(b.Label) + "};"
			if strings.Contains(tikz, node) != inBand || strings.Contains(svg, ">"+esc(b.Label)+"</text>") != inBand {
				t.Errorf("%s: band %q named in the band: layout %v, TikZ %v, SVG %v", name, b.Label, inBand, strings.Contains(tikz, node), strings.Contains(svg, ">"+esc(b.Label)+"</text>"))
			}
		}
		if key != "" && !strings.Contains(tikz, texEscape(f.Bands[0].Label)) {
			t.Errorf("%s: the TikZ lacks the key %q", name, key)
		}
	}
}
