// Package torchtest runs the PyTorch recorder, memsym_torch, on models
// built in code (testdata/models) and feeds its recordings to memsym's
// reader and interpolation. The tests need a Python 3 that imports torch:
// $MEMSYM_PYTHON, else the first of python3 and /usr/bin/python3 that does.
// Without one they skip, or fail when MEMSYM_REQUIRE_TOOLS=1.
package torchtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"memsym/internal/cost"
	"memsym/internal/tooltest"
	"memsym/interp"
	"memsym/record"
)

var (
	pythonOnce sync.Once
	pythonPath string
	pythonWhy  string
)

// python returns the path of a Python that imports torch, or skips (fails
// when tools are required) when there is none.
func python(t testing.TB) string {
	t.Helper()
	pythonOnce.Do(func() {
		candidates := []string{"python3", "/usr/bin/python3"}
		if p := os.Getenv("MEMSYM_PYTHON"); p != "" {
			candidates = []string{p}
		}
		var tried []string
		for _, c := range candidates {
			path, err := exec.LookPath(c)
			if err != nil {
				tried = append(tried, c+" is not installed")
				continue
			}
			if err := exec.Command(path, "-c", "import torch").Run(); err != nil {
				tried = append(tried, path+" cannot import torch")
				continue
			}
			pythonPath = path
			return
		}
		pythonWhy = strings.Join(tried, ", ") + ": the PyTorch recorder is not checked (install python3-torch, or set MEMSYM_PYTHON)"
	})
	if pythonPath == "" {
		tooltest.Missing(t, pythonWhy)
	}
	return pythonPath
}

// recorderDir returns recorders/torch, which holds the package memsym_torch.
func recorderDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// model returns the path of a model file in testdata/models.
func model(t testing.TB, file string) string {
	return filepath.Join(recorderDir(t), "testdata", "models", file)
}

// run is one run of a Python program with memsym_torch importable.
type run struct {
	stdout, stderr []byte
	err            error
	maxRSS         int64 // the largest resident set, in bytes
}

// runPython runs python with args, memsym_torch on its path.
func runPython(t testing.TB, args ...string) run {
	t.Helper()
	cmd := exec.Command(python(t), args...)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+recorderDir(t), "PYTHONDONTWRITEBYTECODE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := run{err: cmd.Run()}
	r.stdout, r.stderr = stdout.Bytes(), stderr.Bytes()
	r.maxRSS, _ = cost.PeakRSS(cmd.ProcessState)
	return r
}

// recorder runs python -m memsym_torch with args and returns what it
// wrote, failing the test if it failed.
func recorder(t testing.TB, args ...string) run {
	t.Helper()
	r := runPython(t, append([]string{"-m", "memsym_torch"}, args...)...)
	if r.err != nil {
		t.Fatalf("memsym_torch %s: %v: %s", strings.Join(args, " "), r.err, r.stderr)
	}
	return r
}

// point is a point's values, in the order of the dimensions' names.
type point []int64

// at writes p as the recorder's --at flag and file name do: "B=2,T=16".
func (p point) at(names []string) string {
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = fmt.Sprintf("%s=%d", names[i], v)
	}
	return strings.Join(parts, ",")
}

// recordPoints records spec at every point in one process, with extra
// flags (--step, --const), and returns each point's recording by its at().
func recordPoints(t testing.TB, spec string, names []string, points []point, extra ...string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	args := []string{spec, "--out-dir", dir}
	for _, p := range points {
		args = append(args, "--at", p.at(names))
	}
	recorder(t, append(args, extra...)...)
	out := make(map[string][]byte)
	for _, p := range points {
		b, err := os.ReadFile(filepath.Join(dir, p.at(names)+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		out[p.at(names)] = b
	}
	return out
}

// source serves one recording from memory.
func source(name string, data []byte) interp.Source {
	return interp.Source{Name: name, Open: func() (record.Stream, error) {
		return record.NewScanner(bytes.NewReader(data), name), nil
	}}
}

// read reads a recording whole, failing the test if memsym refuses it.
func read(t testing.TB, name string, data []byte) *record.Recording {
	t.Helper()
	rec, err := record.Read(bytes.NewReader(data), name)
	if err != nil {
		t.Fatalf("memsym refuses the recording: %v", err)
	}
	return rec
}
