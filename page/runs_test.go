package page

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memsym/record"
)

// fakeLimit runs where B ≥ 3 and T ≤ 512, saying why not as a bundled
// program does, and counts how often it is asked.
func fakeLimit(asked *int) func(record.Point) error {
	return func(p record.Point) error {
		*asked++
		b, _ := p.Value("B")
		t, _ := p.Value("T")
		switch {
		case b < 3:
			return fmt.Errorf("K = 3 is more than B = %d", b)
		case t > 512:
			return fmt.Errorf("T = %d is more than P = 512", t)
		}
		return nil
	}
}

// With Runs, each slider runs from the least to the largest value at
// which the program runs, the others at their first values, found by
// halving, and says why it stops there.
func TestRunsLimitsTheSliders(t *testing.T) {
	m, _ := buildModel(t, "gpt-course")
	at := func(b, t int64) record.Point { return record.Point{{Name: "B", Value: b}, {Name: "T", Value: t}} }
	for _, c := range []struct {
		at   record.Point
		max  map[string]int64
		want []Dim
	}{
		{at(8, 64), nil, []Dim{
			{Name: "B", Min: 3, Max: 512, Value: 8, Stops: []string{"gpt-course does not run at B = 2: K = 3 is more than B = 2"}},
			{Name: "T", Min: 1, Max: 512, Value: 64, Stops: []string{"gpt-course does not run at T = 513: T = 513 is more than P = 512"}},
		}},
		// The first point at both ends of the ranges.
		{at(3, 512), nil, []Dim{
			{Name: "B", Min: 3, Max: 512, Value: 3, Stops: []string{"gpt-course does not run at B = 2: K = 3 is more than B = 2"}},
			{Name: "T", Min: 1, Max: 512, Value: 512, Stops: []string{"gpt-course does not run at T = 513: T = 513 is more than P = 512"}},
		}},
		// A page's largest value where the program still runs stops nothing.
		{at(8, 64), map[string]int64{"B": 100, "T": 300}, []Dim{
			{Name: "B", Min: 3, Max: 100, Value: 8, Stops: []string{"gpt-course does not run at B = 2: K = 3 is more than B = 2"}},
			{Name: "T", Min: 1, Max: 300, Value: 64},
		}},
	} {
		asked := 0
		pg, err := New(m, Options{At: c.at, Max: c.max, Runs: fakeLimit(&asked)})
		if err != nil {
			t.Fatalf("at %s: %v", c.at, err)
		}
		got := pg.Dims()
		if !slices.EqualFunc(got, c.want, func(a, b Dim) bool {
			return a.Name == b.Name && a.Min == b.Min && a.Max == b.Max && a.Value == b.Value && slices.Equal(a.Stops, b.Stops)
		}) {
			t.Errorf("at %s, max %v: dims\n%+v\nwant\n%+v", c.at, c.max, got, c.want)
		}
		if asked > 80 {
			t.Errorf("at %s: Runs asked %d times, expected halving to ask at most 80", c.at, asked)
		}
		// The script reads the range and the reasons from the data.
		for j, d := range pg.data().Dims {
			if d.Min != c.want[j].Min || d.Max != c.want[j].Max || !slices.Equal(d.Stops, c.want[j].Stops) {
				t.Errorf("at %s: the data's %s runs %d to %d, stops %q; want %d to %d, %q", c.at, d.Name, d.Min, d.Max, d.Stops, c.want[j].Min, c.want[j].Max, c.want[j].Stops)
			}
		}
		// The budget's crossings start at the least value: with no budget
		// at all, every dimension is over from there.
		n, err := pg.At(Assignment{At: []int64{c.at[0].Value, c.at[1].Value}, Types: recorded(pg)})
		if err != nil {
			t.Fatal(err)
		}
		if want := []int64{c.want[0].Min, c.want[1].Min}; !slices.Equal(n.Over, want) {
			t.Errorf("at %s, budget 0: over from %v, want %v", c.at, n.Over, want)
		}
	}
}

// A first point where the program does not run is refused, in the
// program's words; so are ranges that run apart but not together.
func TestRunsRefuses(t *testing.T) {
	m, _ := buildModel(t, "gpt-course")
	asked := 0
	_, err := New(m, Options{At: record.Point{{Name: "B", Value: 8}, {Name: "T", Value: 1000}}, Runs: fakeLimit(&asked)})
	const want = "the page's first point: gpt-course does not run at B = 8, T = 1000: T = 1000 is more than P = 512"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	tied := func(p record.Point) error {
		b, _ := p.Value("B")
		t, _ := p.Value("T")
		if t > 64*b {
			return fmt.Errorf("T = %d is more than 64·B = %d", t, 64*b)
		}
		return nil
	}
	_, err = New(m, Options{At: record.Point{{Name: "B", Value: 8}, {Name: "T", Value: 64}}, Runs: tied})
	if err == nil || !strings.Contains(err.Error(), "depend on another's value") {
		t.Errorf("a limit tying T to B: got %v, want a refusal", err)
	}
}

// Without Runs, or with one under which the program runs on the whole
// range, the page is the same, byte for byte, its sliders from 1.
func TestRunsEverywhereChangesNothing(t *testing.T) {
	m, _ := buildModel(t, "gpt-course")
	render := func(opt Options) []byte {
		pg, err := New(m, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range pg.Dims() {
			if d.Min != 1 || d.Stops != nil {
				t.Errorf("%s runs from %d, stops %q; want from 1, no stops", d.Name, d.Min, d.Stops)
			}
		}
		var b bytes.Buffer
		if err := pg.Render(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	alone := render(Options{})
	everywhere := render(Options{Runs: func(record.Point) error { return nil }})
	if !bytes.Equal(alone, everywhere) {
		t.Error("a program that runs everywhere changes the page")
	}
	if bytes.Contains(alone, []byte(`"stops"`)) {
		t.Error("the page without limits holds stops")
	}
}

// A name holding a directory is refused before anything is written.
func TestFileName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"memory", "memory.html"},
		{"a.htm", "a.htm"},
		{"../x", ""},
		{"d/x", ""},
		{"..", ""},
		{".", ""},
	} {
		got, err := FileName(c.name)
		if c.want == "" {
			if err == nil {
				t.Errorf("FileName(%q) = %q, want an error", c.name, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("FileName(%q) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	dir := t.TempDir()
	m, _ := buildModel(t, "gpt-course")
	if _, err := Write(m, dir, "../x", Options{}); err == nil {
		t.Error("Write took a name with a directory")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("Write of ../x left %d entries beside %s", len(entries)-1, dir)
	}
}
