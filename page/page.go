package page

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"

	"memsym/internal/outfile"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// Options are a page's settings; the zero value takes the defaults.
type Options struct {
	// Title names the program at the top; default the model's source.
	Title string
	// At is the dimensions' first values; default the model's first grid
	// point.
	At record.Point
	// Max gives some dimensions' largest value on the page; the others
	// take DefaultMax.
	Max map[string]int64
	// Steps are training steps of the program to show beside the model,
	// each with its terms, store and recompute; none for none.
	Steps []Step
	// Runs returns nil where the program runs, else why not in the
	// program's words ("T = 513 is more than P = 512"): each slider then
	// stops where the program does, and the page says why. Nil when the
	// source cannot say (recording files, a recorder): the sliders run
	// from 1.
	Runs func(record.Point) error
}

// MaxValue is the largest value of a dimension the page holds exactly:
// 2^53 − 1, below which every integer is a JavaScript number.
const MaxValue = 1<<53 - 1

// DefaultMax is a dimension's largest value on the page when Options
// does not give it: 512 for a batch B, 32 768 for any other dimension
// (sequences, widths), and at least twice the largest value the model
// was recorded or checked at, and the first value; at most MaxValue but
// where the first value is larger.
func DefaultMax(m *model.Model, dim string, first int64) int64 {
	hi := int64(32768)
	if dim == "B" {
		hi = 512
	}
	j := -1
	for i, v := range m.Vars {
		if v == dim {
			j = i
		}
	}
	var seen []int64
	if j >= 0 {
		seen = append(seen, m.Grid[j]...)
		for _, c := range m.Checked {
			seen = append(seen, c[j])
		}
	}
	for _, v := range seen {
		if v > MaxValue/2 {
			v = (MaxValue + 1) / 2 // twice it is past MaxValue, and stops there
		}
		hi = max(hi, 2*v)
	}
	return max(min(hi, MaxValue), first)
}

// Dim is one dimension on the page: its slider runs from Min to Max and
// starts at Value.
type Dim struct {
	Name            string
	Min, Max, Value int64
	// Stops says why the range stops above 1 or below the page's largest
	// value, where the program does not run, in the program's words:
	// "strided-conv does not run at N = 2: K = 3 is more than N = 2".
	Stops []string
}

// Page is a model made ready to draw as an interactive page.
type Page struct {
	m      *model.Model
	title  string
	dims   []Dim
	groups []Group
	calls  *callTree
	shares [][]poly.Poly // per candidate, per call
	net    *Network
	bands  []Band
	// inputsOther is the caller-held bytes other than the parameters;
	// outputsOther the result's bytes other than the parameters it
	// returns.
	inputsOther, outputsOther poly.Poly
	steps                     []Step
}

// New makes the page of m.
func New(m *model.Model, opt Options) (*Page, error) {
	if d := m.FoldDim(); d != "" {
		// Its structure holds two of the blocks that d counts; the page
		// counts groups and calls from it.
		return nil, fmt.Errorf("the page cannot yet draw a program whose %s counts blocks of operations: use memsym symbolic, eval or fit", d)
	}
	if err := checkSteps(m, opt.Steps); err != nil {
		return nil, err
	}
	pg := &Page{m: m, title: opt.Title, steps: opt.Steps}
	if pg.title == "" {
		pg.title = m.Source
	}
	// The page's script holds each value as a JavaScript number, exact
	// only up to MaxValue: a larger one would show, and count, another.
	for i, v := range m.Vars {
		recorded := append([]int64(nil), m.Grid[i][:]...)
		for _, c := range m.Checked {
			recorded = append(recorded, c[i])
		}
		for _, x := range recorded {
			if x > MaxValue {
				return nil, fmt.Errorf("the page cannot show %s = %d, where the model was recorded: its sliders are JavaScript numbers, exact up to %d (2^53 − 1)", v, x, int64(MaxValue))
			}
		}
	}
	for i, v := range m.Vars {
		first := m.Grid[i][0]
		if opt.At != nil {
			x, ok := pointValue(opt.At, v)
			if !ok {
				return nil, fmt.Errorf("the page's first point %s has no value for %s", opt.At, v)
			}
			if x < 1 {
				return nil, fmt.Errorf("the page's first point %s: expected %s ≥ 1", opt.At, v)
			}
			first = x
		}
		hi, ok := opt.Max[v]
		if !ok {
			hi = DefaultMax(m, v, first)
		}
		if hi > MaxValue {
			return nil, fmt.Errorf("the page's largest %s, %d, is more than its sliders hold exactly: expected at most %d (2^53 − 1)", v, hi, int64(MaxValue))
		}
		if hi < first {
			return nil, fmt.Errorf("the page's largest %s is %d, below its first value %d", v, hi, first)
		}
		pg.dims = append(pg.dims, Dim{Name: v, Min: 1, Max: hi, Value: first})
	}
	if opt.Runs != nil {
		if err := pg.limitDims(opt.Runs); err != nil {
			return nil, err
		}
	}
	var err error
	if pg.groups, err = Groups(m); err != nil {
		return nil, err
	}
	pg.calls = buildCalls(m.Structure)
	pg.shares = pg.calls.shares(m)
	pg.net = layoutNetwork(pg.calls.calls, m.Header().Entry)
	pg.bands = bands(m.Structure)
	pg.inputsOther = poly.WithVars(m.Inputs.Sub(m.Params), m.Vars)
	pg.outputsOther = poly.WithVars(m.Outputs, m.Vars)
	for _, g := range pg.groups {
		for _, p := range g.Parts {
			if p.InResult > 0 {
				pg.outputsOther = pg.outputsOther.Sub(p.Bytes.Scale(poly.Int(int64(p.InResult))))
			}
		}
	}
	return pg, nil
}

func pointValue(p record.Point, name string) (int64, bool) {
	for _, d := range p {
		if d.Name == name {
			return d.Value, true
		}
	}
	return 0, false
}

// Dims returns the page's dimensions.
func (pg *Page) Dims() []Dim { return append([]Dim(nil), pg.dims...) }

// Calls returns the page's calls, in the order of memsym memory's calls'
// table.
func (pg *Page) Calls() []Call { return pg.calls.calls }

// Network returns the network's layout.
func (pg *Page) Network() *Network { return pg.net }

// Steps returns the training steps the page shows.
func (pg *Page) Steps() []Step { return pg.steps }

// Bands returns the bands drawn under the live bytes' curve.
func (pg *Page) Bands() []Band { return pg.bands }

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// Render writes the page: one HTML file holding its style, its script
// and its data, which fetches nothing.
func (pg *Page) Render(w io.Writer) error {
	data, err := json.Marshal(pg.data())
	if err != nil {
		return err
	}
	var b bytes.Buffer
	title := html.EscapeString(pg.title)
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s: memory</title>
<style>
%s</style>
</head>
<body>
<noscript><p>This page counts memory in its script; it needs JavaScript.</p></noscript>
<main id="page"></main>
<script type="application/json" id="memsym-data">%s</script>
<script>
%s</script>
</body>
</html>
`, title, pageCSS, data, pageJS)
	_, err = w.Write(b.Bytes())
	return err
}

// FileName returns the file a page named name is written as: name, with
// ".html" added when it has no extension. A name that holds a directory
// is an error.
func FileName(name string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) || name == "." || name == ".." {
		return "", fmt.Errorf("page name %q: expected a file name without a directory", name)
	}
	if filepath.Ext(name) == "" {
		name += ".html"
	}
	return name, nil
}

// Write writes m's page into dir as name (".html" added when name has no
// extension) and returns its path, as WriteFile does.
func Write(m *model.Model, dir, name string, opt Options) (string, error) {
	pg, err := New(m, opt)
	if err != nil {
		return "", err
	}
	return pg.WriteFile(dir, name)
}

// WriteFile writes the page into dir as name (".html" added when name has
// no extension) and returns its path. A regular file appears whole or not
// at all; a FIFO or a device there is written in place, a symbolic link's
// target written (see outfile.Write).
func (pg *Page) WriteFile(dir, name string) (string, error) {
	name, err := FileName(name)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := pg.Render(&b); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	if err := outfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	}); err != nil {
		return "", err
	}
	return path, nil
}
