package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	"memsym/internal/cost"
)

// usage is what one run of a command cost: its wall time, its CPU time (user
// and system, all threads) and its peak resident set in bytes.
type usage struct {
	wall   time.Duration
	cpu    time.Duration
	maxRSS int64
}

// runCommand runs name with args in dir, its output discarded but for the
// end of its stderr, which an error quotes, and returns what it cost.
func runCommand(ctx context.Context, dir, name string, args ...string) (usage, error) {
	return runExpecting(ctx, "", dir, name, args...)
}

// runExpecting is runCommand for a command that must fail, saying refusal
// in its stderr, when refusal is not empty.
func runExpecting(ctx context.Context, refusal, dir, name string, args ...string) (usage, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr tailBuffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	line := strings.Join(append([]string{name}, args...), " ")
	switch {
	case refusal == "" && err != nil:
		return usage{}, fmt.Errorf("%s: %v: %s", line, err, stderr.String())
	case refusal != "" && cmd.ProcessState == nil:
		return usage{}, fmt.Errorf("%s: %v", line, err)
	case refusal != "" && (err == nil || !strings.Contains(stderr.String(), refusal)):
		return usage{}, fmt.Errorf("%s: expected it to fail saying %q; it ended with %v: %s", line, refusal, err, stderr.String())
	}
	u := usage{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	u.maxRSS, _ = cost.PeakRSS(cmd.ProcessState) // 0 where the system cannot tell
	return u, nil
}

// tailBuffer keeps the last 2 KB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if n := len(t.b); n > 2048 {
		t.b = append(t.b[:0], t.b[n-2048:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(bytes.TrimSpace(t.b)) }

// sample is one quantity measured once per run.
type sample []float64

func (s sample) sorted() []float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// median returns the middle value, or the mean of the two middle ones.
func (s sample) median() float64 {
	c := s.sorted()
	n := len(c)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

func (s sample) min() float64 { return slices.Min(s) }
func (s sample) max() float64 { return slices.Max(s) }

// describe writes the median with the range, each by format:
// "0.031 s (median of 5, 0.029–0.040)".
func (s sample) describe(format func(float64) string) string {
	return fmt.Sprintf("%s (median of %d, %s–%s)", format(s.median()), len(s), format(s.min()), format(s.max()))
}

// seconds formats a time in seconds with a unit that keeps three or four
// significant digits.
func seconds(x float64) string {
	switch {
	case x >= 1:
		return fmt.Sprintf("%.2f s", x)
	case x >= 1e-3:
		return fmt.Sprintf("%.3g ms", x*1e3)
	case x >= 1e-6:
		return fmt.Sprintf("%.3g µs", x*1e6)
	}
	return fmt.Sprintf("%.3g ns", x*1e9)
}

// megabytes formats bytes in MB of 10^6 bytes.
func megabytes(x float64) string { return fmt.Sprintf("%.1f MB", x/1e6) }

// rate formats bytes per second in MB/s.
func rate(x float64) string { return fmt.Sprintf("%.0f MB/s", x/1e6) }

// times formats a ratio: "1.23×" or "10400×".
func times(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0f×", x)
	}
	return fmt.Sprintf("%.2f×", x)
}

// ratios returns a[i]/b[i] for each run, the two measured in the same run.
func ratios(a, b sample) sample {
	out := make(sample, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}
