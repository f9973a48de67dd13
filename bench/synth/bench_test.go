package synth

import (
	"bytes"
	"testing"

	"memsym/internal/cost"
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

// BenchmarkFollow is what reading a grid point costs once point 0 is read:
// the recording at B = 3, T = 192 read by comparison with the one at B = 1,
// T = 64 (record.Scanner.Follow), only its sizes parsed. It reports the
// bytes of the recording followed.
func BenchmarkFollow(b *testing.B) {
	var first bytes.Buffer
	if err := (Program{Ops: 100_000}).Write(&first, []int64{1, 64}); err != nil {
		b.Fatal(err)
	}
	var t record.Templates
	s := record.NewScanner(bytes.NewReader(first.Bytes()), "point0.jsonl")
	for n := 0; s.Scan(); n++ {
		if n > 0 {
			s.Keep(&t)
		}
	}
	data := benchRecording(b)
	var sizes record.Sizes
	perCPU(b, int64(len(data)), func() {
		s := record.NewScanner(bytes.NewReader(data), "synthetic.jsonl")
		if !s.Scan() {
			b.Fatal(s.Err())
		}
		sizes.Reset()
		n := s.Follow(&t, 0, &sizes)
		if n != t.Len() || s.Scan() || s.Err() != nil {
			b.Fatalf("followed %d of %d lines: %v", n, t.Len(), s.Err())
		}
	})
}

// perCPU runs f in the benchmark's loop and reports, besides MB/s over the
// wall time, MB per CPU second: the process's user and system time, the
// collector's included, which a busy machine's other processes do not
// inflate as they do the wall time (where the system tells CPU time).
func perCPU(b *testing.B, size int64, f func()) {
	b.SetBytes(size)
	b.ReportAllocs()
	start, timed := cost.CPU()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end, ok := cost.CPU(); timed && ok && end > start {
		cpu := end - start
		b.ReportMetric(float64(size)*float64(n)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}
