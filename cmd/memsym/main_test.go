package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestMain lets a test run memsym as a process of its own: the test binary,
// run with MEMSYM_TEST_MAIN=1, is memsym.
func TestMain(m *testing.M) {
	if os.Getenv("MEMSYM_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// runProcess runs memsym with args as a new process and returns its stdout;
// it fails the test unless memsym succeeds.
func runProcess(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MEMSYM_TEST_MAIN=1")
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil || errs.Len() > 0 {
		t.Fatalf("memsym %s: %v, stderr:\n%s", strings.Join(args, " "), err, errs.String())
	}
	return out.String()
}

// runCLI runs memsym in process with args and returns what it wrote to
// stdout and stderr and its exit code, as main would exit.
func runCLI(args ...string) (stdout, stderr string, code int) {
	var out, errs bytes.Buffer
	code = exitCode(run(&out, &errs, args), &errs)
	return out.String(), errs.String(), code
}

// mustRunCLI runs memsym with args and fails the test unless it succeeds
// without a word on stderr; it returns stdout.
func mustRunCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runCLI(args...)
	if code != 0 || errs != "" {
		t.Fatalf("memsym %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, errs)
	}
	return out
}

// commandNames returns the registered commands' names, sorted.
func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		out := mustRunCLI(t, args...)
		for _, n := range commandNames() {
			if !strings.Contains(out, "\n  "+n+" ") {
				t.Errorf("%v does not list %s:\n%s", args, n, out)
			}
		}
	}
	// Without a command: the list, on stderr, and bad usage.
	out, errs, code := runCLI()
	if code != 2 || out != "" || !strings.Contains(errs, "Usage: memsym <command>") {
		t.Errorf("no command: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// Every command's -h: its usage on stderr, and success.
	for _, n := range commandNames() {
		out, errs, code := runCLI(n, "-h")
		if code != 0 || out != "" || !strings.HasPrefix(errs, "Usage: memsym "+n+" ") {
			t.Errorf("%s -h: exit %d, stdout %q, stderr %q", n, code, out, errs)
		}
		if strings.Contains(errs, "(default -1)") || strings.Contains(errs, "memsym: ") {
			t.Errorf("%s -h shows an internal default or an error:\n%s", n, errs)
		}
	}
}

// TestExitCodes runs each command to success (0), into a user's error (1)
// and into bad usage (2). Every error is one line that starts "memsym: ",
// and nothing is written to stdout before it.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join("testdata", "record", "gpt-course.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"memsym": 1, "dims": {"B": 2}}`+"\n"+`{"op": "f", "reads": [1], "writes": []}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	out := filepath.Join(dir, "chapter")

	for _, c := range []struct {
		args []string
		code int
		err  string // stderr's one line, when the code is not 0; "" to check only its form
	}{
		{[]string{"nope"}, 2, `memsym: unknown command "nope": memsym help lists the commands`},

		{[]string{"programs"}, 0, ""},
		{[]string{"programs", "gpt-course"}, 2, ""},

		{[]string{"record", "--program", "gpt-course"}, 0, ""},
		{[]string{"record"}, 2, "memsym: record needs --program NAME or --torch FILE.py:FUNCTION; memsym programs lists the bundled programs"},
		{[]string{"record", "--program", "gpt-course", "--dim", "B=0"}, 2, "memsym: gpt-course: dimension B = 0: expected an integer from 1 to 1099511627776"},

		{[]string{"memory", rec}, 0, ""},
		{[]string{"memory"}, 2, ""},
		{[]string{"memory", missing}, 1, ""},

		{[]string{"validate", rec}, 0, ""},
		{[]string{"validate"}, 2, "memsym: validate needs one or more recording files"},
		{[]string{"validate", "-", rec, "-"}, 2, "memsym: - is given twice: the standard input is one recording, read once"},
		{[]string{"validate", missing}, 1, "memsym: " + missing + ": cannot read the recording: no such file or directory"},
		{[]string{"validate", rec, bad}, 1, "memsym: " + bad + ":2: operation 1 reads 1, which is not declared before it"},

		{[]string{"symbolic", "--program", "mlp-train-step"}, 0, ""},
		{[]string{"symbolic"}, 2, "memsym: no recordings: give recording files, --recorder COMMAND, --torch FILE.py:FUNCTION or --program NAME"},
		{[]string{"symbolic", "--program", "nope"}, 2, ""},
		{[]string{"symbolic", "--program", ""}, 2, "memsym: --program is empty: expected a bundled program's name (memsym programs lists them)"},
		{[]string{"crossover", "--torch", "", "--along", "T"}, 2, "memsym: --torch is empty: expected FILE.py:FUNCTION, such as model.py:build"},
		{[]string{"symbolic", "--program", "gpt-course", rec}, 2, "memsym: give recording files, --recorder, --torch or --program, not more than one of them"},
		{[]string{"symbolic", "--program", "gpt-course", "--jobs", "0"}, 2, "memsym: --jobs 0: expected at least 1"},
		{[]string{"symbolic", "--program", "gpt-course", "--jobs", "2"}, 2, "memsym: --jobs goes with --recorder or --torch; a bundled program runs no recorder"},
		{[]string{"eval", "--program", "gpt-course", "--timeout", "1s", "--at", "B=1,T=2"}, 2, "memsym: --timeout goes with --recorder or --torch; a bundled program runs no recorder"},
		{[]string{"explain", "--program", "gpt-course", "-o"}, 2, "memsym: flag needs an argument: -o; memsym explain -h lists the flags"},
		{[]string{"memory", "--json=maybe", rec}, 2, `memsym: invalid boolean value "maybe" for --json: parse error; memsym memory -h lists the flags`},
		{[]string{"symbolic", "x=1.jsonl"}, 1, "memsym: x=1.jsonl: cannot read the recording: no such file or directory"},
		{[]string{"symbolic", "--program", "gpt-course", "--timeout", "-1s"}, 2, "memsym: --timeout -1s: expected a duration of at least 0 (0 for no limit)"},
		{[]string{"eval", "--program", "gpt-course", "--at", "B=8", "T=3"}, 2, "memsym: T=3 is not a recording file: a point's values go in one flag, comma-separated, as --at B=8,T=3"},
		{[]string{"symbolic", "--program", "gpt-course", "--const", "Q=1"}, 2, "memsym: --const Q: gpt-course has no constant Q; its constants are D, H and L"},
		{[]string{"symbolic", "--program", "gpt-course", "--const", "T=1"}, 2, "memsym: --const T: T is a dimension of gpt-course, not a constant: give it as one, --dim T=N to record a point, --at T=N to evaluate one, --grid T=a,b,c for the model's grid"},
		{[]string{"symbolic", "--program", "gpt-course", "--grid", "B=1,2"}, 2, `memsym: invalid value "B=1,2" for flag --grid: B: a grid has three values per dimension, found 2; memsym symbolic -h lists the flags`},
		{[]string{"symbolic", "--program", "gpt-course", "--grid", "B=1,1,2"}, 2, `memsym: invalid value "B=1,1,2" for flag --grid: B: 1 is given twice; a grid has three different values per dimension; memsym symbolic -h lists the flags`},
		{[]string{"symbolic", "--program", "gpt-course", "--grid", "B=0,1,2"}, 2, `memsym: invalid value "B=0,1,2" for flag --grid: B = 0: dimensions are integers of at least 1; memsym symbolic -h lists the flags`},
		{[]string{"symbolic", "--program", "bert-encoder", "--grid", "T=600,700,800"}, 2, "memsym: bert-encoder does not run at B = 2, T = 600: T = 600 is more than P = 512"},
		{[]string{"symbolic", "--program", "gpt-course", "--grid", "X=1,2,3"}, 2, "memsym: --grid X: no dimension X (the dimensions are B, T)"},
		{[]string{"symbolic", "--program", "gpt-course", "--check", "B=2"}, 2, "memsym: --check B=2: no value for T"},
		{[]string{"symbolic", "--program", "gpt-course", "--const", "H=5"}, 2, "memsym: --const: D = 64 is not divisible by H = 5"},
		{[]string{"symbolic", "--program", "layers-as-dim"}, 0, ""},
		{[]string{"symbolic", missing}, 1, "memsym: " + missing + ": cannot read the recording: no such file or directory"},
		{[]string{"symbolic", "--recorder", "true {B}", "--const", "D=2"}, 2, "memsym: --const goes with --program; a recorder sets its own constants (--torch 'FILE.py:FUNCTION --const D=64')"},
		{[]string{"symbolic", "--recorder", "true {B}"}, 2, "memsym: --recorder needs the grid: --grid B=16,32,48 for each dimension"},
		{[]string{"symbolic", "--recorder", "true {B} {T}", "--grid", "B=1,2,3"}, 2, "memsym: the recorder command has {T}, which no --grid gives"},
		{[]string{"symbolic", "--recorder", "true {B}", "--grid", "B=1,2,3", "--grid", "T=1,2,3"}, 2, "memsym: the recorder command has no {T}: each point would record the same thing"},
		{[]string{"symbolic", "--recorder", "true '{B}", "--grid", "B=1,2,3"}, 2, ""},

		{[]string{"crossover", "--program", "gpt-course", "--along", "T"}, 0, ""},
		{[]string{"crossover", "--program", "gpt-course"}, 2, "memsym: crossover needs --along DIM, the dimension to go along"},
		{[]string{"crossover", "--program", "gpt-course", "--along", "X"}, 2, "memsym: --along X: no dimension X (the dimensions are B, T)"},
		{[]string{"crossover", "--program", "gpt-course", "--along", "T", "--at", "T=3"}, 2, "memsym: --at T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"crossover", rec, "--along", "T", "--confirm"}, 2, "memsym: --confirm records new points: use it with --program, --recorder or --torch"},
		{[]string{"crossover", "--program", "gpt-course", "--along", "T", "--at", "B=0"}, 2, "memsym: --at B=0: dimensions are integers of at least 1"},
		{[]string{"crossover", "--program", "strided-conv", "--along", "N"}, 1, ""},

		{[]string{"verify", "--program", "mlp-train-step"}, 0, ""},
		{[]string{"verify", "--program", "strided-conv"}, 0, ""},
		{[]string{"verify"}, 2, "memsym: verify needs --program NAME, --all, --recorder COMMAND or --torch FILE.py:FUNCTION"},
		{[]string{"verify", rec}, 2, "memsym: verify takes no files: it records new points with --program, --all, --recorder or --torch"},
		{[]string{"verify", "--all", "--program", "gpt-course"}, 2, "memsym: give --all, --program, --recorder or --torch, not more than one"},
		{[]string{"verify", "--all", "--torch", "m.py:build"}, 2, "memsym: give --all, --program, --recorder or --torch, not more than one"},
		{[]string{"verify", "--all", "--const", "D=8"}, 2, "memsym: --const, --grid and --check go with one --program, not with --all"},
		{[]string{"verify", "--all", "--jobs", "3"}, 2, "memsym: --jobs goes with --recorder or --torch; --all verifies bundled programs, which run no recorder"},
		{[]string{"verify", "--all", "--check", "B=5,T=5"}, 2, "memsym: --const, --grid and --check go with one --program, not with --all"},
		{[]string{"verify", "--program", "gpt-course", "--points", "0"}, 2, "memsym: --points must be at least 1"},
		{[]string{"verify", "--program", "gpt-course", "--check", "B=5,T=5"}, 0, ""},
		{[]string{"verify", "--program", "nope"}, 2, ""},

		{[]string{"explain", "--program", "mlp-train-step", "--format", "md", "-o", out}, 0, ""},
		{[]string{"explain", "--program", "gpt-course"}, 2, "memsym: explain needs -o DIR, the directory to write the chapter into"},
		{[]string{"explain", "--program", "gpt-course", "-o", out, "--format", "doc"}, 2, "memsym: --format doc: expected some of html, md, pdf, tikz, page"},
		{[]string{"explain", "--program", "gpt-course", "-o", out, "--verify", "-1"}, 2, ""},
		{[]string{"explain", rec, "-o", out, "--at", "B=1,T=2"}, 2, ""},
		{[]string{"explain", "--program", "gpt-course", "-o", out, "--along", "X"}, 2, "memsym: --along X: no dimension X (the dimensions are B, T)"},
		{[]string{"explain", "--program", "layers-as-dim", "-o", out}, 0, ""},
	} {
		bogus := append([]string{c.args[0], "--bogus"}, c.args[1:]...)
		for _, args := range [][]string{c.args, bogus} {
			code, want := c.code, c.err
			if len(args) > len(c.args) {
				// Any command with a flag it does not have: bad usage.
				code = 2
				want = "memsym: flag provided but not defined: --bogus; memsym " + args[0] + " -h lists the flags"
				if _, ok := commands[args[0]]; !ok {
					continue
				}
			}
			stdout, stderr, got := runCLI(args...)
			if got != code {
				t.Errorf("memsym %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), got, code, stderr)
				continue
			}
			if code == 0 {
				if stdout == "" {
					t.Errorf("memsym %s: success without output", strings.Join(args, " "))
				}
				continue
			}
			if stdout != "" && (code == 2 || args[0] == "symbolic" || args[0] == "memory") {
				t.Errorf("memsym %s: failed after writing to stdout:\n%s", strings.Join(args, " "), stdout)
			}
			if !strings.HasPrefix(stderr, "memsym: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("memsym %s: the error is not one line starting \"memsym: \":\n%s", strings.Join(args, " "), stderr)
			}
			if want != "" && strings.TrimSuffix(stderr, "\n") != want {
				t.Errorf("memsym %s:\n got %s\nwant %s", strings.Join(args, " "), strings.TrimSuffix(stderr, "\n"), want)
			}
		}
	}
}

// Each command's -h lists its flags as the usage line, the docs and the
// messages write them: two dashes, but for -o and -h.
func TestHelpFlagsTwoDashes(t *testing.T) {
	_, errs, code := runCLI("explain", "-h")
	if code != 0 {
		t.Fatalf("explain -h: exit %d", code)
	}
	for _, want := range []string{"\n  --const ", "\n  --format ", "\n  -o directory"} {
		if !strings.Contains(errs, want) {
			t.Errorf("explain -h lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "\n  -const") {
		t.Errorf("explain -h lists a flag with one dash:\n%s", errs)
	}
}
