package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// llamaSymbolic times memsym symbolic on the Llama 2 block end to end:
// recording the grid and the check point, interpolating, pruning.
func (h *harness) llamaSymbolic(ctx context.Context) []row {
	const measure = "`memsym symbolic --program llama2-7b-block` end to end"
	c := memsymCmd{"symbolic", "--program", "llama2-7b-block"}
	k, err := h.timed(ctx, nil, c)
	if err != nil {
		return []row{failed(measure, "≤ 0.1 s wall, ≤ 50 MB peak RSS", shownAll(c), err)}
	}
	return []row{{
		measure:  measure + ": wall time",
		target:   "≤ 0.1 s",
		measured: k.wall.describe(seconds),
		verdict:  verdict(k.wall.median() <= 0.1),
		commands: shownAll(c),
		note:     "CPU time (user and system) " + k.cpu.describe(seconds) + waited(k, 0.1),
	}, {
		measure:  measure + ": peak RSS",
		target:   "≤ 50 MB",
		measured: k.rss.describe(megabytes),
		verdict:  verdict(k.rss.median() <= 50e6),
		commands: shownAll(c),
	}}
}

// explain times memsym explain on the Llama 2 block in all formats (its
// default), into a fresh directory each run.
func (h *harness) explain(ctx context.Context) []row {
	const measure = "`memsym explain --program llama2-7b-block`, all formats"
	dir := filepath.Join(h.tmp, "explain")
	c := memsymCmd{"explain", "--program", "llama2-7b-block", "-o", dir}
	k, err := h.timed(ctx, func() { os.RemoveAll(dir) }, c)
	os.RemoveAll(dir)
	if err != nil {
		return []row{failed(measure, "≤ 0.5 s", shownAll(c), err)}
	}
	return []row{{
		measure:  measure,
		target:   "≤ 0.5 s",
		measured: k.wall.describe(seconds),
		verdict:  verdict(k.wall.median() <= 0.5),
		commands: shownAll(c),
		note:     fmt.Sprintf("formats html, md, pdf, tikz and its 3 verification points (the defaults); CPU time %s, peak RSS %s%s", k.cpu.describe(seconds), k.rss.describe(megabytes), waited(k, 0.5)),
	}}
}

// waited says when a wall time missed its limit of seconds that the CPU time
// met: the run waited for the shared CPUs.
func waited(k costs, limit float64) string {
	if k.wall.median() > limit && k.cpu.median() <= limit {
		return fmt.Sprintf("; the CPU time's median is within the %s, the wall time's is not: the runs waited for the machine's shared CPUs", seconds(limit))
	}
	return ""
}

// prune reads dominance's BenchmarkPrune: 10^5 candidates.
func (h *harness) prune(ctx context.Context) []row {
	const measure, target = "pruning 10^5 candidates (`BenchmarkPrune`)", "≤ 1 s"
	s, cmd, err := h.goBench(ctx, "./dominance", "BenchmarkPrune", "ns/op")
	if err != nil {
		return []row{failed(measure, target, []string{cmd}, err)}
	}
	for i := range s {
		s[i] /= 1e9
	}
	return []row{{measure: measure, target: target, measured: s.describe(seconds), verdict: verdict(s.median() <= 1), commands: []string{cmd}}}
}

// step times memsym symbolic on the course GPT's training step with 200
// blocks end to end: a frontier of 1 200 candidates none of which
// dominates another, every ordered pair decided.
func (h *harness) step(ctx context.Context) []row {
	const measure = "`memsym symbolic --program gpt-course --step --const L=200` end to end (a frontier of about 1 200 candidates, every ordered pair decided)"
	c := memsymCmd{"symbolic", "--program", "gpt-course", "--step", "--const", "L=200"}
	k, err := h.timed(ctx, nil, c)
	if err != nil {
		return []row{failed(measure, "— (for reference)", shownAll(c), err)}
	}
	return []row{{
		measure:  measure,
		target:   "— (for reference)",
		measured: k.wall.describe(seconds),
		verdict:  "—",
		commands: shownAll(c),
		note:     fmt.Sprintf("CPU time %s, peak RSS %s", k.cpu.describe(seconds), k.rss.describe(megabytes)),
	}}
}

// place reads count's BenchmarkPlaceStep: the placement `memsym memory`
// prints, of a training step whose stored activations mostly live
// together, Place's quadratic case.
func (h *harness) place(ctx context.Context) []row {
	const measure = "placing every temp of a training step, the course GPT's with 200 blocks (31 669 records, most activations live together: `count.Place`, `BenchmarkPlaceStep`, as `memsym memory` does)"
	s, cmd, err := h.goBench(ctx, "./count", "BenchmarkPlaceStep", "ns/op")
	if err != nil {
		return []row{failed(measure, "— (for reference)", []string{cmd}, err)}
	}
	for i := range s {
		s[i] /= 1e9
	}
	return []row{{measure: measure, target: "— (for reference)", measured: s.describe(seconds), verdict: "—", commands: []string{cmd}}}
}

// scan reads bench/synth's BenchmarkScan, record's Scanner alone over
// synthetic at 10^5 operations in memory, and BenchmarkFollow, the same
// recording read by comparison with another point's, in MB per CPU second.
func (h *harness) scan(ctx context.Context) []row {
	const measure, target = "parsing: `record.Scanner` alone over synthetic, in memory (bench/synth's `BenchmarkScan`), bytes per CPU second", "≥ 600 MB/s per core"
	const followMeasure = "reading a grid point by comparison with point 0's lines (`record.Scanner.Follow`, bench/synth's `BenchmarkFollow`), bytes per CPU second"
	var rows []row
	for _, m := range []struct{ name, measure, target string }{{"BenchmarkScan", measure, target}, {"BenchmarkFollow", followMeasure, "— (for reference)"}} {
		s, cmd, err := h.goBenchUnits(ctx, "./bench/synth", m.name, "MB/cpu-s", "MB/s")
		if err != nil {
			rows = append(rows, failed(m.measure, m.target, []string{cmd}, err))
			continue
		}
		cpu, wall := s[0], s[1]
		for i := range cpu {
			cpu[i] *= 1e6
			wall[i] *= 1e6
		}
		v := "—"
		if m.name == "BenchmarkScan" {
			v = verdict(cpu.median() >= 600e6)
		}
		rows = append(rows, row{measure: m.measure, target: m.target, measured: cpu.describe(rate), verdict: v, commands: []string{cmd},
			note: "synthetic at 10^5 operations, B = 3, T = 192 (18.5 MB), in memory; the CPU time is the test process's, user and system, the collector's included; over the wall time, " + wall.describe(rate)})
	}
	return rows
}
