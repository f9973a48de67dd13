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

// peer is one way Python interpolates the vectors (bench/sympy_interp.py's
// --method), and how many vectors each of its runs times.
type peer struct {
	method string
	count  int
	what   string // for the table
}

// peers are the Python baselines: SymPy's interpolate, at about 20 ms a
// vector, and the two exact linear-algebra ones, at about 0.1 ms.
var peers = []peer{
	{"interpolate", 50, "SymPy's `interpolate`, axis by axis"},
	{"fractions", 1000, "Python's `fractions`, each axis's inverse computed once"},
	{"domainmatrix", 1000, "SymPy's `DomainMatrix` over QQ, the grid's inverse computed once, a run's vectors in one product"},
}

// peerResult is what bench/sympy_interp.py prints.
type peerResult struct {
	SymPy   string    `json:"sympy"`
	Python  string    `json:"python"`
	Method  string    `json:"method"`
	Vectors int       `json:"vectors"`
	Runs    []float64 `json:"runs_s"`
	CPURuns []float64 `json:"cpu_runs_s"`
	Inverse float64   `json:"inverse_s"`
}

// sympyPeer compares the time memsym and Python take to interpolate one
// value vector exactly on a 3×3 grid, on the same distinct vectors, from
// their values: memsym with interp.Interpolate (bench/vectors'
// BenchmarkInterpolate), Python three ways (peers). Each run times memsym
// once and then each peer once, so that every ratio is taken between two
// runs made one after the other. A last row gives memsym through
// interp.Build, which reads the values from nine recordings first.
func (h *harness) sympyPeer(ctx context.Context) []row {
	const measure = "interpolating one value vector on a 3×3 grid, exactly, from its values: memsym (`interp.Interpolate`) against "
	const buildMeasure = "the same through `interp.Build`, reading the values from nine recordings included: memsym against SymPy's `interpolate`"
	path := filepath.Join(h.tmp, "vectors.json")
	script := filepath.Join("bench", "sympy_interp.py")
	check := exec.CommandContext(ctx, h.python, "-c", "import sympy")
	if out, err := check.CombinedOutput(); err != nil {
		return []row{{measure: measure + "Python", target: "—", measured: "—", verdict: "skipped",
			note: fmt.Sprintf("`%s -c 'import sympy'` fails (%v: %s): install python3-sympy to measure this row", h.python, err, strings.TrimSpace(string(out)))}}
	}
	if err := writeVectors(path); err != nil {
		return []row{failed(measure+"Python", "—", nil, err)}
	}
	test := filepath.Join(h.tmp, "vectors.test")
	compile := []string{"test", "-c", "-o", test, "./bench/vectors"}
	h.logf("go %s", strings.Join(compile, " "))
	build := exec.CommandContext(ctx, h.goCmd, compile...)
	build.Dir = h.root
	if out, err := build.CombinedOutput(); err != nil {
		return []row{failed(measure+"Python", "—", nil, fmt.Errorf("go test -c ./bench/vectors: %v: %s", err, out))}
	}
	goCmd := func(name string) []string {
		return []string{test, "-test.run", "^$", "-test.bench", "^" + name + "$", "-test.count", "1"}
	}
	peerCmd := func(p peer, r int) []string {
		// Each run on vectors the run before did not time.
		offset := r * 2 * p.count % (vectors.Count - 2*p.count + 1)
		return []string{h.python, script, path, "--method", p.method, "--count", strconv.Itoa(p.count), "--runs", "1", "--offset", strconv.Itoa(offset)}
	}
	var direct, directCPU, build1, build1CPU sample
	py := make([]sample, len(peers))
	pyCPU := make([]sample, len(peers))
	results := make([]*peerResult, len(peers))
	for r := range h.runs {
		for _, name := range []string{"BenchmarkInterpolate", "BenchmarkBuild"} {
			s, err := h.runGoBench(ctx, goCmd(name), name, "ns/vector", "cpu-ns/vector")
			if err != nil {
				return []row{failed(measure+"Python", "—", []string{shownCmd(goCmd(name))}, err)}
			}
			if name == "BenchmarkInterpolate" {
				direct, directCPU = append(direct, s[0]/1e9), append(directCPU, s[1]/1e9)
			} else {
				build1, build1CPU = append(build1, s[0]/1e9), append(build1CPU, s[1]/1e9)
			}
		}
		for i, p := range peers {
			args := peerCmd(p, r)
			h.logf("run %d of %d: %s", r+1, h.runs, h.shown(shownCmd(args)))
			res, err := runPeer(ctx, h.root, args)
			if err != nil {
				return []row{failed(measure+p.what, "—", []string{shownCmd(args)}, err)}
			}
			results[i] = res
			py[i] = append(py[i], res.Runs[0])
			pyCPU[i] = append(pyCPU[i], res.CPURuns[0])
		}
	}
	commands := []string{shownCmd(goCmd("BenchmarkInterpolate")), "(vectors.json: bench/vectors.Generate(vectors.Count, vectors.Seed).WriteJSON; vectors.test: go test -c ./bench/vectors)"}
	var rows []row
	for i, p := range peers {
		res := results[i]
		target := "— (a competent exact baseline)"
		verdictOf := "—"
		if p.method == "interpolate" {
			target = "memsym ≥ 10 000× faster"
			verdictOf = verdict(ratios(py[i], direct).median() >= 10_000)
		}
		inverse := ""
		if res.Inverse > 0 {
			inverse = fmt.Sprintf("; the inverse, computed once before the timed part, took %s", seconds(res.Inverse))
		}
		rows = append(rows, row{
			measure:  measure + p.what,
			target:   target,
			measured: pairs(direct, py[i]),
			verdict:  verdictOf,
			commands: append(append([]string(nil), commands...), shownCmd(peerCmd(p, 0))),
			note: fmt.Sprintf("%s under %s: %d vectors per run, one untimed warm-up run on other vectors first, values read from JSON untimed, each answer checked untimed%s; memsym: %s distinct vectors per call, their values made untimed; each run of memsym followed by one of each peer, the ratio taken per pair; over CPU time (each process's user and system), memsym %s, Python %s per vector: %s (%s–%s)",
				res.SymPy, res.Python, res.Vectors, inverse, thousands(vectors.Count),
				directCPU.describe(seconds), pyCPU[i].describe(seconds), times(ratios(pyCPU[i], directCPU).median()), times(ratios(pyCPU[i], directCPU).min()), times(ratios(pyCPU[i], directCPU).max())),
		})
	}
	rows = append(rows, row{
		measure:  buildMeasure,
		target:   "— (for reference)",
		measured: pairs(build1, py[0]),
		verdict:  "—",
		commands: []string{shownCmd(goCmd("BenchmarkBuild"))},
		note: fmt.Sprintf("memsym: %s distinct vectors per interp.Build, reading nine in-memory recordings and summing the inputs included; over CPU time, memsym %s per vector",
			thousands(vectors.Count), build1CPU.describe(seconds)),
	})
	return rows
}

// runGoBench runs a compiled Go benchmark once and returns its values in
// units.
func (h *harness) runGoBench(ctx context.Context, args []string, name string, units ...string) ([]float64, error) {
	h.logf("%s", h.shown(shownCmd(args)))
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = h.root
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s%s", shownCmd(args), err, tail(out), stderr.String())
	}
	var vs []float64
	for _, unit := range units {
		s, err := parseBench(string(out), name, unit)
		if err != nil || len(s) != 1 {
			return nil, fmt.Errorf("%s: expected one result in %s: %v", shownCmd(args), unit, err)
		}
		vs = append(vs, s[0])
	}
	return vs, nil
}

// pairs writes memsym's and the peer's seconds per vector and the ratio of
// each pair of runs, its median and range.
func pairs(mem, py sample) string {
	r := ratios(py, mem)
	return fmt.Sprintf("memsym %s, Python %s per vector: %s (%s–%s, pair by pair)", mem.describe(seconds), py.describe(seconds),
		times(r.median()), times(r.min()), times(r.max()))
}

func shownCmd(args []string) string { return strings.Join(quoteArgs(args), " ") }

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

// runPeer runs the Python script and reads its result.
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
	if len(res.Runs) == 0 || len(res.CPURuns) != len(res.Runs) {
		return nil, fmt.Errorf("%s: no runs in its result", strings.Join(args, " "))
	}
	return &res, nil
}
