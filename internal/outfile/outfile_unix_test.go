//go:build unix

package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// readFIFO reads path, a FIFO, in a goroutine and returns a channel that
// gets all it read.
func readFIFO(t *testing.T, path string) <-chan string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- string(b)
	}()
	return got
}

// A FIFO is written in place: the reader gets the content and the FIFO
// stays.
func TestWriteFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := readFIFO(t, path)
	if err := Write(path, writeString("through the fifo\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Fatalf("the FIFO is now %v (%v)", fi.Mode(), err) // its reader waits for no one
	}
	if s := <-got; s != "through the fifo\n" {
		t.Errorf("the reader got %q", s)
	}
	if ns := names(t, dir); !slices.Equal(ns, []string{"fifo"}) {
		t.Errorf("the directory holds %v, want fifo alone", ns)
	}

	// A failing write is reported, and the FIFO stays.
	got = readFIFO(t, path)
	if err := Write(path, failAfter("half")); !errors.Is(err, errWrite) {
		t.Fatalf("a failing write to a FIFO: %v", err)
	}
	if s := <-got; s != "half" {
		t.Errorf("the reader got %q, want half", s)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("after a failed write the FIFO is %v (%v)", fi.Mode(), err)
	}
}

// /dev/fd/N, as bash's >(command) gives, is written in place.
func TestWriteDevFD(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/dev/fd/N opens the descriptor's file on Linux")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	err = Write(fmt.Sprintf("/dev/fd/%d", w.Fd()), writeString("through the pipe\n"))
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the reader got %q", s)
	}
}

// A symbolic link is followed: the link stays and its target gets the
// content, also through a chain of links, a relative one into another
// directory, and a link to a file not made yet.
func TestWriteSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(sub, "real.jsonl")
	if err := os.WriteFile(real, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(filepath.Join("sub", "real.jsonl"), link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.jsonl")
	if err := os.Symlink("link.jsonl", chain); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{link, chain} {
		want := "via " + filepath.Base(path) + "\n"
		if err := Write(path, writeString(want)); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, real); got != want {
			t.Errorf("%s: the target holds %q, want %q", path, got, want)
		}
	}
	for path, to := range map[string]string{link: filepath.Join("sub", "real.jsonl"), chain: "link.jsonl"} {
		if got, err := os.Readlink(path); err != nil || got != to {
			t.Errorf("%s is now %q (%v), want a link to %s", path, got, err, to)
		}
	}

	// A failing write leaves the target as it was.
	if err := Write(link, failAfter("half")); !errors.Is(err, errWrite) {
		t.Errorf("a failing write through a link: %v", err)
	}
	if got := mustRead(t, real); got != "via chain.jsonl\n" {
		t.Errorf("a failed write changed the target: %q", got)
	}
	if ns := names(t, sub); !slices.Equal(ns, []string{"real.jsonl"}) {
		t.Errorf("the target's directory holds %v, want real.jsonl alone", ns)
	}
	if ns := names(t, dir); !slices.Equal(ns, []string{"chain.jsonl", "link.jsonl", "sub"}) {
		t.Errorf("the link's directory holds %v", ns)
	}

	// A dangling link: its target is made.
	dangling := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join("sub", "later.jsonl"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, writeString("later\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(sub, "later.jsonl")); got != "later\n" {
		t.Errorf("a dangling link's target holds %q", got)
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode().Type() != fs.ModeSymlink {
		t.Errorf("the dangling link is now %v (%v)", fi.Mode(), err)
	}

	// A link to a directory is a directory.
	dirLink := filepath.Join(dir, "dirlink")
	if err := os.Symlink("sub", dirLink); err != nil {
		t.Fatal(err)
	}
	if err := Write(dirLink, writeString("x")); !errors.Is(err, ErrIsDir) {
		t.Errorf("a link to a directory: %v", err)
	}
}

// A symbolic link's ".." is taken after the links before it, as the system
// takes it: dir/up/../x with up a link to a/b is a/x.
func TestWriteSymlinkDotDot(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(deep, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("up/../x", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, writeString("x\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(dir, "a", "x")); got != "x\n" {
		t.Errorf("a/x holds %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "x")); err == nil {
		t.Error("the link's .. was taken lexically: x was written beside the link")
	}
}

// /dev/fd/N and /proc/self/fd/N naming a regular file the caller opened
// for appending (as a shell's 3>>log does) are written through the
// descriptor: appended to, the file not replaced, the descriptor left open.
func TestWriteDescriptorOfRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, []byte("earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, name := range []string{fmt.Sprintf("/dev/fd/%d", f.Fd()), fmt.Sprintf("/proc/self/fd/%d", f.Fd())} {
		if err := Write(name, writeString("through "+name+"\n")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := f.WriteString("the caller's own\n"); err != nil {
		t.Errorf("the descriptor was closed: %v", err)
	}
	got, _ := os.ReadFile(path)
	want := fmt.Sprintf("earlier run\nthrough /dev/fd/%d\nthrough /proc/self/fd/%d\nthe caller's own\n", f.Fd(), f.Fd())
	if string(got) != want {
		t.Errorf("the file holds %q, want %q", got, want)
	}
	if err := Write("/dev/fd/987", writeString("x")); err == nil || !strings.Contains(err.Error(), "/dev/fd/987: bad file descriptor") {
		t.Errorf("a descriptor not open: %v", err)
	}
}
