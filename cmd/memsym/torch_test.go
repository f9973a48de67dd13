package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/internal/tooltest"
	"memsym/source"
)

// needTorch skips (or fails, where every tool is required) without a
// Python that has torch.
func needTorch(t *testing.T) {
	t.Helper()
	if _, err := source.Python(); err != nil {
		tooltest.Missing(t, err.Error())
	}
}

// TestTorchSource: --torch records docs/torch.md's example with the recorder
// memsym ships, through symbolic (checked at the default points), crossover
// and verify, and record writes one point; nothing is left behind.
func TestTorchSource(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model, err := filepath.Abs("../../docs/examples/tinylm.py")
	if err != nil {
		t.Fatal(err)
	}
	src := []string{"--torch", model + ":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48", "--jobs", "2"}
	out := mustRunCLI(t, append([]string{"symbolic"}, src...)...)
	if !strings.Contains(out, "checked at B = 7, T = 65; B = 13, T = 115") || !strings.Contains(out, "peak") {
		t.Errorf("symbolic --torch:\n%s", out)
	}
	out = mustRunCLI(t, append([]string{"verify", "--points", "2"}, src...)...)
	if !strings.HasSuffix(out, "1 program: 2 points checked, 0 refused as expected, 0 failed\n") {
		t.Errorf("verify --torch:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	mustRunCLI(t, "record", "--torch", model+":build", "--dim", "B=2,T=16", "-o", path)
	if out := mustRunCLI(t, "memory", path); !strings.HasPrefix(out, "memsym memory: `TinyLM") || !strings.Contains(out, "at B = 2, T = 16") {
		t.Errorf("memory of the torch recording:\n%s", out)
	}
	noLeftovers(t)

	// A model that raises: one line, exit 1.
	bad := filepath.Join(t.TempDir(), "bad.py")
	if err := os.WriteFile(bad, []byte("def build(B, T):\n    raise ValueError('no model here')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI("symbolic", "--torch", bad+":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no model here") {
		t.Errorf("a model that raises: exit %d, stderr %q", code, errs)
	}
	noLeftovers(t)
}
