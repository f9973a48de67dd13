package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileRecords reads path through OpenFile and describes its records and
// its error.
func fileRecords(t *testing.T, path string) ([]string, string) {
	t.Helper()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for f.Scan() {
		out = append(out, describeRecord(f.Record(), true))
	}
	return out, fmt.Sprint(f.Err())
}

// TestFileAgreesWithScanner reads the test inputs as files and from
// memory: the same records, and the same error but for File's own, a
// recording that ends before its result.
func TestFileAgreesWithScanner(t *testing.T) {
	dir := t.TempDir()
	for i, in := range validateCorpus(t) {
		path := filepath.Join(dir, fmt.Sprintf("f%d.jsonl", i))
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		var want []string
		s := NewScanner(bytes.NewReader(in), path)
		var last *Record
		for s.Scan() {
			want = append(want, describeRecord(s.Record(), true))
			r := *s.Record()
			last = &r
		}
		wantErr := fmt.Sprint(s.Err())
		if s.Err() == nil && last != nil && last.Kind != KindResult {
			wantErr = fmt.Sprintf("%s:%d: the recording ends without the result line {\"result\": [...]}", path, last.Line)
		}
		got, gotErr := fileRecords(t, path)
		if strings.Join(got, "\n") != strings.Join(want, "\n") || gotErr != wantErr {
			t.Fatalf("%q:\nfile    %v %s\nscanner %v %s", in, got, gotErr, want, wantErr)
		}
	}
}

// bigRecording is a valid recording of about n bytes.
func bigRecording(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"memsym": 1, "dims": {"B": 2}}` + "\n" + `{"buffer": 0, "dtype": "f32", "shape": [2], "role": "input"}` + "\n")
	for id := 1; b.Len() < n; id++ {
		fmt.Fprintf(&b, `{"buffer": %d, "dtype": "f32", "shape": [2, %d], "name": "x", "group": "cells[%d]"}`+"\n", id, id, id/5)
		fmt.Fprintf(&b, `{"op": "F.apply", "path": "cells[%d]", "reads": [%d], "writes": [%d]}`+"\n", id/5, id-1, id)
	}
	b.WriteString(`{"result": [0]}` + "\n")
	return b.Bytes()
}

// TestFileLarge reads a file larger than the Scanner's buffer, by Scan and
// by Follow.
func TestFileLarge(t *testing.T) {
	data := bigRecording(3 * firstBuffer)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, ferr := OpenFile(path)
	if ferr != nil {
		t.Fatal(ferr)
	}
	n := 0
	for f.Scan() {
		n++
	}
	if f.Err() != nil || n != bytes.Count(data, []byte("\n")) {
		t.Fatalf("%d records, error %v", n, f.Err())
	}
	var tmpl Templates
	s := NewScanner(bytes.NewReader(data), "a.jsonl")
	for i := 0; s.Scan(); i++ {
		if i > 0 {
			s.Keep(&tmpl)
		}
	}
	f, ferr = OpenFile(path)
	if ferr != nil {
		t.Fatal(ferr)
	}
	defer f.Close()
	if !f.Scan() {
		t.Fatal(f.Err())
	}
	var sizes Sizes
	n = f.Follow(&tmpl, 0, &sizes)
	if n != tmpl.Len() || sizes.Len() == 0 {
		t.Fatalf("Follow read %d of %d lines", n, tmpl.Len())
	}
	if f.Scan() || f.Err() != nil {
		t.Fatalf("after Follow: a record, or %v", f.Err())
	}
}

// TestFileCutWhileRead truncates a file as it is read: an error, not a
// crash.
func TestFileCutWhileRead(t *testing.T) {
	data := bigRecording(4 << 20)
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !f.Scan() || !f.Scan() {
		t.Fatal(f.Err())
	}
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	for f.Scan() {
	}
	if f.Err() == nil {
		t.Fatal("the file was cut while it was read, but no error")
	}
	t.Log(f.Err())
}

func TestOpenFileMissing(t *testing.T) {
	_, err := OpenFile(filepath.Join(t.TempDir(), "none.jsonl"))
	if err == nil || err.Error() != "cannot read the recording: no such file or directory" {
		t.Fatalf("error %v", err)
	}
}

// TestOffset checks that Offset counts the bytes of the lines read, through
// reads of a few bytes at a time.
func TestOffset(t *testing.T) {
	data := followCorpus(t)[0]
	s := NewScanner(&trickle{r: strings.NewReader(data)}, "o.jsonl")
	for s.Scan() {
		end := 0
		for range s.Line() {
			end += strings.IndexByte(data[end:], '\n') + 1
		}
		if got := s.Offset(); got != int64(end) {
			t.Fatalf("line %d: Offset %d, want %d", s.Line(), got, end)
		}
	}
}

// TestCountOps counts the operations of recordings as Scan reads them: the
// usual lines by their starts, others (keys in another order, spacing, a
// byte-order mark, blank lines) parsed; a line that cannot be parsed, and
// does not start as the usual ones do, is an error.
func TestCountOps(t *testing.T) {
	big := bigRecording(3 * firstBuffer)
	odd := "\ufeff" + `{"memsym": 1, "dims": {"B": 2}}` + "\n" +
		`{"buffer": 0, "dtype": "f32", "shape": [2], "role": "input"}` + "\n\n" +
		`{"writes": [1], "op": "F.apply", "reads": [0]}` + "\n" +
		` {"op": "G.apply", "reads": [0], "writes": []}` + "\n" +
		`{"view": 2, "of": 0, "dtype": "f32", "shape": [1]}` + "\n" +
		`{"result": [0]}` + "\n"
	for _, c := range []struct {
		name string
		text string
		err  bool
	}{
		{"big", string(big), false},
		{"odd", odd, false},
		{"broken", `{"memsym": 1, "dims": {}}` + "\n" + `{"op": "F.apply", "reads": [` + "\n" + `{"path": "x", "op": ` + "\n", true},
	} {
		want, scanErr := 0, error(nil)
		s := NewScanner(strings.NewReader(c.text), "c.jsonl")
		for s.Scan() {
			if s.Record().Kind == KindOp {
				want++
			}
		}
		scanErr = s.Err()
		s = NewScanner(strings.NewReader(c.text), "c.jsonl")
		got, err := s.CountOps()
		switch {
		case c.err && err == nil:
			t.Errorf("%s: no error", c.name)
		case !c.err && (err != nil || scanErr != nil):
			t.Errorf("%s: CountOps %v, Scan %v", c.name, err, scanErr)
		case !c.err && got != want:
			t.Errorf("%s: %d operations counted, Scan reads %d", c.name, got, want)
		}
	}
}
