package source

import (
	"context"
	"slices"
	"sync"

	"memsym/record"
)

// Prefetcher is a Source that can record several points at once, ahead of
// the Record calls that will ask for them: a PyTorch function in as few
// processes as its jobs allow, paying torch's import once a process; a
// recorder command at each point at once, as many as its jobs allow.
// Prefetch reports nothing: each Record call that follows for one of
// points returns what Record would have returned without it, the
// recording or the failure at that point, only sooner, or records it
// then, where Prefetch did not. The points are listed in the order they
// will be asked for: a failure at the first, which often ends the
// caller's work, stops the recording of the others. A point listed twice
// serves two Record calls; a point no Record asks for is recorded for
// nothing, and Close removes it.
type Prefetcher interface {
	Source
	Prefetch(ctx context.Context, points []record.Point)
}

// Prefetch records points at once where src is a Prefetcher, and does
// nothing otherwise.
func Prefetch(ctx context.Context, src Source, points []record.Point) {
	if pf, ok := src.(Prefetcher); ok && len(points) > 0 {
		pf.Prefetch(ctx, points)
	}
}

// kept is what Prefetch recorded, each point's outcome waiting for the
// Record calls that ask for it.
type kept struct {
	mu     sync.Mutex
	points map[string]*keptPoint // by record.Point.Key
}

// keptPoint is one point's outcome: the file its recording was written
// to, or the error Record would return there (err not nil); uses is how
// many more Record calls it serves.
type keptPoint struct {
	path string
	err  error
	uses int
}

// want returns the points, each once, that are to be recorded, and how
// many Record calls each is to serve (each time it is listed); a point
// kept already serves that many more, and is not recorded again.
func (k *kept) want(points []record.Point) (fresh []record.Point, uses map[string]int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	uses = map[string]int{}
	for _, p := range points {
		key := p.Key()
		if kp := k.points[key]; kp != nil {
			kp.uses++
			continue
		}
		if uses[key] == 0 {
			fresh = append(fresh, p)
		}
		uses[key]++
	}
	return fresh, uses
}

// put keeps the outcome at p for kp.uses Record calls.
func (k *kept) put(p record.Point, kp keptPoint) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.points == nil {
		k.points = map[string]*keptPoint{}
	}
	k.points[p.Key()] = &kp
}

// take returns the outcome kept at p, if there is one, using it once;
// last says no Record call is left for it.
func (k *kept) take(p record.Point) (kp keptPoint, last, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	in := k.points[p.Key()]
	if in == nil {
		return keptPoint{}, false, false
	}
	if in.uses--; in.uses <= 0 {
		delete(k.points, p.Key())
		last = true
	}
	return *in, last, true
}

// chosenNote is what a failure at a check point memsym chose ends with:
// what the user can do about it.
const chosenNote = "; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller"

// pointWords names p in a message that goes on with a verb, "B = 2,
// T = 16"; a check point memsym chose (one of chosen) is said to be,
// "the check point memsym chose, B = 13, T = 115," (comma included), and
// note is then what the message of a recorder that failed or ran out of
// time there ends with (chosenNote), "" otherwise.
func pointWords(p record.Point, chosen []record.Point) (at, note string) {
	if slices.ContainsFunc(chosen, p.Equal) {
		return "the check point memsym chose, " + p.String() + ",", chosenNote
	}
	return p.String(), ""
}
