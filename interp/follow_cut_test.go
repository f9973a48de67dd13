package interp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/record"
)

// cutFollower is a grid point's file that another process cuts short as
// it is followed: at Follow's second call, after the first has mapped it
// (where files are mapped).
type cutFollower struct {
	*record.File
	path  string
	calls int
}

func (c *cutFollower) Follow(t *record.Templates, from int, sizes *record.Sizes) int {
	if c.calls++; c.calls == 2 {
		if err := os.Truncate(c.path, 100); err != nil {
			panic(err)
		}
	}
	return c.File.Follow(t, from, sizes)
}

// TestGridCutWhileFollowed cuts a grid point's recording of 5 MB short
// while the grid is read: the error of the recording as it then is, named
// by its file, and no fault.
func TestGridCutWhileFollowed(t *testing.T) {
	dir := t.TempDir()
	var grid []Source
	for b := 1; b <= 3; b++ {
		var w bytes.Buffer
		fmt.Fprintf(&w, `{"memsym": 1, "dims": {"B": %d}}`+"\n"+`{"buffer": 0, "dtype": "f32", "shape": [%d], "role": "input"}`+"\n", b, b)
		for id := 1; w.Len() < 5<<20; id++ {
			fmt.Fprintf(&w, `{"buffer": %d, "dtype": "f32", "shape": [%d, %d], "name": "x", "group": "cells[%d]"}`+"\n", id, b, id%7+1, id/5)
			fmt.Fprintf(&w, `{"op": "F.apply", "path": "cells[%d]", "reads": [%d], "writes": [%d]}`+"\n", id/5, id-1, id)
		}
		w.WriteString(`{"result": [0]}` + "\n")
		path := filepath.Join(dir, fmt.Sprintf("b%d.jsonl", b))
		if err := os.WriteFile(path, w.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		grid = append(grid, Source{Name: path, Open: func() (record.Stream, error) {
			f, err := record.OpenFile(path)
			if err != nil || b != 3 {
				return f, err
			}
			return &cutFollower{File: f, path: path}, nil
		}})
	}
	_, err := Build(grid, nil)
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "b3.jsonl")+":") {
		t.Fatalf("error %v", err)
	}
	t.Log(err)
}
