package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageFlagMistakes: a mistake in the page's flags is bad usage (exit
// 2), said on one line before any directory is made or anything written.
func TestPageFlagMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--program", "gpt-course", "--max", "T=0"}, "--max T=0: dimensions are integers of at least 1"},
		{[]string{"--program", "gpt-course", "--max", "T=-3"}, "--max T=-3: dimensions are integers of at least 1"},
		{[]string{"--program", "gpt-course", "--max", "T=8"}, "--max T=8: below T's first value on the page, 16: expected at least 16"},
		{[]string{"--program", "gpt-course", "--at", "B=8,T=64", "--max", "T=32"}, "--max T=32: below T's first value on the page, 64: expected at least 64"},
		{[]string{"--program", "gpt-course", "--name", "../x"}, "--name ../x: expected a file name without a directory"},
		{[]string{"--program", "gpt-course", "--name", "sub/x"}, "--name sub/x: expected a file name without a directory"},
		{[]string{"--program", "gpt-course", "--name", ".."}, "--name ..: expected a file name without a directory"},
		{[]string{"--program", "bert-encoder", "--at", "B=8,T=1000"}, "--at B=8,T=1000: bert-encoder does not run at B = 8, T = 1000: T = 1000 is more than P = 512"},
	} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "page")
		out, errs, code := runCLI(append([]string{"page", "-o", dir}, c.args...)...)
		if code != 2 || out != "" || errs != "memsym: "+c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant memsym: %s", c.args, code, out, strings.TrimSuffix(errs, "\n"), c.want)
		}
		if entries, _ := os.ReadDir(parent); len(entries) != 0 {
			t.Errorf("%v: a refused page left %s in %s", c.args, entries[0].Name(), parent)
		}
	}
}

// TestPageStopsWhereTheProgramDoes: a bundled program's page holds each
// dimension's range where the program runs and why it stops there, even
// under a larger --max; explain's page beside the chapter is the same.
func TestPageStopsWhereTheProgramDoes(t *testing.T) {
	for _, c := range []struct {
		args  []string
		dim   string
		stops string
	}{
		{[]string{"--program", "bert-encoder", "--max", "T=100000"},
			`{"name":"T","min":1,"max":512,`,
			`"stops":["bert-encoder does not run at T = 513: T = 513 is more than P = 512"]`},
		{[]string{"--program", "strided-conv", "--const", "S=1"},
			`{"name":"N","min":3,"max":32768,`,
			`"stops":["strided-conv does not run at N = 2: K = 3 is more than N = 2"]`},
	} {
		dir := t.TempDir()
		mustRunCLI(t, append([]string{"page", "-o", dir, "--name", "p"}, c.args...)...)
		page, err := os.ReadFile(filepath.Join(dir, "p.html"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), c.dim) || !strings.Contains(string(page), c.stops) {
			t.Errorf("%v: the page's data holds no %s… %s", c.args, c.dim, c.stops)
		}
	}

	dir := t.TempDir()
	mustRunCLI(t, "page", "--program", "bert-encoder", "-o", dir)
	mustRunCLI(t, "explain", "--program", "bert-encoder", "-o", dir, "--format", "md,page", "--verify", "0", "--name", "ch")
	alone, err := os.ReadFile(filepath.Join(dir, "bert-encoder.html"))
	if err != nil {
		t.Fatal(err)
	}
	beside, err := os.ReadFile(filepath.Join(dir, "ch-page.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(beside), `"stops":["bert-encoder does not run at T = 513`) || string(beside) != string(alone) {
		t.Error("explain's page of bert-encoder does not stop T where memsym page's does")
	}
}
