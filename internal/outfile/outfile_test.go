package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// writeString returns a write function that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

var errWrite = errors.New("the writer gave up")

// failAfter returns a write function that writes s and then fails.
func failAfter(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(w, s); err != nil {
			return err
		}
		return errWrite
	}
}

// names lists dir's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range entries {
		ns = append(ns, e.Name())
	}
	return ns
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	if err := Write(path, writeString("first\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); got != "first\n" {
		t.Errorf("a new file holds %q", got)
	}
	if err := Write(path, writeString("second\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); got != "second\n" {
		t.Errorf("a replaced file holds %q", got)
	}
	if ns := names(t, dir); !slices.Equal(ns, []string{"r.jsonl"}) {
		t.Errorf("the directory holds %v, want r.jsonl alone", ns)
	}
}

// A failing write leaves an existing file as it was, makes no new one and
// leaves no temporary file.
func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(old, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(old, failAfter("half"))
	if !errors.Is(err, errWrite) || err.Error() != old+": the writer gave up" {
		t.Errorf("error %v, want %s: the writer gave up", err, old)
	}
	if got := mustRead(t, old); got != "old\n" {
		t.Errorf("a failed write changed the file: %q", got)
	}
	if err := Write(filepath.Join(dir, "new.jsonl"), failAfter("half")); err == nil {
		t.Error("a failed write of a new file reported no error")
	}
	if ns := names(t, dir); !slices.Equal(ns, []string{"old.jsonl"}) {
		t.Errorf("the directory holds %v, want old.jsonl alone", ns)
	}
	if err := Write(filepath.Join(dir, "missing", "r.jsonl"), writeString("x")); err == nil {
		t.Error("a file in a missing directory was written")
	}
}

func TestWriteDirectory(t *testing.T) {
	dir := t.TempDir()
	called := false
	err := Write(dir, func(io.Writer) error { called = true; return nil })
	if !errors.Is(err, ErrIsDir) || err.Error() != dir+": is a directory" {
		t.Errorf("error %v, want %s: is a directory", err, dir)
	}
	if called {
		t.Error("the write function was called for a directory")
	}
	if ns := names(t, dir); len(ns) != 0 {
		t.Errorf("the directory holds %v, want nothing", ns)
	}
	path := filepath.Join(dir, "new") + string(filepath.Separator)
	if err := Write(path, writeString("x")); err == nil {
		t.Errorf("%s was written", path)
	}
	if ns := names(t, dir); len(ns) != 0 {
		t.Errorf("the directory holds %v, want nothing", ns)
	}
}

func TestSplit(t *testing.T) {
	sep := string(filepath.Separator)
	for _, c := range []struct{ path, dir, name string }{
		{"r.jsonl", ".", "r.jsonl"},
		{"a" + sep + "r.jsonl", "a", "r.jsonl"},
		{"a" + sep + "b" + sep + ".." + sep + "r", "a" + sep + "b" + sep + "..", "r"},
		{sep + "r", sep, "r"},
		{"a" + sep, "a", ""},
	} {
		if dir, name := split(c.path); dir != c.dir || name != c.name {
			t.Errorf("split(%q) = %q, %q; want %q, %q", c.path, dir, name, c.dir, c.name)
		}
	}
}

// TestWriteDirUnwritable: a directory WriteDir cannot write into is named
// with why, not by the staging directory it could not make.
func TestWriteDirUnwritable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	_, err := WriteDir(dir, "ch", func(stage string) ([]string, error) {
		t.Fatal("render ran")
		return nil, nil
	}, nil)
	want := "-o " + dir + ": cannot write into it: no such file or directory (nothing was written)"
	if err == nil || err.Error() != want {
		t.Errorf("WriteDir: %v, want %s", err, want)
	}
}

// A file written from WriteDir's commit, within ending.Critical, as memsym
// explain lists its files, is written, with no temporary file left.
func TestWriteInWriteDirCommit(t *testing.T) {
	dir := t.TempDir()
	done := make(chan error, 1)
	go func() {
		_, err := WriteDir(dir, "ch", func(stage string) ([]string, error) {
			return []string{"ch.md"}, os.WriteFile(filepath.Join(stage, "ch.md"), []byte("# ch\n"), 0o644)
		}, func(names []string) error {
			return Write(filepath.Join(dir, ".ch.list"), writeString("ch.md\n"))
		})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("WriteDir did not return: the write within its commit waits for good")
	}
	if ns := names(t, dir); !slices.Equal(ns, []string{".ch.list", "ch.md"}) {
		t.Errorf("the directory holds %v, want .ch.list and ch.md", ns)
	}
	if got := mustRead(t, filepath.Join(dir, ".ch.list")); got != "ch.md\n" {
		t.Errorf("the list holds %q", got)
	}
}
