package reports

import (
	"encoding/xml"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"memsym/explain"
	"memsym/explain/explaintest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// chapter is the course GPT's chapter, the documents these tests render.
func chapter() *explain.Document { return explain.Chapter(explaintest.GPTCourse()) }

// render renders doc in format into a new temporary folder and returns the
// folder and the files' names.
func render(t *testing.T, format string, doc *explain.Document) (string, []string) {
	t.Helper()
	r, ok := Lookup(format)
	if !ok {
		t.Fatalf("no renderer %q", format)
	}
	dir := t.TempDir()
	names, err := r.Render(doc, dir)
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

// Every format writes the files it says, sorted, and nothing else.
func TestRenderFiles(t *testing.T) {
	for format, want := range map[string][]string{
		"md":   {"candidates.svg", "chapter13.md", "live.svg"},
		"html": {"chapter13.html"},
		"pdf":  {"chapter13.pdf"},
		"tikz": {"candidates.tex", "chapter13.tex", "formulas.tex", "live.tex"},
	} {
		dir, names := render(t, format, chapter())
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

// A render that fails leaves no file, whole or half-written, behind.
func TestRenderFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	// A folder where live.svg should go makes the last rename fail.
	if err := os.Mkdir(filepath.Join(dir, "live.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, _ := Lookup("md")
	if _, err := r.Render(chapter(), dir); err == nil {
		t.Fatal("Render over a folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch e.Name() {
		case "live.svg":
		case "candidates.svg", "chapter13.md":
			// Renamed before the failure: whole files, which is allowed;
			// check they are whole.
			b := read(t, dir, e.Name())
			if len(b) == 0 {
				t.Errorf("%s is empty", e.Name())
			}
		default:
			t.Errorf("left behind %s", e.Name())
		}
	}
	if _, err := r.Render(chapter(), filepath.Join(dir, "missing")); err == nil {
		t.Error("Render into a missing folder succeeded")
	}
}

// Names from a user's program may hold any character: every format must
// still write its files.
func TestRenderOddText(t *testing.T) {
	odd := "日本語 😀 \\ { } $ % & # _ ^ ~ ` | < > * [x](y) \u2028 \x00"
	in := explaintest.GPTCourse()
	in.Entry = odd
	in.Program = odd
	in.Symbolic.Candidates[0].Name = odd
	in.Point.LiveAtPeak[0].Name = odd
	doc := explain.Chapter(in)
	doc.Title = odd
	for _, n := range Names() {
		dir, names := render(t, n, doc)
		if len(names) == 0 {
			t.Errorf("%s wrote no file", n)
		}
		if n == "md" {
			for _, f := range []string{"live.svg", "candidates.svg"} {
				if err := xml.Unmarshal(read(t, dir, f), new(struct{})); err != nil {
					t.Errorf("%s is not well-formed: %v", f, err)
				}
			}
		}
		if _, err := exec.LookPath("pdflatex"); n == "tikz" && err == nil {
			cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "chapter13.tex")
			cmd.Dir = dir
			if log, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("pdflatex chapter13.tex: %v\n%s", err, tail(string(log), 30))
			}
		}
	}
}
