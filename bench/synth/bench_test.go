package synth

import (
	"bytes"
	"syscall"
	"testing"
	"time"

	"memsym/record"
)

// benchRecording is synthetic at 10^5 operations at B = 3, T = 192, in
// memory: a tenth of one of make bench's files.
func benchRecording(b *testing.B) []byte {
	b.Helper()
	var buf bytes.Buffer
	if err := (Program{Ops: 100_000}).Write(&buf, []int64{3, 192}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkRead is what memsym validate does with each file: read and check
// the whole recording.
func BenchmarkRead(b *testing.B) {
	data := benchRecording(b)
	perCPU(b, int64(len(data)), func() {
		if _, err := record.Read(bytes.NewReader(data), "synthetic.jsonl"); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkScan is the Scanner alone over the same recording.
func BenchmarkScan(b *testing.B) {
	data := benchRecording(b)
	perCPU(b, int64(len(data)), func() {
		s := record.NewScanner(bytes.NewReader(data), "synthetic.jsonl")
		for s.Scan() {
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
	})
}

// perCPU runs f in the benchmark's loop and reports, besides MB/s over the
// wall time, MB per CPU second: the process's user and system time, the
// collector's included, which a busy machine's other processes do not
// inflate as they do the wall time.
func perCPU(b *testing.B, size int64, f func()) {
	b.SetBytes(size)
	b.ReportAllocs()
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if cpu := cpuTime(b) - start; cpu > 0 {
		b.ReportMetric(float64(size)*float64(n)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
