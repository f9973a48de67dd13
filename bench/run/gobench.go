package main

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// goBench runs one Go benchmark runs times in pkg and returns, per run, the
// value it reported in unit ("ns/op", "MB/s", "ns/vector"), and the command.
func (h *harness) goBench(ctx context.Context, pkg, name, unit string) (sample, string, error) {
	s, cmd, err := h.goBenchUnits(ctx, pkg, name, unit)
	if err != nil {
		return nil, cmd, err
	}
	return s[0], cmd, nil
}

// goBenchUnits is goBench for several units, its samples aligned with units.
func (h *harness) goBenchUnits(ctx context.Context, pkg, name string, units ...string) ([]sample, string, error) {
	args := []string{"test", "-run", "^$", "-bench", "^" + name + "$", "-count", strconv.Itoa(h.runs), pkg}
	shown := "go " + strings.Join(quoteArgs(args), " ")
	h.logf("%s", shown)
	cmd := exec.CommandContext(ctx, h.goCmd, args...)
	cmd.Dir = h.root
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, shown, fmt.Errorf("%s: %v: %s%s", shown, err, tail(out), stderr.String())
	}
	var all []sample
	for _, unit := range units {
		s, err := parseBench(string(out), name, unit)
		if err != nil {
			return nil, shown, fmt.Errorf("%s: %v", shown, err)
		}
		if len(s) != h.runs {
			return nil, shown, fmt.Errorf("%s: %d results of %s, expected %d", shown, len(s), name, h.runs)
		}
		all = append(all, s)
	}
	return all, shown, nil
}

// parseBench reads the values in unit of the benchmark name from go test's
// output, one per line that reports it ("BenchmarkPrune-2  5  7339 ns/op").
func parseBench(out, name, unit string) (sample, error) {
	var s sample
	sc := bufio.NewScanner(strings.NewReader(out))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || (f[0] != name && !strings.HasPrefix(f[0], name+"-")) {
			continue
		}
		found := false
		for i := 3; i < len(f); i += 2 {
			if f[i] != unit {
				continue
			}
			x, err := strconv.ParseFloat(f[i-1], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q is not a number of %s", n, f[i-1], unit)
			}
			s = append(s, x)
			found = true
		}
		if !found {
			return nil, fmt.Errorf("line %d: %s reports no %s", n, name, unit)
		}
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("no result of %s in the output", name)
	}
	return s, nil
}

func tail(b []byte) string {
	if len(b) > 2048 {
		b = b[len(b)-2048:]
	}
	return string(b)
}

// quoteArgs quotes the arguments a shell would split or expand.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " $^*?'\"\\|&;<>(){}") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}
