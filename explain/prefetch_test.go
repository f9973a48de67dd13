package explain_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"memsym/explain"
	"memsym/record"
	"memsym/source"
)

// prefetching is a bundled program as a source that records ahead
// (source.Prefetcher): Prefetch records each point and keeps it, and
// Record reads what was kept, else records. It notes the points it was
// asked to prefetch, and those Record recorded itself.
type prefetching struct {
	*source.Program
	kept      map[string][]*record.Recording
	asked     []record.Point // Prefetch's points, in order
	unfetched []record.Point // Record's points that Prefetch had not recorded
	reads     []record.Point // every Record's point
}

func (s *prefetching) Prefetch(ctx context.Context, points []record.Point) {
	s.asked = append(s.asked, points...)
	for _, p := range points {
		if rec, err := s.Program.Record(ctx, p); err == nil {
			s.kept[p.Key()] = append(s.kept[p.Key()], rec)
		}
	}
}

func (s *prefetching) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	s.reads = append(s.reads, p)
	if k := s.kept[p.Key()]; len(k) > 0 {
		s.kept[p.Key()] = k[1:]
		return k[0], nil
	}
	s.unfetched = append(s.unfetched, p)
	return s.Program.Record(ctx, p)
}

// Gather records ahead, at once, every point it then records: the point
// counted, both sides of the crossovers and the points check M3 checks,
// in the order it records them; and the chapter is the one it gathers
// recording each point as it goes.
func TestGatherPrefetches(t *testing.T) {
	const name = "gpt-course"
	plain, err := source.NewProgram(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	ahead := &prefetching{Program: plain, kept: map[string][]*record.Recording{}}
	request := func(src source.Source) *explain.Request {
		return &explain.Request{Program: name, Source: src, At: plain.Default(), Verify: 3, Confirm: true}
	}
	got := gathered(t, request(ahead))
	if len(ahead.unfetched) > 0 || len(ahead.reads) < 1+2+3 || !slices.EqualFunc(ahead.asked, ahead.reads, record.Point.Equal) {
		t.Errorf("prefetched %v, then recorded %v, of them not prefetched %v: want every point prefetched, in the order recorded: the counted one, two sides of a crossover or more, and 3 checked",
			ahead.asked, ahead.reads, ahead.unfetched)
	}
	// Beside the same wrapping without Prefetch: a wrapped program is no
	// *source.Program, which the chapter tells apart.
	if want := gathered(t, request(struct{ source.Source }{plain})); !reflect.DeepEqual(got, want) {
		t.Errorf("the chapter gathered with prefetching differs from the one without:\n%+v\nwant\n%+v", got, want)
	}
}
