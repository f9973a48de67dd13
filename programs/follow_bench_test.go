package programs_test

import (
	"testing"

	"memsym/programs"
	"memsym/record"
)

// BenchmarkSyntheticFollow measures what a grid point of `symbolic
// --program synthetic` costs beyond point 0: the program made at another
// point, each record compared with point 0's as it is made (Live.Follow),
// in chunks of point 0's records as interp hands them to its readers. It
// reports the time per record compared.
func BenchmarkSyntheticFollow(b *testing.B) {
	const ops = 200_000
	p, err := programs.Lookup("synthetic")
	if err != nil {
		b.Fatal(err)
	}
	consts := map[string]int64{"N": ops}
	open := func(dims map[string]int64) *record.Live {
		s, err := p.Stream(dims, consts)
		if err != nil {
			b.Fatal(err)
		}
		l, ok := s.(*record.Live)
		if !ok {
			b.Fatalf("synthetic streams a %T, not a *record.Live", s)
		}
		if !l.Scan() || l.Record().Kind != record.KindHeader {
			b.Fatal("no header")
		}
		return l
	}
	// Point 0's records, kept in chunks of about the size interp's are.
	zero := open(map[string]int64{"B": 1, "T": 64})
	var chunks []*record.Templates
	t := new(record.Templates)
	for zero.Scan() {
		zero.Keep(t)
		if t.Size() >= 256<<10 {
			chunks = append(chunks, t)
			t = new(record.Templates)
		}
	}
	if t.Len() > 0 {
		chunks = append(chunks, t)
	}
	zero.Close()
	records := 0
	for _, c := range chunks {
		records += c.Len()
	}
	var sizes record.Sizes
	b.ResetTimer()
	for b.Loop() {
		l := open(map[string]int64{"B": 2, "T": 128})
		for _, c := range chunks {
			sizes.Reset()
			if k := l.Follow(c, 0, &sizes); k != c.Len() {
				b.Fatalf("stopped at record %d of a chunk of %d", k, c.Len())
			}
		}
		if l.Scan() || l.Err() != nil {
			b.Fatalf("more after point 0's end, or %v", l.Err())
		}
		l.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(records), "ns/record")
}
