package cost

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"
)

func TestCPUGrows(t *testing.T) {
	before, ok := CPU()
	if !ok {
		t.Skipf("no CPU time on %s", runtime.GOOS)
	}
	// Spin for 50 ms of wall time: the CPU time must grow by about as much.
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	after, _ := CPU()
	if d := after - before; d < 10*time.Millisecond {
		t.Errorf("CPU time grew by %v over 50 ms of spinning (x=%d)", d, x)
	}
}

func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checked against Linux's units")
	}
	// This test binary run twice, holding nothing and holding 64 MiB: the
	// peaks must tell the two apart, in bytes.
	run := func(hold string) int64 {
		t.Helper()
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "USAGE_HOLD="+hold)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		b, ok := PeakRSS(cmd.ProcessState)
		if !ok {
			t.Fatal("no peak RSS on Linux")
		}
		return b
	}
	small, big := run("0"), run("67108864")
	// The race detector's shadow memory adds to the difference, so it is
	// bounded below by what was touched and above by a unit's mistake.
	if small <= 0 || big-small < 60<<20 || big-small > 1<<30 {
		t.Errorf("peak RSS %d holding nothing, %d holding 64 MiB", small, big)
	}
	if _, ok := PeakRSS(nil); ok {
		t.Error("PeakRSS(nil) reported a size")
	}
}

// TestMain is also TestPeakRSS's child: with USAGE_HOLD set, it touches
// that many bytes and exits.
func TestMain(m *testing.M) {
	if h := os.Getenv("USAGE_HOLD"); h != "" {
		n, err := strconv.Atoi(h)
		if err != nil {
			os.Exit(2)
		}
		b := make([]byte, n)
		for i := 0; i < n; i += 4096 {
			b[i] = 1
		}
		runtime.KeepAlive(b)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
