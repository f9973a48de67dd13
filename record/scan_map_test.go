package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Reading a followed file in place (scan_map.go) against reading it: the
// same sizes, records and errors, through the mapping's steps, a file that
// grows past it and one cut short under it.

// mapped sets mapFrom and maxStep for a test: files of from bytes or more
// mapped, at most step bytes shown at a time.
func mapped(t *testing.T, from int64, step int) {
	t.Helper()
	oldFrom, oldStep := mapFrom, maxStep
	mapFrom, maxStep = from, step
	t.Cleanup(func() { mapFrom, maxStep = oldFrom, oldStep })
}

// mapsFiles tells whether Follow maps files here.
var mapsFiles = runtime.GOOS == "linux" && strconv.IntSize == 64

// points is how many buffers and operations the tests' recordings hold:
// about 1.3 MB of them.
const points = 7000

// mapSteps is the step the tests show a mapping in: several per file.
const mapSteps = 64 << 10

// pointRecording is bigRecording's recording of n buffers and operations
// at a point: its dimension c where bigRecording's is 2, and, every
// oddEvery'th buffer (none for 0), a name of its own, which Follow cannot
// follow and Scan reads.
func pointRecording(n, c, oddEvery int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"memsym": 1, "dims": {"B": %d}}`+"\n"+`{"buffer": 0, "dtype": "f32", "shape": [%d], "role": "input"}`+"\n", c, c)
	for id := 1; id <= n; id++ {
		name := "x"
		if oddEvery > 0 && id%oddEvery == 0 {
			name = "odd"
		}
		fmt.Fprintf(&b, `{"buffer": %d, "dtype": "f32", "shape": [%d, %d], "name": "%s", "group": "cells[%d]"}`+"\n", id, c, id, name, id/5)
		fmt.Fprintf(&b, `{"op": "F.apply", "path": "cells[%d]", "reads": [%d], "writes": [%d]}`+"\n", id/5, id-1, id)
	}
	b.WriteString(`{"result": [0]}` + "\n")
	return b.Bytes()
}

// chunked keeps the lines of data after its header as Templates of about
// size bytes each, as a grid's reading keeps point 0's.
func chunked(t *testing.T, data []byte, size int) []*Templates {
	t.Helper()
	var out []*Templates
	s := NewScanner(bytes.NewReader(data), "p0.jsonl")
	for i := 0; s.Scan(); i++ {
		if i == 0 {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Size() >= size {
			out = append(out, new(Templates))
		}
		s.Keep(out[len(out)-1])
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	return out
}

// follow reads the recording at path by following the chunks, and Scan
// where Follow stops, as a grid's reader does, and describes what it read:
// the sizes Follow read, the records Scan read, and the error. after, if
// not nil, runs after each chunk. It reports whether the file was mapped
// after the first.
func follow(t *testing.T, path string, chunks []*Templates, after func(i int, f *File)) (string, bool) {
	t.Helper()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	if !f.Scan() {
		t.Fatalf("no header: %v", f.Err())
	}
	wasMapped := false
	for i, c := range chunks {
		var sizes Sizes
		for from := 0; from < c.Len(); {
			k := f.Follow(c, from, &sizes)
			if k == c.Len() {
				break
			}
			if !f.Scan() {
				fmt.Fprintf(&out, "chunk %d: stopped at line %d of %d: %v\n", i, k, c.Len(), f.Err())
				return out.String(), wasMapped
			}
			fmt.Fprintf(&out, "chunk %d line %d: %s\n", i, k, describeRecord(f.Record(), true))
			from = k + 1
		}
		for j := range sizes.Len() {
			fmt.Fprintf(&out, "%v ", sizes.At(j))
		}
		out.WriteString("\n")
		if i == 0 {
			wasMapped = f.m != nil
		}
		if after != nil {
			after(i, f)
		}
	}
	more := f.Scan()
	fmt.Fprintf(&out, "after: %v %v\n", more, f.Err())
	return out.String(), wasMapped
}

// TestFollowInPlace follows a recording of another point, some of its lines
// different, read and in place: the same sizes, records and end; with
// small pages given back, and with huge ones (made small for the test).
func TestFollowInPlace(t *testing.T) {
	p0 := pointRecording(points, 2, 0)
	dir := t.TempDir()
	oldHuge := hugePage
	t.Cleanup(func() { hugePage = oldHuge })
	for i := range 4 {
		odd := []int{0, 97}[i%2]
		step := mapSteps
		if i >= 2 {
			hugePage, step = 4*mapSteps, 8*mapSteps
		}
		path := filepath.Join(dir, fmt.Sprintf("p1_%d.jsonl", odd))
		if err := os.WriteFile(path, pointRecording(points, 3, odd), 0o644); err != nil {
			t.Fatal(err)
		}
		chunks := chunked(t, p0, 48<<10)
		mapped(t, 1<<62, mapSteps)
		want, was := follow(t, path, chunks, nil)
		if was {
			t.Fatal("mapped a file under mapFrom")
		}
		mapped(t, 1, step)
		unit := pageSize // what is given back at a time
		if step >= hugePage {
			unit = hugePage
		}
		given := 0 // the most given back
		got, was := follow(t, path, chunks, func(_ int, f *File) {
			if f.mlo%unit != 0 {
				t.Fatalf("gave back up to %d, not a multiple of %d", f.mlo, unit)
			}
			given = max(given, f.mlo)
		})
		if was && given == 0 {
			t.Fatal("gave nothing back")
		}
		if !was && mapsFiles {
			t.Fatal("not mapped")
		}
		if got != want {
			t.Fatalf("odd every %d: in place\n%.2000s\nread\n%.2000s", odd, got, want)
		}
		if !strings.HasSuffix(got, "after: false <nil>\n") || odd > 0 && !strings.Contains(got, "Name:odd ") {
			t.Fatalf("odd every %d: %.300s", odd, got[max(0, len(got)-300):])
		}
	}
}

// TestFollowInPlaceGrown appends to a file after Follow mapped it: what
// lies past the mapping is read.
func TestFollowInPlaceGrown(t *testing.T) {
	mapped(t, 1, mapSteps)
	p0 := pointRecording(points, 2, 0)
	p1 := pointRecording(points, 3, 0)
	chunks := chunked(t, p0, 48<<10)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, p1, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := follow(t, whole, chunks, nil)
	path := filepath.Join(dir, "grown.jsonl")
	half := bytes.LastIndexByte(p1[:len(p1)/2], '\n') + 1
	if err := os.WriteFile(path, p1[:half], 0o644); err != nil {
		t.Fatal(err)
	}
	got, was := follow(t, path, chunks, func(i int, _ *File) {
		if i > 0 {
			return
		}
		a, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if _, err := a.Write(p1[half:]); err != nil {
			t.Fatal(err)
		}
	})
	if !was && mapsFiles {
		t.Fatal("not mapped")
	}
	if got != want {
		t.Fatalf("grown\n%.1000s\nwhole\n%.1000s", got, want)
	}
}

// TestFollowInPlaceCut cuts a file short while Follow reads it in place:
// the Scanner's error, not a crash, and the mapping gone.
func TestFollowInPlaceCut(t *testing.T) {
	if !mapsFiles {
		t.Skip("files are mapped on Linux only, by a 64-bit process")
	}
	mapped(t, 1, mapSteps)
	p0 := pointRecording(points, 2, 0)
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(path, pointRecording(points, 3, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	var f *File
	got, was := follow(t, path, chunked(t, p0, 48<<10), func(i int, file *File) {
		if i > 0 {
			return
		}
		f = file
		if err := os.Truncate(path, 100); err != nil {
			t.Fatal(err)
		}
	})
	if !was {
		t.Fatal("not mapped")
	}
	if want := path + ":"; !strings.Contains(got, "chunk 1: stopped at line 0") || !strings.Contains(got, want) || !strings.HasSuffix(strings.TrimSpace(got), "the file was cut short while it was read") {
		t.Fatalf("got %.300s", got[max(0, len(got)-300):])
	}
	if f.m != nil || f.buf != nil {
		t.Fatal("the mapping is still there")
	}
}

// TestScanInPlace scans, keeps and counts the records of a file read in
// place, past the first chunk Follow read: as read.
func TestScanInPlace(t *testing.T) {
	p0 := pointRecording(points, 2, 0)
	path := filepath.Join(t.TempDir(), "p1.jsonl")
	if err := os.WriteFile(path, pointRecording(points, 3, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	chunks := chunked(t, p0, 48<<10)
	rest := func() string {
		var out strings.Builder
		follow(t, path, chunks[:1], func(_ int, f *File) {
			var kept Templates
			for i := 0; f.Scan(); i++ {
				if i == 1000 {
					n, err := f.CountOps()
					fmt.Fprintf(&out, "ops after: %d %v\n", n, err)
					break
				}
				f.Keep(&kept)
				out.WriteString(describeRecord(f.Record(), true) + "\n")
			}
			fmt.Fprintf(&out, "kept %d lines, %d bytes; %v\n", kept.Len(), kept.Size(), f.Err())
		})
		return out.String()
	}
	mapped(t, 1<<62, mapSteps)
	want := rest()
	mapped(t, 1, mapSteps)
	if got := rest(); got != want {
		t.Fatalf("in place\n%.1000s\nread\n%.1000s", got, want)
	}
}
