package torchtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
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
	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"no function", []string{gpt2, "--dim", "B=2"}, 1, "expected FILE.py:FUNCTION, such as model.py:build"},
		{"no file", []string{model(t, "nope.py") + ":build", "--dim", "B=2"}, 1, "nope.py: no such file"},
		{"no such function", []string{gpt2 + ":make", "--dim", "B=2"}, 1, "gpt2.py: defines no make"},
		{"syntax", []string{model(t, "badsyntax.py") + ":build"}, 1,
			fmt.Sprintf("badsyntax.py:%d: ", lineOf(t, "badsyntax.py", "def build"))},
		{"build raises", []string{model(t, "broken.py") + ":build", "--dim", "B=2", "--dim", "T=3"}, 1,
			fmt.Sprintf("broken.py:%d: build at B = 2, T = 3 raised ValueError: T = 3 must be even", lineOf(t, "broken.py", "raise ValueError"))},
		{"build returns no inputs", []string{model(t, "broken.py") + ":build", "--dim", "B=2", "--dim", "T=4"}, 1,
			"returned a NoneType as its inputs: expected a tensor, a tuple or a dict"},
		{"dimension missing", []string{gpt2 + ":build", "--dim", "B=2"}, 1, "gpt2.py:build needs T: give --dim T=N or --const T=VALUE"},
		{"dimension unknown", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=16", "--dim", "X=3"}, 1,
			"gpt2.py:build takes no X: its parameters are B, T, V, BLOCK, D, H, L"},
		{"forward raises", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=100"}, 1,
			fmt.Sprintf("gpt2.py:%d: the forward at B = 2, T = 100 raised RuntimeError: ", lineOf(t, "gpt2.py", "att.masked_fill"))},
		{"dimension below 1", []string{gpt2 + ":build", "--dim", "B=0", "--dim", "T=16"}, 2, "--dim B=0: expected integers of at least 1, found '0'"},
		{"constant not a number", []string{gpt2 + ":build", "--dim", "B=2", "--dim", "T=16", "--const", "D=wide"}, 2,
			"--const D=wide: expected a number such as 64 or 0.5"},
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
