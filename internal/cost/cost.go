// Package cost reads what a process has cost, for the benchmarks and the
// tests that bound a command's memory: this process's CPU time so far, and
// the peak resident set of a command that has ended. Where the system
// cannot tell, it says so (ok false) rather than give a zero that a table
// would print as a measurement.
package cost

import (
	"os"
	"time"
)

// CPU returns the CPU time, user and system over all threads, that this
// process has used so far; ok is false where the system cannot tell.
func CPU() (d time.Duration, ok bool) { return selfCPU() }

// PeakRSS returns the peak resident set, in bytes, of the process that ps
// describes, once it has ended; ok is false where the system cannot tell.
func PeakRSS(ps *os.ProcessState) (bytes int64, ok bool) {
	if ps == nil {
		return 0, false
	}
	return peakRSS(ps)
}
