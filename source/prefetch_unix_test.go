//go:build unix

package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memsym/record"
)

// fakeTorch stands for a Python running memsym_torch, as MEMSYM_PYTHON:
// it records the points it is given in order, each into the folder as
// memsym_torch names it, a recording of one buffer of B bytes, and fails
// at a value of B listed in $FAKE_TORCH_FAIL, as memsym_torch fails at a
// model's error, never reaching the points after it. Each process writes
// the points it was given as one line of the log it returns.
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
	printf '{"memsym": 1, "dims": {"B": %s}}\n{"buffer": 1, "dtype": "u8", "shape": [%s], "name": "x"}\n{"op": "F.apply", "writes": [1]}\n{"result": [1]}\n' $b $b > "$out/$at.jsonl"
done
`
	py := filepath.Join(dir, "python")
	if err := os.WriteFile(py, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEMSYM_PYTHON", py)
	t.Setenv("FAKE_TORCH_FAIL", fail)
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
// a point where its process failed, and those its process did not reach,
// are recorded alone by Record, which fails there as it would have
// without Prefetch.
func TestTorchPrefetch(t *testing.T) {
	log := fakeTorch(t, "7")
	ctx := context.Background()

	// Without Prefetch, what Record says at B = 7.
	alone := &Torch{Args: "model.py:build", Jobs: 2}
	_, wantErr := alone.Record(ctx, pointB(7))
	alone.Close()
	if wantErr == nil {
		t.Fatal("Record at B = 7 did not fail")
	}
	os.Remove(log)

	src := &Torch{Args: "model.py:build", Jobs: 2}
	defer src.Close()
	src.Prefetch(ctx, []record.Point{pointB(5), pointB(6), pointB(5), pointB(7), pointB(8)})
	if got, want := processes(t, log), []string{"B=5 B=6", "B=7 B=8"}; strings.Join(got, "|") != strings.Join(want, "|") && strings.Join(got, "|") != want[1]+"|"+want[0] {
		t.Fatalf("processes %q, want %q", got, want)
	}
	for _, b := range []int64{5, 6, 5} {
		rec, err := src.Record(ctx, pointB(b))
		if err != nil || !rec.Header.Dims.Equal(pointB(b)) || len(rec.Buffers) != 1 {
			t.Fatalf("Record at B = %d: %v", b, err)
		}
	}
	if n := len(processes(t, log)); n != 2 {
		t.Errorf("%d processes once the prefetched points were read, want 2", n)
	}
	if _, err := src.Record(ctx, pointB(7)); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("Record at B = 7, where its batch failed: %v\nwant %v", err, wantErr)
	}
	if _, err := src.Record(ctx, pointB(8)); err != nil {
		t.Errorf("Record at B = 8, which its batch did not reach: %v", err)
	}
	// B = 5 served its two calls; a third records it again.
	if _, err := src.Record(ctx, pointB(5)); err != nil {
		t.Fatal(err)
	}
	if got, want := processes(t, log)[2:], []string{"B=7", "B=8", "B=5"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("processes after the prefetched ones: %q, want %q", got, want)
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
