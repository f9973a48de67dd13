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
// vector exactly on a 3×3 grid, both measured in this run on the same
// distinct vectors: SymPy axis by axis with sympy.interpolate, from the
// values; memsym from the values too, with interp.Interpolate (bench/vectors'
// BenchmarkInterpolate), and, on a second line, through interp.Build, which
// reads them from nine recordings first (BenchmarkBuild).
func (h *harness) sympyPeer(ctx context.Context) []row {
	const measure, target = "interpolating one value vector on a 3×3 grid, exactly, from its values: memsym (`interp.Interpolate`) against SymPy", "memsym ≥ 10 000× faster"
	const buildMeasure = "the same through `interp.Build`, reading the values from nine recordings included: memsym against SymPy"
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
	direct, directCmd, err := h.perVector(ctx, "BenchmarkInterpolate")
	if err != nil {
		return []row{failed(measure, target, []string{directCmd}, err)}
	}
	build, buildCmd, err := h.perVector(ctx, "BenchmarkBuild")
	if err != nil {
		return []row{failed(buildMeasure, "—", []string{buildCmd}, err)}
	}
	shownPeer := strings.Join(quoteArgs(peer), " ")
	h.logf("%s", h.shown(shownPeer))
	res, err := runPeer(ctx, h.root, peer)
	if err != nil {
		return []row{failed(measure, target, []string{directCmd, shownPeer}, err)}
	}
	py, pyCPU := sample(res.Runs), sample(res.CPURuns)
	vectorsJSON := "(vectors.json: bench/vectors.Generate(vectors.Count, vectors.Seed).WriteJSON)"
	peerNote := fmt.Sprintf("SymPy %s under %s: %d vectors per run, each run on vectors not seen before after clearing SymPy's cache, one untimed warm-up run, its values read from JSON untimed; "+
		"the ratio's range is SymPy's fastest over memsym's slowest to SymPy's slowest over memsym's fastest", res.SymPy, res.Python, res.Vectors)
	ratio := py.median() / direct[0].median()
	return []row{{
		measure:  measure,
		target:   target,
		measured: against(direct[0], py),
		verdict:  verdict(ratio >= 10_000),
		commands: []string{directCmd, shownPeer, vectorsJSON},
		note: fmt.Sprintf("memsym: %s distinct vectors per call of interp.Interpolate, their values made untimed, divided by %s; %s%s",
			thousands(vectors.Count), thousands(vectors.Count), peerNote, overCPU(direct[1], pyCPU)),
	}, {
		measure:  buildMeasure,
		target:   "— (for reference)",
		measured: against(build[0], py),
		verdict:  "—",
		commands: []string{buildCmd},
		note: fmt.Sprintf("memsym: %s distinct vectors per interp.Build, reading nine in-memory recordings and summing the inputs included, divided by %s; SymPy as above%s",
			thousands(vectors.Count), thousands(vectors.Count), overCPU(build[1], pyCPU)),
	}}
}

// perVector runs one of bench/vectors' benchmarks and returns its seconds
// per vector over the wall time and over the CPU time, and the command.
func (h *harness) perVector(ctx context.Context, name string) ([]sample, string, error) {
	ms, cmd, err := h.goBenchUnits(ctx, "./bench/vectors", name, "ns/vector", "cpu-ns/vector")
	if err != nil {
		return nil, cmd, err
	}
	for _, s := range ms {
		for i := range s {
			s[i] /= 1e9
		}
	}
	return ms, cmd, nil
}

// against writes memsym's and SymPy's seconds per vector and their ratio
// with its range.
func against(mem, py sample) string {
	return fmt.Sprintf("memsym %s, SymPy %s per vector: %s (%s–%s)", mem.describe(seconds), py.describe(seconds),
		times(py.median()/mem.median()), times(py.min()/mem.max()), times(py.max()/mem.min()))
}

// overCPU writes the comparison over the CPU time, when the peer gave it.
func overCPU(memCPU, pyCPU sample) string {
	if len(pyCPU) == 0 {
		return ""
	}
	return fmt.Sprintf("; over CPU time (each process's user and system), memsym %s, SymPy %s per vector: %s",
		memCPU.describe(seconds), pyCPU.describe(seconds), times(pyCPU.median()/memCPU.median()))
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
