package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"memsym/interp"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

// liveSets is a program whose operation i writes one buffer of sets[i](T)
// bytes and nothing else is live, so its live sets are the polynomials
// given; shift adds bytes to every operation's buffer at the points where
// it is true, to make recordings that contradict the model.
type liveSets struct {
	sets  []func(t int64) int64
	shift func(p record.Point) int64
	// points are the grid's three values of T and a check point; 1, 2, 3
	// and 7 when empty.
	points []int64
}

func (s *liveSets) Name() string { return "live-sets" }
func (s *liveSets) Close() error { return nil }

func (s *liveSets) Record(_ context.Context, p record.Point) (*record.Recording, error) {
	t, _ := p.Value("T")
	r := record.NewRecorder("Sets.apply", p, nil, "")
	var last int64
	for i, f := range s.sets {
		n := f(t)
		if s.shift != nil {
			n += s.shift(p)
		}
		id := r.Bytes(record.Temp, fmt.Sprintf("s%d", i+1), "", poly.Int(n))
		r.Op(fmt.Sprintf("Sets.apply/%%%d", i+1), "", nil, []int64{id})
		last = id
	}
	r.Result(last)
	return r.Finish()
}

func (s *liveSets) Recordings(ctx context.Context, spec source.Spec) (*source.Recordings, error) {
	out := &source.Recordings{}
	mk := func(t int64) error {
		rec, err := s.Record(ctx, record.Point{{Name: "T", Value: t}})
		if err != nil {
			return err
		}
		src := sourceOf(rec)
		if len(out.Grid) < 3 {
			out.Grid = append(out.Grid, src)
		} else {
			out.Checks = append(out.Checks, src)
		}
		return nil
	}
	points := s.points
	if len(points) == 0 {
		points = []int64{1, 2, 3, 7}
	}
	for _, t := range points {
		if err := mk(t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tieSets are the live sets T² + 100, 2T² − 10T + 125 and 2T² − 20T + 170.
// The first is pruned (the second exceeds it by (T − 5)²) but ties the
// second at T = 5, where, being the earlier operation, it holds the peak.
func tieSets() *liveSets {
	return &liveSets{sets: []func(int64) int64{
		func(t int64) int64 { return t*t + 100 },
		func(t int64) int64 { return 2*t*t - 10*t + 125 },
		func(t int64) int64 { return 2*t*t - 20*t + 170 },
	}}
}

func TestCrossoverAtATie(t *testing.T) {
	ctx := context.Background()
	src := tieSets()
	m, err := Build(ctx, src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Crossovers("T", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Segments {
		got = append(got, fmt.Sprintf("%d-%d:op%d", s.From, s.To, m.Cands[s.Holder].Op))
	}
	if want := "1-4:op3 5-5:op1 6-0:op2"; strings.Join(got, " ") != want {
		t.Errorf("segments %s, want %s", strings.Join(got, " "), want)
	}
	// The recordings at every crossover's sides agree: the holder's
	// operation is where the recorded peak first is.
	confirmed, err := m.Confirm(ctx, src, c, record.Point{{Name: "T", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// Two crossovers, two sides each, T = 5 the right of the first and
	// the left of the second: recorded once.
	var at []string
	for _, f := range confirmed {
		at = append(at, f.Point.Key())
	}
	if strings.Join(at, " ") != "T=4 T=5 T=6" {
		t.Fatalf("confirmed at %v, want T = 4, 5 and 6, each once", at)
	}
	for _, f := range confirmed {
		if !f.OK(m) {
			t.Errorf("at %s: recorded %s at operation %d, predicted %s at operation %d", f.Point, f.Peak, f.PeakOp, f.PredictedPeak, m.Cands[f.Predicted].Op)
		}
	}
	// The model's peak, bytes and operation, agrees with a recording at
	// every point off the grid.
	for x := int64(4); x <= 40; x++ {
		p := record.Point{{Name: "T", Value: x}}
		rec, err := src.Record(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.CheckRecording(rec, p.Key()); err != nil {
			t.Errorf("T = %d: %v", x, err)
		}
	}
}

// TestConfirmContradicted: a recording whose peak is elsewhere, or of other
// bytes, than the crossovers predict is not confirmed.
func TestConfirmContradicted(t *testing.T) {
	ctx := context.Background()
	m, err := Build(ctx, tieSets(), source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Crossovers("T", nil)
	if err != nil {
		t.Fatal(err)
	}
	base := record.Point{{Name: "T", Value: 1}}
	// Every buffer 1 byte larger: the same operations, other bytes.
	bytesOff := tieSets()
	bytesOff.shift = func(record.Point) int64 { return 1 }
	// At T = 4 the first operation's set grows to the third's 122 bytes:
	// the peak's bytes are as predicted, but an earlier operation reaches
	// them first.
	opOff := tieSets()
	opOff.sets[0] = func(t int64) int64 {
		if t == 4 {
			return 122
		}
		return t*t + 100
	}
	for _, tc := range []struct {
		name string
		src  *liveSets
		bad  string
	}{{"bytes", bytesOff, "T=4 T=5 T=6"}, {"operation", opOff, "T=4"}} {
		confirmed, err := m.Confirm(ctx, tc.src, c, base)
		if err != nil {
			t.Fatal(err)
		}
		var bad []string
		for _, f := range confirmed {
			if !f.OK(m) {
				bad = append(bad, f.Point.Key())
			}
		}
		if strings.Join(bad, " ") != tc.bad {
			t.Errorf("%s: contradicted at %v, want %s", tc.name, bad, tc.bad)
		}
	}
}

// TestFilesCannotRecord: a model from files says so when asked to record.
func TestFilesCannotRecord(t *testing.T) {
	f := &source.Files{}
	if _, err := f.Record(context.Background(), record.Point{{Name: "T", Value: 1}}); !errors.Is(err, source.ErrCannotRecord) {
		t.Errorf("Files.Record: %v, want ErrCannotRecord", err)
	}
}

func sourceOf(rec *record.Recording) interp.Source {
	return interp.Source{Name: rec.Header.Dims.Key(), Open: func() (record.Stream, error) { return rec.Replay(), nil }}
}
