package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memsym page writes one page; memsym explain --format page writes the
// same page beside the chapter; bad flags are usage errors.
func TestPageCommand(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runMemory("page", "--program", "llama2-7b-block", "-o", dir)
	if code != 0 || out != "memsym page: wrote llama2-7b-block.html into "+dir+"\n" {
		t.Fatalf("exit %d: %q %q", code, out, errs)
	}
	alone, err := os.ReadFile(filepath.Join(dir, "llama2-7b-block.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(alone), `<script type="application/json" id="memsym-data">`) {
		t.Error("the page holds no data")
	}

	out, errs, code = runMemory("explain", "--program", "llama2-7b-block", "-o", dir, "--format", "md,page", "--verify", "0", "--name", "ch")
	if code != 0 || !strings.Contains(out, "ch-page.html") {
		t.Fatalf("explain --format page: exit %d: %q %q", code, out, errs)
	}
	beside, err := os.ReadFile(filepath.Join(dir, "ch-page.html"))
	if err != nil {
		t.Fatal(err)
	}
	if string(beside) != string(alone) {
		t.Error("explain's page differs from memsym page's")
	}

	for _, args := range [][]string{
		{"page", "--program", "llama2-7b-block"},
		{"page", "--program", "llama2-7b-block", "-o", dir, "--max", "Q=5"},
		{"page", "--program", "llama2-7b-block", "-o", dir, "--at", "B=2"},
	} {
		if _, errs, code := runMemory(args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, strings.TrimSpace(errs))
		}
	}
	if _, errs, code := runMemory("page", "--program", "llama2-7b-block", "-o", dir, "--max", "T=8"); code != 2 || !strings.Contains(errs, "below T's first value") {
		t.Errorf("--max T=8 under the first value 384: exit %d: %s", code, errs)
	}
}

// TestPageRefusesInexactValues: the page's script holds each value as a
// JavaScript number, exact only to 2^53 − 1, so a larger --max or --at is
// refused, and nothing is written; 2^53 − 1 itself is taken, and held
// where recording files cannot say where the program runs, a bundled
// program stopping its slider where it stops.
func TestPageRefusesInexactValues(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max", "T=9007199254740993"}, "memsym: --max T=9007199254740993: too large for the page, whose sliders are JavaScript numbers: expected at most 9007199254740991 (2^53 − 1)\n"},
		{[]string{"--max", "T=9007199254740992"}, "memsym: --max T=9007199254740992: too large for the page, whose sliders are JavaScript numbers: expected at most 9007199254740991 (2^53 − 1)\n"},
		{[]string{"--at", "B=2,T=9007199254740992"}, "memsym: --at T=9007199254740992: too large for the page, whose sliders are JavaScript numbers: expected at most 9007199254740991 (2^53 − 1)\n"},
	} {
		out, errs, code := runCLI(append([]string{"page", "--program", "gpt-course", "-o", dir}, c.args...)...)
		if code != 2 || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused page wrote %d files", len(entries))
	}
	files, _ := recordGridAndCheck(t, t.TempDir())
	for _, c := range []struct {
		args []string
		name string
		max  string
	}{
		{files, "memory.html", `"max":9007199254740991`},
		{[]string{"--program", "gpt-course"}, "gpt-course.html", `"max":1099511627776`}, // 2^40, gpt-course's largest T
	} {
		out := mustRunCLI(t, append([]string{"page", "-o", dir, "--max", "T=9007199254740991"}, c.args...)...)
		page, err := os.ReadFile(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !strings.Contains(string(page), c.max) {
			t.Errorf("%s: the page does not hold T's largest value, %s", c.name, c.max)
		}
	}
}

// TestPageAt: --at naming a dimension the model lacks says so, before any
// dimension without a value; a missing one and a zero are said as eval
// says them; nothing is written.
func TestPageAt(t *testing.T) {
	for _, c := range []struct{ at, want string }{
		{"Z=1", "memsym: --at Z=1: no dimension Z (the dimensions are B, T)\n"},
		{"B=1,Z=1", "memsym: --at B=1,Z=1: no dimension Z (the dimensions are B, T)\n"},
		{"B=1", "memsym: --at B=1: no value for T: every dimension (B, T) needs one\n"},
		{"B=1,T=0", "memsym: --at B=1,T=0: T = 0: dimensions are integers of at least 1\n"},
	} {
		dir := filepath.Join(t.TempDir(), "page")
		_, errs, code := runCLI("page", "--program", "gpt-course", "-o", dir, "--at", c.at)
		if code != 2 || errs != c.want {
			t.Errorf("--at %s: exit %d, %q; want exit 2, %q", c.at, code, errs, c.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("--at %s: %s was written", c.at, dir)
		}
	}
}

// TestPageUnchecked: a page of a model checked at no point off its grid
// carries that in its data, which the page shows under its title; with a
// check file it does not.
func TestPageUnchecked(t *testing.T) {
	files, check := recordGridAndCheck(t, t.TempDir())
	for _, c := range []struct {
		args      []string
		unchecked bool
	}{
		{files, true},
		{append([]string{"--check", check}, files...), false},
	} {
		out := filepath.Join(t.TempDir(), "page")
		mustRunCLI(t, append([]string{"page", "-o", out}, c.args...)...)
		html, err := os.ReadFile(filepath.Join(out, "memory.html"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(html), `"unchecked":true`); got != c.unchecked {
			t.Errorf("page of %d arguments: unchecked %v, want %v", len(c.args), got, c.unchecked)
		}
	}
	js, err := os.ReadFile("../../page/page.js")
	if err != nil || !strings.Contains(string(js), "data.unchecked") {
		t.Errorf("page.js does not show data.unchecked (%v)", err)
	}
}
