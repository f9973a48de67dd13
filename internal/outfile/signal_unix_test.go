//go:build unix

package outfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"memsym/internal/ending"
)

// stageHelperEnv, when set in a test binary's environment, makes
// TestStageSignalHelper write into the directory it names, new folders and
// all, as memsym explain does, and stop halfway through its rendering.
const stageHelperEnv = "MEMSYM_TEST_STAGE_OUT"

// TestStageSignalHelper is not a test: it is a run writing a chapter, in a
// process of its own, which TestSignalRemovesStage signals while it
// renders.
func TestStageSignalHelper(t *testing.T) {
	out := os.Getenv(stageHelperEnv)
	if out == "" {
		t.Skip("run by TestSignalRemovesStage")
	}
	created := MissingDirs(out)
	if err := os.MkdirAll(out, 0o755); err != nil {
		os.Exit(2)
	}
	forget := ending.OnEnd(func() {
		for _, d := range created {
			os.Remove(d)
		}
	})
	defer forget()
	WriteDir(out, "ch", func(stage string) ([]string, error) {
		os.WriteFile(filepath.Join(stage, "ch.md"), []byte("half"), 0o644)
		os.WriteFile(rendering(out), nil, 0o644) // tell the test
		time.Sleep(30 * time.Second)
		return []string{"ch.md"}, nil
	}, nil)
	os.Exit(3) // the signal should have ended the process before
}

// A run interrupted while it renders leaves nothing behind: its staging
// folder, and the folders it made for its output, are removed before it
// dies of the signal.
func TestSignalRemovesStage(t *testing.T) {
	if os.Getenv(stageHelperEnv) != "" {
		t.Skip("in the helper")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			base := t.TempDir()
			out := filepath.Join(base, "new", "out")
			cmd := exec.Command(os.Args[0], "-test.run=^TestStageSignalHelper$")
			cmd.Env = append(os.Environ(), stageHelperEnv+"="+out)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				if _, err := os.Stat(rendering(out)); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the helper never started rendering")
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("the helper ended with %v, not of %v", err, sig)
			}
			if _, err := os.Stat(filepath.Join(base, "new")); !os.IsNotExist(err) {
				entries, _ := os.ReadDir(out)
				t.Errorf("left %s behind (%v), holding %v", filepath.Join(base, "new"), err, entries)
			}
		})
	}
}

// rendering names the file the helper writes into out's grandparent, the
// test's own folder, once it renders.
func rendering(out string) string { return filepath.Join(filepath.Dir(filepath.Dir(out)), "rendering") }
