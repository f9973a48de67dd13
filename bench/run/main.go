// Command run measures memsym against the targets of its performance
// issue and prints the table BENCHMARKS.md keeps: each measure, its target,
// the median of several runs with their range, and a verdict.
//
// It builds memsym once, runs the Go benchmarks it needs, times memsym's
// commands end to end (wall time, CPU time, peak resident set), writes the
// synthetic program's recordings into a temporary directory, which it
// removes, and runs the SymPy peer when python3 has SymPy. `make bench` runs
// it from the module's root:
//
//	go run ./bench/run [-runs 5] [-ops 1000000] [-ops4 100000] [-only llama,sympy,...]
//
// With -pgo FILE it measures nothing: it writes to FILE the CPU profile by
// which Go optimizes memsym's builds (`make pgo` writes
// cmd/memsym/default.pgo), from runs of memsym built to profile itself
// (writeProfile).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
)

// harness is one bench run's settings and scratch space.
type harness struct {
	root     string // the module's root, where go commands run
	goCmd    string
	python   string
	runs     int
	ops      int64 // the synthetic program's operations on the 3×3 grid
	ops4     int64 // and on the 3^4 grid
	tmp      string
	memsym   string // the binary built for this run
	scanonly string // and bench/scanonly's
	log      io.Writer
}

func (h *harness) logf(format string, args ...any) {
	fmt.Fprintf(h.log, "bench: "+format+"\n", args...)
}

// measures are the table's rows in order, each by the name -only takes.
var measures = []struct {
	name string
	run  func(*harness, context.Context) []row
}{
	{"llama", (*harness).llamaSymbolic},
	{"sympy", (*harness).sympyPeer},
	{"files", (*harness).syntheticFiles},
	{"program", (*harness).syntheticProgram},
	{"grid4", (*harness).syntheticGrid4},
	{"prune", (*harness).prune},
	{"explain", (*harness).explain},
	{"scan", (*harness).scan},
	{"place", (*harness).place},
	{"step", (*harness).step},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	h := &harness{log: stderr}
	fs.StringVar(&h.goCmd, "go", "go", "the go `command`")
	fs.StringVar(&h.python, "python", "python3", "the `python` that runs bench/sympy_interp.py")
	fs.IntVar(&h.runs, "runs", 5, "runs of each measure")
	fs.Int64Var(&h.ops, "ops", 1_000_000, "the synthetic program's operations on the 3×3 grid")
	fs.Int64Var(&h.ops4, "ops4", 100_000, "the synthetic program's operations on the 3^4 grid and the 3×3 grid it is compared with")
	only := fs.String("only", "", "run only these `measures`, comma-separated: "+measureNames())
	pgo := fs.String("pgo", "", "measure nothing: write the CPU profile of memsym's usual runs to `file`, for profile-guided optimization")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || h.runs < 1 || h.ops < 5 || h.ops4 < 5 {
		return fmt.Errorf("usage: run [-runs N >= 1] [-ops N >= 5] [-ops4 N >= 5] [-only names]")
	}
	if *pgo != "" && *only != "" {
		return fmt.Errorf("-pgo measures nothing: -only does not go with it")
	}
	want, err := selected(*only)
	if err != nil {
		return err
	}
	if h.root, err = moduleRoot(ctx, h.goCmd); err != nil {
		return err
	}
	if h.tmp, err = os.MkdirTemp("", "memsym-bench-"); err != nil {
		return err
	}
	defer os.RemoveAll(h.tmp)

	h.memsym = filepath.Join(h.tmp, "memsym")
	h.scanonly = filepath.Join(h.tmp, "scanonly")
	builds := []struct {
		out, pkg string
		flags    []string
	}{{h.memsym, "./cmd/memsym", nil}, {h.scanonly, "./bench/scanonly", nil}}
	if *pgo != "" {
		// The profile is of memsym as built without one, able to profile
		// itself; nothing else is built.
		builds = builds[:1]
		builds[0].flags = []string{"-tags", "memsym_cpuprofile", "-pgo", "off"}
	}
	for _, b := range builds {
		flags := append([]string{"build"}, b.flags...)
		h.logf("go %s -o %s %s", strings.Join(flags, " "), filepath.Base(b.out), b.pkg)
		build := exec.CommandContext(ctx, h.goCmd, append(flags, "-o", b.out, b.pkg)...)
		build.Dir, build.Stdout, build.Stderr = h.root, stderr, stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build %s: %v", b.pkg, err)
		}
	}
	if *pgo != "" {
		return h.writeProfile(ctx, *pgo)
	}

	before := loadAverage()
	var rows []row
	for _, m := range measures {
		if want[m.name] {
			rows = append(rows, m.run(h, ctx)...)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	fmt.Fprint(stdout, report(h, rows, before, loadAverage()))
	return nil
}

func measureNames() string {
	var names []string
	for _, m := range measures {
		names = append(names, m.name)
	}
	return strings.Join(names, ",")
}

// selected returns the measures named in list, or all of them.
func selected(list string) (map[string]bool, error) {
	want := map[string]bool{}
	for _, m := range measures {
		want[m.name] = list == ""
	}
	if list == "" {
		return want, nil
	}
	for _, name := range strings.Split(list, ",") {
		if _, ok := want[name]; !ok {
			return nil, fmt.Errorf("-only: no measure %q: expected some of %s", name, measureNames())
		}
		want[name] = true
	}
	return want, nil
}

// moduleRoot returns the directory of the go.mod that holds memsym.
func moduleRoot(ctx context.Context, goCmd string) (string, error) {
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside memsym's module: run from its root, as make bench does")
	}
	return filepath.Dir(mod), nil
}
