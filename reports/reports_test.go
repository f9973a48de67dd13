package reports

import (
	"context"
	"encoding/xml"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/tooltest"
	"memsym/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// inputs caches the chapters' inputs of bundled programs, each made by the
// real pipeline: recording at a dozen points takes a while.
var inputs sync.Map // string → *explain.Input

// built runs the request request makes through the pipeline as memsym
// explain does, once per key, and returns a fresh copy of the chapter's
// input.
func built(t testing.TB, key string, request func() *explain.Request) *explain.Input {
	t.Helper()
	if in, ok := inputs.Load(key); ok {
		c := *in.(*explain.Input)
		return &c
	}
	c, err := explain.Gather(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	in, err := explain.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	inputs.Store(key, in)
	cp := *in
	return &cp
}

// input runs a bundled program through the pipeline as `memsym explain
// --program name` does and returns a fresh copy of its chapter's input:
// the model at its default constants, the counts at its default point,
// the crossovers confirmed, check M3 at three points, and the crossovers
// at its chapter's constants, if any.
func input(t testing.TB, name string) *explain.Input {
	t.Helper()
	return built(t, name, func() *explain.Request {
		src, err := source.NewProgram(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := &explain.Request{Program: name, Source: src, At: src.Default(), Verify: 3, Confirm: true}
		if ch := src.P.Chapter; ch != nil {
			other, err := source.NewProgram(name, ch.Consts)
			if err != nil {
				t.Fatal(err)
			}
			r.Elsewhere = append(r.Elsewhere, other)
		}
		return r
	})
}

// chapter is the course GPT's chapter, the document most of these tests
// render.
func chapter(t testing.TB) *doc.Document { return explain.Chapter(input(t, "gpt-course")) }

// render renders d in format into a new temporary folder and returns the
// folder and the files' names.
func render(t *testing.T, format string, d *doc.Document) (string, []string) {
	t.Helper()
	return renderWith(t, format, d, Options{})
}

// renderWith renders d in format with o into a new temporary folder.
func renderWith(t *testing.T, format string, d *doc.Document, o Options) (string, []string) {
	t.Helper()
	r, ok := Lookup(format)
	if !ok {
		t.Fatalf("no renderer %q", format)
	}
	dir := t.TempDir()
	names, err := r.Render(d, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, names
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from what is rendered now; run go test -update and read the difference", path)
	}
}

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRegistry(t *testing.T) {
	if got, want := Names(), []string{"html", "md", "pdf", "tikz"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	for _, n := range Names() {
		r, ok := Lookup(n)
		if !ok || r.Name() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, r, ok)
		}
	}
	if _, ok := Lookup("docx"); ok {
		t.Error("Lookup(docx) found a renderer")
	}
}

// Every format writes the files it says, sorted, named by the stem, and
// nothing else.
func TestRenderFiles(t *testing.T) {
	for _, o := range []Options{{}, {Stem: "gpt"}} {
		stem := o.stem()
		for format, want := range map[string][]string{
			"md":   {stem + "-calls.svg", stem + "-candidates.svg", stem + "-live.svg", stem + ".md"},
			"html": {stem + ".html"},
			"pdf":  {stem + ".pdf"},
			"tikz": {stem + "-calls.tex", stem + "-candidates.tex", stem + "-formulas.tex", stem + "-live.tex", stem + "-tikz.tex"},
		} {
			dir, names := renderWith(t, format, chapter(t), o)
			if !reflect.DeepEqual(names, want) {
				t.Errorf("%s: wrote %v, want %v", format, names, want)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var onDisk []string
			for _, e := range entries {
				onDisk = append(onDisk, e.Name())
			}
			if !reflect.DeepEqual(onDisk, want) {
				t.Errorf("%s: the folder holds %v, want %v", format, onDisk, want)
			}
		}
	}
}

// No file one format writes has the name of a file another writes or of
// what compiling the LaTeX writes: compiling STEM-tikz.tex makes
// STEM-tikz.pdf, not the PDF renderer's STEM.pdf.
func TestRenderNamesNeverCollide(t *testing.T) {
	seen := map[string]string{}
	for _, format := range Names() {
		_, names := render(t, format, chapter(t))
		for _, n := range names {
			if other, ok := seen[n]; ok {
				t.Errorf("%s and %s both write %s", other, format, n)
			}
			seen[n] = format
		}
	}
	for n := range seen {
		if filepath.Ext(n) != ".tex" {
			continue
		}
		pdf := n[:len(n)-len(".tex")] + ".pdf"
		if other, ok := seen[pdf]; ok {
			t.Errorf("compiling %s overwrites the %s renderer's %s", n, other, pdf)
		}
	}
}

// A render that fails leaves no file, whole or half-written, behind.
func TestRenderFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	// A folder where the live figure should go makes the last rename fail.
	if err := os.Mkdir(filepath.Join(dir, "chapter13.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, _ := Lookup("md")
	if _, err := r.Render(chapter(t), dir, Options{}); err == nil {
		t.Fatal("Render over a folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch e.Name() {
		case "chapter13.md":
		case "chapter13-calls.svg", "chapter13-candidates.svg", "chapter13-live.svg":
			// Renamed before the failure: whole files, which is allowed;
			// check they are whole.
			if b := read(t, dir, e.Name()); len(b) == 0 {
				t.Errorf("%s is empty", e.Name())
			}
		default:
			t.Errorf("left behind %s", e.Name())
		}
	}
	if _, err := r.Render(chapter(t), filepath.Join(dir, "missing"), Options{}); err == nil {
		t.Error("Render into a missing folder succeeded")
	}
}

// A second render that writes fewer files removes the first's others, and
// lists them; a user's own files, even named like memsym's, are left.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	o := Options{Stem: "ch"}
	var first []string
	for _, format := range Names() {
		r, _ := Lookup(format)
		names, err := r.Render(chapter(t), dir, o)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, names...)
	}
	if removed, changed, err := RemoveStale(dir, o, first); err != nil || len(removed) > 0 || len(changed) > 0 {
		t.Fatalf("the first run removed %v and found %v changed (%v)", removed, changed, err)
	}
	mine := []string{"ch-notes.tex", "ch.bib", "other.md"}
	for _, n := range mine {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("a user's own file\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A user's copy of a file of memsym's, under a name memsym might use,
	// carries its mark; and a file of memsym's the user changed since is
	// theirs now. Neither is removed.
	tikz, err := os.ReadFile(filepath.Join(dir, "ch-tikz.tex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ch-paper.tex"), tikz, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ch-tikz.tex"), append(tikz, "% the user's note\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	mine = append(mine, "ch-paper.tex", "ch-tikz.tex")
	// The second run writes the Markdown alone, of a chapter without
	// polynomials: no candidates' figure.
	in := input(t, "gpt-course")
	in.Symbolic = nil
	r, _ := Lookup("md")
	second, err := r.Render(explain.Chapter(in), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	removed, changed, err := RemoveStale(dir, o, second)
	if err != nil {
		t.Fatal(err)
	}
	// The file of memsym's the user changed is named, to be told of; the
	// copy under another name is the user's alone.
	if want := []string{"ch-tikz.tex"}; !reflect.DeepEqual(changed, want) {
		t.Errorf("changed %v, want %v", changed, want)
	}
	var want []string
	for _, n := range first {
		if !slices.Contains(second, n) && !slices.Contains(mine, n) {
			want = append(want, n)
		}
	}
	slices.Sort(want)
	if !reflect.DeepEqual(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	wantLeft := append(append([]string{ListName(o)}, second...), mine...)
	slices.Sort(wantLeft)
	if !reflect.DeepEqual(left, wantLeft) {
		t.Errorf("left %v, want %v", left, wantLeft)
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, c := range []struct {
		o  Options
		ok bool
	}{
		{Options{}, true},
		{Options{Stem: "gpt_course2", TeXPrefix: "gptcourse"}, true},
		{Options{Stem: "../x"}, false},
		{Options{Stem: "a.b"}, false},
		{Options{TeXPrefix: "gpt2"}, false},
		{Options{TeXPrefix: "gpt_course"}, false},
	} {
		if err := c.o.Check(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}

// Names from a user's program may hold any character: every format must
// still write its files.
func TestRenderOddText(t *testing.T) {
	odd := "日本語 😀 \\ { } $ % & # _ ^ ~ ` | < > * [x](y) \u2028 \x00"
	in := input(t, "gpt-course")
	in.Entry = odd
	in.Program = odd
	pc := *in.Point
	pc.LiveAtPeak = append([]explain.LiveBuffer(nil), pc.LiveAtPeak...)
	pc.LiveAtPeak[0].Name = odd
	in.Point = &pc
	d := explain.Chapter(in)
	d.Title = odd
	for _, n := range Names() {
		dir, names := render(t, n, d)
		if len(names) == 0 {
			t.Errorf("%s wrote no file", n)
		}
		if n == "md" {
			for _, f := range []string{"chapter13-live.svg", "chapter13-candidates.svg"} {
				if err := xml.Unmarshal(read(t, dir, f), new(struct{})); err != nil {
					t.Errorf("%s is not well-formed: %v", f, err)
				}
			}
		}
		if n == "tikz" {
			tooltest.Need(t, "pdflatex", "the TikZ of odd names is not compiled")
			cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "chapter13-tikz.tex")
			cmd.Dir = dir
			if log, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("pdflatex chapter13-tikz.tex: %v\n%s", err, tail(string(log), 30))
			}
		}
	}
}
