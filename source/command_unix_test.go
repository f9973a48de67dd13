//go:build unix

package source

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"memsym/record"
)

// childPid waits for the pid a recorder's child wrote to path.
func childPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil || !bytes.HasSuffix(b, []byte("\n")) {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s: %q is no pid", path, b)
		}
		return pid
	}
	t.Fatalf("the recorder wrote no pid to %s", path)
	return 0
}

// gone reports whether process pid has ended within a few seconds: no
// such process, or a zombie left for an init that does not reap it.
func gone(pid int) bool {
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if i := bytes.LastIndexByte(b, ')'); i >= 0 && bytes.HasPrefix(b[i+1:], []byte(" Z")) {
				return true
			}
		}
	}
	syscall.Kill(pid, syscall.SIGKILL) // leave nothing behind
	return false
}

// A recorder stopped at its timeout is stopped whole: the children it
// started (a shell's `sleep`, a Python's workers) end with it.
func TestCommandTimeoutKillsChildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	runTimedOut(t, `sleep 30 & echo $! > `+shellQuote(pidFile)+`; wait; true {B}`)
	if pid := childPid(t, pidFile); !gone(pid) {
		t.Errorf("the recorder's child %d still runs after its timeout", pid)
	}
}

// A recorder stopped because another point failed is stopped whole too.
func TestCommandCancelKillsChildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c, err := ParseCommand(`sleep 30 & echo $! > ` + shellQuote(pidFile) + `; wait; true {B}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Run(ctx, record.Point{{Name: "B", Value: 1}}, &bytes.Buffer{}) }()
	pid := childPid(t, pidFile)
	cancel()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "the recorder at B = 1 was stopped") {
			t.Errorf("error = %v, want the recorder stopped", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the recorder still runs 5s after its context was cancelled")
	}
	if !gone(pid) {
		t.Errorf("the recorder's child %d still runs after its context was cancelled", pid)
	}
}

// A recorder that exits leaving a background child that holds its standard
// output and error open has written its recording: it is read, at once,
// and the child is stopped.
func TestCommandBackgroundChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c, err := ParseCommand(`echo recorded {B}; echo noted >&2; sleep 30 & echo $! > ` + shellQuote(pidFile))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	start := time.Now()
	err = c.Run(context.Background(), record.Point{{Name: "B", Value: 7}}, &out)
	if err != nil || out.String() != "recorded 7\n" {
		t.Errorf("out = %q, err = %v; want the recording and no error", out.String(), err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Run took %s: it waited for the background child", d)
	}
	if pid := childPid(t, pidFile); !gone(pid) {
		t.Errorf("the recorder's background child %d still runs after it exited", pid)
	}
}

// A named pipe, like the standard input, can be read only once: a grid
// given one is refused before anything is read.
func TestFilesRefusePipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	regular := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(regular, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Files{
		{Grid: []string{regular, fifo, regular}},
		{Grid: []string{fifo}},
		{Grid: []string{regular}, Checks: []string{fifo}},
	} {
		_, err := f.Recordings(context.Background(), Spec{})
		want := fifo + ": memsym reads each recording of a grid more than once: give regular files, not standard input or a pipe"
		if err == nil || err.Error() != want {
			t.Errorf("%v, checks %v: error = %v, want %q", f.Grid, f.Checks, err, want)
		}
	}
}

// TestRunGroupWithoutStdout: a command run without a writer for its
// standard output (the PyTorch recorder's, which writes its recording to a
// file) has it open on the null device, not closed: writing to it
// succeeds, and a file it opens does not take its descriptor.
func TestRunGroupWithoutStdout(t *testing.T) {
	var stderr bytes.Buffer
	cmd := exec.Command("sh", "-c", `echo to-stdout || echo "stdout closed" >&2; [ -e /proc/self/fd/1 ] || echo "no fd 1" >&2`)
	if err := runGroup(context.Background(), cmd, nil, &stderr); err != nil {
		t.Fatalf("runGroup: %v (stderr %q)", err, stderr.String())
	}
	if s := stderr.String(); s != "" {
		t.Errorf("the command's standard output was not open: %q", s)
	}
}

// A recorder stopped at its timeout is asked to end first (SIGTERM), so
// that it may remove what it made; one that does not end within
// ending.Grace is killed.
func TestCommandTimeoutTermsFirst(t *testing.T) {
	dir := t.TempDir()
	cleaned := filepath.Join(dir, "cleaned")
	runTimedOut(t, `trap 'echo cleaned > `+shellQuote(cleaned)+`; exit 0' TERM; sleep 30 & wait; true {B}`)
	if b, err := os.ReadFile(cleaned); err != nil || string(b) != "cleaned\n" {
		t.Errorf("the recorder's TERM trap did not run: %q, %v", b, err)
	}

	// One that ignores SIGTERM is killed after the grace.
	pidFile := filepath.Join(dir, "pid")
	start := time.Now()
	runTimedOut(t, `trap '' TERM; sleep 30 & echo $! > `+shellQuote(pidFile)+`; while :; do sleep 1; done; true {B}`)
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("stopping it took %v", took)
	}
	if pid := childPid(t, pidFile); !gone(pid) {
		t.Errorf("the recorder's child %d still runs", pid)
	}
}

// runTimedOut runs the recorder command line at B = 1 with a timeout of
// 300 ms, which it must outlast.
func runTimedOut(t *testing.T, line string) {
	t.Helper()
	c, err := ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	c.Timeout = 300 * time.Millisecond
	err = c.Run(context.Background(), record.Point{{Name: "B", Value: 1}}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "did not finish within 300ms and was stopped") {
		t.Fatalf("error = %v, want the timeout's", err)
	}
}
