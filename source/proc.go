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
		g, err = ending.start(cmd)
	}
	closeAll(writers...) // the command holds its own copies
	if err != nil {
		closeAll(readers...)
		copies.Wait()
		return err
	}
	defer ending.removeGroup(g)

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd.Process)
		err = <-done
	}
	// Killed because a signal is ending memsym: saying the recorder
	// failed would race the signal.
	ending.haltIfEnded()
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

// ending is what memsym undoes when a signal (SIGINT, SIGTERM, SIGHUP)
// ends it while it records: the process groups of the recorders running,
// killed, and the sources' temporary folders, removed; then the signal does
// what it would have done. It is the one place that is done. Each recorder
// is in a group of its own, so the signal a terminal sends to memsym's group
// does not reach it. The signals are caught only while a group or a folder
// is registered.
var ending = &endSet{groups: map[int]*os.Process{}, dirs: map[*tempDir]bool{}}

type endSet struct {
	mu      sync.Mutex
	groups  map[int]*os.Process
	next    int
	dirs    map[*tempDir]bool
	signals chan os.Signal
	ended   bool // a signal came: nothing more is started or made
}

// lock locks s.mu, unless a signal is ending memsym: then it blocks for
// good, for what the goroutine would do next (start a recorder, report one
// killed, exit) is not to happen before the signal ends memsym.
func (s *endSet) lock() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		select {}
	}
}

// haltIfEnded blocks for good once a signal is ending memsym.
func (s *endSet) haltIfEnded() {
	s.lock()
	s.mu.Unlock()
}

// tempDir is a temporary folder removed once, by whichever of its source's
// Close and a signal comes first; the other waits for that removal to end.
type tempDir struct {
	path string
	once sync.Once
	err  error
}

func (d *tempDir) remove() error {
	d.once.Do(func() { d.err = os.RemoveAll(d.path) })
	return d.err
}

// start starts cmd and registers its process group. Both happen under the
// lock, so that a signal cannot come between them and leave the group
// running.
func (s *endSet) start(cmd *exec.Cmd) (int, error) {
	s.lock()
	defer s.mu.Unlock()
	s.watch()
	if err := cmd.Start(); err != nil {
		s.unwatchIfIdle()
		return 0, err
	}
	s.next++
	s.groups[s.next] = cmd.Process
	return s.next, nil
}

func (s *endSet) removeGroup(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.groups, id)
	s.unwatchIfIdle()
}

// mkdirTemp makes a temporary folder, as os.MkdirTemp("", pattern) does,
// that a signal ending memsym removes.
func (s *endSet) mkdirTemp(pattern string) (*tempDir, error) {
	s.lock()
	defer s.mu.Unlock()
	s.watch()
	path, err := os.MkdirTemp("", pattern)
	if err != nil {
		s.unwatchIfIdle()
		return nil, err
	}
	d := &tempDir{path: path}
	s.dirs[d] = true
	return d, nil
}

// removeDir removes d, then forgets it: a signal coming meanwhile waits
// for the removal to end before it ends memsym, and memsym does not go on.
func (s *endSet) removeDir(d *tempDir) error {
	err := d.remove()
	s.lock()
	defer s.mu.Unlock()
	delete(s.dirs, d)
	s.unwatchIfIdle()
	return err
}

// watch starts catching the signals that end memsym, if it does not yet;
// s.mu is held.
func (s *endSet) watch() {
	if s.signals != nil {
		return
	}
	ch := make(chan os.Signal, 1)
	for _, sig := range endSignals {
		// A signal memsym was started ignoring (nohup's SIGHUP) stays
		// ignored.
		if !signal.Ignored(sig) {
			signal.Notify(ch, sig)
		}
	}
	s.signals = ch
	go s.end(ch)
}

// unwatchIfIdle stops catching the signals once nothing is registered;
// s.mu is held.
func (s *endSet) unwatchIfIdle() {
	if len(s.groups) == 0 && len(s.dirs) == 0 && s.signals != nil {
		signal.Stop(s.signals)
		close(s.signals)
		s.signals = nil
	}
}

// end waits for a signal on ch; then it kills every group registered,
// removes every folder, and lets the signal do what it would have done to
// memsym.
func (s *endSet) end(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	s.mu.Lock()
	s.ended = true
	for _, p := range s.groups {
		killGroup(p)
	}
	var dirs []*tempDir
	for d := range s.dirs {
		dirs = append(dirs, d)
	}
	s.mu.Unlock()
	for _, d := range dirs {
		d.remove()
	}
	signal.Reset(sig)
	resignal(sig)
	// The signal ends memsym at once; should it not, memsym must not
	// stay halted.
	time.Sleep(5 * time.Second)
	os.Exit(1)
}
