package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmePath is the README, from this package's directory.
var readmePath = filepath.Join("..", "..", "README.md")

// fencedBlocks returns the lines of each fenced code block of a Markdown
// text, without the fences.
func fencedBlocks(text string) [][]string {
	var blocks [][]string
	var cur []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, cur)
				cur = nil
			}
			in = !in
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	return blocks
}

// readmeExample is a command line of the README and the output it shows.
type readmeExample struct {
	command string
	shown   []string
}

// examples splits a block of `$ command` lines, each followed by its
// output, into examples.
func examples(block []string) []readmeExample {
	var out []readmeExample
	for _, line := range block {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			out = append(out, readmeExample{command: cmd})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].shown = append(out[len(out)-1].shown, line)
		}
	}
	for i := range out {
		for len(out[i].shown) > 0 && strings.TrimSpace(out[i].shown[len(out[i].shown)-1]) == "" {
			out[i].shown = out[i].shown[:len(out[i].shown)-1]
		}
	}
	return out
}

// memsymArgs turns "go run ./cmd/memsym ARGS" into ARGS, or reports that
// the line is no memsym command.
func memsymArgs(t *testing.T, line string) ([]string, bool) {
	t.Helper()
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/memsym ")
	if !ok {
		return nil, false
	}
	if strings.ContainsAny(rest, `'"\$*?<>;&`) {
		t.Fatalf("README: %q: this test splits commands at blanks only", line)
	}
	return strings.Fields(rest), true
}

// runPipeline runs "go run ./cmd/memsym A | go run ./cmd/memsym B ...",
// each in process, each one's stdout the next one's stdin.
func runPipeline(t *testing.T, command string) string {
	t.Helper()
	var out string
	for i, stage := range strings.Split(command, "|") {
		args, ok := memsymArgs(t, stage)
		if !ok {
			t.Fatalf("README: %q is not a memsym command", stage)
		}
		if i > 0 {
			in := filepath.Join(t.TempDir(), "stdin")
			if err := os.WriteFile(in, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			saved := os.Stdin
			os.Stdin = f
			out = mustRunCLI(t, args...)
			os.Stdin = saved
			f.Close()
			continue
		}
		out = mustRunCLI(t, args...)
	}
	return out
}

// matchShown reports whether out is what the README shows: its lines in
// order, "..." alone skipping any number of lines, a line ending in " ..."
// standing for any line that begins with what precedes it.
func matchShown(shown []string, out []string) bool {
	if len(shown) == 0 {
		return len(out) == 0
	}
	s := shown[0]
	if strings.TrimSpace(s) == "..." {
		for i := 0; i <= len(out); i++ {
			if matchShown(shown[1:], out[i:]) {
				return true
			}
		}
		return false
	}
	if len(out) == 0 {
		return false
	}
	if prefix, ok := strings.CutSuffix(s, " ..."); ok {
		if !strings.HasPrefix(out[0], prefix) {
			return false
		}
	} else if s != out[0] {
		return false
	}
	return matchShown(shown[1:], out[1:])
}

// TestREADME runs the README's commands and checks that they print what
// it shows, so that it cannot drift from memsym.
func TestREADME(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	ran := 0
	setUp := false
	for _, block := range fencedBlocks(text) {
		if len(block) == 0 {
			continue
		}
		if strings.HasPrefix(block[0], "$ go run ./cmd/memsym ") {
			for _, ex := range examples(block) {
				out := runPipeline(t, ex.command)
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if !matchShown(ex.shown, lines) {
					t.Errorf("README: $ %s\nshows:\n%s\nbut memsym prints:\n%s", ex.command, strings.Join(ex.shown, "\n"), out)
				}
				ran++
			}
			continue
		}
		if strings.HasPrefix(block[0], "go run ./cmd/memsym ") {
			setUp = true
			readmeSetUp(t, block)
		}
	}
	if ran < 2 || !setUp {
		t.Errorf("README: %d examples and set-up commands %v; the test expects the set-up block and at least 2 examples", ran, setUp)
	}
}

// readmeSetUp runs the set-up block's memsym command in a directory of its
// own, checks what it writes, and checks that make has the other target.
func readmeSetUp(t *testing.T, block []string) {
	for _, line := range block {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if target, ok := strings.CutPrefix(line, "make "); ok {
			mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
			if err != nil || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(target)+`:`).Match(mk) {
				t.Errorf("README: %q: the Makefile has no target %s (%v)", line, target, err)
			}
			continue
		}
		args, ok := memsymArgs(t, line)
		if !ok {
			t.Errorf("README: a set-up command that is neither memsym nor make: %q", line)
			continue
		}
		dir, _ := os.Getwd()
		t.Chdir(t.TempDir())
		mustRunCLI(t, args...)
		// "writes the chapter in Markdown, HTML, PDF and TikZ into chapter13/"
		for _, f := range []string{"chapter13.md", "chapter13.html", "chapter13.pdf", "chapter13-tikz.tex", "chapter13-formulas.tex"} {
			if _, err := os.Stat(filepath.Join("chapter13", f)); err != nil {
				t.Errorf("README: %q wrote no %s", line, f)
			}
		}
		t.Chdir(dir)
	}
}

// TestREADMECommands: the README's table of commands lists every command
// memsym has, and no other.
func TestREADMECommands(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `memsym ([a-z]+)").FindAllStringSubmatch(string(b), -1) {
		listed[m[1]] = true
	}
	for _, n := range commandNames() {
		if !listed[n] {
			t.Errorf("README: the table of commands has no memsym %s", n)
		}
		delete(listed, n)
	}
	for n := range listed {
		t.Errorf("README: the table of commands lists memsym %s, which is no command", n)
	}
}
