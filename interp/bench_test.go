package interp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"memsym/record"
)

// blocks records n transformer-like blocks of 10 operations each on
// buffers of B·T·D and B·T² elements, D = 8.
func blocks(n int) program {
	const d = 8
	return func(r *record.Recorder, at map[string]int64) {
		b, t := at["B"], at["T"]
		x := r.Input("x", "", f64, b, t, d)
		w := r.Param("w", "", f64, d, 4*d)
		step := func(label, path string, reads []int64, shape ...int64) int64 {
			out := r.Temp("out", "", f64, shape...)
			r.Op(label, path, reads, []int64{out})
			return out
		}
		for i := range n {
			p := fmt.Sprintf("blocks[%d]", i)
			h := step("LayerNorm.apply/%3", p+".ln", []int64{x}, b, t, d)
			qkv := step("Linear.apply/%4", p+".qkv", []int64{h, w}, b, t, 3*d)
			s := step("SelfAttention.apply/%13", p+".attn", []int64{qkv}, b, 2, t, t)
			pr := step("SelfAttention.apply/%21", p+".attn", []int64{s}, b, 2, t, t)
			o := step("SelfAttention.apply/%22", p+".attn", []int64{pr, qkv}, b, t, d)
			x2 := step("Block.apply/%9", p, []int64{x, o}, b, t, d)
			u := step("Linear.apply/%4", p+".up", []int64{x2, w}, b, t, 4*d)
			g := step("FeedForward.apply/%2", p+".ff", []int64{u}, b, t, 4*d)
			dn := step("Linear.apply/%4", p+".down", []int64{g, w}, b, t, d)
			x = step("Block.apply/%14", p, []int64{x2, dn}, b, t, d)
		}
		r.Result(x)
	}
}

var benchGrid = [][3]int64{{16, 32, 48}, {256, 512, 768}}

// BenchmarkBuild builds the model of 10^5 operations on a 3×3 grid served
// from memory.
func BenchmarkBuild(b *testing.B) {
	srcs := gridSources(b, attnVars, benchGrid, blocks(10_000))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Build(srcs, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(m.LiveAt) != 100_000 {
			b.Fatalf("%d operations", len(m.LiveAt))
		}
	}
}

// BenchmarkBuildFiles builds the same model from recordings in files, read
// by record's Scanner, with a check point.
func BenchmarkBuildFiles(b *testing.B) {
	dir := b.TempDir()
	prog := blocks(10_000)
	files := 0
	write := func(src Source) Source {
		s, err := src.Open()
		if err != nil {
			b.Fatal(err)
		}
		files++
		path := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", files))
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		wr := record.NewWriter(f)
		for s.Scan() {
			if err := wr.Write(s.Record()); err != nil {
				b.Fatal(err)
			}
		}
		if err := wr.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		return fileSource(path)
	}
	var srcs []Source
	for _, src := range gridSources(b, attnVars, benchGrid, prog) {
		srcs = append(srcs, write(src))
	}
	check := write(pointSource(b, attnVars, []int64{64, 1024}, prog))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(srcs, []Source{check}); err != nil {
			b.Fatal(err)
		}
	}
}

// fileSource reads the recording in a file.
func fileSource(path string) Source {
	return Source{Name: path, Open: func() (record.Stream, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		return fileStream{record.NewScanner(f, path), f}, nil
	}}
}

// fileStream is a Scanner that closes its file.
type fileStream struct {
	*record.Scanner
	f *os.File
}

func (s fileStream) Close() error { return s.f.Close() }

// BenchmarkCandidates finds the live sums of 10^5 operations, the last
// step of Build, once the lives are known.
func BenchmarkCandidates(b *testing.B) {
	m := mustBuild(b, gridSources(b, attnVars, benchGrid, blocks(10_000)), nil)
	for b.Loop() {
		m.Candidates = m.Candidates[:0]
		m.b.candidates()
	}
	if len(m.LiveAt) != 100_000 || len(m.Candidates) == 0 {
		b.Fatalf("%d operations, %d candidates", len(m.LiveAt), len(m.Candidates))
	}
}
