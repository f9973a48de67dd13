package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with the golden file testdata/name (name such as
// "programs/list.txt"), or rewrites that file with got under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", path, firstDiff(got, want))
	}
}

// firstDiff shows the first line where got differs from want.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		gl, wl := "(the end)", "(the end)"
		if i < len(g) {
			gl = string(g[i])
		}
		if i < len(w) {
			wl = string(w[i])
		}
		if gl != wl {
			return fmt.Sprintf("line %d: %s\nwant:    %s", i+1, gl, wl)
		}
	}
	return "(no line differs)"
}
