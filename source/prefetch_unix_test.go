//go:build unix

package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"memsym/record"
)

// fakeTorch stands for a Python running memsym_torch, as MEMSYM_PYTHON:
// it records the points it is given in order, each into the folder as
// memsym_torch names it, a recording of one buffer of B bytes, and fails
// at a value of B listed in $FAKE_TORCH_FAIL, as memsym_torch fails at a
// model's error, never reaching the points after it, and hangs at one
// listed in $FAKE_TORCH_SLOW, saying so on its standard error. Each
// process writes the points it was given as one line of the log it
// returns.
func fakeTorch(t *testing.T, fail string) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "processes")
	script := `#!/bin/sh
out= ats=
while [ $# -gt 0 ]; do
	case $1 in
	--memsym-at) ats="$ats $2"; shift ;;
	--memsym-out-dir) out=$2; shift ;;
	esac
	shift
done
echo $ats >> ` + shellQuote(log) + `
for at in $ats; do
	b=${at#B=}
	case " $FAKE_TORCH_FAIL " in *" $b "*)
		echo "memsym_torch: model.py:3: build at B = $b raised ValueError: too large" >&2
		exit 1 ;;
	esac
	case " $FAKE_TORCH_SLOW " in *" $b "*)
		echo "memsym_torch: recording at B = $b" >&2
		sleep 10 ;;
	esac
	printf '{"memsym": 1, "dims": {"B": %s}}\n{"buffer": 1, "dtype": "u8", "shape": [%s], "name": "x"}\n{"op": "F.apply", "writes": [1]}\n{"result": [1]}\n' $b $b > "$out/$at.jsonl"
done
`
	py := filepath.Join(dir, "python")
	if err := os.WriteFile(py, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEMSYM_PYTHON", py)
	t.Setenv("FAKE_TORCH_FAIL", fail)
	t.Setenv("FAKE_TORCH_SLOW", "")
	t.Setenv("TMPDIR", t.TempDir())
	return log
}

// processes returns the points each process was given, a line each.
func processes(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func pointB(b int64) record.Point { return record.Point{{Name: "B", Value: b}} }

// A batch that fails at one of its points is said to fail there, not at
// its first point, which was recorded, and the failure is that point's;
// with several processes, it is the first point in the grid's order that
// fails, whichever process ends first.
func TestTorchFailureAtItsPoint(t *testing.T) {
	fakeTorch(t, "3 4")
	spec := Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{2, 3, 4}}}, Checks: []record.Point{pointB(9)}}
	for _, jobs := range []int{1, 2, 3} {
		src := &Torch{Args: "model.py:build", Jobs: jobs}
		_, err := src.Recordings(context.Background(), spec)
		src.Close()
		want := "the PyTorch recorder at B = 3 failed (exit status 1); its standard error ends: memsym_torch: model.py:3: build at B = 3 raised ValueError: too large"
		var at *PointError
		if err == nil || err.Error() != want || !errors.As(err, &at) || !at.Point.Equal(pointB(3)) {
			t.Errorf("--jobs %d: %v (at %v)\nwant %s", jobs, err, at, want)
		}
	}
}

// A failure at a check point memsym chose says so, and what to do; at a
// check point given, it does not.
func TestTorchFailureAtChosenCheck(t *testing.T) {
	grid := [3]int64{2, 3, 4}
	checks, err := DefaultChecks([][3]int64{grid}, []string{"B"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	chosen := checks[0][0].Value
	fakeTorch(t, strconv.FormatInt(chosen, 10)+" 9")
	for _, jobs := range []int{1, 4} {
		src := &Torch{Args: "model.py:build", Jobs: jobs}
		_, err := src.Recordings(context.Background(), Spec{Grid: []GridDim{{Name: "B", Values: grid}}})
		src.Close()
		c := checks[0].String()
		want := "the PyTorch recorder at the check point memsym chose, " + c + ", failed (exit status 1); its standard error ends: memsym_torch: model.py:3: build at " + c + " raised ValueError: too large" +
			"; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller"
		if err == nil || err.Error() != want {
			t.Errorf("--jobs %d: %v\nwant %s", jobs, err, want)
		}
	}
	// Only B = 9 fails, a check point given.
	t.Setenv("FAKE_TORCH_FAIL", "9")
	src := &Torch{Args: "model.py:build", Jobs: 2}
	defer src.Close()
	_, err = src.Recordings(context.Background(), Spec{Grid: []GridDim{{Name: "B", Values: grid}}, Checks: []record.Point{pointB(9)}})
	if want := "the PyTorch recorder at B = 9 failed (exit status 1); its standard error ends: memsym_torch: model.py:3: build at B = 9 raised ValueError: too large"; err == nil || err.Error() != want {
		t.Errorf("at a check point given: %v\nwant %s", err, want)
	}
}

// Prefetch records the points in as few processes as Jobs allows, and the
// Record calls that follow read them, a point listed twice for two calls;
// a point where its process failed first is that failure, as Record
// alone says it, and is not recorded again; one where it failed after
// recording others, and those its process did not reach, are recorded
// alone by Record, which fails there as it would have without Prefetch.
func TestTorchPrefetch(t *testing.T) {
	log := fakeTorch(t, "6 7")
	ctx := context.Background()

	// Without Prefetch, what Record says at B = 6 and B = 7.
	alone := &Torch{Args: "model.py:build", Jobs: 2}
	_, want6 := alone.Record(ctx, pointB(6))
	_, want7 := alone.Record(ctx, pointB(7))
	alone.Close()
	if want6 == nil || want7 == nil {
		t.Fatalf("Record at B = 6, 7 did not fail: %v, %v", want6, want7)
	}
	os.Remove(log)

	src := &Torch{Args: "model.py:build", Jobs: 2}
	defer src.Close()
	src.Prefetch(ctx, []record.Point{pointB(5), pointB(6), pointB(5), pointB(7), pointB(8)})
	if got, want := processes(t, log), []string{"B=5 B=6", "B=7 B=8"}; strings.Join(got, "|") != strings.Join(want, "|") && strings.Join(got, "|") != want[1]+"|"+want[0] {
		t.Fatalf("processes %q, want %q", got, want)
	}
	for _, b := range []int64{5, 5} {
		rec, err := src.Record(ctx, pointB(b))
		if err != nil || !rec.Header.Dims.Equal(pointB(b)) || rec.Buffers.Len() != 1 {
			t.Fatalf("Record at B = %d: %v", b, err)
		}
	}
	if _, err := src.Record(ctx, pointB(7)); err == nil || err.Error() != want7.Error() {
		t.Errorf("Record at B = 7, where its batch failed first: %v\nwant %v", err, want7)
	}
	if n := len(processes(t, log)); n != 2 {
		t.Errorf("%d processes once the prefetched points were read, want 2", n)
	}
	if _, err := src.Record(ctx, pointB(6)); err == nil || err.Error() != want6.Error() {
		t.Errorf("Record at B = 6, where its batch failed after B = 5: %v\nwant %v", err, want6)
	}
	if _, err := src.Record(ctx, pointB(8)); err != nil {
		t.Errorf("Record at B = 8, which its batch did not reach: %v", err)
	}
	// B = 5 served its two calls; a third records it again.
	if _, err := src.Record(ctx, pointB(5)); err != nil {
		t.Fatal(err)
	}
	if got, want := processes(t, log)[2:], []string{"B=6", "B=8", "B=5"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("processes after the prefetched ones: %q, want %q", got, want)
	}
}

// A process that runs out of time in a batch of Prefetch's keeps that
// failure for the point it was recording, said as Record alone says it:
// the point is not recorded again, its time run out a second time; the
// points its process did not reach are, and succeed.
func TestTorchPrefetchTimeout(t *testing.T) {
	log := fakeTorch(t, "")
	t.Setenv("FAKE_TORCH_SLOW", "6")
	ctx := context.Background()
	const timeout = time.Second

	alone := &Torch{Args: "model.py:build", Timeout: timeout}
	_, want := alone.Record(ctx, pointB(6))
	alone.Close()
	if want == nil || !strings.Contains(want.Error(), "did not finish within 1s") {
		t.Fatalf("Record at B = 6: %v, want it to run out of time", want)
	}
	os.Remove(log)

	// Out of time after recording B = 5, and at its first point.
	for _, c := range []struct {
		points []int64
		procs  []string
	}{
		{[]int64{5, 6, 8}, []string{"B=5 B=6 B=8", "B=8"}},
		{[]int64{6, 5, 8}, []string{"B=6 B=5 B=8", "B=5", "B=8"}},
	} {
		src := &Torch{Args: "model.py:build", Jobs: 1, Timeout: timeout}
		var points []record.Point
		for _, b := range c.points {
			points = append(points, pointB(b))
		}
		src.Prefetch(ctx, points)
		for _, b := range c.points {
			_, err := src.Record(ctx, pointB(b))
			if b == 6 {
				var at *PointError
				if err == nil || err.Error() != want.Error() || !errors.As(err, &at) || !at.Point.Equal(pointB(6)) {
					t.Errorf("prefetched %v: Record at B = 6: %v\nwant %v", c.points, err, want)
				}
			} else if err != nil {
				t.Errorf("prefetched %v: Record at B = %d: %v", c.points, b, err)
			}
		}
		src.Close()
		if got := processes(t, log); strings.Join(got, "|") != strings.Join(c.procs, "|") {
			t.Errorf("prefetched %v: processes %q, want %q", c.points, got, c.procs)
		}
		os.Remove(log)
	}
}

// A failure at the first point Prefetch is given stops its other
// processes: the points they had not recorded are recorded by Record,
// alone, when asked for.
func TestTorchPrefetchStopsAtFirst(t *testing.T) {
	log := fakeTorch(t, "7")
	ctx := context.Background()
	alone := &Torch{Args: "model.py:build"}
	_, want := alone.Record(ctx, pointB(7))
	alone.Close()
	if want == nil {
		t.Fatal("Record at B = 7 did not fail")
	}
	os.Remove(log)

	// B = 9 hangs in the second process, until it is stopped.
	t.Setenv("FAKE_TORCH_SLOW", "9")
	src := &Torch{Args: "model.py:build", Jobs: 2}
	defer src.Close()
	src.Prefetch(ctx, []record.Point{pointB(7), pointB(5), pointB(9), pointB(8)})
	t.Setenv("FAKE_TORCH_SLOW", "")
	if _, err := src.Record(ctx, pointB(7)); err == nil || err.Error() != want.Error() {
		t.Errorf("Record at B = 7: %v\nwant %v", err, want)
	}
	for _, b := range []int64{5, 9, 8} {
		if _, err := src.Record(ctx, pointB(b)); err != nil {
			t.Errorf("Record at B = %d: %v", b, err)
		}
	}
	// The second process may not have started when the first failed.
	got := processes(t, log)
	if n := len(got); n < 4 || n > 5 || !slices.Contains(got[:n-3], "B=7 B=5") || n == 5 && !slices.Contains(got[:2], "B=9 B=8") || strings.Join(got[n-3:], "|") != "B=5|B=9|B=8" {
		t.Errorf("processes %q, want those prefetched, then B=5, B=9 and B=8 each alone", got)
	}
}

// A recorder command's Prefetch that fails at the first point stops the
// commands at the others, and runs no more: Record runs them when asked.
func TestRecorderPrefetchStopsAtFirst(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	log := filepath.Join(t.TempDir(), "runs")
	cmd := recorderScript(t, `echo $1 >> `+shellQuote(log)+`
if [ $1 = 7 ]; then echo too large >&2; exit 3; fi
case " $SLOW " in *" $1 "*) sleep 10 ;; esac
printf '{"memsym": 1, "dims": {"B": %s}}\n{"result": []}\n' $1
`)
	ctx := context.Background()
	alone := &Recorder{Cmd: cmd}
	_, want := alone.Record(ctx, pointB(7))
	alone.Close()
	if want == nil {
		t.Fatal("Record at B = 7 did not fail")
	}
	os.Remove(log)

	// B = 9 hangs, until it is stopped; B = 5 waits for a job.
	t.Setenv("SLOW", "9")
	src := &Recorder{Cmd: cmd, Jobs: 2}
	defer src.Close()
	src.Prefetch(ctx, []record.Point{pointB(7), pointB(9), pointB(5)})
	t.Setenv("SLOW", "")
	if _, err := src.Record(ctx, pointB(7)); err == nil || err.Error() != want.Error() {
		t.Errorf("Record at B = 7: %v\nwant %v", err, want)
	}
	for _, b := range []int64{9, 5} {
		if rec, err := src.Record(ctx, pointB(b)); err != nil || !rec.Header.Dims.Equal(pointB(b)) {
			t.Errorf("Record at B = %d: %v", b, err)
		}
	}
	// B = 9 may not have started when B = 7 failed.
	got := processes(t, log)
	if n := len(got); n < 3 || n > 4 || !slices.Contains(got[:n-2], "7") || n == 4 && !slices.Contains(got[:2], "9") || strings.Join(got[n-2:], "|") != "9|5" {
		t.Errorf("runs %q, want 7 (and 9, stopped), then 9 and 5", got)
	}
}

// A recorder command's Prefetch runs it at each point, and the Record
// calls that follow read what it wrote, or return its failure there, as
// Record would have; nothing runs again.
func TestRecorderPrefetch(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	log := filepath.Join(t.TempDir(), "runs")
	cmd := recorderScript(t, `echo $1 >> `+shellQuote(log)+`
if [ $1 = 7 ]; then echo too large >&2; exit 3; fi
printf '{"memsym": 1, "dims": {"B": %s}}\n{"result": []}\n' $1
`)
	ctx := context.Background()
	alone := &Recorder{Cmd: cmd}
	_, wantErr := alone.Record(ctx, pointB(7))
	alone.Close()
	if wantErr == nil {
		t.Fatal("Record at B = 7 did not fail")
	}
	os.Remove(log)

	src := &Recorder{Cmd: cmd, Jobs: 3}
	defer src.Close()
	src.Prefetch(ctx, []record.Point{pointB(5), pointB(7), pointB(6)})
	if n := len(processes(t, log)); n != 3 {
		t.Fatalf("%d runs, want 3", n)
	}
	for _, b := range []int64{6, 5} {
		if rec, err := src.Record(ctx, pointB(b)); err != nil || !rec.Header.Dims.Equal(pointB(b)) {
			t.Errorf("Record at B = %d: %v", b, err)
		}
	}
	if _, err := src.Record(ctx, pointB(7)); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("Record at B = 7: %v\nwant %v", err, wantErr)
	}
	if n := len(processes(t, log)); n != 3 {
		t.Errorf("%d runs once the prefetched points were read, want 3", n)
	}
	// Read once each: B = 5 runs again.
	if _, err := src.Record(ctx, pointB(5)); err != nil {
		t.Fatal(err)
	}
	if n := len(processes(t, log)); n != 4 {
		t.Errorf("%d runs, want 4", n)
	}
}

// The note on a recorder's standard error counts every run that succeeded,
// the grid's, Prefetch's and Record's (a point Prefetch kept is not run
// again, nor counted again), and quotes the first that wrote there in the
// order the points were asked for, not the first to end: a slow one
// before fast ones. A run that failed is not counted: its failure quotes
// its standard error.
func TestRecorderNoteCountsEveryRun(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmd := recorderScript(t, `case " $SLOW " in *" $1 "*) sleep 0.5 ;; esac
case " $WARN " in *" $1 "*) echo "warning: slow at B=$1" >&2 ;; esac
if [ $1 = 9 ]; then echo too large >&2; exit 3; fi
printf '{"memsym": 1, "dims": {"B": %s}}\n{"result": []}\n' $1
`)
	ctx := context.Background()
	spec := Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}}, Checks: []record.Point{pointB(10)}, NoDefaultChecks: true}
	for _, c := range []struct {
		warn, slow string
		want       string
	}{
		{"", "", ""},
		{"2 3 5 6", "2", "the recorder wrote to its standard error at 4 of the 7 points it recorded; at B = 2 it ends: warning: slow at B=2"},
		{"10 6 5", "10", "the recorder wrote to its standard error at 3 of the 7 points it recorded; at B = 10 it ends: warning: slow at B=10"},
		{"6 5 7 9", "6", "the recorder wrote to its standard error at 3 of the 7 points it recorded; at B = 6 it ends: warning: slow at B=6"},
		{"7", "", "the recorder wrote to its standard error at 1 of the 7 points it recorded; at B = 7 it ends: warning: slow at B=7"},
	} {
		t.Setenv("WARN", c.warn)
		t.Setenv("SLOW", c.slow)
		var notes []string
		src := &Recorder{Cmd: cmd, Jobs: 4, Note: func(msg string) { notes = append(notes, msg) }}
		if _, err := src.Recordings(ctx, spec); err != nil {
			t.Fatal(err)
		}
		src.Prefetch(ctx, []record.Point{pointB(6), pointB(5), pointB(9)})
		for _, b := range []int64{5, 7} {
			if _, err := src.Record(ctx, pointB(b)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := src.Record(ctx, pointB(9)); err == nil {
			t.Fatal("Record at B = 9 did not fail")
		}
		if err := src.Close(); err != nil {
			t.Fatal(err)
		}
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		if strings.Join(notes, "\n") != strings.Join(want, "\n") || len(notes) != len(want) {
			t.Errorf("warning at %q, slow at %q: notes %q, want %q", c.warn, c.slow, notes, want)
		}
		// Said once.
		src.Close()
		if len(notes) != len(want) {
			t.Errorf("warning at %q: Close said it again: %q", c.warn, notes)
		}
	}
}

// The PyTorch recorder's note counts its processes, naming the first
// process's points, whichever ends first.
func TestTorchNote(t *testing.T) {
	fakeTorch(t, "")
	ctx := context.Background()
	spec := Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}}, Checks: []record.Point{pointB(10), pointB(11)}, NoDefaultChecks: true}
	var notes []string
	src := &Torch{Args: "model.py:build", Jobs: 2, Note: func(msg string) { notes = append(notes, msg) }}
	// The fake Python's processes write nothing to their standard error:
	// the one given B = 1 first, slow, writes there; so does the other.
	py := os.Getenv("MEMSYM_PYTHON")
	wrap := filepath.Join(t.TempDir(), "python")
	script := "#!/bin/sh\ncase \" $* \" in *\" --memsym-at B=1 \"*) sleep 0.5; echo 'first process' >&2 ;; *) echo 'second process' >&2 ;; esac\nexec " + shellQuote(py) + " \"$@\"\n"
	if err := os.WriteFile(wrap, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEMSYM_PYTHON", wrap)
	if _, err := src.Recordings(ctx, spec); err != nil {
		t.Fatal(err)
	}
	src.Close()
	want := "the PyTorch recorder wrote to its standard error in both processes it ran; in the one recording B = 1 and 1 more point it ends: first process"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
}
