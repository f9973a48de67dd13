package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDeterministicAcrossGOMAXPROCS: the same input gives byte-identical
// output whether memsym records and reads its points on one thread or on
// several: the symbolic model (text and JSON), the crossovers, and every
// file of the chapter.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	commands := [][]string{
		{"symbolic", "--program", "encdec-cross"},
		{"symbolic", "--program", "gpt-course", "--const", "D=384,H=6,L=6", "--json"},
		{"crossover", "--program", "gpt-course", "--along", "T"},
		{"verify", "--program", "moe-layer"},
	}
	outputs := func(procs int) map[string][]byte {
		runtime.GOMAXPROCS(procs)
		got := map[string][]byte{}
		for _, args := range commands {
			got[args[0]+" "+args[2]] = []byte(mustRunCLI(t, args...))
		}
		dir := t.TempDir()
		mustRunCLI(t, "explain", "--program", "gpt-course", "-o", dir)
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("explain wrote nothing into %s (%v)", dir, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got["explain "+filepath.Base(f)] = b
		}
		return got
	}
	one, many := outputs(1), outputs(4)
	if len(one) != len(many) {
		t.Fatalf("GOMAXPROCS 1 wrote %d outputs, 4 wrote %d", len(one), len(many))
	}
	for name, b := range one {
		if !bytes.Equal(b, many[name]) {
			t.Errorf("%s differs between GOMAXPROCS 1 and 4", name)
		}
	}
}
