package record

import (
	"bytes"
	"sync"
	"testing"
)

var benchData struct {
	once sync.Once
	data []byte
}

// benchRecording is the course GPT with 5000 blocks: 10^5 operations, in
// canonical form.
func benchRecording(b testing.TB) []byte {
	b.Helper()
	benchData.once.Do(func() {
		rec := courseGPT(b, 2, 16, 64, 2, 5000, 92)
		var buf bytes.Buffer
		if _, err := rec.WriteTo(&buf); err != nil {
			b.Fatal(err)
		}
		benchData.data = buf.Bytes()
	})
	return benchData.data
}

func BenchmarkScan(b *testing.B) {
	data := benchRecording(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s := NewScanner(bytes.NewReader(data), "bench.jsonl")
		n := 0
		for s.Scan() {
			n++
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	data := benchRecording(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "bench.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	data := benchRecording(b)
	rec, err := Read(bytes.NewReader(data), "bench.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var buf bytes.Buffer
		if _, err := rec.WriteTo(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
