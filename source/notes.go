package source

import (
	"fmt"
	"sync"
)

// stderrNotes gathers what the runs of a recorder that succeeded wrote to
// their standard error, for the one note its source gives as it closes:
// an executor's warnings (a fallback, a precision lowered) that its exit
// with 0 would otherwise leave unsaid. A run that failed says its own
// standard error in its failure, and is not counted here.
//
// Each run has an ordinal, handed out in the order its points were asked
// for (the grid's, then the check points', then each point recorded after
// them, as it is asked for), and the note quotes the first run that wrote,
// in that order, however the runs were timed. Only that run's tail is
// kept: a few thousand bytes at most (tailBuffer), however much the
// recorders wrote.
type stderrNotes struct {
	mu    sync.Mutex
	next  int // the ordinals handed out
	ran   int // the runs that succeeded
	wrote int // of those, the runs that wrote to their standard error
	first *stderrRun
}

// stderrRun is a run that wrote to its standard error.
type stderrRun struct {
	ord  int
	at   string // the point it recorded, or the first of its points: "B = 2, T = 16"
	more int    // the points it recorded after that one (a --torch process's)
	tail string // the end of its standard error, on one line (tailBuffer.text)
}

// reserve hands out n ordinals, in order, and returns the first.
func (n *stderrNotes) reserve(k int) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	first := n.next
	n.next += k
	return first
}

// add counts a run that succeeded, its ordinal ord, at the point at (and
// more points after it), whose standard error's end is in tail.
func (n *stderrNotes) add(ord int, at string, more int, tail *tailBuffer) {
	text := tail.text()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ran++
	if text == "" {
		return
	}
	n.wrote++
	if n.first == nil || ord < n.first.ord {
		n.first = &stderrRun{ord: ord, at: at, more: more, tail: text}
	}
}

// take returns what was gathered, and forgets it: the note is given once.
func (n *stderrNotes) take() (ran, wrote int, first *stderrRun) {
	n.mu.Lock()
	defer n.mu.Unlock()
	ran, wrote, first = n.ran, n.wrote, n.first
	n.ran, n.wrote, n.first = 0, 0, nil
	return ran, wrote, first
}

// recorderNote is the note on the recorder command's standard error at
// the points it recorded, "" when it wrote nothing there at any:
//
//	the recorder wrote to its standard error at 9 of the 11 points it recorded; at B = 1, T = 4 it ends: presk: warning: …
func recorderNote(n *stderrNotes) string {
	ran, wrote, first := n.take()
	switch {
	case first == nil:
		return ""
	case ran == 1:
		return fmt.Sprintf("the recorder at %s wrote to its standard error; it ends: %s", first.at, first.tail)
	}
	return fmt.Sprintf("the recorder wrote to its standard error at %s; at %s it ends: %s", ofThe(wrote, ran, "points it recorded"), first.at, first.tail)
}

// torchNote is recorderNote for the PyTorch recorder, whose one process
// records several points in turn: its standard error is the process's,
// said of the points it recorded.
//
//	the PyTorch recorder wrote to its standard error in 1 of the 2 processes it ran; in the one recording B = 2, T = 16 and 4 more points it ends: …
func torchNote(n *stderrNotes) string {
	ran, wrote, first := n.take()
	if first == nil {
		return ""
	}
	points := first.at
	if first.more > 0 {
		points += fmt.Sprintf(" and %d more %s", first.more, plural(first.more, "point", "points"))
	}
	if ran == 1 {
		if first.more == 0 {
			return fmt.Sprintf("the PyTorch recorder at %s wrote to its standard error; it ends: %s", first.at, first.tail)
		}
		return fmt.Sprintf("the PyTorch recorder wrote to its standard error recording %s; it ends: %s", points, first.tail)
	}
	return fmt.Sprintf("the PyTorch recorder wrote to its standard error in %s; in the one recording %s it ends: %s", ofThe(wrote, ran, "processes it ran"), points, first.tail)
}

// ofThe says n of total things, n at least 1 and total at least 2: "9 of
// the 11 points it recorded", "both points it recorded", "all 11 points
// it recorded".
func ofThe(n, total int, things string) string {
	switch {
	case n == total && total == 2:
		return "both " + things
	case n == total:
		return fmt.Sprintf("all %d %s", total, things)
	}
	return fmt.Sprintf("%d of the %d %s", n, total, things)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
