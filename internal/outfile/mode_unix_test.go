//go:build unix

package outfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withUmask runs f with the process's umask set to mask, then puts the
// umask back.
func withUmask(mask int, f func()) {
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	f()
}

// A new file's mode is 0666 less the umask, as after a shell's >.
func TestWriteNewFileUmask(t *testing.T) {
	for _, mask := range []int{0o077, 0o027, 0o022, 0} {
		path := filepath.Join(t.TempDir(), "new.jsonl")
		withUmask(mask, func() {
			if err := Write(path, writeString("new\n")); err != nil {
				t.Fatal(err)
			}
		})
		want := fs.FileMode(0o666 &^ mask)
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("under umask %03o a new file's mode is %v (%v), want %v", mask, fi.Mode(), err, want)
		}
	}
}

// A replaced file keeps its mode, whatever the umask, also through a
// symbolic link, and when the write fails.
func TestWriteKeepsMode(t *testing.T) {
	for _, mode := range []fs.FileMode{0o600, 0o640, 0o755, 0o444} {
		for _, mask := range []int{0o022, 0o077} {
			dir := t.TempDir()
			path := filepath.Join(dir, "old.jsonl")
			if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "link.jsonl")
			if err := os.Symlink("old.jsonl", link); err != nil {
				t.Fatal(err)
			}
			withUmask(mask, func() {
				if err := Write(path, writeString("new\n")); err != nil {
					t.Fatal(err)
				}
				if err := Write(link, writeString("newer\n")); err != nil {
					t.Fatal(err)
				}
				Write(path, failAfter("half"))
			})
			if got := mustRead(t, path); got != "newer\n" {
				t.Errorf("the file holds %q", got)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode() != mode {
				t.Errorf("a %v file replaced under umask %03o is %v (%v)", mode, mask, fi.Mode(), err)
			}
		}
	}
}
