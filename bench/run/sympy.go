package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"memsym/bench/vectors"
)

// sympyCount is how many vectors the peer interpolates in each run: at
// about 20 ms each, a second a run.
const sympyCount = 50

// peerResult is what bench/sympy_interp.py prints.
type peerResult struct {
	SymPy   string    `json:"sympy"`
	Python  string    `json:"python"`
	Vectors int       `json:"vectors"`
	Runs    []float64 `json:"runs_s"`
	CPURuns []float64 `json:"cpu_runs_s"`
}

// sympyPeer compares the time memsym and SymPy take to interpolate one value
// vector exactly on a 3×3 grid, both measured in this run: memsym through
// interp.Build over distinct vectors (bench/vectors' BenchmarkBuild), SymPy
// axis by axis with sympy.interpolate on the same vectors.
func (h *harness) sympyPeer(ctx context.Context) []row {
	const measure, target = "interpolating one value vector on a 3×3 grid, exactly: memsym against SymPy", "memsym ≥ 10 000× faster"
	path := filepath.Join(h.tmp, "vectors.json")
	script := filepath.Join("bench", "sympy_interp.py")
	peer := []string{h.python, script, path, "--count", strconv.Itoa(sympyCount), "--runs", strconv.Itoa(h.runs)}
	check := exec.CommandContext(ctx, h.python, "-c", "import sympy")
	if out, err := check.CombinedOutput(); err != nil {
		return []row{{measure: measure, target: target, measured: "—", verdict: "skipped",
			note: fmt.Sprintf("`%s -c 'import sympy'` fails (%v: %s): install python3-sympy to measure this row", h.python, err, strings.TrimSpace(string(out)))}}
	}
	if err := writeVectors(path); err != nil {
		return []row{failed(measure, target, nil, err)}
	}
	ms, cmd, err := h.goBenchUnits(ctx, "./bench/vectors", "BenchmarkBuild", "ns/vector", "cpu-ns/vector")
	cmds := []string{cmd, strings.Join(quoteArgs(peer), " ")}
	if err != nil {
		return []row{failed(measure, target, cmds, err)}
	}
	mem, memCPU := ms[0], ms[1]
	for i := range mem {
		mem[i] /= 1e9
		memCPU[i] /= 1e9
	}
	h.logf("%s", h.shown(cmds[1]))
	res, err := runPeer(ctx, h.root, peer)
	if err != nil {
		return []row{failed(measure, target, cmds, err)}
	}
	py, pyCPU := sample(res.Runs), sample(res.CPURuns)
	ratio := py.median() / mem.median()
	cpuNote := ""
	if len(pyCPU) > 0 {
		cpuNote = fmt.Sprintf("; over CPU time (each process's user and system), memsym %s, SymPy %s per vector: %s",
			memCPU.describe(seconds), pyCPU.describe(seconds), times(pyCPU.median()/memCPU.median()))
	}
	return []row{{
		measure: measure,
		target:  target,
		measured: fmt.Sprintf("memsym %s, SymPy %s per vector: %s (%s–%s)", mem.describe(seconds), py.describe(seconds),
			times(ratio), times(py.min()/mem.max()), times(py.max()/mem.min())),
		verdict:  verdict(ratio >= 10_000),
		commands: append(cmds, "(vectors.json: bench/vectors.Generate(vectors.Count, vectors.Seed).WriteJSON)"),
		note: fmt.Sprintf("memsym: %s distinct vectors per interp.Build, reading nine in-memory recordings and summing the inputs included, divided by %s; "+
			"SymPy %s under %s: %d vectors per run, each run on vectors not seen before after clearing SymPy's cache, one untimed warm-up run; the ratio's range is SymPy's fastest over memsym's slowest to SymPy's slowest over memsym's fastest%s",
			thousands(vectors.Count), thousands(vectors.Count), res.SymPy, res.Python, res.Vectors, cpuNote),
	}}
}

// writeVectors writes the benchmark's vectors for the peer.
func writeVectors(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = vectors.Generate(vectors.Count, vectors.Seed).WriteJSON(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// runPeer runs the SymPy script and reads its result.
func runPeer(ctx context.Context, dir string, args []string) (*peerResult, error) {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	var res peerResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("%s: expected one JSON object: %v", strings.Join(args, " "), err)
	}
	if len(res.Runs) == 0 {
		return nil, fmt.Errorf("%s: no runs in its result", strings.Join(args, " "))
	}
	return &res, nil
}
