//go:build unix

package page

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteThroughLinksAndFIFOs writes the page where a symbolic link, a
// FIFO or a directory already has its name: the link's target gets the
// page and the link stays, the FIFO's reader gets it and the FIFO stays,
// and a directory is refused.
func TestWriteThroughLinksAndFIFOs(t *testing.T) {
	m, _ := buildModel(t, "mlp-width")
	dir := t.TempDir()

	target := filepath.Join(dir, "target.html")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink("target.html", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(m, dir, "link", Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); !strings.HasPrefix(string(b), "<!DOCTYPE html>") {
		t.Errorf("the link's target holds %.20q, want the page", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != fs.ModeSymlink {
		t.Errorf("the link is now %v (%v)", fi.Mode(), err)
	}

	fifo := filepath.Join(dir, "fifo.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if _, err := Write(m, dir, "fifo", Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Fatalf("the FIFO is now %v (%v)", fi.Mode(), err) // its reader waits for no one
	}
	if s := <-got; !strings.HasPrefix(s, "<!DOCTYPE html>") {
		t.Errorf("the FIFO's reader got %.20q, want the page", s)
	}

	sub := filepath.Join(dir, "sub.html")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(m, dir, "sub", Options{}); err == nil || err.Error() != sub+": is a directory" {
		t.Errorf("a directory in the page's place: %v", err)
	}

	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("the directory holds %d files, want the target, the link, the FIFO and sub.html", len(entries))
	}
}
