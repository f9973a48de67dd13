package torchtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// lineOf returns the number of the first line of a testdata model that
// holds text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	f, err := os.Open(model(t, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		if strings.Contains(s.Text(), text) {
			return n
		}
	}
	t.Fatalf("%s has no line holding %q", file, text)
	return 0
}

// TestErrors runs the recorder on mistakes: each is one line on the
// standard error, placed in the user's file where it can be, with no
// traceback, nothing on the standard output and a non-zero status.
func TestErrors(t *testing.T) {
	python(t)
	gpt2 := model(t, "gpt2.py")
	mistakes := model(t, "mistakes.py")
	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"no function", []string{gpt2, "--dim", "B=2"}, 2, "expected FILE.py:FUNCTION, such as model.py:build"},
		{"function not a name", []string{gpt2 + ":1st", "--dim", "B=2"}, 2, "expected FILE.py:FUNCTION, such as model.py:build"},
		{"no file", []string{model(t, "nope.py") + ":build", "--dim", "B=2"}, 1, "nope.py: no such file"},
		{"no such function", []string{gpt2 + ":make", "--dim", "B=2"}, 1, "gpt2.py: defines no make"},
		{"syntax", []string{model(t, "badsyntax.py") + ":build"}, 1,
			fmt.Sprintf("badsyntax.py:%d: ", lineOf(t, "badsyntax.py", "def build"))},
		{"build raises", []string{model(t, "broken.py") + ":build", "--dim", "B=2", "--dim", "T=3"}, 1,
			fmt.Sprintf("broken.py:%d: build at B = 2, T = 3 raised ValueError: T = 3 must be even", lineOf(t, "broken.py", "raise ValueError"))},
		{"build returns no inputs", []string{model(t, "broken.py") + ":build", "--dim", "B=2", "--dim", "T=4"}, 1,
			"broken.py:build returned None as its inputs: expected a tensor, a tuple or a dict"},
		{"dimension missing", []string{gpt2 + ":build", "--dim", "B=2"}, 2, "gpt2.py:build needs T: give --dim T=N or --const T=VALUE"},
		{"dimension unknown", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=16", "--dim", "X=3"}, 2,
			"gpt2.py:build takes no X: its parameters are B, T, V, BLOCK, D, H, L"},
		{"forward raises", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=100"}, 1,
			fmt.Sprintf("gpt2.py:%d: the forward at B = 2, T = 100 raised RuntimeError: ", lineOf(t, "gpt2.py", "att.masked_fill"))},
		{"dimension below 1", []string{gpt2 + ":build", "--dim", "B=0", "--dim", "T=16"}, 2, "--dim B=0: expected integers of at least 1, found '0'"},
		{"constant not a number", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=16", "--const", "D=wide"}, 2,
			"--const D=wide: expected a number such as 64 or 0.5"},
		{"dimension too large", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=9223372036854775807"}, 2,
			"--dim T=9223372036854775807: 9223372036854775807 is too large: a dimension is at most 999999999999999999 (18 digits)"},
		{"point too large", []string{gpt2 + ":build", "--at", "B=2,T=9223372036854775807"}, 2,
			"9223372036854775807 is too large: a dimension is at most 999999999999999999"},
		{"constant a float used as a size", []string{mistakes + ":sized", "--dim", "B=2", "--const", "D=1.5"}, 1,
			fmt.Sprintf("mistakes.py:%d: sized at B = 2 raised TypeError: empty() received an invalid combination of arguments - got (tuple, dtype=NoneType, device=NoneType) "+
				"(--const D=1.5 is not an integer: a constant used as a size or a count must be an integer, such as 64)", lineOf(t, "mistakes.py", "# D a size"))},
		{"no parameters to train", []string{mistakes + ":no_params", "--dim", "B=2", "--step", "adamw"}, 1,
			"mistakes.py:no_params: the model, Twice, has no parameters to train: record its forward, without --step adamw"},
		{"loss through argmax", []string{mistakes + ":argmax_loss", "--dim", "B=3", "--step", "adamw"}, 1,
			"mistakes.py:argmax_loss: the loss at B = 3 has no gradient: it does not depend on any parameter through a differentiable path"},
		{"parameters frozen", []string{mistakes + ":frozen", "--dim", "B=3", "--step", "sgd"}, 1,
			"mistakes.py:frozen: the loss at B = 3 has no gradient: no parameter requires one"},
		{"forward reads a value", []string{mistakes + ":branch", "--dim", "B=3"}, 1,
			fmt.Sprintf("mistakes.py:%d: the forward at B = 3 reads a tensor's value (.item(), or bool(), float() or int() of a tensor: aten._local_scalar_dense): "+
				"a recording holds no values, so code that depends on a tensor's values cannot be recorded\n", lineOf(t, "mistakes.py", "# reads a value"))},
		{"build returns an object", []string{mistakes + ":odd", "--dim", "B=2"}, 1,
			"mistakes.py:odd returned a value of type Odd: expected (model, inputs) or (model, inputs, loss)"},
		{"build returns an int", []string{mistakes + ":number", "--dim", "B=2"}, 1,
			"mistakes.py:number returned a value of type int: expected (model, inputs) or (model, inputs, loss)"},
		{"several points to one output", []string{gpt2 + ":build", "--dim", "B=2,3", "--dim", "T=16"}, 2, "several points need --out-dir DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runPython(t, append([]string{"-m", "memsym_torch"}, tt.args...)...)
			var exit *exec.ExitError
			if !errors.As(r.err, &exit) || exit.ExitCode() != tt.status {
				t.Fatalf("exit: %v, want status %d; stderr: %s", r.err, tt.status, r.stderr)
			}
			stderr := string(r.stderr)
			if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || strings.Contains(stderr, "Traceback") {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			if !strings.HasPrefix(stderr, "memsym_torch: ") || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr = %q, want memsym_torch: ...%s...", stderr, tt.want)
			}
			if len(r.stdout) != 0 {
				t.Errorf("stdout holds %d bytes, want none", len(r.stdout))
			}
		})
	}
}

// oneError runs the recorder with args under python's flags pyflags and
// checks that it fails with status and stderr exactly want, writing
// nothing on the standard output.
func oneError(t *testing.T, pyflags, args []string, status int, want ...string) {
	t.Helper()
	r := runPython(t, append(append(pyflags, "-m", "memsym_torch"), args...)...)
	var exit *exec.ExitError
	if !errors.As(r.err, &exit) || exit.ExitCode() != status {
		t.Errorf("%v: exit %v, want status %d; stderr: %s", args, r.err, status, r.stderr)
		return
	}
	if !slices.Contains(want, string(r.stderr)) {
		t.Errorf("%v: stderr\n%q\nwant\n%q", args, r.stderr, strings.Join(want, "\nor\n"))
	}
	if len(r.stdout) != 0 {
		t.Errorf("%v: stdout holds %d bytes, want none", args, len(r.stdout))
	}
}

// TestAutocast: the meta device casts nothing under torch.autocast, so a
// model that runs under it would be recorded in the wrong types; the
// recorder refuses it in one line, placed in the model's file: autocast on
// as an ATen call is made (forward or training step), autocast("cuda")
// made where torch turns it off for want of CUDA, and autocast left on by
// the build. A model that turns autocast off records.
func TestAutocast(t *testing.T) {
	python(t)
	file := model(t, "autocast.py")
	why := "and autocast is not recorded: on the meta device it casts nothing, so the bytes would be wrong; " +
		"cast the model and its inputs explicitly instead, such as model.to("
	with := lineOf(t, "autocast.py", "with torch.autocast")
	under := lineOf(t, "autocast.py", "# under autocast")
	for _, step := range [][]string{nil, {"--step", "adamw"}} {
		cpu := fmt.Sprintf("memsym_torch: %s:%d: the forward at B = 2 runs under torch.autocast (cpu, torch.bfloat16), %storch.bfloat16)\n", file, under, why)
		oneError(t, nil, append([]string{file + ":cpu", "--dim", "B=2"}, step...), 1, cpu)
		// Without CUDA torch turns autocast("cuda") off, warning: refused
		// where it is made; with CUDA, where it casts.
		noCUDA := fmt.Sprintf("memsym_torch: %s:%d: the forward at B = 2 uses torch.autocast (cuda, torch.float16), which torch turns off without CUDA, %storch.float16)\n", file, with, why)
		withCUDA := fmt.Sprintf("memsym_torch: %s:%d: the forward at B = 2 runs under torch.autocast (cuda, torch.float16), %storch.float16)\n", file, under, why)
		oneError(t, nil, append([]string{file + ":cuda", "--dim", "B=2"}, step...), 1, noCUDA, withCUDA)
		recorder(t, append([]string{file + ":disabled", "--dim", "B=2"}, step...)...)
	}
	for _, c := range []struct {
		step []string
		what string
	}{{nil, "the forward"}, {[]string{"--step", "sgd"}, "the training step"}} {
		want := fmt.Sprintf("memsym_torch: %s:left_on: torch.autocast (cpu, torch.bfloat16) is on as %s at B = 2 begins, turned on by the file or by left_on, %storch.bfloat16)\n", file, c.what, why)
		oneError(t, nil, append([]string{file + ":left_on", "--dim", "B=2"}, c.step...), 1, want)
	}
}

// TestNoTorch: a Python that does not import torch (python -S: without
// the site directories torch is installed in) says so in one line, naming
// itself, not as an internal error.
func TestNoTorch(t *testing.T) {
	py := python(t)
	if err := exec.Command(py, "-S", "-c", "import torch").Run(); err == nil {
		t.Skipf("%s -S imports torch: no Python without torch to run", py)
	}
	exe, err := exec.Command(py, "-S", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "memsym_torch: this Python, " + strings.TrimSpace(string(exe)) + ", does not import torch (ModuleNotFoundError: No module named 'torch'): " +
		"run memsym_torch with a Python that does (memsym's --torch runs the one MEMSYM_PYTHON names; docs/torch.md)\n"
	oneError(t, []string{"-S"}, []string{model(t, "gpt2.py") + ":build", "--dim", "B=2", "--dim", "T=16"}, 1, want)
	// A mistake in the command line is said first, torch or not.
	oneError(t, []string{"-S"}, []string{model(t, "gpt2.py"), "--dim", "B=2"}, 2,
		"memsym_torch: '"+model(t, "gpt2.py")+"': expected FILE.py:FUNCTION, such as model.py:build\n")
}
