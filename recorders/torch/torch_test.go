package torch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstall installs the package and compares it with its sources; a
// Python (torch or not: the command line is read before torch is imported)
// runs its --help from the installed copy.
func TestInstall(t *testing.T) {
	dir := t.TempDir()
	if err := Install(dir); err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(Package, "*.py"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, src := range sources {
		want, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, src))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: installed copy differs (%v)", src, err)
		}
	}
	installed, _ := filepath.Glob(filepath.Join(dir, Package, "*"))
	if len(installed) != len(sources) {
		t.Errorf("installed %d files, want %d: %v", len(installed), len(sources), installed)
	}
	if err := Install(dir); err != nil {
		t.Errorf("installing again: %v", err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the installed recorder is not run")
	}
	cmd := exec.Command(python, "-m", Package, "--help")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "FILE.py:FUNCTION") {
		t.Errorf("python3 -m %s --help: %v: %s", Package, err, out)
	}
}
