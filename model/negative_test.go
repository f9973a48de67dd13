package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"memsym/source"
)

// writeGrid writes a 3×3 grid over B, T ∈ {1, 2, 3} and a check point at
// B = 5, T = 7 of a program of one operation writing buffer 1, "x", whose
// bytes at each point are bytes(B, T), and returns the source.
func writeGrid(t *testing.T, bytes func(b, t int64) int64) *source.Files {
	t.Helper()
	dir := t.TempDir()
	write := func(b, tt int64) string {
		path := filepath.Join(dir, fmt.Sprintf("B%d_T%d.jsonl", b, tt))
		text := fmt.Sprintf("{\"memsym\": 1, \"dims\": {\"B\": %d, \"T\": %d}}\n{\"buffer\": 1, \"bytes\": %d, \"name\": \"x\"}\n{\"op\": \"F.apply\", \"writes\": [1]}\n{\"result\": [1]}\n", b, tt, bytes(b, tt))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	f := &source.Files{}
	for _, b := range []int64{1, 2, 3} {
		for _, tt := range []int64{1, 2, 3} {
			f.Grid = append(f.Grid, write(b, tt))
		}
	}
	f.Checks = append(f.Checks, write(5, 7))
	return f
}

// TestNegativeBytes: a buffer whose bytes fall with T, 20 − T on the grid
// and at the check point, would be negative from T = 21. NegativeBytes
// says so, and Eval refuses a point past it but answers one before; bytes
// that grow, and bytes with a negative coefficient that are never negative
// (T² − 2·T + 1 + B), are modelled without a word.
func TestNegativeBytes(t *testing.T) {
	ctx := context.Background()
	m, err := Build(ctx, writeGrid(t, func(b, tt int64) int64 { return 20 - tt }), source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	want := `buffer 1 "x", made by operation 1 (` + "`F.apply`" + `), has bytes −T + 20, which is −1 at T = 21`
	if got := m.NegativeBytes(); got != want {
		t.Errorf("NegativeBytes: %q\nwant %q", got, want)
	}
	p, _ := m.PointOf(map[string]int64{"B": 1, "T": 100})
	_, err = m.Eval(p)
	wantErr := `at B = 1, T = 100, buffer 1 "x", made by operation 1 (` + "`F.apply`" + `), has bytes −T + 20, which is −80 there: a buffer's bytes are never negative, so the polynomials are not the program's at this point (it is below the sizes the program has, or the grid does not show how its sizes behave here)`
	if err == nil || err.Error() != wantErr {
		t.Errorf("Eval at T = 100: %v\nwant %s", err, wantErr)
	}
	p, _ = m.PointOf(map[string]int64{"B": 1, "T": 20})
	if terms, err := m.Eval(p); err != nil || terms.Peak.Sign() != 0 {
		t.Errorf("Eval at T = 20: %v, %v; want a peak of 0 bytes", terms, err)
	}
	for name, f := range map[string]func(b, t int64) int64{
		"8·B·T":            func(b, t int64) int64 { return 8 * b * t },
		"T² − 2·T + 1 + B": func(b, t int64) int64 { return t*t - 2*t + 1 + b },
	} {
		m, err := Build(ctx, writeGrid(t, f), source.Spec{})
		if err != nil {
			t.Fatalf("bytes %s: %v", name, err)
		}
		if got := m.NegativeBytes(); got != "" {
			t.Errorf("bytes %s: %s", name, got)
		}
	}
}
