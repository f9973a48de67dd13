//go:build unix

package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"memsym/record"
)

// recorderScript writes text, a shell script recording at B = $1, to a
// file and returns the recorder command that runs it.
func recorderScript(t *testing.T, text string) *Command {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.sh")
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	// exec: a recorder stopped leaves no process behind its shell, which
	// an init slow to reap it would keep in its group, a while.
	c, err := ParseCommand("exec sh " + shellQuote(path) + " {B}")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readError is what reading text as a recording named name says of it.
func readError(t *testing.T, text, name string) string {
	t.Helper()
	_, err := record.Read(strings.NewReader(text), name)
	if err == nil {
		t.Fatalf("%q reads as a recording", text)
	}
	return err.Error()
}

// tooLong is the Scanner's message for a line longer than record.MaxLine.
var tooLong = fmt.Sprintf("line longer than %d MiB", record.MaxLine>>20)

// A recorder whose output at the grid's first point can no longer be a
// recording fails there at once, as a recorder exiting non-zero does, with
// the message reading the recording would give: the other points, which
// would take 30 s, are stopped, not waited for.
func TestRecorderBadOutputFailsAtOnce(t *testing.T) {
	for _, c := range []struct {
		name, bad, want string
	}{
		{"garbage", `echo garbage; exit 0`, readError(t, "garbage\n", "recorder(B=1)")},
		{"garbage, then more", `echo garbage; exec sleep 30`, readError(t, "garbage\n", "recorder(B=1)")},
		{"another point's header", `printf '{"memsym": 1, "dims": {"B": 7}}\n'; exec sleep 30`, "recorder(B=1):1: the recorder was asked for B = 1 but its header says B = 7"},
		{"no header first", `printf '{"buffer": 1, "bytes": 4}\n'; exec sleep 30`, "recorder(B=1):1: a buffer before the header: the first line must be the header"},
		{"garbage after the header", `printf '{"memsym": 1, "dims": {"B": 1}}\n<html>\n'; exec sleep 30`, readError(t, "{\"memsym\": 1, \"dims\": {\"B\": 1}}\n<html>\n", "recorder(B=1)")},
		// Bounded, so that without the watch the test fails, not the disk.
		{"yes", `yes | head -c 200000000; exit 0`, readError(t, "y\n", "recorder(B=1)")},
		{"a line without end", `exec head -c 200000000 /dev/zero`, "recorder(B=1):1: " + tooLong},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			// exec sleep, as recorderScript's exec sh.
			cmd := recorderScript(t, "if [ \"$1\" = 1 ]; then "+c.bad+"; fi\nexec sleep 30\n")
			cmd.Timeout = 20 * time.Second // without the watch, the test fails rather than hangs
			r := &Recorder{Cmd: cmd, Jobs: 3}
			defer r.Close()
			start := time.Now()
			_, err := r.Recordings(context.Background(), Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}}})
			took := time.Since(start)
			var pe *PointError
			if !errors.As(err, &pe) || err.Error() != c.want || !pe.Point.Equal(record.Point{{Name: "B", Value: 1}}) {
				t.Errorf("error = %v, want %q at B = 1", err, c.want)
			}
			if took > 10*time.Second {
				t.Errorf("the error came after %s: the recorders were not stopped", took)
			}
			// What the first point's recorder wrote was kept no further
			// than the line the Scanner refused: a line of at most
			// record.MaxLine bytes, not all it could write.
			if fi, err := os.Stat(filepath.Join(r.dir, "point-0.jsonl")); err != nil || fi.Size() > record.MaxLine+1<<20 {
				t.Errorf("the first point's file: %v, %v", fi.Size(), err)
			}
		})
	}
}

// On the confirm and verify path (Record), a recorder's output waits in a
// file, not in memory, and a recorder whose output can no longer be a
// recording is stopped at once; the file is removed once read or refused.
func TestRecorderRecordBadOutput(t *testing.T) {
	p := record.Point{{Name: "B", Value: 1}}
	for _, c := range []struct {
		name, script, want string
		mem                uint64 // the most memory recording may take
	}{
		{"yes", `yes | head -c 200000000; exec sleep 30`, readError(t, "y\n", "recorder(B=1)"), 16 << 20},
		// The Scanner's buffer, doubled up to record.MaxLine + 1: 192
		// MiB in all, and at most 128 MiB at once.
		{"a long line", `exec head -c 300000000 /dev/zero`, "recorder(B=1):1: " + tooLong, 4 * record.MaxLine},
		{"another point's header", `printf '{"memsym": 1, "dims": {"B": 7}}\n'; exec sleep 30`, "recorder(B=1):1: the recorder was asked for B = 1 but its header says B = 7", 16 << 20},
		{"no header first", `printf '{"buffer": 1, "bytes": 4}\n'; exec sleep 30`, readError(t, "{\"buffer\": 1, \"bytes\": 4}\n", "recorder(B=1)"), 16 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			cmd := recorderScript(t, c.script+"\n")
			cmd.Timeout = 20 * time.Second
			r := &Recorder{Cmd: cmd}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := r.Record(context.Background(), p)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil || err.Error() != c.want {
				t.Errorf("error = %v, want %q", err, c.want)
			}
			if took > 10*time.Second {
				t.Errorf("the error came after %s: the recorder was not stopped", took)
			}
			// A line is held up to record.MaxLine bytes at most, and
			// nothing else of the output.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > c.mem {
				t.Errorf("recording took %d MiB of memory, want at most %d MiB", alloc>>20, c.mem>>20)
			}
			if left, _ := os.ReadDir(r.dir); len(left) != 0 {
				t.Errorf("left in the temporary folder: %v", left)
			}
			dir := r.dir
			r.Close()
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the temporary folder %s is still there after Close: %v", dir, err)
			}
		})
	}
}

// Which of a recorder's output and its exit says why it failed depends on
// what it wrote alone: a line it ended (with a newline) that is no record
// is its failure, however it exited; a last line it did not end is left to
// its exit, and else to the reading of its recording, as before.
func TestRecorderOutputOrExit(t *testing.T) {
	p := record.Point{{Name: "B", Value: 1}}
	for _, c := range []struct{ script, want string }{
		{`echo garbage; exit 3`, readError(t, "garbage\n", "recorder(B=1)")},
		{`printf garbage; exit 3`, "the recorder at B = 1 failed (exit status 3), writing nothing to its standard error"},
		{`printf garbage; exit 0`, readError(t, "garbage", "recorder(B=1)")},
		{`printf '{"memsym": 1, "dims": {"B": 7}}'; exit 3`, "the recorder at B = 1 failed (exit status 3), writing nothing to its standard error"},
		{`printf '{"memsym": 1, "dims": {"B": 1}}\n{"buffer": 1, "bytes": 8}\n'; exit 0`, readError(t, "{\"memsym\": 1, \"dims\": {\"B\": 1}}\n{\"buffer\": 1, \"bytes\": 8}\n", "recorder(B=1)")},
	} {
		t.Setenv("TMPDIR", t.TempDir())
		r := &Recorder{Cmd: recorderScript(t, c.script+"\n")}
		for range 3 {
			if _, err := r.Record(context.Background(), p); err == nil || err.Error() != c.want {
				t.Errorf("%s: error = %v, want %q", c.script, err, c.want)
			}
		}
		r.Close()
	}
}

// A valid recording is read whole through the watch, whatever its lines'
// lengths: a header of 3 MiB, more than a pipe's read, and some MiB of
// records, on the grid and at a point of its own.
func TestRecorderLargeRecording(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	const n = 40000
	for _, b := range []int64{1, 2, 3, 5, 11} { // the grid and its default check points
		var sb strings.Builder
		fmt.Fprintf(&sb, `{"memsym": 1, "dims": {"B": %d}, "meta": "%s"}`+"\n", b, strings.Repeat("m", 3<<20))
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&sb, `{"buffer": %d, "dtype": "f32", "shape": [%d, 64], "name": "x"}`+"\n", i, b)
			fmt.Fprintf(&sb, `{"op": "F.apply", "writes": [%d]}`+"\n", i)
		}
		fmt.Fprintf(&sb, `{"result": [%d]}`+"\n", n)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("b%d.jsonl", b)), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &Recorder{Cmd: recorderScript(t, "exec cat "+shellQuote(dir)+"/b$1.jsonl\n")}
	defer r.Close()
	rec, err := r.Record(context.Background(), record.Point{{Name: "B", Value: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Buffers.Len() != n || rec.Ops.Len() != n {
		t.Errorf("%d buffers and %d operations, want %d of each", rec.Buffers.Len(), rec.Ops.Len(), n)
	}
	recs, err := r.Recordings(context.Background(), Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range append(recs.Grid, recs.Checks...) {
		s, err := src.Open()
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for s.Scan() {
			lines++
		}
		if s.Err() != nil || lines != 2*n+2 {
			t.Errorf("%s: %d records, %v", src.Name, lines, s.Err())
		}
	}
}

// failAfter accepts n bytes, then fails.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("no room left")
	}
	return len(p), nil
}

// A command whose output cannot be written is stopped at once, and the
// error writing it is runGroup's.
func TestRunGroupStopsOnWriteError(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	err := runGroup(ctx, exec.Command("yes"), &failAfter{n: 1 << 20}, nil)
	if err == nil || err.Error() != "no room left" {
		t.Errorf("error = %v, want the writer's", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("runGroup took %s: the command was not stopped", took)
	}
}
