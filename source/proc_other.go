//go:build !unix

package source

import (
	"os"
	"syscall"
)

// endSignals are the signals that end memsym and, before, the recorders
// it runs.
var endSignals = []os.Signal{os.Interrupt}

// groupAttr returns nil: without process groups a recorder's own process
// is the one stopped.
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p; the processes it started may outlive it.
func killGroup(p *os.Process) { p.Kill() }

// resignal ends memsym as sig would have.
func resignal(os.Signal) { os.Exit(130) }
