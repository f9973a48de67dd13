package explain_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/interp"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the chapter written now; run go test -update and read the difference", path)
	}
}

// text is a program's chapter as plain text.
func text(t *testing.T, name string) string { return dump(explain.Chapter(input(t, name))) }

func TestChapterGolden(t *testing.T) {
	for _, name := range []string{"gpt-course", "llama2-7b-block", "decode-kv-cache"} {
		golden(t, name+".golden", text(t, name))
	}
}

// The chapter must say, in the seed's words and numbers, what holds the
// peak where, at which constants.
func TestChapterSentences(t *testing.T) {
	got := text(t, "gpt-course")
	for _, want := range []string{
		"Every number and formula of this chapter is at D = 64, H = 2, L = 2, except those of section 13.4",
		"The peak is at operation 19, Linear.apply/%5 in blocks[0].ff.up. Four buffers are live there (Table 13.2).",
		"| the peak of live bytes, at operation 19 of 45 | 149 504 | 146 KiB |",
		"| what is needed: the inputs and the peak | 1 052 928 | 1.00 MiB |",
		"| blocks ×2 | 147 456 | 98.6 | 147 456 |",
		"|     blocks.ff.up | 131 072 | 87.7 | 131 072 |",
		"| the peak: the sum of the unindented shares | 149 504 | 100 |",
		"Of the 149 504 bytes (146 KiB) live at the peak, blocks ×2 made 147 456 (98.6 %), blocks.ff.up 131 072 of them.",
		// One model: the polynomials at D = 64, whose crossover the seed
		// gives at T = 75.
		"| 3 | 4 608 · B · T + 8 · T² | 19, Linear.apply/%5 in blocks[0].ff.up | the feed-forward's up xW and up (B · T · 4D reals each) |",
		"Along T, for every B ≥ 1, memsym found exactly which candidate holds the peak",
		"- T = 1 to 74: candidate 3, 4 608 · B · T + 8 · T²;",
		"- T ≥ 75: candidate 2, 48 · B · T² + 1 024 · B · T + 8 · T².",
		"| B = 2, T = 74 | 725 792 bytes (709 KiB) at operation 19 | 725 792 bytes (709 KiB) at operation 19, candidate 3 | agrees |",
		// And at the course's constants, T = 150.
		"At D = 384, H = 6, L = 6, memsym built a model of its own the same way, its polynomials checked against recordings at (B = 64, T = 1 024) and (B = 115, T = 1 795).",
		"- T ≥ 150: 144 · B · T² + 6 144 · B · T + 8 · T², at operation 12",
		"| B = 2, T = 150 | 8 503 200 bytes (8.11 MiB) at operation 12 | 8 503 200 bytes (8.11 MiB) at operation 12 | agrees |",
		"mark 75:738600 \"T = 75\"",
		"mark 16:149504 \"counted\"",
		"mark 19:149504 \"peak, operation 19\"",
		"band 4–24 \"blocks[0]\"",
		"guide 256 \"grid\"",
		"B ∈ {16, 32, 48} and T ∈ {256, 512, 768}",
		"Check M3 records the program afresh at points off the grid",
		"CrossoverA (along T, for every B ≥ 1, at D = 64, H = 2, L = 2: from T = 75 the live set at operation 12 holds the peak): 75",
		"CrossoverB (along T, for every B ≥ 1, at D = 384, H = 6, L = 6: from T = 150 the live set at operation 12 holds the peak): 150",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q", want)
		}
	}
}

// Every number of a chapter is at one set of constants: the largest
// candidate at the counted point is the peak counted there, on every
// bundled program.
func TestOneModelPerChapter(t *testing.T) {
	for _, name := range bundled() {
		in := input(t, name)
		if in.Point == nil || in.Symbolic == nil || len(in.Vars) == 0 {
			t.Errorf("%s: the chapter has no point or no polynomials", name)
			continue
		}
		var top poly.Rat
		for _, c := range in.Symbolic.Candidates {
			v, err := c.Poly.EvalInt(in.Point.At.Map())
			if err != nil {
				t.Fatal(err)
			}
			if v.Cmp(top) > 0 {
				top = v
			}
		}
		if !top.Equal(in.Point.Peak) {
			t.Errorf("%s: the candidates give %s bytes at %s, the counted peak is %s", name, top, in.Point.At, in.Point.Peak)
		}
	}
}

// Build refuses a point counted at other constants than the model's.
func TestBuildRefusesTwoSetsOfConstants(t *testing.T) {
	ctx := context.Background()
	src, err := source.NewProgram("gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(ctx, src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	small, _ := source.NewProgram("gpt-course", nil)
	rec, err := small.Record(ctx, small.Default())
	if err != nil {
		t.Fatal(err)
	}
	_, err = explain.Build(&explain.Content{Program: "gpt-course", Model: m, Counted: rec})
	if err == nil || !strings.Contains(err.Error(), "a chapter has one set of constants") {
		t.Errorf("Build with the point at D = 64 and the model at D = 384: %v", err)
	}
}

// Crossovers found at a fixed value of the other dimensions must be said
// to hold there, never "for every B": the Llama block's order along T
// depends on B.
func TestForEveryOnlyWhenProven(t *testing.T) {
	llama := input(t, "llama2-7b-block")
	if c := llama.Symbolic.Cross; len(c.Free) != 0 || len(c.Fixed) != 1 {
		t.Fatalf("the Llama block's crossovers: free %v, fixed %v; want B fixed", c.Free, c.Fixed)
	}
	got := text(t, "llama2-7b-block")
	if strings.Contains(got, "for every B ≥ 1") || strings.Contains(got, "for any B") {
		t.Errorf("the Llama chapter claims its crossovers for every B:\n%s", got)
	}
	for _, want := range []string{"Along T, at B = 1, memsym found exactly which candidate holds the peak", "Candidates 1 and 2 hold the peak at no T ≥ 1 at B = 1;"} {
		if !strings.Contains(got, want) {
			t.Errorf("the Llama chapter lacks %q", want)
		}
	}
	// The same words for the course GPT, whose order is proven for every B.
	if gpt := text(t, "gpt-course"); !strings.Contains(gpt, "Along T, for every B ≥ 1, memsym found") {
		t.Errorf("the course GPT's chapter does not say its crossovers hold for every B")
	}
}

// A pair of candidates memsym could not decide must be named, and the
// chapter must not then say that none dominates another.
func TestUndecidedPair(t *testing.T) {
	in := input(t, "gpt-course")
	in.Symbolic.Undecided = [][2]int{{0, 2}}
	// As the engine gives it: no witnesses listed for an undecided pair.
	in.Symbolic.Witnesses = slices.DeleteFunc(in.Symbolic.Witnesses, func(w explain.Witness) bool {
		return min(w.Smaller, w.Larger) == 0 && max(w.Smaller, w.Larger) == 2
	})
	got := dump(explain.Chapter(in))
	for _, bad := range []string{"None of the three dominates another", "none of which dominates", "no other candidate is at least as large as it at every point"} {
		if strings.Contains(got, bad) {
			t.Errorf("with an undecided pair the chapter says %q", bad)
		}
	}
	for _, want := range []string{
		"memsym could neither prove nor refute that one of candidates 1 and 3 dominates the other for every B, T ≥ 1, so both are kept.",
		"For each of the other two pairs, at points with B, T ≥ 1 that it found, each exceeds the other in turn:",
		"- Candidates 1 and 2: 1 exceeds 2 at B = 1, T = 1 (2 072 bytes or 2.02 KiB, against 1 080 bytes or 1.05 KiB); 2 exceeds 1 at B = 1, T = 100 (662 400 bytes or 647 KiB, against 444 800 bytes or 434 KiB).",
		"no other candidate is proven to be at least as large as it at every point",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("with an undecided pair the chapter lacks %q", want)
		}
	}
	if want := "None of the three dominates another: for each pair"; !strings.Contains(text(t, "gpt-course"), want) {
		t.Errorf("without one it lacks %q", want)
	}
}

// shapeless is a bundled program whose recorder gives some buffers in
// bytes alone, without a type or a shape, as an executor may.
type shapeless struct {
	*source.Program
	names map[string]bool
}

func (s *shapeless) Recordings(ctx context.Context, spec source.Spec) (*source.Recordings, error) {
	pl, err := s.Plan(spec)
	if err != nil {
		return nil, err
	}
	src := func(p record.Point) interp.Source {
		return interp.Source{Name: p.Key(), Open: func() (record.Stream, error) {
			rec, err := s.Record(ctx, p)
			if err != nil {
				return nil, err
			}
			return rec.Replay(), nil
		}}
	}
	out := &source.Recordings{}
	for _, p := range pl.Points() {
		out.Grid = append(out.Grid, src(p))
	}
	for _, p := range pl.Checks {
		out.Checks = append(out.Checks, src(p))
	}
	return out, nil
}

func (s *shapeless) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	rec, err := s.Program.Record(ctx, p)
	if err != nil {
		return nil, err
	}
	bufs := rec.Buffers.Slice()
	for i := range bufs {
		if b := &bufs[i]; s.names[b.Name] && !b.IsView {
			b.Shape, b.DType = nil, record.DType{}
		}
	}
	rec.Buffers = record.BuffersOf(bufs)
	return rec, nil
}

// The chapter says why the bytes are polynomials from the axes only when
// every buffer has a shape; of buffers given in bytes it says so, and sizes
// them in bytes.
func TestShapesAndBytes(t *testing.T) {
	if got := text(t, "gpt-course"); !strings.Contains(got, "Every buffer of GPT.apply has a type and a shape, its bytes the type's size times the product of its axes. memsym takes each buffer's bytes to be a polynomial in B and T of degree at most two in each") {
		t.Errorf("the course GPT's chapter does not say its buffers have shapes")
	}
	p, err := source.NewProgram("gpt-course", nil)
	if err != nil {
		t.Fatal(err)
	}
	src := &shapeless{Program: p, names: map[string]bool{"up": true, "mask": true}}
	in := gathered(t, &explain.Request{Program: "gpt-course", Source: src, At: p.Default(), Verify: 1, Confirm: true})
	got := dump(explain.Chapter(in))
	if strings.Contains(got, "product of its axes") || strings.Contains(got, "each linearly") {
		t.Errorf("with buffers given in bytes the chapter speaks of every buffer's axes")
	}
	for _, want := range []string{
		"Three of the 77 buffers of GPT.apply are given in bytes alone, so nothing is known of their axes.",
		"| mask | GPT.apply | given in bytes | 2 048 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("with buffers given in bytes the chapter lacks %q", want)
		}
	}
}

// A model checked at no point off the grid is said to be unchecked.
func TestUncheckedModel(t *testing.T) {
	// The grid's recordings as files, and no check file beside them.
	p, err := source.NewProgram("mlp-width", nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := p.Plan(source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	var grid []string
	for _, pt := range pl.Points() {
		rec, err := p.Record(context.Background(), pt)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), pt.Key()+".jsonl")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := record.NewWriter(f)
		for s := rec.Replay(); s.Scan(); {
			if err := w.Write(s.Record()); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		grid = append(grid, path)
	}
	in := gathered(t, &explain.Request{Program: "mlp-width", Source: &source.Files{Grid: grid}, Confirm: true})
	got := dump(explain.Chapter(in))
	for _, want := range []string{
		"No recording off the grid was checked against the polynomials: the model is UNCHECKED.",
		"Check M3, which records the program afresh at further points and compares everything with the polynomials, was not run: recordings read from files cannot be made at new points.",
		"No recording was made beside the crossover to confirm it: recordings read from files cannot be made at new points.",
		"says that they were not checked off the grid.",
		// Not "which the checks above test": none did.
		"they hold of the program wherever the polynomials are its bytes, which no recording off the grid has tested.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the unchecked chapter lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "says where they were checked") {
		t.Errorf("the unchecked chapter points to where its model was checked:\n%s", got)
	}
	if strings.Contains(text(t, "mlp-width"), "UNCHECKED") {
		t.Errorf("a checked model is said to be unchecked")
	}
}

// A recording without dimensions gets its numbers and a sentence that says
// why there are no polynomials, and no panic.
func TestNoDimensions(t *testing.T) {
	src := &source.Files{Grid: []string{"testdata/no-dims.jsonl"}}
	in := gathered(t, &explain.Request{Program: "testdata/no-dims.jsonl", Source: src})
	d := explain.Chapter(in)
	got := dump(d)
	for _, want := range []string{
		"Tiny.apply has no dimensions: its sizes are fixed, so one recording gives its memory at every call, and there are no polynomials to make.",
		"memsym read the recording of Tiny.apply in f32, made operation by operation on buffers that have an identity, from the file no-dims.jsonl, and counts its memory from that recording",
		"## 13.2 Its counts",
		"| the peak of live bytes, at operation 3 of 3 | 244 |",
		"Nothing was interpolated: Tiny.apply has no dimensions",
		"PeakAtPoint (the peak's bytes at every call): 244",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter without dimensions lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "its dimensions alone set its sizes") || strings.Contains(got, "the first testdata") {
		t.Errorf("the chapter without dimensions speaks of its dimensions or of several files:\n%s", got)
	}
	if strings.Contains(got, "As polynomials") || strings.Contains(got, "  ") && strings.Contains(got, "in  ") || len(d.Formulas) != 0 {
		t.Errorf("the chapter without dimensions has polynomials or empty phrases:\n%s", got)
	}
}

// A recording beside a crossover that shows another peak or another
// operation is a contradiction, never "as predicted".
func TestConfirmationContradicted(t *testing.T) {
	in := input(t, "gpt-course")
	in.Symbolic.Cross.Confirmed[1].PeakOp = 13
	got := dump(explain.Chapter(in))
	for _, want := range []string{"One of them contradicts the crossovers.", "| B = 2, T = 75 | 738 600 bytes (721 KiB) at operation 13 | 738 600 bytes (721 KiB) at operation 12, candidate 2 | contradicts |"} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q", want)
		}
	}
	own, _, _ := strings.Cut(got, "## 13.4 At other constants")
	if strings.Contains(own, "Both show the peak the candidates predict") || strings.Contains(own, "| B = 2, T = 75 | 738 600 bytes (721 KiB) at operation 13 | 738 600 bytes (721 KiB) at operation 12, candidate 2 | agrees |") {
		t.Errorf("a contradicted crossover is said to be as predicted")
	}
	in = input(t, "gpt-course")
	in.Symbolic.Cross.Confirmed[0].Peak = in.Symbolic.Cross.Confirmed[0].Peak.Add(poly.Int(8))
	if got := dump(explain.Chapter(in)); !strings.Contains(got, "| B = 2, T = 74 | 725 800 bytes (709 KiB) at operation 19 | 725 792 bytes (709 KiB) at operation 19, candidate 3 | contradicts |") {
		t.Errorf("a peak of other bytes at the predicted operation is not a contradiction:\n%s", got)
	}
}

// A failed check M3 is shown with what differs.
func TestFailedCheck(t *testing.T) {
	in := input(t, "gpt-course")
	in.Verified[1].Err = "buffer 7 has 8 bytes, the polynomial gives 16"
	got := dump(explain.Chapter(in))
	for _, want := range []string{"One of them disagrees.", "disagrees: buffer 7 has 8 bytes, the polynomial gives 16 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q", want)
		}
	}
}

// Each candidate is named by its largest live buffer, with its size in the
// dimensions and constants.
func TestCandidateNames(t *testing.T) {
	for _, c := range []struct{ program, want string }{
		{"gpt-course", "the attention's masked scores, probabilities and exponentials (2 · B · T² reals each)"},
		{"llama2-7b-block", "the attention's scores (B · H · T² reals)"},
		{"llama2-7b-block", "the feed-forward's gate, up and swiglu (B · T · F reals each)"},
		{"mlp-train-step", "d weight in layers[0].grad (I · W reals)"},
		{"decode-kv-cache", "At every candidate, k cache and v cache (eight buffers of 64 · B · H · (P + 1) reals each) are live, larger than what some others hold; so the table names each candidate by its largest buffer of those not live at every candidate."},
		{"decode-kv-cache", "| 3 | 8 192 · B · P + 73 216 · B | 80, Linear.apply/%4 in head | the head's logits (B · V reals) |"},
		{"conv-same", "padded in convs[1] (B · C · (N + 2)² reals)"},
	} {
		if got := text(t, c.program); !strings.Contains(got, c.want) {
			t.Errorf("%s: no candidate is named %q", c.program, c.want)
		}
	}
	for _, line := range strings.Split(text(t, "mlp-train-step"), "\n") {
		if strings.Contains(line, "Linear.grad") && strings.Contains(line, "d bias") {
			t.Errorf("mlp-train-step: a candidate is named by a bias while a weight is live: %s", line)
		}
	}
}

// Where the candidates' lines overlap, a figure shows their excess over
// their common term.
func TestExcessFigure(t *testing.T) {
	got := text(t, "decode-kv-cache")
	if want := "[figure excess:"; !strings.Contains(got, want) {
		t.Errorf("the KV-cache decoder's chapter has no excess figure")
	}
	if want := "The candidates' excess over their common term, 8 192 · B · P + 9 248 · B, along P at B = 4"; !strings.Contains(got, want) {
		t.Errorf("the KV-cache decoder's chapter lacks %q", want)
	}
	if strings.Contains(text(t, "gpt-course"), "[figure excess:") {
		t.Errorf("the course GPT's candidates do not overlap, yet it has an excess figure")
	}
}

// The candidates are drawn over a realistic range: to 4 096 or beyond the
// last crossover; or, for a program that stops running below that (bert-
// encoder's T ≤ P = 512), to the last value it runs at, which the caption
// says, the program's crossovers and grid below it.
func TestCandidatesRange(t *testing.T) {
	for _, name := range bundled() {
		in := input(t, name)
		d := explain.Chapter(in)
		for _, f := range d.Figures() {
			if f.Name != "candidates" {
				continue
			}
			_, hi := f.XRange()
			want := poly.Int(4096)
			if c := in.Symbolic.Cross; c != nil && c.Reach.Last > 0 && c.Reach.Last < 4096 {
				want = poly.Int(c.Reach.Last)
				caption := doc.PlainText(f.Caption, " ")
				if !strings.Contains(caption, fmt.Sprintf("drawn up to %s = %d, the largest the program runs at", c.Along, c.Reach.Last)) {
					t.Errorf("%s: the caption does not say where the drawing stops: %s", name, caption)
				}
			}
			if hi.Cmp(want) < 0 {
				t.Errorf("%s: the candidates are drawn to %s only, want %s", name, hi, want)
			}
			if c := in.Symbolic.Cross; c != nil && c.Reach.Last > 0 && hi.Cmp(poly.Int(c.Reach.Last)) > 0 &&
				!strings.Contains(doc.PlainText(f.Caption, " "), fmt.Sprintf("past the line at %s = %d the program does not run", c.Along, c.Reach.Last)) {
				t.Errorf("%s: the candidates are drawn to %s, past %d, the last value the program runs at, unsaid", name, hi, c.Reach.Last)
			}
		}
	}
}

// The same input must give the same chapter.
func TestChapterDeterministic(t *testing.T) {
	for _, name := range bundled() {
		a := text(t, name)
		in, err := build(name)
		if err != nil {
			t.Fatal(err)
		}
		if b := dump(explain.Chapter(in)); a != b {
			t.Errorf("%s: two chapters of the same program differ", name)
		}
	}
}

// TestWitnesses: the chapter backs "each exceeds the other" with the
// points memsym found, pair by pair, and each is a point where the larger
// candidate's polynomial exceeds the smaller's by the bytes it says.
func TestWitnesses(t *testing.T) {
	in := input(t, "gpt-course")
	ws := in.Symbolic.Witnesses
	if len(ws) != 6 {
		t.Fatalf("%d witnesses for three kept candidates, want 6", len(ws))
	}
	for _, w := range ws {
		at := w.At.Map()
		large, err1 := in.Symbolic.Candidates[w.Larger].Poly.EvalInt(at)
		small, err2 := in.Symbolic.Candidates[w.Smaller].Poly.EvalInt(at)
		if err1 != nil || err2 != nil || !large.Equal(w.LargerBytes) || !small.Equal(w.SmallerBytes) || large.Cmp(small) <= 0 {
			t.Errorf("candidate %d over %d at %s: %s against %s, the polynomials give %s against %s", w.Larger+1, w.Smaller+1, w.At, w.LargerBytes, w.SmallerBytes, large, small)
		}
	}
	if got := dump(explain.Chapter(in)); !strings.Contains(got, "- Candidates 2 and 3: 2 exceeds 3 at B = 1, T = 100 (662 400 bytes or 647 KiB, against 540 800 bytes or 528 KiB); 3 exceeds 2 at B = 1, T = 1 (4 616 bytes or 4.51 KiB, against 1 080 bytes or 1.05 KiB).") {
		t.Errorf("the chapter lists no witnesses:\n%s", got)
	}
}

// TestAlongWhereThePeakMoves: without --along the crossovers, and the
// candidates' figure, go along the last dimension some candidate depends
// on: gpt-depth's T, where the attention takes the peak from T = 75, not
// its L, along which every candidate is flat.
func TestAlongWhereThePeakMoves(t *testing.T) {
	in := input(t, "gpt-depth")
	if c := in.Symbolic.Cross; c == nil || c.Along != "T" {
		t.Fatalf("gpt-depth's crossovers go along %v, want T", c)
	}
	if got := dump(explain.Chapter(in)); !strings.Contains(got, "The candidates' live bytes along T at B = 2, L = 3") || !strings.Contains(got, "from T = 75, candidate 2 holds the peak") {
		t.Errorf("gpt-depth's chapter:\n%s", got)
	}
}

// The sentence on who made the peak goes down the calls by the largest
// share: a deep call with less than a shallower one beside it is not the
// one named, as layers.attn.qk (10 800) was when layers.mlp made 14 400.
func TestHolderSentenceFollowsLargestShare(t *testing.T) {
	in := input(t, "gpt-course")
	pc := *in.Point
	pc.Peak = poly.Int(25200)
	pc.Calls = []explain.CallRow{
		{Path: "", Depth: 0, Share: poly.Int(0), OwnPeak: poly.Int(0), Iterations: 1},
		{Path: "layers", Depth: 1, Share: poly.Int(25200), OwnPeak: poly.Int(25200), Iterations: 1},
		{Path: "layers.attn", Depth: 2, Share: poly.Int(10800), OwnPeak: poly.Int(10800), Iterations: 1},
		{Path: "layers.attn.qk", Depth: 3, Share: poly.Int(10800), OwnPeak: poly.Int(10800), Iterations: 1},
		{Path: "layers.mlp", Depth: 2, Share: poly.Int(14400), OwnPeak: poly.Int(14400), Iterations: 1},
		{Path: "head", Depth: 1, Share: poly.Int(0), OwnPeak: poly.Int(360), Iterations: 1},
	}
	in.Point = &pc
	got := dump(explain.Chapter(in))
	want := "Of the 25 200 bytes (24.6 KiB) live at the peak, layers made 25 200 (100 %), layers.mlp 14 400 of them."
	if !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
}

// The call named inside the largest top-level call made most of it: where
// two calls inside tie, or none made more than half, the sentence stops at
// the call they are inside (llama's ffn, whose gate and up tie).
func TestHolderSentenceStopsAtTies(t *testing.T) {
	in := input(t, "gpt-course")
	pc := *in.Point
	pc.Peak = poly.Int(1000)
	call := func(path string, depth int, share int64) explain.CallRow {
		return explain.CallRow{Path: path, Depth: depth, Share: poly.Int(share), OwnPeak: poly.Int(share), Iterations: 1}
	}
	for _, c := range []struct {
		calls []explain.CallRow
		want  string
	}{
		{[]explain.CallRow{call("", 0, 0), call("block", 1, 1000), call("block.ffn", 2, 900), call("block.ffn.gate", 3, 300), call("block.ffn.up", 3, 300)},
			"block made 1 000 (100 %), block.ffn 900 of them."},
		{[]explain.CallRow{call("", 0, 0), call("block", 1, 1000), call("block.a", 2, 500), call("block.b", 2, 400)},
			"block made 1 000 (100 %)."},
		{[]explain.CallRow{call("", 0, 0), call("block", 1, 1000), call("block.a", 2, 501), call("block.a.x", 3, 400), call("block.b", 2, 400)},
			"block made 1 000 (100 %), block.a.x 400 of them."},
	} {
		pc.Calls = c.calls
		in.Point = &pc
		got := dump(explain.Chapter(in))
		if !strings.Contains(got, "Of the 1 000 bytes live at the peak, "+c.want) {
			t.Errorf("the chapter lacks %q:\n%s", c.want, got)
		}
	}
}

// A fold of one iteration (layers[0] alone) is named as a fold in the
// calls' table and sentence, as the calls' figure titles its box: "layers
// ×1" in all three, never "layers" beside a box "layers ×1".
func TestFoldOfOneIteration(t *testing.T) {
	in := input(t, "gpt-course")
	pc := *in.Point
	pc.Peak = poly.Int(25200)
	pc.Calls = []explain.CallRow{
		{Path: "", Depth: 0, Share: poly.Int(0), OwnPeak: poly.Int(0), Iterations: 1},
		{Path: "layers", Depth: 1, Share: poly.Int(25200), OwnPeak: poly.Int(25200), Iterations: 1, Fold: true},
		{Path: "layers.mlp", Depth: 2, Share: poly.Int(25200), OwnPeak: poly.Int(25200), Iterations: 1},
	}
	in.Point = &pc
	got := dump(explain.Chapter(in))
	for _, want := range []string{
		"| layers ×1 | 25 200 | 100 | 25 200 |",
		"Of the 25 200 bytes (24.6 KiB) live at the peak, layers ×1 made 25 200 (100 %), layers.mlp 25 200 of them.",
		`"layers ×1"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q:\n%s", want, got)
		}
	}
}

// One live-bytes polynomial pruned is "for one of them", not "for each of
// one of them".
func TestOnePruned(t *testing.T) {
	in := input(t, "gpt-course")
	in.Symbolic.Pruned = 1
	got := dump(explain.Chapter(in))
	if want := "and memsym proved, for one of them, that another is at least as large at every point with B, T ≥ 1; so the peak is the largest of the other three"; !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
}

// Counted at L = 1, below the L ≥ 2 that gpt-depth's model holds from,
// the chapter still confirms its crossovers, found for every L ≥ 2, by
// recordings at L = 2 and draws its candidates there: at L = 1 the
// recordings contradicted polynomials that were never claimed there.
func TestConfirmedWhereTheModelHolds(t *testing.T) {
	src, err := source.NewProgram("gpt-depth", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &explain.Request{Program: "gpt-depth", Source: src, At: src.Default().With("L", 1), Confirm: true}
	in := gathered(t, r)
	got := dump(explain.Chapter(in))
	for _, want := range []string{
		"## 13.2 At B = 2, T = 16, L = 1",
		"| B = 2, T = 74, L = 2 | 725 792 bytes (709 KiB) at operation 19 | 725 792 bytes (709 KiB) at operation 19, candidate 3 | agrees |",
		"| B = 2, T = 75, L = 2 | 738 600 bytes (721 KiB) at operation 12 | 738 600 bytes (721 KiB) at operation 12, candidate 2 | agrees |",
		"The candidates' live bytes along T at B = 2, L = 2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "contradict") {
		t.Errorf("the chapter says a recording contradicts the crossovers:\n%s", got)
	}
}

// When every recording beside the crossover contradicts it, the chapter
// says so of both, not "Two of them".
func TestConfirmationsAllContradicted(t *testing.T) {
	in := input(t, "gpt-course")
	in.Symbolic.Cross.Confirmed[0].PeakOp = 18
	in.Symbolic.Cross.Confirmed[1].PeakOp = 13
	got := dump(explain.Chapter(in))
	if want := "two recordings in all (Table 13.6). Both contradict the crossovers."; !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
}

// Checked at one point off the grid, every buffer's bytes there "are"
// what the polynomials give; and the padding's example is in a size, T,
// not in gpt-depth's count of blocks L.
func TestCheckedWords(t *testing.T) {
	in := input(t, "gpt-course")
	in.Symbolic.Checked = in.Symbolic.Checked[:1]
	got := dump(explain.Chapter(in))
	if want := "The polynomials were checked against a recording at one point off the grid, B = 64, T = 1 024: every buffer's bytes there are what the polynomials give."; !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
	got = text(t, "gpt-depth")
	if want := "a size padded to a multiple of 64, ⌈T/64⌉ · 64, is T wherever T is a multiple of 64"; !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
}

// More candidates kept than the chapter lists the witnesses of: it says
// that it evaluated every witness again, and how many, rather than only
// that memsym found them.
func TestWitnessesRechecked(t *testing.T) {
	got := text(t, "encdec-cross")
	want := "None of the ten dominates another: for each pair, at points with B, S, T ≥ 1 that memsym found, each exceeds the other in turn; memsym evaluated the two candidates again at each of those points, 90 in all, one for each ordered pair, exactly: at each, the one exceeds the other (too many to list here)."
	if !strings.Contains(got, want) {
		t.Errorf("the encoder-decoder's chapter lacks %q", want)
	}
}

// A constant whose value no exact number reads (1e400) is written as the
// recording gives it, one space after its sign, as any other.
func TestConstantsAsGiven(t *testing.T) {
	in := input(t, "gpt-course")
	in.Consts = []explain.NameValue{{Name: "D", Value: "1e400"}, {Name: "H", Value: "6"}}
	got := dump(explain.Chapter(in))
	if want := "at D = 1e400, H = 6"; !strings.Contains(got, want) {
		t.Errorf("the chapter lacks %q:\n%s", want, got)
	}
}
