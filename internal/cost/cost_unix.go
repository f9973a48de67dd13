//go:build unix

package cost

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss) * maxrssUnit(runtime.GOOS), true
}

// maxrssUnit is the unit of getrusage's ru_maxrss: bytes on Apple's
// systems, kilobytes on Linux and the BSDs.
func maxrssUnit(goos string) int64 {
	switch goos {
	case "darwin", "ios":
		return 1
	}
	return 1024
}
