package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// TestVerifyAll runs the M3 checks on every bundled program: no failure,
// three points checked on each program memsym models, and the programs it
// must refuse listed as refused; go test -update rewrites the golden.
func TestVerifyAll(t *testing.T) {
	out := mustRunCLI(t, "verify", "--all")
	golden(t, "verify/all.txt", []byte(out))

	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
		name, rest, _ := strings.Cut(line, " ")
		rows[name] = append(rows[name], strings.TrimSpace(rest))
	}
	checked, refused := 0, 0
	for _, p := range programs.All() {
		r := rows[p.Name]
		if p.Refusal != "" {
			refused++
			if len(r) != 1 || !strings.HasPrefix(r[0], "(grid)") || !strings.Contains(r[0], "refused as expected: ") {
				t.Errorf("%s, which memsym must refuse: %q", p.Name, r)
			}
			continue
		}
		if len(r) != 3 {
			t.Errorf("%s: %d rows, want 3 points: %q", p.Name, len(r), r)
		}
		for _, row := range r {
			checked++
			if !strings.HasSuffix(row, "  ok") {
				t.Errorf("%s: %s", p.Name, row)
			}
		}
	}
	want := fmt.Sprintf("%d programs: %d points checked, %d refused as expected, 0 failed\n", len(programs.All()), checked, refused)
	if !strings.HasSuffix(out, "\n"+want) {
		t.Errorf("the summary is not %q:\n%s", want, out)
	}
	if refused != 1 {
		t.Errorf("%d programs must be refused, want strided-conv", refused)
	}
}

// TestVerifyCatches: verify fails, exit 1, naming the point and what is
// wrong, when the recordings off the grid are not the model's program. The
// fake recorder's off-grid files are the course GPT at D = 64 while its grid
// is at D = 384.
func TestVerifyCatches(t *testing.T) {
	dir := t.TempDir()
	grid := [][3]int64{{16, 32, 48}, {256, 512, 768}}
	recordGrid(t, dir, grid[0][:], grid[1][:])
	for _, p := range defaultChecks(t, grid, []string{"B", "T"}) {
		recordGrid(t, dir, []int64{p[0].Value}, []int64{p[1].Value})
	}
	var points [][2]int64
	for _, p := range source.OffGrid(grid, []string{"B", "T"}, 2, 1, nil) {
		points = append(points, [2]int64{p[0].Value, p[1].Value})
		mustRunCLI(t, "record", "--program", "gpt-course", "--dim", fmt.Sprintf("B=%d", p[0].Value), "--dim", fmt.Sprintf("T=%d", p[1].Value),
			"-o", filepath.Join(dir, fmt.Sprintf("b%d-t%d.jsonl", p[0].Value, p[1].Value)))
	}
	t.Setenv("TMPDIR", t.TempDir())
	out, errs, code := runCLI("verify", "--recorder", fakeRecorder(t, dir), "--grid", "B=16,32,48", "--grid", "T=256,512,768", "--points", "2")
	if code != 1 || errs != "memsym: verify: 2 failures\n" {
		t.Errorf("exit %d, stderr %q; want exit 1 and 2 failures", code, errs)
	}
	for _, p := range points {
		at := fmt.Sprintf("B = %d, T = %d", p[0], p[1])
		if !strings.Contains(out, "recorder  "+at) || !strings.Contains(out, fmt.Sprintf("FAILED: recorder(B=%d,T=%d):", p[0], p[1])) {
			t.Errorf("the failure at %s is not shown:\n%s", at, out)
		}
	}
	if !strings.HasSuffix(out, "1 program: 2 points checked, 0 refused as expected, 2 failed\n") {
		t.Errorf("the summary:\n%s", out)
	}
	noLeftovers(t)
}

// noLeftovers fails if recording left a directory in os.TempDir.
func noLeftovers(t *testing.T) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(os.TempDir(), "memsym-recordings-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("left behind in %s: %v %v", os.TempDir(), left, err)
	}
}

// TestVerifyRefusalFollowsConstants: strided-conv is refused at its
// default stride, where its output length is not a polynomial in N, and
// modelled and checked at S = 1, where it is N − K + 1; with the refusal
// expected whatever the constants, the run at S = 1 fails.
func TestVerifyRefusalFollowsConstants(t *testing.T) {
	out := mustRunCLI(t, "verify", "--program", "strided-conv", "--const", "S=1")
	if !strings.HasSuffix(out, "1 program: 3 points checked, 0 refused as expected, 0 failed\n") || strings.Contains(out, "FAILED") {
		t.Errorf("strided-conv at S = 1:\n%s", out)
	}
	for _, s := range []string{"S=2", "S=3"} {
		out := mustRunCLI(t, "verify", "--program", "strided-conv", "--const", s)
		if !strings.HasSuffix(out, "1 program: 0 points checked, 1 refused as expected, 0 failed\n") {
			t.Errorf("strided-conv at %s:\n%s", s, out)
		}
	}
}

// defaultChecks is source.DefaultChecks's two points for a test's grid.
func defaultChecks(t *testing.T, grid [][3]int64, vars []string) []record.Point {
	t.Helper()
	points, err := source.DefaultChecks(grid, vars, 2)
	if err != nil {
		t.Fatal(err)
	}
	return points
}

// A program with a limit is checked where it runs: bert-encoder at P = 200
// takes T ≤ 200, and verify and explain's M3 runs check it there, not at
// T = 300, which they used to record, fail to, and blame the model for.
func TestVerifyWithinTheProgramsLimits(t *testing.T) {
	out := mustRunCLI(t, "verify", "--program", "bert-encoder", "--const", "P=200", "--points", "6")
	if !strings.HasSuffix(out, "1 program: 6 points checked, 0 refused as expected, 0 failed\n") {
		t.Errorf("verify:\n%s", out)
	}
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--const", "P=200", "--format", "md", "-o", filepath.Join(dir, "ex"))

	// Where it runs on the grid's values alone (T ≤ 3 on T ∈ {1, 2, 3}),
	// nothing is checked, and that is no pass (before: "0 points checked",
	// exit 0; the chapter said M3 "was not asked for").
	out, _, code := runCLI("verify", "--program", "bert-encoder", "--const", "P=3", "--grid", "T=1,2,3")
	if code != 1 || !strings.Contains(out, "FAILED: no point off the grid was found where the program runs, so none was checked") {
		t.Errorf("verify with no point to check: exit %d:\n%s", code, out)
	}
	ex := filepath.Join(dir, "ex3")
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--const", "P=3", "--grid", "T=1,2,3", "--at", "B=2,T=3", "--format", "md", "-o", ex)
	md, err := os.ReadFile(filepath.Join(ex, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "was not run: no point off the grid was found where the program runs; a grid with room beside it (--grid) gives some.") {
		t.Errorf("the chapter does not say why M3 checked nothing:\n%s", md)
	}
}
