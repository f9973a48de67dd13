//go:build !unix

package ending

import (
	"os"
	"syscall"
)

// endSignals are the signals that end memsym and, before, the recorders
// it runs.
var endSignals = []os.Signal{os.Interrupt}

// GroupAttr returns nil: without process groups a recorder's own process
// is the one stopped.
func GroupAttr() *syscall.SysProcAttr { return nil }

// KillGroup kills p; the processes it started may outlive it.
func KillGroup(p *os.Process) { p.Kill() }

// termGroup kills p: there is no asking a process to end here.
func termGroup(p *os.Process) { p.Kill() }

// groupAlive says no group is left: p was killed.
func groupAlive(p *os.Process) bool { return false }

// resignal ends memsym as sig would have.
func resignal(os.Signal) { os.Exit(130) }
