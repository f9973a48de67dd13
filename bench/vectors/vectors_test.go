package vectors

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"memsym/internal/cost"
	"memsym/interp"
)

// TestBuildRecovers checks that interp.Build, given the Set's recordings,
// finds each vector's own polynomial: what the benchmark times is the
// exact interpolation of distinct vectors.
func TestBuildRecovers(t *testing.T) {
	s := Generate(300, Seed)
	srcs, err := s.Sources()
	if err != nil {
		t.Fatal(err)
	}
	m, err := interp.Build(srcs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Structure.Buffers.Len() != s.Len()+1 {
		t.Fatalf("%d buffers, want %d", m.Structure.Buffers.Len(), s.Len()+1)
	}
	for v := range s.Len() {
		if want := s.Poly(v); !m.Bytes(v).Equal(want) {
			t.Errorf("vector %d: %s, want %s", v, m.Bytes(v), want)
		}
	}
}

// TestInterpolateRecovers checks that interp.Interpolate, given the Set's
// values, finds each vector's own polynomial, as Build does.
func TestInterpolateRecovers(t *testing.T) {
	s := Generate(300, Seed)
	got, err := interp.Interpolate(Vars, Grid[:], s.Rats())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != s.Len() {
		t.Fatalf("%d polynomials, want %d", len(got), s.Len())
	}
	for v := range s.Len() {
		if want := s.Poly(v); !got[v].Equal(want) {
			t.Errorf("vector %d: %s, want %s", v, got[v], want)
		}
	}
}

func TestGenerate(t *testing.T) {
	a, b := Generate(500, Seed), Generate(50, Seed)
	for v := range b.Len() {
		if a.Coefs[v] != b.Coefs[v] {
			t.Fatalf("vector %d differs between Generate(500) and Generate(50) with one seed", v)
		}
	}
	seen := map[[9]int64]bool{}
	for _, c := range a.Coefs {
		if seen[c] {
			t.Fatalf("vector %v twice", c)
		}
		seen[c] = true
	}
	if Generate(5, Seed+1).Coefs[0] == a.Coefs[0] {
		t.Errorf("another seed gives the same first vector")
	}
}

func TestValues(t *testing.T) {
	s := &Set{Coefs: [][9]int64{{7, 0, 0, 0, 3, 0, 0, 0, 2}}} // 2·B²·T² + 3·B·T + 7
	want := []int64{}
	for _, b := range Grid[0] {
		for _, t := range Grid[1] {
			want = append(want, 2*b*b*t*t+3*b*t+7)
		}
	}
	got := s.Values(0)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("values %v, want %v", got, want)
		}
	}
	if got, want := s.Poly(0).String(), "2 · B² · T² + 3 · B · T + 7"; got != want {
		t.Errorf("poly %s, want %s", got, want)
	}
}

func TestWriteJSON(t *testing.T) {
	s := Generate(3, Seed)
	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got setJSON
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Vectors) != 3 || got.Grid != Grid || got.Exps != Exps {
		t.Fatalf("read back %+v", got)
	}
	for v, vec := range got.Vectors {
		if vec.Coefs != s.Coefs[v] {
			t.Errorf("vector %d: coefficients %v, want %v", v, vec.Coefs, s.Coefs[v])
		}
		for i, x := range s.Values(v) {
			if vec.Values[i] != x {
				t.Errorf("vector %d: value %d is %d, want %d", v, i, vec.Values[i], x)
			}
		}
	}
}

// BenchmarkInterpolate interpolates Count distinct value vectors, given as
// exact numbers, with one call of interp.Interpolate, and reports the time
// per vector, over the wall time and over the process's CPU time (user and
// system, the collector's included): the work the peer's timed part does,
// which also starts from the values.
func BenchmarkInterpolate(b *testing.B) {
	s := Generate(Count, Seed)
	values := s.Rats()
	b.ReportAllocs()
	start, timed := cost.CPU()
	for b.Loop() {
		ps, err := interp.Interpolate(Vars, Grid[:], values)
		if err != nil {
			b.Fatal(err)
		}
		if len(ps) != Count {
			b.Fatalf("%d polynomials", len(ps))
		}
	}
	perVector(b, start, timed)
}

// BenchmarkBuild interpolates Count distinct value vectors through
// interp.Build and reports the time per vector, over the wall time and over
// the process's CPU time (user and system, the collector's included): reading
// the nine recordings, solving, and summing the inputs included.
func BenchmarkBuild(b *testing.B) {
	s := Generate(Count, Seed)
	srcs, err := s.Sources()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start, timed := cost.CPU()
	for b.Loop() {
		m, err := interp.Build(srcs, nil)
		if err != nil {
			b.Fatal(err)
		}
		if m.Structure.Buffers.Len() != Count+1 {
			b.Fatalf("%d buffers", m.Structure.Buffers.Len())
		}
	}
	perVector(b, start, timed)
}

// perVector reports the wall time of the benchmark's loop per vector, and
// its CPU time, the process's from start on, where timed and the system
// tells it.
func perVector(b *testing.B, start time.Duration, timed bool) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/Count, "ns/vector")
	if end, ok := cost.CPU(); timed && ok {
		b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N)/Count, "cpu-ns/vector")
	}
}
