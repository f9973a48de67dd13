//go:build unix

package ending

import (
	"errors"
	"os"
	"syscall"
)

// endSignals are the signals that end memsym and, before, the recorders
// it runs. SIGQUIT ends it as Go's runtime does, with the goroutines'
// stacks, once the recorders are stopped and the folders removed.
var endSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// GroupAttr puts a command in a process group of its own, its id the
// command's process id.
func GroupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// KillGroup kills every process of p's group. A group already gone is not
// an error.
func KillGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// termGroup asks every process of p's group to end.
func termGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGTERM) }

// groupAlive reports whether some process of p's group is left that has
// not exited. A zombie, exited but not yet waited for, is not: one the
// recorder's shell left when it was stopped has gone to init (or the
// nearest subreaper), which reaps it when it will, and it holds nothing.
// Where the processes cannot be listed (no /proc), a zombie counts.
func groupAlive(p *os.Process) bool {
	err := syscall.Kill(-p.Pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	running, ok := groupRunning(p.Pid)
	return running || !ok
}

// resignal sends sig to memsym itself, its handler reset.
func resignal(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
	}
}
