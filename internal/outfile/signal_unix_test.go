//go:build unix

package outfile

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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
			awaitFile(t, cmd, rendering(out), "rendering")
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

// writeHelperEnv, when set in a test binary's environment, makes
// TestWriteSignalHelper write the file it names through Write, as memsym
// record -o does; writeHelperModeEnv says how it is ended.
const (
	writeHelperEnv     = "MEMSYM_TEST_WRITE_OUT"
	writeHelperModeEnv = "MEMSYM_TEST_WRITE_MODE"
)

// helperChunk is what the helper writes at a time.
var helperChunk = []byte(strings.Repeat("{\"at\":1,\"bytes\":4096}\n", 1<<15))

// TestWriteSignalHelper is not a test: it is a run writing a file, in a
// process of its own, which TestSignalRemovesTemp signals while it writes
// ("wait": it writes on until then) and TestSignalAtRename as it ends its
// writing ("self": it signals itself with SIGTERM once all is written).
func TestWriteSignalHelper(t *testing.T) {
	out := os.Getenv(writeHelperEnv)
	if out == "" {
		t.Skip("run by TestSignalRemovesTemp and TestSignalAtRename")
	}
	Write(out, func(w io.Writer) error {
		for range 64 { // 48 MB
			if _, err := w.Write(helperChunk); err != nil {
				return err
			}
		}
		if os.Getenv(writeHelperModeEnv) == "self" {
			return syscall.Kill(os.Getpid(), syscall.SIGTERM)
		}
		os.WriteFile(writing(out), nil, 0o644) // tell the test
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
			if _, err := w.Write(helperChunk[:4096]); err != nil {
				return err
			}
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	// The signal ends the process, also when it comes once the file is
	// written; it should have before this.
	time.Sleep(10 * time.Second)
	os.Exit(3)
}

// A run writing a file, interrupted, leaves no temporary file: the file it
// was to replace is as it was, and nothing else is in its directory.
func TestSignalRemovesTemp(t *testing.T) {
	if os.Getenv(writeHelperEnv) != "" {
		t.Skip("in the helper")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "rec.jsonl")
			if err := os.WriteFile(out, []byte("earlier\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := writeHelper(out, "wait")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			awaitFile(t, cmd, writing(out), "writing")
			cmd.Process.Signal(sig)
			endedBy(t, cmd, sig)
			if ns := names(t, dir); !slices.Equal(ns, []string{"rec.jsonl"}) {
				t.Errorf("the directory holds %v, want rec.jsonl alone", ns)
			}
			if got := mustRead(t, out); got != "earlier\n" {
				t.Errorf("the file it was to replace holds %d bytes", len(got))
			}
		})
	}
}

// A signal that comes as the writing ends, just before or after the
// rename, leaves no temporary file: the file it was to replace is either
// as it was or whole.
func TestSignalAtRename(t *testing.T) {
	if os.Getenv(writeHelperEnv) != "" {
		t.Skip("in the helper")
	}
	whole := strings.Repeat(string(helperChunk), 64)
	var kept, replaced int
	for range 20 {
		dir := t.TempDir()
		out := filepath.Join(dir, "rec.jsonl")
		if err := os.WriteFile(out, []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		endedBy(t, writeHelper(out, "self"), syscall.SIGTERM)
		if ns := names(t, dir); !slices.Equal(ns, []string{"rec.jsonl"}) {
			t.Fatalf("the directory holds %v, want rec.jsonl alone", ns)
		}
		switch got := mustRead(t, out); got {
		case "earlier\n":
			kept++
		case whole:
			replaced++
		default:
			t.Fatalf("the file holds %d bytes, neither the earlier file nor the whole new one", len(got))
		}
	}
	t.Logf("the earlier file kept %d times, replaced %d times", kept, replaced)
}

// writeHelper returns the command that runs TestWriteSignalHelper writing
// out, ended as mode says.
func writeHelper(out, mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteSignalHelper$")
	cmd.Env = append(os.Environ(), writeHelperEnv+"="+out, writeHelperModeEnv+"="+mode)
	return cmd
}

// endedBy runs cmd, if not started, waits for it and checks that sig
// ended it.
func endedBy(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) {
	t.Helper()
	var err error
	if cmd.Process == nil {
		err = cmd.Run()
	} else {
		err = cmd.Wait()
	}
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != sig {
		t.Errorf("the helper ended with %v, not of %v", err, sig)
	}
}

// writing names the file the helper writes beside out's directory once it
// writes.
func writing(out string) string { return filepath.Join(filepath.Dir(filepath.Dir(out)), "writing") }

// awaitFile waits until the helper cmd has made path, the sign that it is
// what, and kills it and fails the test if that takes 20 s.
func awaitFile(t *testing.T, cmd *exec.Cmd, path, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the helper never started " + what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
