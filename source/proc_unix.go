//go:build unix

package source

import (
	"os"
	"syscall"
)

// endSignals are the signals that end memsym and, before, the recorders
// it runs. SIGQUIT ends it as Go's runtime does, with the goroutines'
// stacks, once the recorders are stopped and the folders removed.
var endSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// groupAttr puts a command in a process group of its own, its id the
// command's process id.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills every process of p's group. A group already gone is not
// an error.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// resignal sends sig to memsym itself, its handler reset.
func resignal(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
	}
}
