// Package ending is what memsym undoes when a signal (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT) ends it: the process groups of the recorders running
// are stopped, the temporary folders removed and what else was registered
// undone (a half-written output's staging folder, the folders a run made
// for it); then the signal does what it would have done. It is the one
// place that is done. Each recorder is in a process group of its own, so
// that the signal a terminal sends to memsym's group does not reach it.
// The signals are caught only while something is registered.
package ending

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"sync"
	"time"
)

// Grace is how long a recorder stopped with SIGTERM (a timeout, another
// point failing, memsym ending) has to end, removing what it made, before
// its group is killed.
const Grace = 2 * time.Second

var set = &endSet{groups: map[int]*os.Process{}, undo: map[int]func(){}}

type endSet struct {
	mu      sync.Mutex
	groups  map[int]*os.Process
	undo    map[int]func()
	next    int
	signals chan os.Signal
	ended   bool // a signal came: nothing more is started or made
}

// lock locks s.mu, unless a signal is ending memsym: then it blocks for
// good, for what the goroutine would do next (start a recorder, report one
// stopped, exit) is not to happen before the signal ends memsym.
func (s *endSet) lock() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		select {}
	}
}

// HaltIfEnded blocks for good once a signal is ending memsym.
func HaltIfEnded() {
	set.lock()
	set.mu.Unlock()
}

// Start starts cmd, which GroupAttr put in a process group of its own,
// and registers the group, to be stopped if a signal ends memsym; Done
// forgets it. Both happen under the lock, so that a signal cannot come
// between them and leave the group running.
func Start(cmd *exec.Cmd) (id int, err error) {
	s := set
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

// Done forgets the group Start registered as id.
func Done(id int) {
	s := set
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.groups, id)
	s.unwatchIfIdle()
}

// OnEnd registers undo, to be run if a signal ends memsym, and returns
// what forgets it. undo runs at most once, after the recorders are
// stopped; those registered later run first.
func OnEnd(undo func()) (forget func()) {
	s := set
	s.lock()
	defer s.mu.Unlock()
	s.watch()
	s.next++
	id := s.next
	s.undo[id] = undo
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.undo, id)
		s.unwatchIfIdle()
	}
}

// RemoveAll removes the folder at path and what it holds, as os.RemoveAll
// does, first moving it aside within its parent, so that what is still
// writing into it (another goroutine, which a signal does not stop) makes
// no file there again: for an undoing.
func RemoveAll(path string) {
	aside := path + ".ending"
	if os.Rename(path, aside) == nil {
		path = aside
	}
	os.RemoveAll(path)
}

// Critical runs f where no signal's undoing interleaves with it: a signal
// that comes meanwhile is undone once f returns. f must not register.
func Critical(f func()) {
	set.lock()
	defer set.mu.Unlock()
	f()
}

// Dir is a temporary folder removed once, by whichever of Remove and a
// signal comes first; the other waits for that removal to end.
type Dir struct {
	Path   string
	once   sync.Once
	err    error
	forget func()
}

// MkdirTemp makes a temporary folder, as os.MkdirTemp("", pattern) does,
// that a signal ending memsym removes.
func MkdirTemp(pattern string) (*Dir, error) {
	path, err := os.MkdirTemp("", pattern)
	if err != nil {
		where := os.TempDir()
		if os.Getenv("TMPDIR") != "" {
			where = "TMPDIR, " + where
		}
		return nil, fmt.Errorf("cannot make a temporary folder in %s: %w", where, err)
	}
	d := &Dir{Path: path}
	d.forget = OnEnd(func() { d.remove() })
	return d, nil
}

func (d *Dir) remove() error {
	d.once.Do(func() { d.err = os.RemoveAll(d.Path) })
	return d.err
}

// Remove removes d, then forgets it: a signal coming meanwhile waits for
// the removal to end before it ends memsym, and memsym does not go on.
func (d *Dir) Remove() error {
	err := d.remove()
	set.lock() // halts here for good if a signal came
	set.mu.Unlock()
	d.forget()
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
	if len(s.groups) == 0 && len(s.undo) == 0 && s.signals != nil {
		signal.Stop(s.signals)
		close(s.signals)
		s.signals = nil
	}
}

// end waits for a signal on ch; then it stops every group registered,
// undoes what was registered, the latest first, and lets the signal do
// what it would have done to memsym.
func (s *endSet) end(ch chan os.Signal) {
	sig, ok := <-ch
	if !ok {
		return
	}
	s.mu.Lock()
	s.ended = true
	var groups []*os.Process
	for _, p := range s.groups {
		groups = append(groups, p)
	}
	ids := slices.Sorted(maps.Keys(s.undo))
	var undo []func()
	for _, id := range slices.Backward(ids) { // the latest first
		undo = append(undo, s.undo[id])
	}
	s.mu.Unlock()
	StopGroups(groups, nil)
	for _, f := range undo {
		f()
	}
	signal.Reset(sig)
	resignal(sig)
	// The signal ends memsym at once; should it not, memsym must not
	// stay halted.
	time.Sleep(5 * time.Second)
	os.Exit(1)
}

// StopGroups stops the process groups of ps: SIGTERM to each, then, for
// those not ended within Grace (or before exited is closed, when it is
// not nil: the one process whose end the caller waits for), SIGKILL. A
// group already gone is no error.
func StopGroups(ps []*os.Process, exited <-chan struct{}) {
	for _, p := range ps {
		termGroup(p)
	}
	deadline := time.Now().Add(Grace)
	for time.Now().Before(deadline) {
		alive := false
		for _, p := range ps {
			alive = alive || groupAlive(p)
		}
		if !alive {
			return
		}
		select {
		case <-exited:
			exited = nil // the process ended; its group may not have
		case <-time.After(20 * time.Millisecond):
		}
	}
	for _, p := range ps {
		KillGroup(p)
	}
}
