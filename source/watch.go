package source

import (
	"io"

	"memsym/record"
)

// watch is a recorder's standard output on its way to dst, read by a
// record.Scanner as it comes, so that a recorder whose output can no longer
// be a recording is stopped then rather than once it has ended: at a line
// the Scanner refuses (one longer than record.MaxLine among them, refused
// once that much of it is read, never kept whole), or at a first record
// that first refuses (not the header, or the header of another point).
// ReadFrom's error is then a *badOutput holding the message reading the
// recording would give, and runGroup stops the recorder. What only the
// output's end tells (its last line cut short, no result line), and what
// only the records together tell (an id declared twice, or read before it
// is declared), are left to reading the recording once the recorder has
// ended, and exited with 0.
//
// A line the recorder ends with a newline is read before the output's end
// (a pipe gives the bytes before it gives the end), so whether its output
// or its exit says why a recorder failed depends on what it wrote, not on
// how its writes and its exit were timed: a line it ended that is no
// record is its failure, however it exited; a last line it did not end is
// left to its exit.
type watch struct {
	dst   io.Writer
	name  string                       // names the recording in messages: "recorder(B=16,T=256)"
	first func(r *record.Record) error // checks the first record, when not nil
}

// ReadFrom copies r to dst until r ends, checking it as it goes. It
// returns a *badOutput when the output can no longer be a recording, and
// the error writing to dst or reading r (other than io.EOF) otherwise.
func (w *watch) ReadFrom(r io.Reader) (int64, error) {
	in := &teeReader{r: r, w: w.dst}
	s := record.NewScanner(in, w.name)
	for n := 0; s.Scan(); n++ {
		if n == 0 && w.first != nil {
			if err := w.first(s.Record()); err != nil {
				return in.n, in.fail(&badOutput{err})
			}
		}
	}
	return in.n, in.fail(s.Err())
}

// Write writes p to dst unchecked: a watch checks what it reads itself
// (ReadFrom), as runGroup has it do; Write is there for a writer's sake.
func (w *watch) Write(p []byte) (int, error) { return w.dst.Write(p) }

// teeReader is r, whose bytes are written to w as they are read.
type teeReader struct {
	r     io.Reader
	w     io.Writer
	n     int64
	ended bool  // r has ended, or failed
	rerr  error // r's error, other than io.EOF
	werr  error // w's error
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.w.Write(p[:n]); werr != nil {
			t.werr = werr
			return 0, werr
		}
		t.n += int64(n)
	}
	if err != nil {
		t.ended = true
		if err != io.EOF {
			t.rerr = err
		}
	}
	return n, err
}

// fail returns the error to report for err, the Scanner's or the first
// record's: w's or r's error first; then err, a *badOutput, if r had not
// ended when it was found, and nil if it had (what the output's end says
// is reading the recording's to say).
func (t *teeReader) fail(err error) error {
	switch {
	case t.werr != nil:
		return t.werr
	case t.rerr != nil:
		return t.rerr
	case err == nil || t.ended:
		return nil
	}
	if _, ok := err.(*badOutput); ok {
		return err
	}
	return &badOutput{err}
}

// badOutput is a recorder's output found, as it was read (watch), to be no
// recording: its error says where and why, as reading the recording would,
// and stands for the recorder's failure, however the recorder exited.
type badOutput struct{ err error }

func (e *badOutput) Error() string { return e.err.Error() }
func (e *badOutput) Unwrap() error { return e.err }
