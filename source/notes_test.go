package source

import (
	"context"
	"io"
	"testing"

	"memsym/record"
)

// TestStderrNotesWords: the note's words for one run, for every run, for
// some, and for none; the run quoted is the least ordinal's, whatever the
// order the runs were added in; a run that wrote only blanks wrote nothing.
func TestStderrNotesWords(t *testing.T) {
	tail := func(s string) *tailBuffer {
		b := &tailBuffer{max: tailMax}
		b.Write([]byte(s))
		return b
	}
	type run struct {
		ord    int
		at     string
		more   int
		stderr string
	}
	for _, c := range []struct {
		runs         []run
		recorder, pt string
	}{
		{nil, "", ""},
		{[]run{{0, "B = 1", 0, "\n \n"}, {1, "B = 2", 0, ""}}, "", ""},
		{[]run{{0, "B = 1", 0, "warning: slow\n"}},
			"the recorder at B = 1 wrote to its standard error; it ends: warning: slow",
			"the PyTorch recorder at B = 1 wrote to its standard error; it ends: warning: slow"},
		{[]run{{0, "B = 1", 2, "warning: slow\n"}},
			"the recorder at B = 1 wrote to its standard error; it ends: warning: slow",
			"the PyTorch recorder wrote to its standard error recording B = 1 and 2 more points; it ends: warning: slow"},
		{[]run{{1, "B = 2", 1, "second\n"}, {0, "B = 1", 1, "first\n"}},
			"the recorder wrote to its standard error at both points it recorded; at B = 1 it ends: first",
			"the PyTorch recorder wrote to its standard error in both processes it ran; in the one recording B = 1 and 1 more point it ends: first"},
		{[]run{{2, "B = 3", 0, "third\n"}, {1, "B = 2", 0, "second\n"}, {0, "B = 1", 0, "first\n"}},
			"the recorder wrote to its standard error at all 3 points it recorded; at B = 1 it ends: first",
			"the PyTorch recorder wrote to its standard error in all 3 processes it ran; in the one recording B = 1 it ends: first"},
		{[]run{{3, "B = 4", 0, "fourth\n"}, {0, "B = 1", 0, ""}, {2, "B = 3", 0, "third\n"}, {1, "B = 2", 0, ""}},
			"the recorder wrote to its standard error at 2 of the 4 points it recorded; at B = 3 it ends: third",
			"the PyTorch recorder wrote to its standard error in 2 of the 4 processes it ran; in the one recording B = 3 it ends: third"},
	} {
		for _, say := range []struct {
			note func(*stderrNotes) string
			want string
		}{{recorderNote, c.recorder}, {torchNote, c.pt}} {
			var n stderrNotes
			n.reserve(len(c.runs))
			for _, r := range c.runs {
				n.add(r.ord, r.at, r.more, tail(r.stderr))
			}
			if got := say.note(&n); got != say.want {
				t.Errorf("%v: note %q, want %q", c.runs, got, say.want)
			}
			// Said once: taken, it is gone.
			if got := say.note(&n); got != "" {
				t.Errorf("%v: said twice: %q", c.runs, got)
			}
		}
	}
}

// TestCommandRunKeepsTheTail: a command that succeeds flooding its
// standard error has only the end of it kept, however much it wrote.
func TestCommandRunKeepsTheTail(t *testing.T) {
	// 64 MiB of a line said again, then the last line.
	c, err := ParseCommand(`yes 'a line of noise' | head -c 67108864 >&2; echo the end >&2; echo {B}`)
	if err != nil {
		t.Fatal(err)
	}
	tail, err := c.run(context.Background(), record.Point{{Name: "B", Value: 1}}, "B = 1", "", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// At most twice tailMax bytes kept, in a buffer of about one read's
	// size (io.Copy's 32 KiB), not of the 64 MiB written.
	if len(tail.buf) > 2*tailMax || cap(tail.buf) > 1<<20 {
		t.Errorf("kept %d bytes (capacity %d) of the standard error", len(tail.buf), cap(tail.buf))
	}
	if got, want := tail.text(), "…a line of noise | a line of noise | a line of noise | a line of noise | the end"; got != want {
		t.Errorf("the tail is %q, want %q", got, want)
	}
}
