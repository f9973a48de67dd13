package explain_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/explain"
	"memsym/explain/explaintest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dump writes doc as plain text, one block a paragraph, so that a golden
// file shows the chapter's words and data as a reader would check them.
func dump(doc *explain.Document) string {
	var b strings.Builder
	text := func(ins []explain.Inline) string { return explain.PlainText(ins, " ") }
	fmt.Fprintf(&b, "# %s\n", doc.Title)
	for _, s := range doc.Sections {
		fmt.Fprintf(&b, "\n## %s\n", s.Title)
		for _, blk := range s.Blocks {
			b.WriteByte('\n')
			switch blk := blk.(type) {
			case *explain.Paragraph:
				b.WriteString(text(blk.Inlines) + "\n")
			case *explain.List:
				for _, item := range blk.Items {
					b.WriteString("- " + text(item) + "\n")
				}
			case *explain.Table:
				row := func(cells []explain.Cell) {
					parts := make([]string, len(cells))
					for i, c := range cells {
						parts[i] = text(c)
					}
					b.WriteString("| " + strings.Join(parts, " | ") + " |\n")
				}
				row(blk.Header)
				for _, r := range blk.Rows {
					row(r)
				}
			case *explain.Figure:
				fmt.Fprintf(&b, "[figure %s: x %q, y %q]\n", blk.Name, blk.XLabel, blk.YLabel)
				for _, s := range blk.Series {
					pts := make([]string, len(s.Points))
					for i, p := range s.Points {
						pts[i] = p.X.String() + ":" + p.Y.String()
					}
					fmt.Fprintf(&b, "  series %q steps=%v: %s\n", s.Label, s.Steps, strings.Join(pts, " "))
				}
				for _, m := range blk.Marks {
					fmt.Fprintf(&b, "  mark %s:%s %q\n", m.At.X, m.At.Y, m.Label)
				}
				b.WriteString("  caption: " + text(blk.Caption) + "\n")
			}
		}
	}
	if len(doc.Formulas) > 0 {
		b.WriteString("\nformulas:\n")
		for _, f := range doc.Formulas {
			fmt.Fprintf(&b, "  %s (%s, candidate=%v): %s\n", f.Key, f.Label, f.Candidate, f.Poly)
		}
	}
	return b.String()
}

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
		t.Errorf("%s differs from the chapter written now; got:\n%s", path, got)
	}
}

func TestChapterGolden(t *testing.T) {
	golden(t, "gpt-course.golden", dump(explain.Chapter(explaintest.GPTCourse())))
}

// The chapter must say, in the seed's words, what holds the peak where.
func TestChapterSentences(t *testing.T) {
	got := dump(explain.Chapter(explaintest.GPTCourse()))
	for _, want := range []string{
		"from T = 150 the attention's probabilities, 144 · B · T² + 6144 · B · T + 8 · T², hold the peak.",
		"up to T = 149 the feed-forward's up projection, 27648 · B · T + 8 · T², holds the peak;",
		"Which of them holds the peak along T, for every B ≥ 1:",
		"The peak is at operation 19, Linear.apply/%5 in blocks[0].ff.up. Four buffers are live there:",
		"| the peak of live bytes, at operation 19 of 45 | 149 504 | 150 kB |",
		"| what is needed: the inputs and the peak | 1 052 928 | 1.1 MB |",
		"| blocks ×2 | 147 456 | 147 456 |",
		"Of the 149 504 bytes live at the peak, blocks ×2 made 147 456, blocks.ff.up 131 072 of them.",
		"mark 150:4341600 \"T = 150\"",
		"mark 19:149504 \"peak, operation 19\"",
		"B ∈ {16, 32, 48} and T ∈ {256, 512, 768}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the chapter lacks %q", want)
		}
	}
}

// A chapter with parts of its input left out must still be written, and
// say what it lacks.
func TestChapterPartialInputs(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(in *explain.Input)
		want []string
		not  []string
	}{
		{"no point", func(in *explain.Input) { in.Point = nil },
			[]string{"the inputs, the parameters among them,", "## As polynomials in B and T"}, []string{"## At B"}},
		{"no polynomials", func(in *explain.Input) { in.Symbolic = nil; in.Verified = nil },
			[]string{"no polynomials were made"}, []string{"## As polynomials"}},
		{"nothing", func(in *explain.Input) { in.Point, in.Symbolic, in.Verified = nil, nil, nil },
			[]string{"Nothing was counted"}, nil},
		{"at fixed values", func(in *explain.Input) {
			in.Symbolic.ForAll = false
			in.Symbolic.Fixed = []explain.NameInt{{Name: "B", Value: 16}}
		}, []string{"Which of them holds the peak along T, at B = 16:", "along T at B = 16"}, nil},
		{"undecided", func(in *explain.Input) { in.Symbolic.Undecided = [][2]int{{0, 2}} },
			[]string{"could not decide for every B ≥ 1 which of candidates 1 and 3 is the larger"}, nil},
		{"unnamed", func(in *explain.Input) {
			for i := range in.Symbolic.Candidates {
				in.Symbolic.Candidates[i].Name = ""
			}
		}, []string{"from T = 150 candidate 2, 144 · B · T² + 6144 · B · T + 8 · T², holds the peak."}, []string{"what weighs most"}},
		{"a failed check", func(in *explain.Input) { in.Verified[1].OK = false },
			[]string{"One of them disagrees.", "| B = 1, T = 150 | disagrees |"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := explaintest.GPTCourse()
			c.edit(in)
			got := dump(explain.Chapter(in))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q in:\n%s", w, got)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("has %q", w)
				}
			}
		})
	}
}

// The same input must give the same chapter.
func TestChapterDeterministic(t *testing.T) {
	a := dump(explain.Chapter(explaintest.GPTCourse()))
	for i := 0; i < 5; i++ {
		if b := dump(explain.Chapter(explaintest.GPTCourse())); b != a {
			t.Fatal("two chapters of the same input differ")
		}
	}
}
