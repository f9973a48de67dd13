package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"memsym/interp"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "verify",
		short: "check symbolic models against fresh recordings off the grid (the M3 runs)",
		run:   verifyCmd,
	})
}

const verifyUsage = `[--program NAME | --all | --recorder CMD --grid ...] [--points 3] [--seed 1]

For each program, builds its symbolic model on its grid, then records it at
--points more assignments, off the grid in every coordinate and spread from
small to large, and checks exactly: every buffer's bytes, the inputs, the
outputs, the live bytes at every operation and the peak (its value and its
operation). Programs that memsym must refuse are counted as expected when it
does. Exits non-zero on any mismatch.
`

func verifyCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("verify", verifyUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	all := fs.Bool("all", false, "verify every bundled program")
	npoints := fs.Int("points", 3, "how many `n` assignments to check per program")
	seed := fs.Uint64("seed", 1, "the `seed` choosing the assignments")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("verify takes no files: it records new points with --program, --all or --recorder")
	}
	if *npoints < 1 {
		return usagef("--points must be at least 1")
	}
	if len(sf.checks) > 0 {
		return usagef("verify chooses its own points: drop --check")
	}
	var runs []*sourceFlags
	switch {
	case *all && (sf.program != "" || sf.recorder != ""):
		return usagef("give --all, --program or --recorder, not more than one")
	case *all:
		if len(sf.consts) > 0 || len(sf.grid) > 0 {
			return usagef("--const and --grid go with one --program, not with --all")
		}
		for _, p := range programs.All() {
			runs = append(runs, &sourceFlags{program: p.Name, timeout: sf.timeout})
		}
	case sf.program != "" || sf.recorder != "":
		runs = append(runs, &sf)
	default:
		return usagef("verify needs --program NAME, --all or --recorder COMMAND")
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "program\tpoint\tresult\n")
	var checked, refused, failed int
	for _, run := range runs {
		name := run.program
		if name == "" {
			name = "recorder"
		}
		var expected string
		if run.program != "" {
			p, err := programs.Lookup(run.program)
			if err != nil {
				return usagef("%v", err)
			}
			expected = p.Refusal
		}
		m, err := buildModel(run, nil, stderr)
		if err != nil {
			if _, bad := err.(*usageError); bad {
				return err
			}
			if expected != "" {
				refused++
				fmt.Fprintf(tw, "%s\t(grid)\trefused as expected: %s\n", name, oneLine(err))
				continue
			}
			failed++
			fmt.Fprintf(tw, "%s\t(grid)\tFAILED: %s\n", name, oneLine(err))
			continue
		}
		if expected != "" {
			failed++
			fmt.Fprintf(tw, "%s\t(grid)\tFAILED: modelled, but memsym must refuse it: %s\n", name, expected)
			continue
		}
		for _, pt := range offGridPoints(m.Grid, *npoints, *seed) {
			point := make([]record.Dim, len(m.Vars))
			for i, v := range m.Vars {
				point[i] = record.Dim{Name: v, Value: pt[i]}
			}
			checked++
			if err := verifyPoint(run, m, point); err != nil {
				failed++
				fmt.Fprintf(tw, "%s\t%s\tFAILED: %s\n", name, record.PointString(point), oneLine(err))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\tok\n", name, record.PointString(point))
		}
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%s: %d points checked, %d refused as expected, %d failed\n",
		plural(len(runs), "program", "programs"), checked, refused, failed)
	if failed > 0 {
		return fmt.Errorf("verify: %s", plural(failed, "failure", "failures"))
	}
	return nil
}

// verifyPoint records the program at point and checks the model there: every
// buffer, the inputs, the outputs, the live bytes at every operation, and the
// peak's value and operation.
func verifyPoint(sf *sourceFlags, m *model, point []record.Dim) error {
	rec, err := recordAt(sf, point)
	if err != nil {
		return err
	}
	maker := sf.program // named as the grid's recordings are
	if maker == "" {
		maker = "recorder"
	}
	src := interp.Source{Name: sourceName(maker, point), Open: func() (record.Stream, error) { return rec.Replay(), nil }}
	if err := m.Check(src); err != nil {
		return err
	}
	counts := record.Count(rec)
	at := pointMap(point)
	// The peak's operation: the first whose live bytes, by the model, reach
	// the largest of the kept candidates.
	var top poly.Rat
	for _, i := range m.front.Kept {
		v, err := m.cands[i].Poly.EvalInt(at)
		if err != nil {
			return err
		}
		if v.Cmp(top) > 0 {
			top = v
		}
	}
	if !top.Equal(counts.Peak) {
		return fmt.Errorf("the largest kept candidate gives %s bytes, the recorded peak is %s", top, counts.Peak)
	}
	values := make(map[int32]poly.Rat)
	for op := 1; op <= len(m.LiveAt); op++ {
		c := m.LiveAt[op-1]
		v, ok := values[c]
		if !ok {
			v, _ = m.Candidates[c].Poly.EvalInt(at)
			values[c] = v
		}
		if v.Equal(top) {
			if op != counts.PeakOp {
				return fmt.Errorf("the model puts the peak at operation %d, the recording at operation %d", op, counts.PeakOp)
			}
			return nil
		}
	}
	return fmt.Errorf("no operation's live bytes reach the peak %s bytes", top)
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

// offGridPoints chooses n points, deterministically from seed, off every grid
// value in every coordinate and spread from small to large: below the middle
// grid value, between the outer ones, above the largest, then again.
func offGridPoints(grid [][]int64, n int, seed uint64) [][]int64 {
	rng := rand.New(rand.NewPCG(seed, 0x6d656d73796d))
	points := make([][]int64, n)
	for i := range points {
		p := make([]int64, len(grid))
		for d, g := range grid {
			ranges := [][2]int64{{1, g[1] - 1}, {g[0] + 1, g[2] - 1}, {g[2] + 1, 2 * g[2]}}
			r := ranges[i%3]
			p[d] = pickOff(rng, r[0], r[1], g)
			if p[d] == 0 {
				p[d] = pickOff(rng, g[2]+1, 2*g[2]+2, g)
			}
		}
		points[i] = p
	}
	return points
}

// pickOff picks a value in [lo, hi] that is no grid value, or 0 if there is
// none.
func pickOff(rng *rand.Rand, lo, hi int64, grid []int64) int64 {
	if lo < 1 {
		lo = 1
	}
	for try := 0; try < 16 && lo <= hi; try++ {
		x := lo + rng.Int64N(hi-lo+1)
		if x != grid[0] && x != grid[1] && x != grid[2] {
			return x
		}
	}
	for x := lo; x <= hi; x++ {
		if x != grid[0] && x != grid[1] && x != grid[2] {
			return x
		}
	}
	return 0
}
