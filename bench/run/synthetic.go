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
// 3×3 grid and at its check point with memsym record, then runs by turns,
// on the same files: cat (the floor: reading them), bench/scanonly (the
// Scanner alone, one record at a time), memsym validate (checking them as
// a stream) and memsym symbolic, so that each ratio is taken between runs
// made one after the other; then memsym symbolic refusing the grid with one
// operation changed (syntheticRefusal).
func (h *harness) syntheticFiles(ctx context.Context) []row {
	what := fmt.Sprintf("synthetic, %s operations, 3×3 grid of recordings in files", thousands(h.ops))
	ratioMeasure := what + ": `memsym symbolic` against `cat` of the same files (the floor), wall time"
	dir := filepath.Join(h.tmp, "grid3")
	defer os.RemoveAll(dir)
	gen, grid, check, err := h.recordGrid3(ctx, dir)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 4×", shownAll(gen...), err)}
	}
	all := append(append([]string(nil), grid...), check)
	size, err := fileBytes(all)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 4×", shownAll(gen...), err)}
	}
	cat := append([]string{"cat"}, all...)
	scan := append([]string{h.scanonly}, all...)
	val := append(memsymCmd{"validate"}, all...)
	sym := symbolicFiles(check, grid)
	argv := [][]string{cat, scan, h.argv(val), h.argv(sym)}
	cmds := append(shownAll(gen...), shownCmd(cat)+" > /dev/null", "bench/scanonly "+strings.Join(all, " "), val.String(), sym.String())
	cs, err := h.repeatArgs(ctx, argv)
	if err != nil {
		return []row{failed(ratioMeasure, "≤ 4×", cmds, err)}
	}
	c, sc, v, sy := cs[0], cs[1], cs[2], cs[3]
	perCPU := func(k costs) sample {
		out := make(sample, len(k.cpu))
		for i := range k.cpu {
			out[i] = float64(size) / k.cpu[i]
		}
		return out
	}
	symCat, symScan, cores := ratios(sy.wall, c.wall), ratios(sy.wall, sc.wall), ratios(sy.cpu, sy.wall)
	files := fmt.Sprintf("%d files (9 on the grid, 1 to check), %s bytes", len(all), thousands(size))
	return append([]row{{
		measure:  ratioMeasure,
		target:   "≤ 4×",
		measured: fmt.Sprintf("symbolic %s, cat %s: %s (%s–%s, run by run)", sy.wall.describe(seconds), c.wall.describe(seconds), times(symCat.median()), times(symCat.min()), times(symCat.max())),
		verdict:  verdict(symCat.median() <= 4),
		commands: cmds,
		note: fmt.Sprintf("%s; CPU time symbolic %s, cat %s; symbolic against bench/scanonly (the Scanner alone, one core) %s (%s–%s), scanonly %s wall",
			files, sy.cpu.describe(seconds), c.cpu.describe(seconds), times(symScan.median()), times(symScan.min()), times(symScan.max()), sc.wall.describe(seconds)),
	}, {
		measure:  what + ": `memsym symbolic`'s peak RSS",
		target:   "≤ 600 MB",
		measured: sy.rss.describe(megabytes),
		verdict:  verdict(sy.rss.median() <= 600e6),
		commands: []string{sym.String()},
	}, {
		measure:  what + ": `memsym symbolic`'s CPU time over its wall time (both cores used end to end)",
		target:   "≥ 1.5 on 2 cores",
		measured: cores.describe(func(x float64) string { return fmt.Sprintf("%.2f", x) }),
		verdict:  verdict(cores.median() >= 1.5),
		commands: []string{sym.String()},
		note:     "a machine busy with other work lowers it: the wall time then includes waiting for a CPU",
	}, {
		measure:  "parsing: bench/scanonly (`record.Scanner` alone) over those files, bytes per CPU second",
		target:   "— (the Scanner's floor on files)",
		measured: perCPU(sc).describe(rate),
		verdict:  "—",
		commands: []string{"bench/scanonly " + strings.Join(all, " ")},
	}, {
		measure:  "checking: `memsym validate` over those files, bytes per CPU second",
		target:   "≥ 300 MB/s per core",
		measured: perCPU(v).describe(rate),
		verdict:  verdict(perCPU(v).median() >= 300e6),
		commands: []string{val.String()},
		note:     fmt.Sprintf("%s bytes over the CPU time (user and system, the collector's threads included)", thousands(size)),
	}, {
		measure:  "checking: `memsym validate`'s peak RSS over those files",
		target:   "a stream: ≤ 150 MB, whatever the files' size",
		measured: v.rss.describe(megabytes),
		verdict:  verdict(v.rss.median() <= 150e6),
		commands: []string{val.String()},
	}}, h.syntheticRefusal(ctx, grid, check)...)
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
