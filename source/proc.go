package source

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"memsym/internal/ending"
)

// drainGrace is how long the output of a recorder whose process has exited
// is still read once its process group has been killed: only a process
// that left the group (setsid) can hold the pipes open longer.
const drainGrace = time.Second

// runGroup runs cmd in a process group of its own, its standard output
// written to stdout and its standard error to stderr (either may be nil:
// /dev/null). A writer that is an io.ReaderFrom reads the stream itself,
// as it comes (a watch). When ctx is done the whole group is stopped
// (SIGTERM, then SIGKILL after ending.Grace), and so it is as soon as
// writing to stdout or stderr fails: what the command writes next could
// not be kept. Once the
// command's own process has exited, whatever it left running in its group
// (a background child holding its output open) is killed too, so that
// nothing a recorder started outlives it. It returns the error writing to
// stdout or stderr, if there was one, whatever the command's exit; else
// cmd.Wait's error (ctx's when the command was stopped and exited as if it
// had not been).
func runGroup(ctx context.Context, cmd *exec.Cmd, stdout, stderr io.Writer) error {
	cmd.SysProcAttr = ending.GroupAttr()
	var readers []*os.File
	var copies sync.WaitGroup
	var mu sync.Mutex
	var copyErr error
	failed := make(chan struct{}) // closed at the first error writing
	closeAll := func(files ...*os.File) {
		for _, f := range files {
			f.Close()
		}
	}
	var writers []*os.File
	pipe := func(w io.Writer) (*os.File, error) {
		if w == nil {
			return nil, nil
		}
		r, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		readers, writers = append(readers, r), append(writers, pw)
		copies.Add(1)
		go func() {
			defer copies.Done()
			if err := copyTo(w, r); err != nil && !errors.Is(err, os.ErrClosed) {
				mu.Lock()
				if copyErr == nil {
					copyErr = err
					close(failed)
				}
				mu.Unlock()
				// Keep draining, so that the command is not blocked
				// writing to a pipe no one reads.
				io.Copy(io.Discard, r)
			}
		}()
		return pw, nil
	}
	// A nil writer leaves cmd's stream unset (the null device): a nil
	// *os.File stored in it would be a file, and the command would start
	// with that descriptor closed.
	var err error
	for _, s := range []struct {
		dst *io.Writer
		w   io.Writer
	}{{&cmd.Stdout, stdout}, {&cmd.Stderr, stderr}} {
		var f *os.File
		if f, err = pipe(s.w); err != nil {
			break
		}
		if f != nil {
			*s.dst = f
		}
	}
	var g int
	if err == nil {
		g, err = ending.Start(cmd)
	}
	closeAll(writers...) // the command holds its own copies
	if err != nil {
		closeAll(readers...)
		copies.Wait()
		return err
	}
	defer ending.Done(g)

	done, exited := make(chan error, 1), make(chan struct{})
	go func() { done <- cmd.Wait(); close(exited) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// Asked to end first (SIGTERM), that it may remove what it
		// made; killed if it has not ended within ending.Grace. Stopped,
		// it did not finish, however it exited.
		ending.StopGroups([]*os.Process{cmd.Process}, exited)
		if err = <-done; err == nil {
			err = ctx.Err()
		}
	case <-failed:
		// Its output cannot be kept: stopped as above, and the error
		// writing it said below.
		ending.StopGroups([]*os.Process{cmd.Process}, exited)
		err = <-done
	}
	// Stopped because a signal is ending memsym: saying the recorder
	// failed would race the signal.
	ending.HaltIfEnded()
	// The command's own process has exited: kill what it left behind.
	ending.KillGroup(cmd.Process)

	finished := make(chan struct{})
	go func() { copies.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(drainGrace):
		closeAll(readers...)
		<-finished
	}
	closeAll(readers...)
	if copyErr != nil {
		// The command's exit may be the stop it was sent, or come before
		// its output was read: either way the output's error says why.
		err = copyErr
	}
	return err
}

// copyTo copies r to w until r ends, w reading it itself when it can.
func copyTo(w io.Writer, r io.Reader) error {
	if rf, ok := w.(io.ReaderFrom); ok {
		_, err := rf.ReadFrom(r)
		return err
	}
	_, err := io.Copy(w, r)
	return err
}
