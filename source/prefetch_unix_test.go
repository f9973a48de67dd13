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
