package reports

import (
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/programs"
)

// Every bundled program's calls are laid out anew at each width at which
// they differ, each layout narrower than the one before and holding every
// box.
func TestBoxLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("every bundled program is recorded")
	}
	for _, prog := range programs.All() {
		if !explainable(t, prog.Name) {
			continue
		}
		t.Run(prog.Name, func(t *testing.T) {
			for _, f := range explain.Chapter(input(t, prog.Name)).Figures() {
				if f.Boxes == nil {
					continue
				}
				if f.Boxes.Nest == nil {
					t.Fatalf("%s: the boxes carry no nest to lay out again", f.Name)
				}
				ls := boxLayouts(f.Boxes)
				t.Logf("%s: %d layouts, widths %v", f.Name, len(ls), widths(ls))
				for i, l := range ls {
					if len(l.Boxes) != len(f.Boxes.Boxes) {
						t.Errorf("layout %d has %d boxes, want %d", i, len(l.Boxes), len(f.Boxes.Boxes))
					}
					if i > 0 && l.Width >= ls[i-1].Width {
						t.Errorf("layout %d is %d px wide, the one before %d", i, l.Width, ls[i-1].Width)
					}
				}
			}
		})
	}
}

func widths(ls []*doc.Boxes) []int {
	var w []int
	for _, l := range ls {
		w = append(w, l.Width)
	}
	return w
}
