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

	"memsym/explain"
	"memsym/poly"
)

func TestMarkdownGolden(t *testing.T) {
	dir, _ := render(t, "md", chapter())
	golden(t, "md/chapter13.md", read(t, dir, "chapter13.md"))
}

// GitHub must see each of the chapter's tables as a table with its
// columns, and each figure as an image of its SVG.
func TestMarkdownTablesAreTables(t *testing.T) {
	doc := chapter()
	var want [][2]int // columns and rows of each table
	doc.Walk(func(_ *explain.Section, b explain.Block) {
		if tb, ok := b.(*explain.Table); ok {
			want = append(want, [2]int{len(tb.Header), len(tb.Rows)})
		}
	})
	src := markdown(doc)
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
	if strings.Join(images, " ") != "live.svg candidates.svg" {
		t.Errorf("images %v, want live.svg and candidates.svg", images)
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct {
		in   []explain.Inline
		want string
	}{
		{[]explain.Inline{explain.Text("a_b*c|d [e] <f> #1 & ~x")}, `a\_b\*c\|d \[e\] \<f\> \#1 \& \~x`},
		{[]explain.Inline{explain.Code("x|y")}, "`x\\|y`"},
		{[]explain.Inline{explain.Code("a`b")}, "``a`b``"},
		{[]explain.Inline{explain.Number{Value: bigInt(86532096)}}, "86\u202f532\u202f096"},
		{[]explain.Inline{explain.Number{Value: bigInt(3238627392), Human: true}}, "3.2 GB"},
	} {
		if got := mdInlines(c.in); got != c.want {
			t.Errorf("mdInlines(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Each figure's SVG must be well-formed XML with a line per series.
func TestSVGWellFormed(t *testing.T) {
	for _, f := range chapter().Figures() {
		svg := figureSVG(f)
		dec := xml.NewDecoder(bytes.NewReader(svg))
		lines := 0
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
		}
		if lines != len(f.Series) {
			t.Errorf("%s.svg: %d polylines for %d series", f.Name, lines, len(f.Series))
		}
	}
}

func TestHTMLPage(t *testing.T) {
	doc := chapter()
	dir, _ := render(t, "html", doc)
	page := string(read(t, dir, "chapter13.html"))
	tables := 0
	doc.Walk(func(_ *explain.Section, b explain.Block) {
		if _, ok := b.(*explain.Table); ok {
			tables++
		}
	})
	for _, c := range []struct {
		what string
		n    int
	}{
		{"<table>", tables},
		{"<svg ", len(doc.Figures())},
		{"<img", 0},
		{"<h2>", len(doc.Sections)},
		{`<th style="text-align:right">bytes</th>`, 2},
	} {
		if got := strings.Count(page, c.what); got != c.n {
			t.Errorf("%d of %s in the page, want %d", got, c.what, c.n)
		}
	}
	for _, want := range []string{"<!DOCTYPE html>", "<code>GPT.apply</code>", "144 · B · T² + 6144 · B · T + 8 · T²", "149\u202f504", "</html>"} {
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
		doc := &explain.Document{Sections: []explain.Section{{Blocks: []explain.Block{
			&explain.Paragraph{Inlines: []explain.Inline{explain.Text(want)}},
		}}}}
		src := markdown(doc)
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
