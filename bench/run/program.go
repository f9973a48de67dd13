package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"memsym/source"
)

// syntheticProgram compares memsym symbolic on the bundled synthetic program
// recorded as it is read (--program: each point made by Go code and never
// held whole) with the same on its recordings in files, the grid and the
// program's own check points, by turns: issue 16 asks the program within
// 1.2× the files' wall time and peak RSS.
func (h *harness) syntheticProgram(ctx context.Context) []row {
	what := fmt.Sprintf("synthetic, %s operations, 3×3 grid: `memsym symbolic --program` against the same on its recordings in files", thousands(h.ops))
	prog := memsymCmd{"symbolic", "--program", "synthetic", "--const", "N=" + strconv.FormatInt(h.ops, 10)}
	src, err := source.NewProgram("synthetic", map[string]int64{"N": h.ops})
	if err != nil {
		return []row{failed(what+", wall time", "≤ 1.2×", []string{prog.String()}, err)}
	}
	plan, err := src.Plan(source.Spec{})
	if err != nil {
		return []row{failed(what+", wall time", "≤ 1.2×", []string{prog.String()}, err)}
	}
	dir := filepath.Join(h.tmp, "program")
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return []row{failed(what+", wall time", "≤ 1.2×", []string{prog.String()}, err)}
	}
	var gen []memsymCmd
	var grid, checks []string
	for _, p := range plan.Points() {
		c, path := recordSynthetic(dir, h.ops, p[0].Value, p[1].Value)
		gen, grid = append(gen, c), append(grid, path)
	}
	for _, p := range plan.Checks {
		c, path := recordSynthetic(dir, h.ops, p[0].Value, p[1].Value)
		gen, checks = append(gen, c), append(checks, path)
	}
	for i, c := range gen {
		h.logf("recording %d of %d: %s", i+1, len(gen), h.shown(c.String()))
		if _, err := h.run(ctx, c); err != nil {
			return []row{failed(what+", wall time", "≤ 1.2×", shownAll(gen...), err)}
		}
	}
	files := memsymCmd{"symbolic"}
	for _, c := range checks {
		files = append(files, "--check", c)
	}
	files = append(files, grid...)
	cmds := append(shownAll(gen...), files.String(), prog.String())
	cs, err := h.repeatArgs(ctx, [][]string{h.argv(files), h.argv(prog)})
	if err != nil {
		return []row{failed(what+", wall time", "≤ 1.2×", cmds, err)}
	}
	f, p := cs[0], cs[1]
	wall, rss := ratios(p.wall, f.wall), ratios(p.rss, f.rss)
	return []row{{
		measure:  what + ", wall time",
		target:   "≤ 1.2×",
		measured: fmt.Sprintf("program %s, files %s: %s (%s–%s, run by run)", p.wall.describe(seconds), f.wall.describe(seconds), times(wall.median()), times(wall.min()), times(wall.max())),
		verdict:  verdict(wall.median() <= 1.2),
		commands: cmds,
		note:     fmt.Sprintf("CPU time program %s, files %s; %d grid points and %d check points, recorded in files with memsym record", p.cpu.describe(seconds), f.cpu.describe(seconds), len(grid), len(checks)),
	}, {
		measure:  what + ", peak RSS",
		target:   "≤ 1.2×",
		measured: fmt.Sprintf("program %s, files %s: %s (%s–%s, run by run)", p.rss.describe(megabytes), f.rss.describe(megabytes), times(rss.median()), times(rss.min()), times(rss.max())),
		verdict:  verdict(rss.median() <= 1.2),
		commands: []string{files.String(), prog.String()},
	}}
}
