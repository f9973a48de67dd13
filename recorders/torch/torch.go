// Package torch carries memsym_torch, the PyTorch recorder (a Python
// package, docs/torch.md), inside memsym, so that memsym can run it where
// its sources are not: Install writes it into a directory for PYTHONPATH.
package torch

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed memsym_torch/*.py
var files embed.FS

// Package is the name to run: python3 -m memsym_torch.
const Package = "memsym_torch"

// Install writes the package into dir, as dir/memsym_torch/*.py, so that
// `PYTHONPATH=dir python3 -m memsym_torch` runs it. Each file is written
// whole, under a temporary name first; files already there are replaced.
func Install(dir string) error {
	pkg := filepath.Join(dir, Package)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return fmt.Errorf("installing the PyTorch recorder: %w", err)
	}
	names, err := fs.Glob(files, Package+"/*.py")
	if err != nil {
		return err
	}
	for _, name := range names {
		b, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		if err := writeWhole(filepath.Join(dir, filepath.FromSlash(name)), b); err != nil {
			return fmt.Errorf("installing the PyTorch recorder: %w", err)
		}
	}
	return nil
}

func writeWhole(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".install-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
