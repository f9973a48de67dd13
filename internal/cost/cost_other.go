//go:build !unix

package cost

import (
	"os"
	"time"
)

// Elsewhere (Windows, Plan 9, wasm) the benchmarks report wall times only.

func selfCPU() (time.Duration, bool) { return 0, false }

func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }
