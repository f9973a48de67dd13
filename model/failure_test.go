package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memsym/interp"
	"memsym/record"
	"memsym/source"
)

// recorderAt returns a recorder source that writes a recording whose one
// buffer has B·T bytes, except at B = bad: there it fails when fail is
// set, and writes B·T + 1 bytes, which no polynomial through the grid
// gives, when not.
func recorderAt(t *testing.T, bad int64, fail bool) source.Source {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "rec.sh")
	text := `bytes=$(($1 * $2))
if [ "$1" = "$3" ]; then
  if [ "$4" = fail ]; then echo "no recording at B=$1" >&2; exit 3; fi
  bytes=$((bytes + 1))
fi
printf '{"memsym": 1, "dims": {"B": %s, "T": %s}}\n{"buffer": 1, "bytes": %s, "name": "x"}\n{"op": "F.apply", "writes": [1]}\n{"result": [1]}\n' "$1" "$2" "$bytes"
`
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mode := "wrong"
	if fail {
		mode = "fail"
	}
	cmd, err := source.ParseCommand("sh '" + script + "' {B} {T} " + strconv.FormatInt(bad, 10) + " " + mode)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	src := &source.Recorder{Cmd: cmd, Jobs: 2}
	t.Cleanup(func() { src.Close() })
	return src
}

// FailedCheck names the check point a model's build failed at, from the
// error's type, not its words: recording there failed, or the recording
// was refused; one of memsym's own check points or one given. A recorder
// failing on the grid failed at no check point.
func TestFailedCheck(t *testing.T) {
	spec := source.Spec{
		Grid:   []source.GridDim{{Name: "B", Values: [3]int64{2, 4, 6}}, {Name: "T", Values: [3]int64{8, 16, 24}}},
		Checks: []record.Point{{{Name: "B", Value: 101}, {Name: "T", Value: 9}}},
	}
	src := recorderAt(t, 1, false)
	pl, err := src.(*source.Recorder).Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	if pl.Defaults != len(pl.Checks)-1 || pl.Defaults == 0 {
		t.Fatalf("plan: %d check points, %d of memsym's own", len(pl.Checks), pl.Defaults)
	}
	own, _ := pl.Checks[0].Value("B")
	for _, c := range []struct {
		name            string
		bad             int64
		fail            bool
		want            record.Point // nil: no check point
		chosen, records bool
	}{
		{"own check point, recorder fails", own, true, pl.Checks[0], true, true},
		{"own check point, bytes refused", own, false, pl.Checks[0], true, false},
		{"given check point, recorder fails", 101, true, spec.Checks[0], false, true},
		{"given check point, bytes refused", 101, false, spec.Checks[0], false, false},
		{"grid point, recorder fails", 4, true, nil, false, false},
		// Bytes off their polynomial at a grid point give another
		// polynomial, which the first check point refuses.
		{"grid point, bytes wrong", 4, false, pl.Checks[0], true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := recorderAt(t, c.bad, c.fail)
			_, err := Build(context.Background(), src, spec)
			if err == nil {
				t.Fatal("built")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message of more than one line: %q", err)
			}
			got, ok := FailedCheck(src, spec, err)
			if c.want == nil {
				if ok {
					t.Errorf("%v: at check point %v", err, got.Point)
				}
				return
			}
			if !ok || !got.Point.Equal(c.want) || got.Chosen != c.chosen || got.Recording != c.records {
				t.Errorf("%v:\ngot %v %+v, %v; want %v chosen %v recording %v", err, got.Point, got, ok, c.want, c.chosen, c.records)
			}
			// The types carry the point; the words are the message's own.
			var pe *source.PointError
			var ce *interp.CheckError
			if c.records != errors.As(err, &pe) || !c.records != errors.As(err, &ce) {
				t.Errorf("%T: PointError %v, CheckError %v", err, errors.As(err, &pe), errors.As(err, &ce))
			}
		})
	}
}
