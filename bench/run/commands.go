package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// costs are what each of several runs of one command cost.
type costs struct {
	wall, cpu, rss sample // seconds, seconds, bytes
}

func (c *costs) add(u usage) {
	c.wall = append(c.wall, u.wall.Seconds())
	c.cpu = append(c.cpu, u.cpu.Seconds())
	c.rss = append(c.rss, float64(u.maxRSS))
}

// memsymCmd is one memsym command line.
type memsymCmd []string

func (c memsymCmd) String() string { return "memsym " + strings.Join(quoteArgs(c), " ") }

// abbrev writes c with its trailing files of one directory, when there are
// more than two, as their count and directory: for logs and the report. A
// file right after a flag (--check FILE) stays.
func (c memsymCmd) abbrev() string {
	if len(c) == 0 {
		return c.String()
	}
	dir := filepath.Dir(c[len(c)-1])
	i := len(c)
	for i > 0 && filepath.Dir(c[i-1]) == dir && (i < 2 || !strings.HasPrefix(c[i-2], "-")) {
		i--
	}
	if len(c)-i <= 2 {
		return c.String()
	}
	return memsymCmd(c[:i]).String() + fmt.Sprintf(" <%d recordings in %s>", len(c)-i, dir)
}

// run runs memsym with c's arguments once from the module's root.
func (h *harness) run(ctx context.Context, c memsymCmd) (usage, error) {
	return runCommand(ctx, h.root, h.memsym, c...)
}

// repeat runs each command once per run, in turn, so that a ratio between
// them is taken under the same load; before, if not nil, runs untimed ahead
// of each run (to empty a directory an earlier run wrote).
func (h *harness) repeat(ctx context.Context, before func(), cmds ...memsymCmd) ([]costs, error) {
	out := make([]costs, len(cmds))
	for r := range h.runs {
		for i, c := range cmds {
			if before != nil {
				before()
			}
			u, err := h.run(ctx, c)
			if err != nil {
				return nil, err
			}
			out[i].add(u)
			h.logf("run %d of %d: %s: %.3f s wall, %.3f s CPU, %s", r+1, h.runs, h.shown(c.abbrev()), u.wall.Seconds(), u.cpu.Seconds(), megabytes(float64(u.maxRSS)))
		}
	}
	return out, nil
}

// argv returns c as a command line of the built memsym.
func (h *harness) argv(c memsymCmd) []string { return append([]string{h.memsym}, c...) }

// repeatArgs is repeat for any command lines, their output discarded.
func (h *harness) repeatArgs(ctx context.Context, argvs [][]string) ([]costs, error) {
	return h.repeatExpecting(ctx, argvs, make([]string, len(argvs)))
}

// repeatExpecting is repeatArgs where the command line argvs[i] must fail
// saying refusals[i], when that is not empty (runExpecting).
func (h *harness) repeatExpecting(ctx context.Context, argvs [][]string, refusals []string) ([]costs, error) {
	out := make([]costs, len(argvs))
	for r := range h.runs {
		for i, a := range argvs {
			u, err := runExpecting(ctx, refusals[i], h.root, a[0], a[1:]...)
			if err != nil {
				return nil, err
			}
			out[i].add(u)
			h.logf("run %d of %d: %s: %.3f s wall, %.3f s CPU, %s", r+1, h.runs, h.shown(abbrevArgs(a)), u.wall.Seconds(), u.cpu.Seconds(), megabytes(float64(u.maxRSS)))
		}
	}
	return out, nil
}

// abbrevArgs writes a command line for the log, its files counted.
func abbrevArgs(a []string) string {
	if len(a) > 4 {
		return fmt.Sprintf("%s %s … (%d arguments)", a[0], a[1], len(a)-1)
	}
	return strings.Join(a, " ")
}

// warmUp runs c once, untimed, so that the timed runs find the binary and
// what it reads in the page cache, as a user's second run would.
func (h *harness) warmUp(ctx context.Context, c memsymCmd) error {
	h.logf("warm-up: %s", h.shown(c.abbrev()))
	_, err := h.run(ctx, c)
	return err
}

// timed runs c once untimed, then h.runs times, before before each run if
// not nil, and returns what the runs cost.
func (h *harness) timed(ctx context.Context, before func(), c memsymCmd) (costs, error) {
	if err := h.warmUp(ctx, c); err != nil {
		return costs{}, err
	}
	cs, err := h.repeat(ctx, before, c)
	if err != nil {
		return costs{}, err
	}
	return cs[0], nil
}

// shownAll returns the commands as the report shows them.
func shownAll(cmds ...memsymCmd) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.String())
	}
	return out
}

// fileBytes returns the files' total size.
func fileBytes(paths []string) (int64, error) {
	var n int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		n += st.Size()
	}
	return n, nil
}

// symbolicFiles is `memsym symbolic --check CHECK GRID...`.
func symbolicFiles(check string, grid []string) memsymCmd {
	return append(memsymCmd{"symbolic", "--check", check}, grid...)
}

// recordSynthetic is `memsym record` of the bundled synthetic at one point.
func recordSynthetic(dir string, ops int64, b, t int64) (memsymCmd, string) {
	path := filepath.Join(dir, "B"+strconv.FormatInt(b, 10)+"_T"+strconv.FormatInt(t, 10)+".jsonl")
	return memsymCmd{"record", "--program", "synthetic", "--dim", "B=" + strconv.FormatInt(b, 10), "--dim", "T=" + strconv.FormatInt(t, 10),
		"--const", "N=" + strconv.FormatInt(ops, 10), "-o", path}, path
}
