package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"memsym/internal/tooltest"
	"memsym/source"
)

// needTorch skips (or fails, where every tool is required) without a
// Python that has torch.
func needTorch(t *testing.T) {
	t.Helper()
	if _, err := source.Python(); err != nil {
		tooltest.Missing(t, err.Error())
	}
}

// TestTorchSource: --torch records docs/torch.md's example with the recorder
// memsym ships, through symbolic (checked at the default points), crossover
// and verify, and record writes one point; nothing is left behind.
func TestTorchSource(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model, err := filepath.Abs("../../docs/examples/tinylm.py")
	if err != nil {
		t.Fatal(err)
	}
	src := []string{"--torch", model + ":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48", "--jobs", "2"}
	out := mustRunCLI(t, append([]string{"symbolic"}, src...)...)
	if !strings.Contains(out, "checked at B = 7, T = 65; B = 13, T = 115") || !strings.Contains(out, "peak") {
		t.Errorf("symbolic --torch:\n%s", out)
	}
	out = mustRunCLI(t, append([]string{"verify", "--points", "2"}, src...)...)
	if !strings.HasSuffix(out, "1 program: 2 points checked, 0 refused as expected, 0 failed\n") {
		t.Errorf("verify --torch:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	mustRunCLI(t, "record", "--torch", model+":build", "--dim", "B=2,T=16", "-o", path)
	if out := mustRunCLI(t, "memory", path); !strings.HasPrefix(out, "memsym memory: `TinyLM") || !strings.Contains(out, "at B = 2, T = 16") {
		t.Errorf("memory of the torch recording:\n%s", out)
	}
	noLeftovers(t)

	// --step on recordings of one call says where the step is asked for.
	_, errs, _ := runCLI(append([]string{"symbolic", "--step"}, src...)...)
	if want := "memsym: the recording's operations have no phases: it records one call, not a training step (version 2 gives each operation its phase); a PyTorch model's training step is the recorder's own flag (--torch '" + model + ":build --step adamw', docs/torch.md)\n"; errs != want {
		t.Errorf("symbolic --step --torch of one call: stderr %q, want %q", errs, want)
	}

	// A model that raises: one line, exit 1.
	bad := filepath.Join(t.TempDir(), "bad.py")
	if err := os.WriteFile(bad, []byte("def build(B, T):\n    raise ValueError('no model here')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI("symbolic", "--torch", bad+":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no model here") {
		t.Errorf("a model that raises: exit %d, stderr %q", code, errs)
	}
	noLeftovers(t)

	// Mistakes of the command line are memsym's usage errors, exit 2,
	// in memsym's flags: a dimension without a grid, arguments without
	// FILE.py:FUNCTION.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"symbolic", "--torch", model + ":build", "--grid", "B=2,3,4"},
			"memsym: --torch: " + model + ":build needs T: give it as a dimension (--grid T=a,b,c; to record one point, --dim T=N) or as a constant, inside the quotes: --torch '" + model + ":build --const T=VALUE'\n"},
		{[]string{"symbolic", "--torch", model, "--grid", "B=2,3,4", "--grid", "T=16,32,48"},
			"memsym: --torch " + model + ": expected FILE.py:FUNCTION, such as model.py:build, then the recorder's own flags\n"},
	} {
		if _, errs, code := runCLI(c.args...); code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	// A model whose own code exits with 2 is the model's failure, exit 1,
	// not taken for a mistake in memsym's command line.
	two := filepath.Join(t.TempDir(), "two.py")
	if err := os.WriteFile(two, []byte("import sys\ndef build(B):\n    print('from the model', file=sys.stderr)\n    sys.exit(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI("symbolic", "--torch", two+":build", "--grid", "B=2,3,4"); code != 1 || !strings.Contains(errs, "failed (exit status 2)") || !strings.Contains(errs, "from the model") {
		t.Errorf("a model that exits with 2: exit %d, stderr %q", code, errs)
	}
	noLeftovers(t)
}

// TestTorchTimeout: --timeout stops a PyTorch recorder that hangs, as it
// stops a --recorder command, in one line naming the points; nothing is
// left behind.
func TestTorchTimeout(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	hang := filepath.Join(t.TempDir(), "hang.py")
	if err := os.WriteFile(hang, []byte("import time\n\ndef build(B, T):\n    time.sleep(600)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errs, code := runCLI("symbolic", "--torch", hang+":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48", "--jobs", "1", "--timeout", "2s")
	want := "memsym: the PyTorch recorder at B = 2, T = 16 did not finish within 2s and was stopped (its process, which records 11 points in turn, had recorded 0 of them), writing nothing to its standard error\n"
	if code != 1 || errs != want {
		t.Errorf("a model that hangs: exit %d, stderr %q, want %q", code, errs, want)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("a model that hangs, with --timeout 2s, stopped after %v", d)
	}
	noLeftovers(t)
}

// TestTorchDocExamples runs docs/torch.md's `memsym symbolic --recorder`
// examples, the recorder's python3 being the one with torch, and checks
// that memsym prints what the page shows: a model's lines in order ("…"
// alone standing for lines left out), or a refusal's one line.
func TestTorchDocExamples(t *testing.T) {
	needTorch(t)
	python, _ := source.Python()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "torch.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	ran := 0
	// A list item's fences are indented as its lines are.
	text := strings.ReplaceAll(string(b), "\n  ```", "\n```")
	for _, block := range fencedBlocks(text) {
		if len(block) > 0 && strings.HasPrefix(block[0], "  $ ") {
			for i, line := range block {
				block[i] = strings.TrimPrefix(line, "  ") // an example in a list item
			}
		}
		for _, ex := range examples(block) {
			rest, ok := strings.CutPrefix(ex.command, "memsym symbolic --recorder '")
			if !ok {
				continue
			}
			recorder, flags, ok := strings.Cut(rest, "' ")
			if !ok || strings.ContainsAny(flags, `'"\$*?<>;&|`) {
				t.Fatalf("torch.md: %q: expected memsym symbolic --recorder '...' and flags split at blanks", ex.command)
			}
			recorder = strings.NewReplacer(
				"PYTHONPATH=recorders/torch python3 ", "PYTHONPATH="+filepath.Join(root, "recorders", "torch")+" "+python+" ",
				"docs/examples/", filepath.Join(root, "docs", "examples")+"/",
			).Replace(recorder)
			shown := make([]string, len(ex.shown))
			for i, l := range ex.shown {
				if strings.TrimSpace(l) == "…" {
					l = "..."
				}
				shown[i] = l
			}
			out, errs, code := runCLI(append([]string{"symbolic", "--recorder", recorder}, strings.Fields(flags)...)...)
			got := out
			if code != 0 {
				got = errs
			}
			if !matchShown(shown, strings.Split(strings.TrimSuffix(got, "\n"), "\n")) {
				t.Errorf("torch.md: $ %s\nshows:\n%s\nbut memsym prints (exit %d):\n%s", ex.command, strings.Join(ex.shown, "\n"), code, got)
			}
			ran++
		}
	}
	if ran < 3 {
		t.Errorf("torch.md: %d symbolic examples run, want the forward, the step and the refusal at B = 1", ran)
	}
}

// --free release keeps a temp live until PyTorch releases it: five layers
// whose activations are named locals hold four of them at once in eager
// PyTorch, 5120 · B · T bytes with the output (measured on a CPU run with
// an allocator counter: 167772160 bytes above the inputs at B = 64,
// T = 512), where freeing at the last use holds two, 2048 · B · T.
func TestTorchFreeRelease(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model, err := filepath.Abs("../../recorders/torch/testdata/models/locals.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fn, flags, peak string
	}{
		{"build", "", "  peak        2048 · B · T, at operation 5 (`aten.relu`)\n"},
		{"build", " --free release", "  peak        5120 · B · T, at operation 23 (`aten.relu`)\n"},
		// A tensor the model keeps on itself is never released while
		// recording: it is held to the end, the first layer's output
		// beside the last two's (before, it counted to its last use).
		{"build_kept", "", "  peak        2048 · B · T, at operation "},
		{"build_kept", " --free release", "  peak        3072 · B · T, at operation "},
	} {
		out := mustRunCLI(t, "symbolic", "--torch", model+":"+c.fn+c.flags, "--grid", "B=2,3,4", "--grid", "T=16,32,48")
		if !strings.Contains(out, c.peak) {
			t.Errorf("--torch %q: the peak is not %q:\n%s", "locals.py:"+c.fn+c.flags, c.peak, out)
		}
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	mustRunCLI(t, "record", "--torch", model+":build --free release", "--dim", "B=64,T=512", "-o", path)
	if out := mustRunCLI(t, "memory", path); !strings.Contains(out, "peak        167772160 bytes (160 MiB) live") {
		t.Errorf("memory at B = 64, T = 512:\n%s", out)
	}
	noLeftovers(t)
}

// TestTorchRefusals: what memsym --torch cannot do is one line, exact.
// Inside the quotes, the flags that choose the points or where their
// recordings go are memsym's (usage errors, exit 2, nothing written); a
// MEMSYM_PYTHON that is not there, or that does not import torch, is named
// with how to choose another; a model under torch.autocast, which the meta
// device ignores, is refused where it runs.
func TestTorchRefusals(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model, err := filepath.Abs("../../docs/examples/tinylm.py")
	if err != nil {
		t.Fatal(err)
	}
	spec := model + ":build"
	aside := t.TempDir()
	out, dir := filepath.Join(aside, "x.jsonl"), filepath.Join(aside, "d")
	grid := []string{"--grid", "B=2,3,4", "--grid", "T=16,32,48"}
	keep := " does not go inside the quotes: memsym chooses the points and where their recordings go (to keep one point's recording: memsym record --torch '" + spec + "' --dim B=2,T=16 -o "
	for _, c := range []struct{ inside, want string }{
		{"-o " + out, "-o/--out " + out + keep + out + ")"},
		{"--out " + out, "-o/--out " + out + keep + out + ")"},
		{"--out-dir " + dir, "--out-dir " + dir + keep + "FILE)"},
		{"-o " + out + " --out-dir " + dir, "-o/--out " + out + keep + out + ")"},
		{"--at B=50,T=50", "--at B=50,T=50 does not go inside the quotes: memsym chooses the points and where their recordings go " +
			"(outside the quotes: the grid by --grid, a point off it by --check B=50,T=50; memsym record records one by --dim B=50,T=50)"},
		{"--dim B=2,3,4", "--dim goes to memsym as --grid, outside the quotes (--grid B=2,3,4): memsym gives the recorder its points"},
	} {
		for _, cmd := range [][]string{append([]string{"symbolic", "--torch", spec + " " + c.inside}, grid...), {"record", "--torch", spec + " " + c.inside, "--dim", "B=2,T=16"}} {
			_, errs, code := runCLI(cmd...)
			if want := "memsym: --torch: " + c.want + "\n"; code != 2 || errs != want {
				t.Errorf("%q: exit %d, stderr\n%q\nwant 2 and\n%q", cmd, code, errs, want)
			}
		}
	}
	if left, _ := os.ReadDir(aside); len(left) > 0 {
		t.Errorf("refused, memsym --torch wrote %v", left)
	}

	// The Python named by MEMSYM_PYTHON: not there, or without torch (the
	// Python that has torch, run with -S: without its site directories).
	other := ": set MEMSYM_PYTHON to a Python that imports torch, or unset it for the first of python3 and /usr/bin/python3 that does (docs/torch.md)\n"
	py, err := exec.LookPath(mustPython(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEMSYM_PYTHON", "/nonexistent/python3")
	if _, errs, code := runCLI(append([]string{"symbolic", "--torch", spec}, grid...)...); code != 1 || errs != "memsym: the Python named by MEMSYM_PYTHON, /nonexistent/python3, was not found"+other {
		t.Errorf("MEMSYM_PYTHON=/nonexistent/python3: exit %d, stderr %q", code, errs)
	}
	if err := exec.Command(py, "-S", "-c", "import torch").Run(); err == nil {
		t.Logf("%s -S imports torch: no Python without torch to run", py)
	} else {
		noTorch := filepath.Join(aside, "python-without-torch")
		if err := os.WriteFile(noTorch, []byte("#!/bin/sh\nexec '"+py+"' -S \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("MEMSYM_PYTHON", noTorch)
		want := "memsym: the Python named by MEMSYM_PYTHON, " + noTorch + ", does not import torch (ModuleNotFoundError: No module named 'torch')" + other
		for _, cmd := range [][]string{append([]string{"symbolic", "--torch", spec}, grid...), {"record", "--torch", spec, "--dim", "B=2,T=16"}} {
			if _, errs, code := runCLI(cmd...); code != 1 || errs != want {
				t.Errorf("%q without torch: exit %d, stderr\n%q\nwant 1 and\n%q", cmd, code, errs, want)
			}
		}
		os.Remove(noTorch)
	}
	os.Unsetenv("MEMSYM_PYTHON")

	// A model under torch.autocast, refused at the line that runs under it.
	auto, err := filepath.Abs("../../recorders/torch/testdata/models/autocast.py")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(auto)
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(strings.Split(string(b), "# under autocast")[0], "\n")
	refusal := fmt.Sprintf("%s:%d: the forward at B = 2 runs under torch.autocast (cpu, torch.bfloat16), and autocast is not recorded: "+
		"on the meta device it casts nothing, so the bytes would be wrong; cast the model and its inputs explicitly instead, such as model.to(torch.bfloat16)\n", auto, line)
	for _, c := range []struct {
		args []string
		at   string
	}{
		{[]string{"record", "--torch", auto + ":cpu", "--dim", "B=2"}, "B = 2"},
		{[]string{"symbolic", "--torch", auto + ":cpu --step adamw", "--grid", "B=2,3,4", "--jobs", "1"}, "B = 2"},
	} {
		want := "memsym: the PyTorch recorder at " + c.at + " failed (exit status 1); its standard error ends: memsym_torch: " + refusal
		if _, errs, code := runCLI(c.args...); code != 1 || errs != want {
			t.Errorf("%q: exit %d, stderr\n%q\nwant 1 and\n%q", c.args, code, errs, want)
		}
	}
	noLeftovers(t)
}

// mustPython returns the Python that runs the recorder.
func mustPython(t *testing.T) string {
	t.Helper()
	py, err := source.Python()
	if err != nil {
		t.Fatal(err)
	}
	return py
}

// TestTorchFailureNamesItsPoint: a model that fails at one point is said
// to fail there, not at the first point its process was given (those
// before it were recorded, those after it never reached), however many
// processes record the grid; one that fails at a check point memsym chose
// is said to, with what to do.
func TestTorchFailureNamesItsPoint(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model := filepath.Join(t.TempDir(), "limits.py")
	src := "import torch\n\n" +
		"def at32(B, T):\n    if T == 32:\n        raise ValueError('boom at T=32')\n    return torch.nn.Linear(8, 8), torch.randn(B, T, 8)\n\n" +
		"def upto64(B, T):\n    if T > 64:\n        raise ValueError('T too large')\n    return torch.nn.Linear(8, 8), torch.randn(B, T, 8)\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	grid := []string{"--grid", "B=2,3,4", "--grid", "T=16,32,48"}
	checks, err := source.DefaultChecks([][3]int64{{2, 3, 4}, {16, 32, 48}}, []string{"B", "T"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []string{"1", "2", "3"} {
		args := append([]string{"symbolic", "--jobs", jobs, "--torch", model + ":at32"}, grid...)
		want := "memsym: the PyTorch recorder at B = 2, T = 32 failed (exit status 1); its standard error ends: memsym_torch: " + model + ":5: at32 at B = 2, T = 32 raised ValueError: boom at T=32\n"
		if _, errs, code := runCLI(args...); code != 1 || errs != want {
			t.Errorf("--jobs %s, failing at T = 32: exit %d, stderr\n%q\nwant\n%q", jobs, code, errs, want)
		}
		args = append([]string{"symbolic", "--jobs", jobs, "--torch", model + ":upto64"}, grid...)
		c := checks[0].String()
		want = "memsym: the PyTorch recorder at the check point memsym chose, " + c + ", failed (exit status 1); its standard error ends: memsym_torch: " + model + ":10: upto64 at " + c + " raised ValueError: T too large" +
			"; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller\n"
		if _, errs, code := runCLI(args...); code != 1 || errs != want {
			t.Errorf("--jobs %s, failing past T = 64: exit %d, stderr\n%q\nwant\n%q", jobs, code, errs, want)
		}
	}
	noLeftovers(t)
}

// fit --confirm at B = 1 on a grid from B = 2: PyTorch records other
// operations at a size of 1 (a view where it copies at 2 and more), with
// the needs the model predicts. The answer is confirmed, the operations
// and the peak's place noted; before, the recordings "contradicted the
// fit" (exit 1) though their needs were the predicted ones to the byte.
func TestTorchFitConfirmAtOne(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	model, err := filepath.Abs("../../docs/examples/tinylm.py")
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI("fit", "--confirm", "--budget", "1GiB", "--along", "T", "--at", "B=1", "--torch", model+":build", "--grid", "B=2,3,4", "--grid", "T=16,32,48")
	if code != 0 || stderr != "" || strings.Contains(out, "NOT as predicted") || strings.Count(out, "\nconfirmed at B = 1, T = ") != 2 ||
		!strings.Contains(out, "\n  note: the recording at B = 1, T = ") || !strings.Contains(out, "has operations the model's grid did not have") {
		t.Errorf("fit --confirm at B = 1: exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestTorchStderrNote: a model that warns, recorded without failing, is
// one note on memsym's standard error, said of the processes (each of
// which records several points in turn, Python's warning said once a
// process), the first process's named; the output is the model's as
// without the warning, and the same model made quiet (PYTHONWARNINGS,
// which the recorder's Python is given as memsym is) makes no note.
func TestTorchStderrNote(t *testing.T) {
	needTorch(t)
	t.Setenv("TMPDIR", t.TempDir())
	tinylm, err := filepath.Abs("../../docs/examples/tinylm.py")
	if err != nil {
		t.Fatal(err)
	}
	warns := filepath.Join(t.TempDir(), "warns.py")
	src := "import importlib.util, warnings\n" +
		"spec = importlib.util.spec_from_file_location('tinylm', " + strconv.Quote(tinylm) + ")\n" +
		"tinylm = importlib.util.module_from_spec(spec)\n" +
		"spec.loader.exec_module(tinylm)\n" +
		"def build(B, T):\n" +
		"    warnings.warn('no fused attention kernel, falling back')\n" +
		"    return tinylm.build(B, T)\n"
	if err := os.WriteFile(warns, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	grid := []string{"--grid", "B=2,3,4", "--grid", "T=16,32,48", "--jobs", "2"}
	out, errs, code := runCLI(append([]string{"symbolic", "--torch", warns + ":build"}, grid...)...)
	want := "memsym: note: the PyTorch recorder wrote to its standard error in both processes it ran; in the one recording B = 2, T = 16 and 4 more points it ends: " +
		warns + ":6: UserWarning: no fused attention kernel, falling back |   warnings.warn('no fused attention kernel, falling back')\n"
	quiet := mustRunCLI(t, append([]string{"symbolic", "--torch", tinylm + ":build"}, grid...)...)
	if code != 0 || errs != want || out != quiet {
		t.Errorf("a model that warns: exit %d, stderr %q, want %q; stdout:\n%s\nwithout the warning:\n%s", code, errs, want, out, quiet)
	}
	noLeftovers(t)
	t.Setenv("PYTHONWARNINGS", "ignore")
	if got := mustRunCLI(t, append([]string{"symbolic", "--torch", warns + ":build"}, grid...)...); got != quiet {
		t.Errorf("a model that warns, with PYTHONWARNINGS=ignore:\n%s\nwithout the warning:\n%s", got, quiet)
	}
	noLeftovers(t)
}
