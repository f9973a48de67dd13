package doc_test

import (
	"testing"

	"memsym/doc"
	"memsym/poly"
)

func xy(x, y int64) doc.XY { return doc.XY{X: poly.Int(x), Y: poly.Int(y)} }

func TestWalkAndFigures(t *testing.T) {
	live := &doc.Figure{Name: "live"}
	cands := &doc.Figure{Name: "candidates"}
	p := &doc.Paragraph{Inlines: []doc.Inline{doc.Text("a")}}
	d := &doc.Document{Sections: []doc.Section{
		{Title: "one", Blocks: []doc.Block{p, live}},
		{Title: "two"},
		{Title: "three", Blocks: []doc.Block{&doc.List{}, cands}},
	}}
	var seen []string
	d.Walk(func(s *doc.Section, b doc.Block) { seen = append(seen, s.Title) })
	if want := []string{"one", "one", "three", "three"}; len(seen) != len(want) {
		t.Fatalf("Walk visited %q, want %q", seen, want)
	} else {
		for i := range want {
			if seen[i] != want[i] {
				t.Fatalf("Walk visited %q, want %q", seen, want)
			}
		}
	}
	figs := d.Figures()
	if len(figs) != 2 || figs[0] != live || figs[1] != cands {
		t.Errorf("Figures() = %v, want live then candidates", figs)
	}
}

// A figure's ranges cover its series and its marks, negative values and
// fractions included.
func TestFigureRanges(t *testing.T) {
	f := &doc.Figure{
		Series: []doc.Series{
			{Points: []doc.XY{xy(1, 5), xy(2, -3)}},
			{Points: []doc.XY{{X: poly.Frac(1, 2), Y: poly.Int(7)}}},
		},
		Marks: []doc.Mark{{At: xy(9, 4)}},
	}
	check := func(what string, lo, hi, wantLo, wantHi poly.Rat) {
		t.Helper()
		if lo.Cmp(wantLo) != 0 || hi.Cmp(wantHi) != 0 {
			t.Errorf("%s = %s, %s; want %s, %s", what, lo, hi, wantLo, wantHi)
		}
	}
	lo, hi := f.XRange()
	check("XRange", lo, hi, poly.Frac(1, 2), poly.Int(9))
	lo, hi = f.YRange()
	check("YRange", lo, hi, poly.Int(-3), poly.Int(7))
}

func TestPlainText(t *testing.T) {
	p, err := poly.Parse("48*B*T^2")
	if err != nil {
		t.Fatal(err)
	}
	in := []doc.Inline{
		doc.Text("peak "), doc.Number{Value: poly.Int(86532096)}, doc.Text(" bytes ("),
		doc.Number{Value: poly.Int(3238627392), Human: true}, doc.Text(") at "), doc.Code("blocks.ff"),
		doc.Text(": "), doc.Formula{Poly: p},
	}
	want := "peak 86 532 096 bytes (3.2 GB) at blocks.ff: 48 · B · T²"
	if got := doc.PlainText(in, " "); got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}
