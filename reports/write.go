package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// files are a renderer's output, by file name, written together by
// writeAll.
type files map[string][]byte

// writeAll writes fs into dir: each file first to a temporary file in dir,
// then all renamed into place, so that an error leaves no half-written
// file and no temporary behind. It returns the names, sorted.
func writeAll(dir string, fs files) ([]string, error) {
	names := make([]string, 0, len(fs))
	for n := range fs {
		names = append(names, n)
	}
	sort.Strings(names)
	temps := map[string]string{}
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, n := range names {
		f, err := os.CreateTemp(dir, "."+n+".*.tmp")
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), err)
		}
		temps[n] = f.Name()
		_, werr := f.Write(fs[n])
		cerr := f.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(f.Name(), 0o644)
		}
		if werr != nil {
			cleanup()
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), werr)
		}
	}
	for _, n := range names {
		if err := os.Rename(temps[n], filepath.Join(dir, n)); err != nil {
			cleanup()
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), err)
		}
		delete(temps, n)
	}
	return names, nil
}
