//go:build unix

package torchtest

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestOutputMode: a recording written to a file, by -o or --out-dir, has
// the mode a new file has under the umask, as memsym's outputs do (0644
// under umask 022), and no temporary file is left beside it.
func TestOutputMode(t *testing.T) {
	python(t)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	spec := model(t, "locals.py") + ":build"
	recorder(t, spec, "--dim", "B=2", "--dim", "T=3", "-o", filepath.Join(dir, "one.jsonl"))
	recorder(t, spec, "--at", "B=2,T=3", "--at", "B=3,T=3", "--out-dir", dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if mode := info.Mode(); mode != 0o644 {
			t.Errorf("%s: mode %v, want -rw-r--r--", e.Name(), mode)
		}
	}
	if want := []string{"B=2,T=3.jsonl", "B=3,T=3.jsonl", "one.jsonl"}; !slices.Equal(names, want) {
		t.Errorf("%s holds %q, want %q", dir, names, want)
	}
}
