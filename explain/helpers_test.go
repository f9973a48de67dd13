package explain_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/programs"
	"memsym/source"
)

// chapters caches each bundled program's chapter input: building one
// records the program at a dozen points or more.
var chapters sync.Map // program name → *explain.Input

// input runs a bundled program through the real pipeline, as `memsym
// explain --program name` does: the model at the program's default
// constants, the counts at its default point, the crossovers confirmed by
// recordings, check M3 at three points, and the crossovers at the
// program's chapter constants, if it has any. Each call returns a fresh
// copy that the caller may change.
func input(t testing.TB, name string) *explain.Input {
	t.Helper()
	if in, ok := chapters.Load(name); ok {
		return copyInput(in.(*explain.Input))
	}
	in, err := build(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	chapters.Store(name, in)
	return copyInput(in)
}

// gathered gathers what r asks for and builds the chapter's input from it.
func gathered(t testing.TB, r *explain.Request) *explain.Input {
	t.Helper()
	c, err := explain.Gather(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	in, err := explain.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func build(name string) (*explain.Input, error) {
	ctx := context.Background()
	src, err := source.NewProgram(name, nil)
	if err != nil {
		return nil, err
	}
	r := &explain.Request{Program: name, Source: src, At: src.Default(), Verify: 3, Confirm: true}
	if ch := src.P.Chapter; ch != nil {
		other, err := source.NewProgram(name, ch.Consts)
		if err != nil {
			return nil, err
		}
		r.Elsewhere = append(r.Elsewhere, other)
	}
	c, err := explain.Gather(ctx, r)
	if err != nil {
		return nil, err
	}
	return explain.Build(c)
}

// copyInput copies what tests change of an input: its slices of rows.
func copyInput(in *explain.Input) *explain.Input {
	out := *in
	if in.Symbolic != nil {
		sym := *in.Symbolic
		sym.Candidates = slices.Clone(sym.Candidates)
		sym.Undecided = slices.Clone(sym.Undecided)
		sym.Witnesses = slices.Clone(sym.Witnesses)
		if sym.Cross != nil {
			cross := *sym.Cross
			cross.Segments = slices.Clone(cross.Segments)
			cross.Confirmed = slices.Clone(cross.Confirmed)
			cross.Fixed = slices.Clone(cross.Fixed)
			cross.Free = slices.Clone(cross.Free)
			sym.Cross = &cross
		}
		out.Symbolic = &sym
	}
	if in.Point != nil {
		pc := *in.Point
		out.Point = &pc
	}
	out.Verified = slices.Clone(in.Verified)
	out.Elsewhere = slices.Clone(in.Elsewhere)
	return &out
}

// bundled returns the names of the bundled programs memsym models (those it
// must refuse left out).
func bundled() []string {
	var names []string
	for _, p := range programs.All() {
		if p.Refusal == "" {
			names = append(names, p.Name)
		}
	}
	return names
}

// dump writes d as plain text, one block a paragraph, so that a golden
// file shows the chapter's words and data as a reader would check them.
func dump(d *doc.Document) string {
	var b strings.Builder
	text := func(ins []doc.Inline) string { return doc.PlainText(ins, " ") }
	fmt.Fprintf(&b, "# %d %s\n", d.Number, d.Title)
	for i, s := range d.Sections {
		fmt.Fprintf(&b, "\n## %d.%d %s\n", d.Number, i+1, s.Title)
		for _, blk := range s.Blocks {
			b.WriteByte('\n')
			switch blk := blk.(type) {
			case *doc.Paragraph:
				b.WriteString(text(blk.Inlines) + "\n")
			case *doc.List:
				for _, item := range blk.Items {
					b.WriteString("- " + text(item) + "\n")
				}
			case *doc.Table:
				b.WriteString("table: " + text(blk.Caption) + "\n")
				row := func(cells []doc.Cell, indent int) {
					parts := make([]string, len(cells))
					for i, c := range cells {
						parts[i] = text(c)
					}
					parts[0] = strings.Repeat("  ", indent) + parts[0]
					b.WriteString("| " + strings.Join(parts, " | ") + " |\n")
				}
				row(blk.Header, 0)
				for i, r := range blk.Rows {
					indent := 0
					if i < len(blk.Indent) {
						indent = blk.Indent[i]
					}
					row(r, indent)
				}
				for _, r := range blk.Foot {
					b.WriteString("|--\n")
					row(r, 0)
				}
			case *doc.Figure:
				if bx := blk.Boxes; bx != nil {
					fmt.Fprintf(&b, "[figure %s: boxes %d×%d, whole %s]\n", blk.Name, bx.Width, bx.Height, bx.Whole)
					for i := range bx.Boxes {
						box := &bx.Boxes[i]
						fmt.Fprintf(&b, "  box %d,%d %d×%d %q leaf=%v %s\n", box.X, box.Y, box.W, box.H, box.Title, box.Leaf, box.PercentOf(bx.Whole))
					}
					fmt.Fprintf(&b, "  caption: %s\n", text(blk.Caption))
					continue
				}
				fmt.Fprintf(&b, "[figure %s: x %q, y %q, log %v/%v]\n", blk.Name, text(blk.XLabel), text(blk.YLabel), blk.LogX, blk.LogY)
				for _, s := range blk.Series {
					pts := make([]string, len(s.Points))
					for i, p := range s.Points {
						pts[i] = p.X.String() + ":" + p.Y.String()
					}
					fmt.Fprintf(&b, "  series %q steps=%v: %s\n", s.Label, s.Steps, strings.Join(pts, " "))
				}
				for _, m := range blk.Marks {
					fmt.Fprintf(&b, "  mark %s:%s %q\n", m.At.X, m.At.Y, text(m.Label))
				}
				for _, band := range blk.Bands {
					fmt.Fprintf(&b, "  band %s–%s %q\n", band.From, band.To, band.Label)
				}
				for _, g := range blk.Guides {
					fmt.Fprintf(&b, "  guide %s %q\n", g.X, text(g.Label))
				}
				b.WriteString("  caption: " + text(blk.Caption) + "\n")
			}
		}
	}
	if len(d.Formulas) > 0 {
		b.WriteString("\nformulas:\n")
		for _, f := range d.Formulas {
			fmt.Fprintf(&b, "  %s (%s, candidate=%v, plus peak=%v): %s\n", f.Key, f.Label, f.Of == "Peak", f.PlusPeak, f.Poly)
		}
	}
	if len(d.Numbers) > 0 {
		b.WriteString("\nnumbers:\n")
		for _, n := range d.Numbers {
			fmt.Fprintf(&b, "  %s (%s): %s\n", n.Key, n.Label, n.Value)
		}
	}
	return b.String()
}
