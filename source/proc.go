package source

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"time"
)

// drainGrace is how long the output of a recorder whose process has exited
// is still read once its process group has been killed: only a process
// that left the group (setsid) can hold the pipes open longer.
const drainGrace = time.Second

// runGroup runs cmd in a process group of its own, its standard output
// written to stdout and its standard error to stderr (either may be nil:
// /dev/null). When ctx is done the whole group is killed; once the
// command's own process has exited, whatever it left running in its group
// (a background child holding its output open) is killed too, so that
// nothing a recorder started outlives it. It returns cmd.Wait's error, or
// an error writing to stdout or stderr.
func runGroup(ctx context.Context, cmd *exec.Cmd, stdout, stderr io.Writer) error {
	cmd.SysProcAttr = groupAttr()
	var readers []*os.File
	var copies sync.WaitGroup
	var mu sync.Mutex
	var copyErr error
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
			if _, err := io.Copy(w, r); err != nil && !errors.Is(err, os.ErrClosed) {
				mu.Lock()
				if copyErr == nil {
					copyErr = err
				}
				mu.Unlock()
				// Keep draining, so that the command is not blocked
				// writing to a pipe no one reads.
				io.Copy(io.Discard, r)
			}
		}()
		return pw, nil
	}
	var err error
	if cmd.Stdout, err = pipe(stdout); err == nil {
		cmd.Stderr, err = pipe(stderr)
	}
	if err == nil {
		err = cmd.Start()
	}
	closeAll(writers...) // the command holds its own copies
	if err != nil {
		closeAll(readers...)
		copies.Wait()
		return err
	}
	g := groups.add(cmd.Process)
	defer groups.remove(g)

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd.Process)
		err = <-done
	}
	// The command's own process has exited: stop what it left behind.
	killGroup(cmd.Process)

	finished := make(chan struct{})
	go func() { copies.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(drainGrace):
		closeAll(readers...)
		<-finished
	}
	closeAll(readers...)
	if err == nil {
		err = copyErr
	}
	return err
}

// groups are the process groups of the recorders running, killed when
// memsym is interrupted or terminated: each recorder is in a group of its
// own, so the signal a terminal sends to memsym's group does not reach it.
var groups = &groupSet{live: map[int]*os.Process{}}

type groupSet struct {
	mu      sync.Mutex
	live    map[int]*os.Process
	next    int
	signals chan os.Signal
}

// add registers p's group, watching for the signals that end memsym while
// any group is registered.
func (s *groupSet) add(p *os.Process) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.live[s.next] = p
	if s.signals == nil {
		ch := make(chan os.Signal, 1)
		for _, sig := range endSignals {
			// A signal memsym was started ignoring (nohup's SIGHUP)
			// stays ignored.
			if !signal.Ignored(sig) {
				signal.Notify(ch, sig)
			}
		}
		s.signals = ch
		go s.watch(ch)
	}
	return s.next
}

func (s *groupSet) remove(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, id)
	if len(s.live) == 0 && s.signals != nil {
		signal.Stop(s.signals)
		close(s.signals)
		s.signals = nil
	}
}

// watch kills every group registered when a signal arrives on ch, then
// lets the signal do what it would have done to memsym.
func (s *groupSet) watch(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	s.mu.Lock()
	for _, p := range s.live {
		killGroup(p)
	}
	s.mu.Unlock()
	signal.Reset(sig)
	resignal(sig)
}
