package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"memsym/bench/synth"
	"memsym/programs"
)

// syntheticFiles writes the bundled synthetic program's recordings on its
// 3×3 grid and at its check point with memsym record, then times memsym
// symbolic over them against memsym validate, the parse-only pass, run by
// turns.
func (h *harness) syntheticFiles(ctx context.Context) []row {
	ratioMeasure := fmt.Sprintf("synthetic, %s operations, 3×3 grid of recordings in files: `memsym symbolic` against `memsym validate` (parse only) on the same files", thousands(h.ops))
	rateMeasure := "parsing: `memsym validate` over those files, bytes per CPU second"
	dir := filepath.Join(h.tmp, "grid3")
	defer os.RemoveAll(dir)
	gen, grid, check, err := h.recordGrid3(ctx, dir)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 1.5×", shownAll(gen...), err)}
	}
	all := append(append([]string(nil), grid...), check)
	size, err := fileBytes(all)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 1.5×", shownAll(gen...), err)}
	}
	sym := symbolicFiles(check, grid)
	val := append(memsymCmd{"validate"}, all...)
	cmds := shownAll(append(gen, val, sym)...)
	cs, err := h.repeat(ctx, nil, val, sym)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 1.5×", cmds, err)}
	}
	v, s := cs[0], cs[1]
	r := ratios(s.wall, v.wall)
	perCPU := make(sample, len(v.cpu))
	perWall := make(sample, len(v.wall))
	for i := range v.cpu {
		perCPU[i] = float64(size) / v.cpu[i]
		perWall[i] = float64(size) / v.wall[i]
	}
	return []row{{
		measure:  ratioMeasure,
		target:   "≤ 1.5× the parse-only pass",
		measured: fmt.Sprintf("symbolic %s, validate %s: %s (%s–%s, run by run)", s.wall.describe(seconds), v.wall.describe(seconds), times(r.median()), times(r.min()), times(r.max())),
		verdict:  verdict(r.median() <= 1.5),
		commands: cmds,
		note: fmt.Sprintf("%d files, %s bytes; peak RSS symbolic %s, validate %s; CPU time symbolic %s, validate %s",
			len(all), thousands(size), s.rss.describe(megabytes), v.rss.describe(megabytes), s.cpu.describe(seconds), v.cpu.describe(seconds)),
	}, {
		measure:  rateMeasure,
		target:   "≥ 300 MB/s per core",
		measured: perCPU.describe(rate),
		verdict:  verdict(perCPU.median() >= 300e6),
		commands: shownAll(val),
		note:     fmt.Sprintf("%s bytes over the CPU time (user and system, the collector's threads included); over the wall time, %s", thousands(size), perWall.describe(rate)),
	}}
}

// recordGrid3 records the bundled synthetic at its grid's points and its
// check point into dir.
func (h *harness) recordGrid3(ctx context.Context, dir string) (cmds []memsymCmd, grid []string, check string, err error) {
	p, err := programs.Lookup("synthetic")
	if err != nil {
		return nil, nil, "", err
	}
	if len(p.Dims) != 2 || p.Dims[0].Name != "B" || p.Dims[1].Name != "T" {
		return nil, nil, "", fmt.Errorf("the bundled synthetic's dimensions are no longer B and T: update bench/run")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, "", err
	}
	for _, b := range p.Dims[0].Grid {
		for _, t := range p.Dims[1].Grid {
			c, path := recordSynthetic(dir, h.ops, b, t)
			cmds, grid = append(cmds, c), append(grid, path)
		}
	}
	c, check := recordSynthetic(dir, h.ops, p.Dims[0].Check, p.Dims[1].Check)
	cmds = append(cmds, c)
	for i, c := range cmds {
		h.logf("recording %d of %d: %s", i+1, len(cmds), h.shown(c.String()))
		if _, err := h.run(ctx, c); err != nil {
			return cmds, nil, "", err
		}
	}
	return cmds, grid, check, nil
}

// syntheticGrid4 compares memsym symbolic's peak RSS on a 3^4 grid with that
// on a 3×3 grid, run by turns. The bundled synthetic has two dimensions, so
// both grids' recordings are bench/synth's: on 3×3 the bundled program byte
// for byte, on 3^4 the same with its width D and a head count H as
// dimensions too.
func (h *harness) syntheticGrid4(ctx context.Context) []row {
	measure := fmt.Sprintf("synthetic, %s operations: `memsym symbolic`'s peak RSS on a 3^4 grid (81 recordings) against a 3×3 grid", thousands(h.ops4))
	const target = "≤ 1.5× that of the 3×3 grid"
	var dims []string
	if p, err := programs.Lookup("synthetic"); err == nil {
		for _, d := range p.Dims {
			dims = append(dims, d.Name)
		}
	}
	dir := filepath.Join(h.tmp, "grid4")
	defer os.RemoveAll(dir)
	var files [2]*synth.Files
	for i, four := range []bool{false, true} {
		p := synth.Program{Ops: h.ops4, FourDims: four}
		sub := filepath.Join(dir, strings.Join(p.Vars(), ""))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return []row{failed(measure, target, nil, err)}
		}
		h.logf("writing synthetic at %d operations on the grid of %s with bench/synth into %s", h.ops4, strings.Join(p.Vars(), ", "), h.shown(sub))
		f, err := p.WriteFiles(sub)
		if err != nil {
			return []row{failed(measure, target, nil, err)}
		}
		files[i] = f
	}
	two, four := symbolicFiles(files[0].Check, files[0].Grid), symbolicFiles(files[1].Check, files[1].Grid)
	cmds := []string{
		fmt.Sprintf("(bench/synth.Program{Ops: %d}.WriteFiles($TMP/grid4/BT) and Program{Ops: %d, FourDims: true}.WriteFiles($TMP/grid4/BTDH))", h.ops4, h.ops4),
		two.abbrev(), four.abbrev(),
	}
	cs, err := h.repeat(ctx, nil, two, four)
	if err != nil {
		return []row{failed(measure, target, cmds, err)}
	}
	r := ratios(cs[1].rss, cs[0].rss)
	return []row{{
		measure:  measure,
		target:   target,
		measured: fmt.Sprintf("3^4 %s, 3×3 %s: %s (%s–%s, run by run)", cs[1].rss.describe(megabytes), cs[0].rss.describe(megabytes), times(r.median()), times(r.min()), times(r.max())),
		verdict:  verdict(r.median() <= 1.5),
		commands: cmds,
		note: fmt.Sprintf("the bundled synthetic has the dimensions %s only (memsym programs), so the 3^4 grid's recordings are bench/synth's synthetic with its width D ∈ {32, 64, 96} and a head count H ∈ {1, 2, 3} as dimensions too (scores [B, H, T, T]); "+
			"the 3×3 grid's are the bundled program's, byte for byte (bench/synth's tests check it); %s and %s bytes; wall time 3^4 %s, 3×3 %s",
			strings.Join(dims, " and "), thousands(files[1].Bytes), thousands(files[0].Bytes), cs[1].wall.describe(seconds), cs[0].wall.describe(seconds)),
	}}
}

// thousands writes n with thin spaces between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(' ')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
