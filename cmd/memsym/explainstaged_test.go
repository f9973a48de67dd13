package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/internal/outfile"
)

// snapshot returns every file and directory under dir, a directory's
// content as "dir", so that two snapshots are equal only if nothing in dir
// changed.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(path)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameSnapshot fails the test unless got and want are the same files.
func sameSnapshot(t *testing.T, got, want map[string]string) {
	t.Helper()
	for n, w := range want {
		if g, ok := got[n]; !ok {
			t.Errorf("%s is gone", n)
		} else if g != w {
			t.Errorf("%s changed", n)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s is new", n)
		}
	}
}

// A run that fails, here at a directory where one of its files goes, says
// so in one line and leaves the directory as the earlier run left it:
// nothing of the new run beside the old files, no staging left behind.
func TestExplainFailureLeavesDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	mustRunCLI(t, "explain", "--program", "gpt-course", "-o", dir)
	if err := os.Remove(filepath.Join(dir, "chapter13.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "chapter13.pdf", "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	stdout, stderr, code := runCLI("explain", "--program", "gpt-course", "--const", "D=128", "-o", dir)
	if code == 0 {
		t.Fatalf("the run succeeded: %s", stdout)
	}
	if stdout != "" {
		t.Errorf("a failed run said: %s", stdout)
	}
	want := filepath.Join(dir, "chapter13.pdf") + " is a directory"
	if !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "panic") {
		t.Errorf("stderr is not one line saying %q:\n%s", want, stderr)
	}
	sameSnapshot(t, snapshot(t, dir), before)

	// Into a directory that did not exist: none is left behind.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if err := os.MkdirAll(filepath.Join(fresh, "chapter13.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, fresh)
	if _, _, code := runCLI("explain", "--program", "gpt-course", "--format", "md,tikz", "-o", fresh); code == 0 {
		t.Fatal("the run succeeded with a directory where chapter13.md goes")
	}
	sameSnapshot(t, snapshot(t, fresh), before)
}

// writeStaged writes all of a run's files or none: a render that fails
// after some files leaves the directory as it was, a move that fails puts
// back the files it replaced, and a render that succeeds replaces them.
func TestWriteStaged(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("old a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.md"), []byte("old c"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	write := func(stage string, names ...string) error {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(stage, n), []byte("new "+n), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := outfile.WriteDir(dir, "s", func(stage string) ([]string, error) {
		if err := write(stage, "a.md", "b.md"); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("writing the pdf: %s: no space left on device", filepath.Join(stage, "s.pdf"))
	}, nil)
	// The message names where the file was to go, not the staging
	// directory, gone by then.
	if want := "writing the pdf: " + filepath.Join(dir, "s.pdf") + ": no space left on device"; err == nil || err.Error() != want {
		t.Errorf("writeStaged returned %v, want %s", err, want)
	}
	sameSnapshot(t, snapshot(t, dir), before)

	// A file named but not written: the move fails after a.md and b.md
	// are in place, and they are taken back.
	if _, err := outfile.WriteDir(dir, "s", func(stage string) ([]string, error) {
		return []string{"a.md", "b.md", "c.md"}, write(stage, "a.md", "b.md")
	}, nil); err == nil {
		t.Error("writeStaged moved a file that was not written")
	}
	sameSnapshot(t, snapshot(t, dir), before)

	names, err := outfile.WriteDir(dir, "s", func(stage string) ([]string, error) {
		return []string{"b.md", "a.md", "b.md"}, write(stage, "a.md", "b.md")
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "a.md b.md" {
		t.Errorf("writeStaged returned %v, want [a.md b.md]", names)
	}
	got := snapshot(t, dir)
	want := map[string]string{".": "dir", "a.md": "new a.md", "b.md": "new b.md", "c.md": "old c"}
	sameSnapshot(t, got, want)
}

// A format asked for twice is written, and listed, once.
func TestExplainFormatTwice(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	out := mustRunCLI(t, "explain", "--program", "gpt-course", "--format", "md,md, md", "-o", dir)
	want := "memsym explain: wrote 4 files into " + dir + ": chapter13-calls.svg, chapter13-candidates.svg, chapter13-live.svg, chapter13.md\n"
	if out != want {
		t.Errorf("the summary is\n%s\nwant\n%s", out, want)
	}
	if n := len(readDir(t, dir)); n != 4 {
		t.Errorf("%d files in %s, want 4", n, dir)
	}
}
