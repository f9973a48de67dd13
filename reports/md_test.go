package reports

import (
	"bytes"
	"encoding/xml"
	"html"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"memsym/doc"
	"memsym/explain"
	"memsym/poly"
)

func TestMarkdownGolden(t *testing.T) {
	dir, _ := render(t, "md", chapter(t))
	golden(t, "md/chapter13.md", read(t, dir, "chapter13.md"))
	golden(t, "md/chapter13-live.svg", read(t, dir, "chapter13-live.svg"))
}

// GitHub must see each of the chapter's tables as a table with its
// columns, and each figure as an image of its SVG.
func TestMarkdownTablesAreTables(t *testing.T) {
	d := chapter(t)
	var want [][2]int // columns and rows of each table
	d.Walk(func(_ *doc.Section, b doc.Block) {
		if tb, ok := b.(*doc.Table); ok {
			want = append(want, [2]int{len(tb.Header), len(tb.Rows) + len(tb.Foot)})
		}
	})
	src := markdown(d, Options{})
	root := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(src))
	var got [][2]int
	var images []string
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *east.Table:
			cols, rows := 0, 0
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *east.TableHeader:
					cols = c.ChildCount()
				case *east.TableRow:
					rows++
					if c.ChildCount() != cols {
						t.Errorf("a row has %d cells, the header %d", c.ChildCount(), cols)
					}
				}
			}
			got = append(got, [2]int{cols, rows})
		case *ast.Image:
			images = append(images, string(n.Destination))
		}
		return ast.WalkContinue, nil
	})
	if len(got) != len(want) {
		t.Fatalf("goldmark found %d tables, the chapter has %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("table %d: %v columns and rows, want %v", i+1, got[i], want[i])
		}
	}
	if strings.Join(images, " ") != "chapter13-live.svg chapter13-calls.svg chapter13-candidates.svg" {
		t.Errorf("images %v, want chapter13-live.svg, chapter13-calls.svg and chapter13-candidates.svg", images)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct {
		in   []doc.Inline
		want string
	}{
		{[]doc.Inline{doc.Text("a_b*c|d [e] <f> #1 & ~x")}, `a\_b\*c\|d \[e\] \<f\> \#1 \& \~x`},
		{[]doc.Inline{doc.Code("x|y")}, "`x|y`"}, // escaped only in a table's cell
		{[]doc.Inline{doc.Code("x\n\n<script>y</script>")}, "`x\\n\\n<script>y</script>`"},
		{[]doc.Inline{doc.Text("h\nnew\x01")}, `h\\nnew\\x01`},
		{[]doc.Inline{doc.Code("a`b")}, "``a`b``"},
		{[]doc.Inline{doc.Number{Value: bigInt(86532096)}}, "86\u202f532\u202f096"},
		{[]doc.Inline{doc.Number{Value: bigInt(3238627392), Human: true}}, "3.2 GB"},
		{[]doc.Inline{doc.Math{doc.V("T"), doc.S("="), doc.NInt(1024)}}, "*T* = 1\u202f024"},
		{[]doc.Inline{doc.Math{doc.V("B"), doc.S(","), doc.VExp("T", 2), doc.S("≥"), doc.NInt(1)}}, "*B*, *T²* ≥ 1"},
		// A formula's coefficients grouped as the prose's numbers are,
		// from four digits on; a fraction as it is.
		{[]doc.Inline{doc.Formula{Poly: mustParse(t, "8*B*T + 16392*T - 1858125824")}}, "8 · *B* · *T* + 16\u202f392 · *T* − 1\u202f858\u202f125\u202f824"},
		{[]doc.Inline{doc.Formula{Poly: mustParse(t, "-1024*T^2 + 999*T + 3/2")}}, "−1\u202f024 · *T²* + 999 · *T* + 3/2"},
	} {
		if got := mdInlines(c.in); got != c.want {
			t.Errorf("mdInlines(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Each figure's SVG must be well-formed XML with a line per series.
func TestSVGWellFormed(t *testing.T) {
	var figs []*doc.Figure
	for _, name := range []string{"gpt-course", "decode-kv-cache", "mlp-train-step"} {
		figs = append(figs, explain.Chapter(input(t, name)).Figures()...)
	}
	for _, f := range figs {
		svg := figureSVG(f)
		dec := xml.NewDecoder(bytes.NewReader(svg))
		lines, rects := 0, 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s.svg: %v", f.Name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
				lines++
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
				rects++
			}
		}
		if f.Boxes != nil && rects != len(f.Boxes.Boxes) {
			t.Errorf("%s.svg: %d rectangles for %d boxes", f.Name, rects, len(f.Boxes.Boxes))
		}
		if lines != len(f.Series) {
			t.Errorf("%s.svg: %d polylines for %d series", f.Name, lines, len(f.Series))
		}
	}
}

// The Markdown's figure of the calls is an SVG file beside it, each box's
// title and per cent on its header.
func TestMarkdownCallsFigure(t *testing.T) {
	dir, _ := render(t, "md", chapter(t))
	md := string(read(t, dir, "chapter13.md"))
	if !strings.Contains(md, "](chapter13-calls.svg)") {
		t.Errorf("the Markdown does not show chapter13-calls.svg:\n%s", md)
	}
	svg := string(read(t, dir, "chapter13-calls.svg"))
	// At B = 2, T = 16 the peak is 149 504 bytes, of which the blocks made
	// 147 456 and blocks.ff.up 131 072 (memsym memory's calls' table).
	for _, want := range []string{">GPT.apply</text>", ">blocks ×2</text>", ">98.6%</text>", ">up</text>", ">87.7%</text>", ">own operations</text>", ">1.4%</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chapter13-calls.svg lacks %q", want)
		}
	}
}

func TestHTMLPage(t *testing.T) {
	d := chapter(t)
	dir, _ := render(t, "html", d)
	page := string(read(t, dir, "chapter13.html"))
	tables := 0
	d.Walk(func(_ *doc.Section, b doc.Block) {
		if _, ok := b.(*doc.Table); ok {
			tables++
		}
	})
	for _, c := range []struct {
		what string
		n    int
	}{
		{"<table>", tables},
		{"<svg ", len(d.Figures())},
		{"<img", 0},
		{"<h2>", len(d.Sections)},
		{`<th style="text-align:right">bytes</th>`, 2},
	} {
		if got := strings.Count(page, c.what); got != c.n {
			t.Errorf("%d of %s in the page, want %d", got, c.what, c.n)
		}
	}
	for _, want := range []string{"<!DOCTYPE html>", "<code>GPT.apply</code>", "48 · B · T² + 1\u2009024 · B · T + 8 · T²", "48 · <em>B</em> · <em>T²</em> + 1\u202f024 · <em>B</em> · <em>T</em> + 8 · <em>T²</em>", "149\u202f504", "<em>T</em> = 75", "\u2003\u2003<code>blocks.ln1</code>", "<strong>the peak: the sum of the unindented shares</strong>", ">blocks ×2</text>", ">98.6%</text>", `content="` + writtenBy + `"`, "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func bigInt(n int64) poly.Rat { return poly.Int(n) }

// Any text, written as a paragraph of Markdown, must read back as itself:
// nothing in it may turn into markup.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"a_b*c", "- item", "1. first", "# not a heading", "x | y", "<b>&amp;</b>", "`code`", "[a](b)", "~~s~~", "= =", "\\*", "**", "!["} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) && r != ' ' || r == '\uFFFD' }) {
			return
		}
		want := strings.Join(strings.Fields(s), " ")
		if want == "" {
			return
		}
		d := &doc.Document{Sections: []doc.Section{{Blocks: []doc.Block{
			&doc.Paragraph{Inlines: []doc.Inline{doc.Text(want)}},
		}}}}
		src := markdown(d, Options{})
		var out bytes.Buffer
		if err := md.Convert(src, &out); err != nil {
			t.Fatal(err)
		}
		page := out.String()
		start := strings.Index(page, "<p>")
		end := strings.LastIndex(page, "</p>")
		if start < 0 || end < start {
			t.Fatalf("%q: no paragraph in %q", want, page)
		}
		if got := html.UnescapeString(page[start+3 : end]); got != want {
			t.Fatalf("%q reads back as %q (markdown %q)", want, got, src)
		}
	})
}

// TestVisible: what would break a line or reorder the text after it is
// written as an escape; other characters stay as they are.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"blocks[0].ff":    "blocks[0].ff",
		"ñ 中":             "ñ 中",
		"a\nb|c":          `a\nb|c`,
		"evil\u202efdp":   `evil\u202efdp`,
		"l\u200em\u2069n": `l\u200em\u2069n`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// mustParse reads a polynomial in memsym's machine notation.
func mustParse(t *testing.T, s string) poly.Poly {
	t.Helper()
	p, err := poly.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
