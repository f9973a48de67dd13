package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
pkg: memsym/bench/vectors
BenchmarkBuild-2   	      20	 208938162 ns/op	     20894 ns/vector	99616642 B/op	 1862779 allocs/op
BenchmarkBuildFiles-2   	      20	 1 ns/op	     7 ns/vector
BenchmarkBuild-2   	       3	 453901530 ns/op	     45390.5 ns/vector	99616482 B/op	 1862779 allocs/op
BenchmarkScan    	       7	 154618817 ns/op	 156.94 MB/s
PASS
`
	tests := []struct {
		name, unit string
		want       []float64
		err        string
	}{
		{"BenchmarkBuild", "ns/vector", []float64{20894, 45390.5}, ""},
		{"BenchmarkBuild", "ns/op", []float64{208938162, 453901530}, ""},
		{"BenchmarkScan", "MB/s", []float64{156.94}, ""},
		{"BenchmarkScan", "ns/vector", nil, "line 6: BenchmarkScan reports no ns/vector"},
		{"BenchmarkPrune", "ns/op", nil, "no result of BenchmarkPrune in the output"},
	}
	for _, tt := range tests {
		got, err := parseBench(out, tt.name, tt.unit)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s %s: error %v, want %q", tt.name, tt.unit, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tt.name, tt.unit, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s %s: %v, want %v", tt.name, tt.unit, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s %s: %v, want %v", tt.name, tt.unit, got, tt.want)
			}
		}
	}
}

func TestSample(t *testing.T) {
	tests := []struct {
		s                sample
		median, min, max float64
	}{
		{sample{3}, 3, 3, 3},
		{sample{5, 1, 4, 2, 3}, 3, 1, 5},
		{sample{4, 1, 3, 2}, 2.5, 1, 4},
	}
	for _, tt := range tests {
		if m := tt.s.median(); m != tt.median {
			t.Errorf("median of %v = %v, want %v", tt.s, m, tt.median)
		}
		if tt.s.min() != tt.min || tt.s.max() != tt.max {
			t.Errorf("range of %v = %v–%v, want %v–%v", tt.s, tt.s.min(), tt.s.max(), tt.min, tt.max)
		}
	}
	s := sample{5, 1, 4, 2, 3}
	s.median()
	if s[0] != 5 {
		t.Errorf("median sorted its sample in place: %v", s)
	}
	if got, want := (sample{0.031, 0.029, 0.040}).describe(seconds), "31 ms (median of 3, 29 ms–40 ms)"; got != want {
		t.Errorf("describe: %q, want %q", got, want)
	}
	if got := ratios(sample{3, 10}, sample{2, 4}); got[0] != 1.5 || got[1] != 2.5 {
		t.Errorf("ratios: %v", got)
	}
}

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{seconds(2.345), "2.35 s"},
		{seconds(0.0314), "31.4 ms"},
		{seconds(20.9e-6), "20.9 µs"},
		{seconds(3e-8), "30 ns"},
		{megabytes(7_692_288), "7.7 MB"},
		{rate(156.94e6), "157 MB/s"},
		{times(1.234), "1.23×"},
		{times(10400.4), "10400×"},
		{thousands(1000000), "1 000 000"},
		{thousands(999), "999"},
		{thousands(-12345), "-12 345"},
		{strings.Join(quoteArgs([]string{"test", "-run", "^$", "a b", "it's"}), " "), `test -run '^$' 'a b' 'it'\''s'`},
		{memsymCmd{"symbolic", "--check", "/t/c.jsonl", "/t/g/1.jsonl", "/t/g/2.jsonl", "/t/g/3.jsonl"}.abbrev(), "memsym symbolic --check /t/c.jsonl <3 recordings in /t/g>"},
		{memsymCmd{"validate", "/t/g/1.jsonl", "/t/g/2.jsonl", "/t/g/3.jsonl"}.abbrev(), "memsym validate <3 recordings in /t/g>"},
		{memsymCmd{"symbolic", "--check", "/t/c.jsonl", "/t/g/1.jsonl", "/t/g/2.jsonl"}.abbrev(), "memsym symbolic --check /t/c.jsonl /t/g/1.jsonl /t/g/2.jsonl"},
		{cell("a|b\nc"), `a\|b c`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}

func TestSelected(t *testing.T) {
	all, err := selected("")
	if err != nil || len(all) != len(measures) {
		t.Fatalf("selected(\"\") = %v, %v", all, err)
	}
	for name, on := range all {
		if !on {
			t.Errorf("%s not selected by default", name)
		}
	}
	some, err := selected("sympy,prune")
	if err != nil || !some["sympy"] || !some["prune"] || some["files"] {
		t.Errorf("selected(sympy,prune) = %v, %v", some, err)
	}
	if _, err := selected("sympy,nope"); err == nil || !strings.Contains(err.Error(), `no measure "nope"`) {
		t.Errorf("selected(nope): %v", err)
	}
}

func TestRunCommand(t *testing.T) {
	u, err := runCommand(context.Background(), ".", "sh", "-c", "echo hello")
	if err != nil {
		t.Fatal(err)
	}
	if u.maxRSS <= 0 || u.wall <= 0 {
		t.Errorf("usage %+v: expected a peak RSS and a wall time", u)
	}
	_, err = runCommand(context.Background(), ".", "sh", "-c", "echo it went wrong >&2; exit 3")
	if err == nil || !strings.Contains(err.Error(), "exit status 3: it went wrong") {
		t.Errorf("error %v, want the exit status and the end of stderr", err)
	}
}

func TestReport(t *testing.T) {
	h := &harness{goCmd: "go", runs: 5, ops: 1000, ops4: 100, tmp: "/tmp/x", memsym: "/tmp/x/memsym"}
	rows := []row{
		{measure: "a", target: "≤ 1 s", measured: "0.5 s", verdict: "met", commands: []string{"/tmp/x/memsym symbolic /tmp/x/f.jsonl"}},
		{measure: "b", target: "≥ 2×", measured: "—", verdict: "skipped", note: "no python at /tmp/x"},
	}
	got := report(h, rows, "1.00, 2.00, 3.00", "4.00, 5.00, 6.00")
	for _, want := range []string{
		"| a | ≤ 1 s | 0.5 s | met |\n| b | ≥ 2× | — | skipped |\n",
		"- b: no python at $TMP\n",
		"    memsym symbolic $TMP/f.jsonl\n",
		"1.00, 2.00, 3.00 before, 4.00, 5.00, 6.00 after",
		"runs of each measure: 5; the synthetic program at 1 000 operations on the 3×3 grid, 100 on the 3^4 grid",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
}

func TestRunExpecting(t *testing.T) {
	ctx := context.Background()
	if _, err := runExpecting(ctx, "cannot be interpolated", ".", "sh", "-c", "echo it cannot be interpolated >&2; exit 1"); err != nil {
		t.Errorf("a refusal as expected: %v", err)
	}
	for _, script := range []string{"echo fine", "echo something else >&2; exit 1"} {
		if _, err := runExpecting(ctx, "cannot be interpolated", ".", "sh", "-c", script); err == nil {
			t.Errorf("%q: no error, want one (it must fail saying the refusal)", script)
		}
	}
}

func TestRelabelHalfway(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprintf(`{"buffer": %d, "bytes": 8}`, i+1), fmt.Sprintf(`{"op": "Op.apply", "reads": [], "writes": [%d]}`, i+1))
	}
	if err := os.WriteFile(src, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := relabelHalfway(src, dst); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	changed := 0
	for i := range lines {
		if out[i] != lines[i] {
			changed++
			if i < len(lines)/2 || out[i] != strings.Replace(lines[i], `"op": "`, `"op": "Other`, 1) {
				t.Errorf("line %d: %s, from %s", i+1, out[i], lines[i])
			}
		}
	}
	if changed != 1 || len(out) != len(lines) {
		t.Errorf("%d lines changed of %d (%d written), want 1", changed, len(lines), len(out))
	}
	if err := relabelHalfway(filepath.Join(dir, "none.jsonl"), dst); err == nil {
		t.Error("no error for a missing file")
	}
}

// TestWriteProfile runs the harness's -pgo mode on a small synthetic
// program: memsym built to profile itself, its runs profiled and merged
// into one profile that Go's builds can read, and nothing measured.
func TestWriteProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memsym and runs it nine times")
	}
	out := filepath.Join(t.TempDir(), "default.pgo")
	var stdout, stderr strings.Builder
	if err := run(context.Background(), &stdout, &stderr, []string{"-pgo", out, "-only", "files"}); err == nil || !strings.Contains(err.Error(), "-only does not go with it") {
		t.Errorf("-pgo with -only: %v, want a refusal", err)
	}
	if err := run(context.Background(), &stdout, &stderr, []string{"-runs", "1", "-ops", "200", "-pgo", out}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("-pgo printed a report: %q", stdout.String())
	}
	for _, want := range []string{"-tags memsym_cpuprofile -pgo off", "profile 3 of 3: memsym explain", "3 profiles merged"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, stderr.String())
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// A profile is gzipped protocol buffers, which pprof reads back: a
	// CPU profile with samples (the runs take some 100 ms of CPU, sampled
	// every 10 ms). Go's builds read cmd/memsym/default.pgo itself in every
	// test of cmd/memsym.
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("%s is not gzipped (%d bytes)", out, len(data))
	}
	raw, err := exec.Command("go", "tool", "pprof", "-raw", out).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -raw: %v\n%s", err, raw)
	}
	if !regexp.MustCompile(`(?m)^PeriodType: cpu nanoseconds$`).Match(raw) || !regexp.MustCompile(`(?m)^Samples:\n.*\n +[1-9][0-9]* +[0-9]+: `).Match(raw) {
		t.Errorf("not a CPU profile with samples:\n%s", raw)
	}
}
