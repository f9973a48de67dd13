package programs

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"memsym/record"
)

// writeStream writes a stream's records as text, and its error.
func writeStream(t *testing.T, s record.Stream) []byte {
	t.Helper()
	var b bytes.Buffer
	w := record.NewWriter(&b)
	for s.Scan() {
		if err := w.Write(s.Record()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pointAt returns a program's grid point i (0 to 3^k − 1) as dimensions.
func pointAt(p *Program, i int) map[string]int64 {
	m := map[string]int64{}
	for _, d := range p.Dims {
		m[d.Name] = d.Grid[i%3]
		i /= 3
	}
	return m
}

// TestStreamIsRecord checks that every bundled program, and the step of
// each that has one, streams at several points the very records Record
// builds: the same text, line for line.
func TestStreamIsRecord(t *testing.T) {
	for _, p := range All() {
		progs := []*Program{p}
		if s, err := p.Step(StepOptions{}); err == nil {
			progs = append(progs, s)
		}
		for _, q := range progs {
			for _, i := range []int{0, 4, 8} {
				dims := pointAt(q, i)
				rec, err := q.Record(dims, nil)
				if err != nil {
					t.Fatalf("%s at %v: %v", q.Name, dims, err)
				}
				s, err := q.Stream(dims, nil)
				if err != nil {
					t.Fatalf("%s at %v: %v", q.Name, dims, err)
				}
				got := writeStream(t, s)
				if c, ok := s.(interface{ Close() error }); ok {
					c.Close()
				}
				want := writeStream(t, rec.Replay())
				if !bytes.Equal(got, want) {
					t.Errorf("%s at %v: the stream's %d bytes differ from the recording's %d", q.Name, dims, len(got), len(want))
				}
			}
		}
	}
}

// TestLiveFollowAgrees checks record.Live's Follow against the Scanner's on
// every bundled program: point 0's records kept in chunks of random sizes,
// another grid point's read by comparison with them. Both must stop at the
// same record, read the same sizes, and the next Scan must give the same
// record.
func TestLiveFollowAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range All() {
		if len(p.Dims) == 0 {
			continue
		}
		for _, other := range []int{1, 8} {
			a, b := pointAt(p, 0), pointAt(p, other)
			recA, err := p.Record(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			recB, err := p.Record(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			textA, textB := writeStream(t, recA.Replay()), writeStream(t, recB.Replay())
			la, err := p.Stream(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			lb, err := p.Stream(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			sa := record.NewScanner(bytes.NewReader(textA), "a")
			sb := record.NewScanner(bytes.NewReader(textB), "b")
			liveA, liveB := la.(*record.Live), lb.(*record.Live)
			for _, s := range []record.Stream{sa, sb, liveA, liveB} {
				if !s.Scan() || s.Record().Kind != record.KindHeader {
					t.Fatalf("%s: no header", p.Name)
				}
			}
			var tt, tl record.Templates
			var st, sl record.Sizes
			followed := 0
			for {
				tt.Reset()
				tl.Reset()
				n := 1 + rng.IntN(300)
				for tt.Len() < n && sa.Scan() {
					if !liveA.Scan() {
						t.Fatalf("%s: the live stream ends before the text", p.Name)
					}
					sa.Keep(&tt)
					liveA.Keep(&tl)
				}
				if tt.Len() == 0 {
					break
				}
				if tl.Len() != tt.Len() || tl.Kind(tl.Len()-1) != tt.Kind(tt.Len()-1) {
					t.Fatalf("%s: kept %d records live, %d lines", p.Name, tl.Len(), tt.Len())
				}
				st.Reset()
				sl.Reset()
				kt := sb.Follow(&tt, 0, &st)
				kl := liveB.Follow(&tl, 0, &sl)
				if kt != kl || st.Len() != sl.Len() {
					t.Fatalf("%s at %v after %d records: the Scanner followed %d records (%d sizes), Live %d (%d)", p.Name, b, followed, kt, st.Len(), kl, sl.Len())
				}
				for i := range st.Len() {
					if !st.At(i).Equal(sl.At(i)) {
						t.Fatalf("%s: size %d after %d records: %s by the Scanner, %s live", p.Name, i, followed, st.At(i), sl.At(i))
					}
				}
				followed += kt
				if kt < tt.Len() {
					t.Logf("%s at %v: both stop after %d records", p.Name, b, followed)
					// Both stopped before the same record: the next Scan reads it.
					okT, okL := sb.Scan(), liveB.Scan()
					if okT != okL || okT && !sameText(t, sb.Record(), liveB.Record()) {
						t.Fatalf("%s: after following %d records the next records differ", p.Name, followed)
					}
					break
				}
			}
			if sb.Err() != nil || liveB.Err() != nil {
				t.Fatalf("%s: %v, %v", p.Name, sb.Err(), liveB.Err())
			}
			liveA.Close()
			liveB.Close()
		}
	}
}

// sameText reports whether two records are written alike.
func sameText(t *testing.T, a, b *record.Record) bool {
	var x, y bytes.Buffer
	wa, wb := record.NewWriter(&x), record.NewWriter(&y)
	if err := wa.Write(a); err != nil {
		t.Fatal(err)
	}
	if err := wb.Write(b); err != nil {
		t.Fatal(err)
	}
	wa.Flush()
	wb.Flush()
	return bytes.Equal(x.Bytes(), y.Bytes())
}
