package reports

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"memsym/doc"
)

func init() { Register(htmlRenderer{}) }

// htmlRenderer writes one standalone page, STEM.html: the Markdown
// chapter through goldmark with GitHub's tables, its figures inline as SVG.
type htmlRenderer struct{}

func (htmlRenderer) Name() string { return "html" }

func (htmlRenderer) Render(d *doc.Document, dir string, o Options) ([]string, error) {
	page, err := htmlPage(d, o)
	if err != nil {
		return nil, err
	}
	return writeAll(dir, files{o.stem() + ".html": page})
}

// htmlPage converts d's Markdown to a standalone HTML page.
func htmlPage(d *doc.Document, o Options) ([]byte, error) {
	svgs := map[string][]byte{}
	for _, nf := range figureNames(d, o) {
		svgs[nf.stem+".svg"] = figureSVG(nf.fig)
	}
	md := goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithRendererOptions(html.WithUnsafe(), renderer.WithNodeRenderers(
			util.Prioritized(&inlineFigures{svgs: svgs}, 100))),
	)
	var body bytes.Buffer
	if err := md.Convert(markdown(d, o), &body); err != nil {
		return nil, fmt.Errorf("%s.html: %w", o.stem(), err)
	}
	var page bytes.Buffer
	page.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&page, "<meta name=\"generator\" content=\"%s\">\n", writtenBy)
	fmt.Fprintf(&page, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(d.Title), htmlStyle)
	page.Write(body.Bytes())
	page.WriteString("</body>\n</html>\n")
	return page.Bytes(), nil
}

// htmlStyle is the page's style sheet: a readable column, tables ruled
// lightly above, below and under their header only.
const htmlStyle = `
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; max-width: 52em; margin: 2em auto; padding: 0 1em; line-height: 1.5; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.4em 0 1.2em; border-top: 1.5px solid #444; border-bottom: 1.5px solid #444; }
th, td { padding: 0.2em 0.7em; }
th { border-bottom: 1px solid #444; text-align: left; }
td { font-variant-numeric: tabular-nums; }
td strong { font-weight: 600; }
code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; }
svg { max-width: 100%; height: auto; display: block; }
`

// inlineFigures renders a Markdown image whose destination is one of the
// chapter's figures as that figure's SVG, inline.
type inlineFigures struct{ svgs map[string][]byte }

func (r *inlineFigures) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindImage, r.image)
}

func (r *inlineFigures) image(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := node.(*ast.Image)
	svg, ok := r.svgs[string(img.Destination)]
	if !ok {
		fmt.Fprintf(w, `<img src="%s" alt="">`, esc(string(img.Destination)))
		return ast.WalkSkipChildren, nil
	}
	_, err := w.Write(svg)
	return ast.WalkSkipChildren, err
}
