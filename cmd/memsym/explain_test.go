package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// readDir returns the files of dir by name.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// plainThinSpaces returns b with the thin spaces that group digits
// ("149 504") made plain.
func plainThinSpaces(b []byte) string {
	return strings.ReplaceAll(string(b), "\u202f", " ")
}

// TestExplainCourseGPT writes the course GPT's chapter in every format: the
// seed's numbers are in the Markdown, each format is what it says, and a
// second run writes the same bytes.
func TestExplainCourseGPT(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chapter13")
	out := mustRunCLI(t, "explain", "--program", "gpt-course", "-o", dir)
	files := readDir(t, dir)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, want := range []string{"chapter13.md", "chapter13.html", "chapter13.pdf", "chapter13.tex"} {
		if files[want] == nil {
			t.Errorf("no %s among %v", want, names)
		}
	}
	for _, n := range names {
		if !strings.Contains(out, n) {
			t.Errorf("the summary does not name %s: %s", n, out)
		}
	}
	if !strings.HasPrefix(out, "memsym explain: wrote ") || strings.Count(out, "\n") != 1 {
		t.Errorf("the summary: %q", out)
	}
	if !bytes.HasPrefix(files["chapter13.pdf"], []byte("%PDF-")) {
		t.Errorf("chapter13.pdf is no PDF")
	}
	if !bytes.Contains(files["chapter13.html"], []byte("<table")) {
		t.Errorf("chapter13.html has no table")
	}
	if !bytes.Contains(files["chapter13.tex"], []byte(`\begin{document}`)) {
		t.Errorf("chapter13.tex is no LaTeX document")
	}

	md := plainThinSpaces(files["chapter13.md"])
	for _, want := range []string{
		"149 504",   // the peak at D = 64, B = 2, T = 16
		"903 424",   // the inputs there
		"1 052 928", // what is needed there
		"T = 150",   // from where the attention's probabilities hold the peak
		"8 · B · T + 3072 · T + 85745664",
		"736 · B · T",
		"48 · B · T² + 12288 · B · T + 8 · T²",
		"144 · B · T² + 6144 · B · T + 8 · T²",
		"27648 · B · T + 8 · T²",
		"the attention's probabilities",
		"| `mask` | `GPT.apply` |", // made by the entry itself
	} {
		if !strings.Contains(md, want) {
			t.Errorf("chapter13.md has no %q", want)
		}
	}
	if strings.Contains(md, "does not hold") || strings.Contains(md, "disagrees") {
		t.Errorf("chapter13.md reports a failed check")
	}

	// A second run, in a process of its own, and a third in this one,
	// write the same bytes.
	for i, rerun := range []func(args ...string) string{
		func(args ...string) string { return runProcess(t, args...) },
		func(args ...string) string { return mustRunCLI(t, args...) },
	} {
		again := filepath.Join(t.TempDir(), "again")
		rerun("explain", "--program", "gpt-course", "-o", again)
		second := readDir(t, again)
		if len(second) != len(files) {
			t.Errorf("run %d wrote %d files, the first %d", i+2, len(second), len(files))
		}
		for n, b := range files {
			if !bytes.Equal(second[n], b) {
				t.Errorf("%s differs between the first run and run %d", n, i+2)
			}
		}
	}
}

// TestExplainLlama writes the Llama 2 block's chapter in Markdown: the
// seed's counts at B = 1, T = 384 and its four candidates.
func TestExplainLlama(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "llama2-7b-block", "-o", dir, "--format", "md")
	files := readDir(t, dir)
	if len(files) != 3 || files["chapter13.md"] == nil {
		t.Errorf("--format md wrote %d files, want chapter13.md and its two figures", len(files))
	}
	md := plainThinSpaces(files["chapter13.md"])
	for _, want := range []string{
		"1 864 417 280", // the parameters
		"57 016 320",    // the peak, at the SwiGLU
		"1 921 439 744", // what is needed
		"81920 · B · T + 4 · T² + 16384 · T",
		"128 · B · T² + 65536 · B · T + 4 · T²",
		"256 · B · T² + 32768 · B · T + 4 · T²",
		"148480 · B · T",
		"the feed-forward's swiglu",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("chapter13.md has no %q", want)
		}
	}
}

// TestExplainUsage: the formats and -o are checked before anything is
// recorded or written.
func TestExplainUsage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--program", "gpt-course"}, "memsym: explain needs -o DIR, the directory to write the chapter into"},
		{[]string{"--program", "gpt-course", "-o", dir, "--format", "md,docx"}, "memsym: --format docx: expected some of html, md, pdf, tikz"},
		{[]string{"-o", dir}, "memsym: no recordings: give recording files, --recorder COMMAND or --program NAME"},
	} {
		out, errs, code := runCLI(append([]string{"explain"}, c.args...)...)
		if code != 2 || out != "" || errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("bad usage created %s", dir)
	}
}
