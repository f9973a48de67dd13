//go:build unix

package source

import (
	"os"
	"syscall"
)

// endSignals are the signals that end memsym and, before, the recorders
// it runs.
var endSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

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
