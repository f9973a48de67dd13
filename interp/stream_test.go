package interp

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"memsym/poly"
	"memsym/record"
)

// edited is a stream over a recording's records with some of them changed,
// dropped or followed by more, and an error at the end if err is set.
type edited struct {
	record.Stream
	edit func(n int, r *record.Record) []record.Record // n from 1; nil keeps r
	err  error
	n    int
	out  []record.Record
	cur  record.Record
	done bool
}

func (e *edited) Scan() bool {
	for len(e.out) == 0 {
		if e.done || !e.Stream.Scan() {
			e.done = true
			return false
		}
		e.n++
		r := *e.Stream.Record()
		if e.edit != nil {
			if out := e.edit(e.n, &r); out != nil {
				e.out = out
				continue
			}
		}
		e.out = []record.Record{r}
	}
	e.cur, e.out = e.out[0], e.out[1:]
	return true
}

func (e *edited) Record() *record.Record { return &e.cur }
func (e *edited) Err() error {
	if e.done {
		return e.err
	}
	return nil
}

// editedSource serves the recording of prog at point, edited.
func editedSource(t *testing.T, name string, point []int64, edit func(int, *record.Record) []record.Record, err error) Source {
	rec := recordAt(t, attnVars, point, attention(""))
	return Source{Name: name, Open: func() (record.Stream, error) {
		return &edited{Stream: rec.Replay(), edit: edit, err: err}, nil
	}}
}

// TestBuildRefusesEditedRecordings edits the recording at B = 3, T = 12.
func TestBuildRefusesEditedRecordings(t *testing.T) {
	const why = "; a dimension that changes the operations (such as a fold's iteration count) cannot be interpolated: make it a constant"
	const whyDecl = "; the recordings are matched declaration by declaration: a buffer's id, role, type, rank, name and group are the same at every point, only its sizes differing (number buffers as they are declared, not as they are allocated)"
	const pre = "e.jsonl:%d and B = 1, T = 4:%d differ: "
	tests := []struct {
		name string
		edit func(int, *record.Record) []record.Record
		err  error
		want string
	}{
		{"cut", func(n int, r *record.Record) []record.Record {
			if n > 10 {
				return []record.Record{}
			}
			return nil
		}, nil, "e.jsonl and B = 1, T = 4:11 differ: record 11 is view 7 \"scores.T\" at B = 1, T = 4 but the end of the recording at B = 3, T = 12" + why},
		{"extra", func(n int, r *record.Record) []record.Record {
			if r.Kind == record.KindResult {
				return []record.Record{*r, {Kind: record.KindResult, Line: 16}}
			}
			return nil
		}, nil, "e.jsonl:16 and B = 1, T = 4 differ: record 16 is the end of the recording at B = 1, T = 4 but the result at B = 3, T = 12" + why},
		{"writes", func(n int, r *record.Record) []record.Record {
			if n == 6 {
				r.Op.Writes = nil
			}
			return nil
		}, nil, fmt.Sprintf(pre, 6, 6) + `operation 1 ("GPT.apply/%1") writes [3] at B = 1, T = 4 but [] at B = 3, T = 12` + why},
		{"view of", func(n int, r *record.Record) []record.Record {
			if n == 11 {
				r.Buffer.Of = 4
			}
			return nil
		}, nil, fmt.Sprintf(pre, 11, 11) + `view 7 "scores.T" is of buffer 5 "scores" at B = 1, T = 4 but of buffer 4 "x" at B = 3, T = 12` + why},
		{"group", func(n int, r *record.Record) []record.Record {
			if n == 3 {
				r.Buffer.Group = "other"
			}
			return nil
		}, nil, fmt.Sprintf(pre, 3, 3) + `buffer 2's group is "tok_emb" at B = 1, T = 4 but "other" at B = 3, T = 12` + whyDecl},
		{"id", func(n int, r *record.Record) []record.Record {
			if n == 3 {
				r.Buffer.ID = 20
			}
			return nil
		}, nil, fmt.Sprintf(pre, 3, 3) + `declaration 2 is buffer 2 at B = 1, T = 4 but buffer 20 at B = 3, T = 12` + whyDecl},
		{"result", func(n int, r *record.Record) []record.Record {
			if r.Kind == record.KindResult {
				r.Result = []int64{4}
			}
			return nil
		}, nil, fmt.Sprintf(pre, 15, 15) + `the result is [8] at B = 1, T = 4 but [4] at B = 3, T = 12` + why},
		{"negative", func(n int, r *record.Record) []record.Record {
			if n == 3 {
				r.Buffer.Bytes = poly.Int(-8)
			}
			return nil
		}, nil, "e.jsonl:3: buffer 2 has -8 bytes: sizes are not negative"},
		{"stream error", nil, errors.New("e.jsonl:15: bad JSON"), "e.jsonl:15: bad JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srcs := gridSources(t, attnVars, attnGrid, attention(""))
			srcs[8] = editedSource(t, "e.jsonl", []int64{3, 12}, tt.edit, tt.err)
			_, err := Build(srcs, nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestBuildReportsOpenErrors names the source that cannot be opened.
func TestBuildReportsOpenErrors(t *testing.T) {
	srcs := gridSources(t, attnVars, attnGrid, attention(""))
	opened := 0
	rec := recordAt(t, attnVars, []int64{2, 8}, attention(""))
	srcs[4] = Source{Name: "gone.jsonl", Open: func() (record.Stream, error) {
		opened++
		if opened > 1 {
			return nil, errors.New("no such file")
		}
		return rec.Replay(), nil
	}}
	_, err := Build(srcs, nil)
	if want := "gone.jsonl: no such file"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	empty := Source{Name: "empty.jsonl", Open: func() (record.Stream, error) {
		return &edited{Stream: rec.Replay(), edit: func(int, *record.Record) []record.Record { return []record.Record{} }}, nil
	}}
	_, err = Build(append(srcs[:4:4], empty), nil)
	if want := `empty.jsonl:1: the recording ends without the header and the result line {"result": [...]}`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestBuildRefusesChangingSources serves a different point the second
// time a source is opened.
func TestBuildRefusesChangingSources(t *testing.T) {
	srcs := gridSources(t, attnVars, attnGrid, attention(""))
	first, then := recordAt(t, attnVars, []int64{2, 8}, attention("")), recordAt(t, attnVars, []int64{2, 9}, attention(""))
	opened := 0
	srcs[4] = Source{Name: "moving.jsonl", Open: func() (record.Stream, error) {
		opened++
		if opened == 1 {
			return first.Replay(), nil
		}
		return then.Replay(), nil
	}}
	_, err := Build(srcs, nil)
	want := "moving.jsonl:1: the header is at B = 2, T = 9 but was at B = 2, T = 8 when first read: a source must give the same recording each time it is opened"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// closing counts the streams opened and closed.
type closing struct {
	record.Stream
	closed *atomic.Int64
}

func (c closing) Close() error { c.closed.Add(1); return nil }

// TestBuildClosesStreams checks that every stream opened is closed, after a
// success and after an error.
func TestBuildClosesStreams(t *testing.T) {
	for _, variant := range []string{"", "label"} {
		var opened, closed atomic.Int64
		srcs := gridSources(t, attnVars, attnGrid, attention(variant))
		for i := range srcs {
			open := srcs[i].Open
			srcs[i].Open = func() (record.Stream, error) {
				opened.Add(1)
				s, err := open()
				return closing{s, &closed}, err
			}
		}
		_, err := Build(srcs, nil)
		if (err != nil) != (variant != "") {
			t.Fatalf("variant %q: %v", variant, err)
		}
		if opened.Load() != closed.Load() || opened.Load() == 0 {
			t.Errorf("variant %q: %d streams opened, %d closed", variant, opened.Load(), closed.Load())
		}
	}
}

// TestBuildIsDeterministic builds the same model several times, the grid's
// points read concurrently, and compares everything printed.
func TestBuildIsDeterministic(t *testing.T) {
	prog := gptCourse(16, 2, 3)
	vars := []string{"B", "T"}
	srcs := gridSources(t, vars, [][3]int64{{1, 2, 3}, {4, 5, 6}}, prog)
	var first string
	for i := range 5 {
		m := mustBuild(t, srcs, nil)
		var b strings.Builder
		for _, c := range m.Candidates {
			fmt.Fprintf(&b, "%d %s\n", c.Op, c.Poly)
		}
		for i := range m.Structure.Buffers.Len() {
			fmt.Fprintln(&b, m.Bytes(i))
		}
		fmt.Fprintln(&b, m.LiveAt, m.Inputs, m.Outputs, m.Params, m.Denominator())
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("build %d differs from the first", i)
		}
	}
}
