//go:build unix

package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"memsym/record"
)

// signalHelperEnv, when set in a test binary's environment, makes
// TestSignalCleanupHelper run a source whose recorder never ends: "recorder"
// or "torch" recording the grid, or "record" one point (Record, as --confirm
// and verify do). signalMarkEnv names the file its recorder's child writes its
// pid to once it runs.
const (
	signalHelperEnv = "MEMSYM_TEST_SIGNAL_SOURCE"
	signalMarkEnv   = "MEMSYM_TEST_SIGNAL_MARK"
)

// TestSignalCleanupHelper is not a test: it is memsym's recording, run in a
// process of its own by TestSignalRemovesScratch, which signals it.
func TestSignalCleanupHelper(t *testing.T) {
	kind := os.Getenv(signalHelperEnv)
	if kind == "" {
		t.Skip("run by TestSignalRemovesScratch")
	}
	mark := os.Getenv(signalMarkEnv)
	var src Source
	switch kind {
	case "recorder":
		c, err := ParseCommand(`sleep 30 & echo $! > ` + shellQuote(mark) + `; wait; true {B}`)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		src = &Recorder{Cmd: c, Jobs: 1}
	case "torch":
		src = &Torch{Args: "odd2.py:build_loop", Jobs: 1}
	case "record":
		// A header written, kept in the folder's file while the
		// recorder runs.
		c, err := ParseCommand(`printf '{{"memsym": 1, "dims": {{"B": %s}}}}\n' {B}; sleep 30 & echo $! > ` + shellQuote(mark) + `; wait`)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		src = &Recorder{Cmd: c}
		defer src.Close()
		_, err = src.Record(context.Background(), record.Point{{Name: "B", Value: 2}})
		fmt.Fprintf(os.Stderr, "Record returned: %v\n", err)
		os.Exit(3)
	}
	defer src.Close()
	spec := Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{2, 3, 4}}}}
	_, err := src.Recordings(context.Background(), spec)
	fmt.Fprintf(os.Stderr, "Recordings returned: %v\n", err)
	os.Exit(3) // the signal should have ended the process before
}

// A memsym interrupted or terminated while its recorders run removes its
// temporary folder (the recordings, memsym_torch's copy) before it dies of
// the signal.
func TestSignalRemovesScratch(t *testing.T) {
	if os.Getenv(signalHelperEnv) != "" {
		t.Skip("in the helper")
	}
	for _, kind := range []string{"recorder", "torch", "record"} {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT} {
			t.Run(kind+"/"+sig.String(), func(t *testing.T) {
				signalScratch(t, kind, sig)
			})
		}
	}
}

func signalScratch(t *testing.T, kind string, sig syscall.Signal) {
	tmp := t.TempDir() // the helper's TMPDIR: where its folder is made
	aside := t.TempDir()
	mark := filepath.Join(aside, "pid")
	// A Python that does not import torch but runs, like a model's build
	// function that never returns, until stopped.
	python := filepath.Join(aside, "python")
	script := "#!/bin/sh\nsleep 30 & echo $! > " + shellQuote(mark) + "\nwait\n"
	if err := os.WriteFile(python, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalCleanupHelper$")
	cmd.Env = append(os.Environ(),
		signalHelperEnv+"="+kind,
		signalMarkEnv+"="+mark,
		"TMPDIR="+tmp,
		"MEMSYM_PYTHON="+python,
	)
	var out tailBuffer
	out.max = 2000
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-waited
	}()

	pid := childPid(t, mark)
	dirs, _ := filepath.Glob(filepath.Join(tmp, "memsym-recordings-*"))
	if len(dirs) != 1 {
		t.Fatalf("the recorder runs but the temporary folders are %q, want one", dirs)
	}
	if kind == "torch" {
		if py, _ := filepath.Glob(filepath.Join(dirs[0], "memsym_torch", "*.py")); len(py) == 0 {
			t.Fatalf("no memsym_torch/*.py in %s", dirs[0])
		}
	}
	if kind == "record" {
		if files, _ := filepath.Glob(filepath.Join(dirs[0], "record-*.jsonl")); len(files) != 1 {
			t.Fatalf("the recorder runs but %s holds %q, want its output's file", dirs[0], files)
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-waited:
		waited <- err // for the deferred wait
	case <-time.After(10 * time.Second):
		t.Fatalf("memsym still runs 10s after %v", sig)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("memsym ended with %v, want death by %v%s", err, sig, out.quote())
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	switch {
	case sig == syscall.SIGQUIT:
		// Go's runtime prints the stacks and exits with status 2.
		if !ok || ws.ExitStatus() != 2 && !(ws.Signaled() && ws.Signal() == sig) {
			t.Errorf("memsym ended with %v, want Go's exit on %v%s", err, sig, out.quote())
		}
	case !ok || !ws.Signaled() || ws.Signal() != sig:
		t.Errorf("memsym ended with %v, want death by %v%s", err, sig, out.quote())
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("after %v, left behind: %q", sig, left)
	}
	if !gone(pid) {
		t.Errorf("the recorder's child %d still runs after memsym's %v", pid, sig)
	}
}
