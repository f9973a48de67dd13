//go:build unix

package outfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteDirRemovesDeadStages: a staging directory left by a run killed
// outright (its process gone) on this host is removed by the next run into
// the same directory, the file it had moved aside put back; one whose
// process is alive (this test's parent), another stem's and another host's
// are left be.
func TestWriteDirRemovesDeadStages(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skipf("no process to outlive: %v", err)
	}
	host := hostName()
	dead := filepath.Join(dir, fmt.Sprintf(".chapter13.staging-%d@%s-123", gone.Process.Pid, host))
	alive := filepath.Join(dir, fmt.Sprintf(".chapter13.staging-%d@%s-456", os.Getppid(), host))
	other := filepath.Join(dir, fmt.Sprintf(".notes.staging-%d@%s-789", gone.Process.Pid, host))           // another stem's
	remote := filepath.Join(dir, fmt.Sprintf(".chapter13.staging-%d@%s-1", gone.Process.Pid, "elsewhere")) // another host's
	for _, d := range []string{dead, alive, other, remote} {
		if err := os.MkdirAll(filepath.Join(d, "inside"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The dead run had moved an earlier run's notes.txt aside.
	if err := os.MkdirAll(filepath.Join(dead, ".replaced"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, ".replaced", "notes.txt"), []byte("earlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDir(dir, "chapter13", func(stage string) ([]string, error) {
		return []string{"chapter13.md"}, os.WriteFile(filepath.Join(stage, "chapter13.md"), []byte("# 13\n"), 0o644)
	}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("the dead run's staging directory %s was left", filepath.Base(dead))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "earlier\n" {
		t.Errorf("the file the dead run moved aside was not put back: %q, %v", b, err)
	}
	for _, d := range []string{alive, other, remote} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s, not a dead run's of this stem on this host, was removed: %v", filepath.Base(d), err)
		}
	}
}

// TestMissingDirs: a/b/c where only the temporary directory exists
// names a, a/b and a/b/c as made by the run, deepest first, so that a run
// that fails removes all three; an existing directory is none of them.
func TestMissingDirs(t *testing.T) {
	root := t.TempDir()
	got := MissingDirs(filepath.Join(root, "a", "b", "c"))
	want := []string{filepath.Join(root, "a", "b", "c"), filepath.Join(root, "a", "b"), filepath.Join(root, "a")}
	if !slices.Equal(got, want) {
		t.Errorf("MissingDirs = %q, want %q", got, want)
	}
	if got := MissingDirs(root); len(got) != 0 {
		t.Errorf("MissingDirs of an existing directory = %q", got)
	}
}
