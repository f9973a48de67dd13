package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// readDir returns the files of dir by name, but for the runs' lists of
// what they wrote (.STEM.sha256), which TestExplainCourseGPT reads.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".sha256") {
			continue
		}
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

// TestExplainCourseGPT writes the course GPT's chapter in every format: one
// model at D = 64 with its crossover at T = 75 confirmed, the crossover at
// the course's constants too, each format what it says, and a second run
// writing the same bytes.
func TestExplainCourseGPT(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chapter13")
	out := mustRunCLI(t, "explain", "--program", "gpt-course", "-o", dir)
	files := readDir(t, dir)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	want := []string{"chapter13-calls.svg", "chapter13-calls.tex", "chapter13-candidates.svg", "chapter13-candidates.tex", "chapter13-formulas.tex", "chapter13-live.svg",
		"chapter13-live.tex", "chapter13-tikz.tex", "chapter13.html", "chapter13.md", "chapter13.pdf"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("wrote %v, want %v", names, want)
	}
	if out != "memsym explain: wrote 11 files into "+dir+": "+strings.Join(want, ", ")+"\n" {
		t.Errorf("the summary: %q", out)
	}
	// The run's list: each file with its SHA-256, as sha256sum writes it.
	list, err := os.ReadFile(filepath.Join(dir, ".chapter13.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, n := range want {
		lines = append(lines, fmt.Sprintf("%x  %s", sha256.Sum256(files[n]), n))
	}
	if got := strings.TrimSuffix(string(list), "\n"); got != strings.Join(lines, "\n") {
		t.Errorf("the run's list:\n%s\nwant\n%s", got, strings.Join(lines, "\n"))
	}
	if !bytes.HasPrefix(files["chapter13.pdf"], []byte("%PDF-")) {
		t.Errorf("chapter13.pdf is no PDF")
	}
	if !bytes.Contains(files["chapter13.html"], []byte("<table")) {
		t.Errorf("chapter13.html has no table")
	}
	if !bytes.Contains(files["chapter13-tikz.tex"], []byte(`\begin{document}`)) {
		t.Errorf("chapter13-tikz.tex is no LaTeX document")
	}
	if !bytes.Contains(files["chapter13-formulas.tex"], []byte(`\memsym@define\memsymPeakAtPoint{149\,504}`)) {
		t.Errorf("chapter13-formulas.tex has no macro of the peak at the point")
	}

	md := plainThinSpaces(files["chapter13.md"])
	for _, want := range []string{
		"*D* = 64, *H* = 2, *L* = 2",   // the one set of constants
		"149 504",                      // the peak at D = 64, B = 2, T = 16
		"903 424",                      // the inputs there
		"1 052 928",                    // what is needed there
		"4 608 · *B* · *T* + 8 · *T²*", // the feed-forward's candidate at D = 64, grouped as the prose
		"48 · *B* · *T²* + 1 024 · *B* · *T* + 8 · *T²*",
		"*T* ≥ 75", // its crossover
		"| *B* = 2, *T* = 75 | 738 600 bytes (721 KiB) at operation 12 |", // confirmed
		"*D* = 384, *H* = 6, *L* = 6",                                     // the course's constants
		"*T* ≥ 150: 144 · *B* · *T²* + 6 144 · *B* · *T* + 8 · *T²*",      // and its crossover
		"| *B* = 2, *T* = 150 | 8 503 200 bytes (8.11 MiB) at operation 12 |",
		"| `mask` | `GPT.apply` |", // made by the entry itself
	} {
		if !strings.Contains(md, want) {
			t.Errorf("chapter13.md has no %q", want)
		}
	}
	if strings.Contains(md, "disagrees") || strings.Contains(md, "contradicts") || strings.Contains(md, "UNCHECKED") {
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
// seed's counts at B = 1, T = 384, its four candidates, and its crossover
// found at B = 1 alone.
func TestExplainLlama(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "llama2-7b-block", "-o", dir, "--format", "md")
	files := readDir(t, dir)
	if len(files) != 4 || files["chapter13.md"] == nil {
		t.Errorf("--format md wrote %d files, want chapter13.md and its three figures", len(files))
	}
	md := plainThinSpaces(files["chapter13.md"])
	for _, want := range []string{
		"1 864 417 280", // the parameters
		"57 016 320",    // the peak, at the SwiGLU
		"1 921 439 744", // what is needed
		"1.79 GiB",      // beside it
		"81 920 · *B* · *T* + 4 · *T²* + 16 384 · *T*",
		"128 · *B* · *T²* + 65 536 · *B* · *T* + 4 · *T²*",
		"256 · *B* · *T²* + 32 768 · *B* · *T* + 4 · *T²*",
		"148 480 · *B* · *T*",
		"the feed-forward's `gate`, `up` and `swiglu`",
		"Along *T*, at *B* = 1, memsym found",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("chapter13.md has no %q", want)
		}
	}
	if strings.Contains(md, "for every *B* ≥ 1") {
		t.Errorf("the Llama chapter claims its crossover for every B")
	}
}

// --name sets the files' stem, --tex-prefix the macros'; a second run that
// writes fewer files removes and lists the first's others, and leaves a
// user's files alone, naming those of memsym's the user changed.
func TestExplainNameAndStale(t *testing.T) {
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "mlp-width", "-o", dir, "--name", "mlp", "--tex-prefix", "mlpwidth", "--format", "md,html,pdf,tikz,page")
	files := readDir(t, dir)
	for _, want := range []string{"mlp.md", "mlp.pdf", "mlp-tikz.tex", "mlp-formulas.tex", "mlp-candidates.svg", "mlp-page.html"} {
		if files[want] == nil {
			t.Errorf("--name mlp wrote no %s", want)
		}
	}
	if !bytes.Contains(files["mlp-formulas.tex"], []byte(`\memsym@define\mlpwidthPeakA{`)) {
		t.Errorf("--tex-prefix mlpwidth: the macros are not prefixed:\n%s", files["mlp-formulas.tex"])
	}
	if err := os.WriteFile(filepath.Join(dir, "mlp-notes.tex"), []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file of memsym's the user changed is left, and named: it still
	// holds the first run's figures.
	live := append(files["mlp-live.tex"], "% my note\n"...)
	if err := os.WriteFile(filepath.Join(dir, "mlp-live.tex"), live, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI("explain", "--program", "mlp-width", "-o", dir, "--name", "mlp", "--format", "md")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "memsym explain: removed 7 files an earlier run wrote and this one did not: mlp-calls.tex, mlp-candidates.tex, mlp-formulas.tex, mlp-page.html, mlp-tikz.tex, mlp.html, mlp.pdf\n") {
		t.Errorf("the second run's summary: %q", out)
	}
	if want := "memsym explain: left 1 file an earlier run wrote and this one did not, changed since, so taken as yours; what memsym wrote in it is that run's: mlp-live.tex\n"; stderr != want {
		t.Errorf("the second run's warning: %q, want %q", stderr, want)
	}
	left := readDir(t, dir)
	var names []string
	for n := range left {
		names = append(names, n)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "mlp-calls.svg mlp-candidates.svg mlp-live.svg mlp-live.tex mlp-notes.tex mlp.md" {
		t.Errorf("left %s", got)
	}
}

// TestExplainRefuted: a chapter whose model a fresh recording contradicts
// (here at B = 6, one of the points --verify records, while the grid and
// its check points hold) is not written, and an earlier run's files stay
// as they were.
func TestExplainRefuted(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	recorder := func(at6 string) string {
		return `printf '{{"memsym": 1, "dims": {{"B": %s}}}}\n{{"buffer": 1, "dtype": "f32", "shape": [%s], "role": "input"}}\n` +
			`{{"buffer": 2, "dtype": "f32", "shape": [%s]}}\n{{"op": "F.apply", "reads": [1], "writes": [2]}}\n{{"result": [2]}}\n' {B} {B} ` +
			`$(if [ {B} = 6 ]; then echo ` + at6 + `; else echo {B}; fi)`
	}
	dir := filepath.Join(t.TempDir(), "out")
	_, errs, code := runCLI("explain", "--recorder", recorder("7"), "--grid", "B=1,2,3", "-o", dir)
	if want := "memsym: the model does not hold at B = 6: "; code != 1 || !strings.HasPrefix(errs, want) || !strings.HasSuffix(errs, " (nothing was written)\n") {
		t.Fatalf("exit %d, stderr %q; want 1 and %q... (nothing was written)", code, errs, want)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s (%v)", dir, err)
	}
	mustRunCLI(t, "explain", "--recorder", recorder("6"), "--grid", "B=1,2,3", "-o", dir)
	before := readDir(t, dir)
	if _, _, code := runCLI("explain", "--recorder", recorder("7"), "--grid", "B=1,2,3", "-o", dir, "--format", "md"); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	after := readDir(t, dir)
	if len(after) != len(before) {
		t.Errorf("%d files before the refused run, %d after", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("the refused run changed %s", name)
		}
	}
}

// The same recordings give the same chapter whatever the order the files
// are given in and wherever they lie: the chapter and the page name them
// by the grid's first point's file.
func TestExplainFilesAnyOrder(t *testing.T) {
	var chapters [][]byte
	for k, reverse := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), fmt.Sprint("grid", k))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, b := range []int{1, 2, 3} {
			for _, tt := range []int{4, 8, 12} {
				f := filepath.Join(dir, fmt.Sprintf("r_B%d_T%d.jsonl", b, tt))
				mustRunCLI(t, "record", "--program", "gpt-course", "--dim", fmt.Sprintf("B=%d,T=%d", b, tt), "-o", f)
				files = append(files, f)
			}
		}
		if reverse {
			slices.Reverse(files)
		}
		out := filepath.Join(t.TempDir(), "out")
		mustRunCLI(t, append([]string{"explain", "-o", out, "--format", "md,page"}, files...)...)
		got := readDir(t, out)
		chapters = append(chapters, append(got["chapter13.md"], got["chapter13-page.html"]...))
		if !bytes.Contains(got["chapter13.md"], []byte("from files (at the grid's first point, r\\_B1\\_T4.jsonl)")) {
			t.Errorf("the chapter does not name the grid's first point's file:\n%.600s", got["chapter13.md"])
		}
	}
	if !bytes.Equal(chapters[0], chapters[1]) {
		t.Errorf("the files in another order, in another folder, gave another chapter or page")
	}
}

// explain's fresh points stay within twice the grid's largest values: a
// recorder that cannot run far past its grid (out of memory past T = 40
// on T ∈ {4, 8, 12}) still gets its chapter, checked at its default three
// points; verify, which reaches further, says where it could not record.
func TestExplainVerifiesNearTheGrid(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	recorder := `if [ {T} -gt 40 ]; then echo "out of memory at T={T}" >&2; exit 3; fi; ` +
		`printf '{{"memsym": 1, "dims": {{"T": %s}}}}\n{{"buffer": 1, "dtype": "f32", "shape": [%s], "role": "input"}}\n{{"buffer": 2, "dtype": "f32", "shape": [%s, %s]}}\n{{"op": "F.apply", "reads": [1], "writes": [2]}}\n{{"result": [2]}}\n' {T} {T} {T} {T}`
	dir := filepath.Join(t.TempDir(), "out")
	out := mustRunCLI(t, "explain", "--recorder", recorder, "--grid", "T=4,8,12", "-o", dir, "--format", "md")
	if !strings.Contains(out, "wrote 1 file into") {
		t.Errorf("explain: %s", out)
	}
	_, _, code := runCLI("verify", "--recorder", recorder, "--grid", "T=4,8,12")
	if code != 1 {
		t.Errorf("verify: exit %d, want 1: its far point cannot be recorded", code)
	}
}

// A recording beside a crossover that contradicts it refuses the chapter,
// saying where and what was recorded against what was predicted: here
// T² against 10·T bytes, which cross at T = 10, and at T = 9 the second
// buffer is 1 000 bytes larger than its polynomial.
func TestExplainCrossoverContradicted(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	recorder := `printf '{{"memsym": 1, "entry": "Tie", "dims": {{"T": %s}}}}\n{{"buffer": 1, "dtype": "u8", "shape": [%s, %s]}}\n{{"op": "a", "writes": [1]}}\n` +
		`{{"buffer": 2, "dtype": "u8", "shape": [%s]}}\n{{"op": "b", "writes": [2]}}\n{{"result": []}}\n' {T} {T} {T} $(if [ {T} = 9 ]; then echo 1090; else echo $((10 * {T})); fi)`
	dir := filepath.Join(t.TempDir(), "out")
	_, errs, code := runCLI("explain", "--recorder", recorder, "--grid", "T=2,3,4", "--verify", "0", "-o", dir)
	want := "memsym: the recordings contradict the crossovers at T = 9: recorded peak 1090 bytes (1.06 KiB) at operation 2, where candidate 2 predicts 90 bytes at operation 2; " +
		"the recording is not the model's there: recorder(T=9):4: buffer 2, made by operation 2 (\"b\", the entry's own), has 1090 bytes at T = 9 but its polynomial 10 · T gives 90: its bytes are not a polynomial of degree ≤ 2 in T (nothing was written)\n"
	if code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s (%v)", dir, err)
	}
}

// A recording without dimensions gets its chapter, with its numbers and a
// sentence saying why there are no polynomials.
func TestExplainNoDimensions(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "tiny.jsonl")
	if err := os.WriteFile(rec, []byte(`{"memsym": 1, "entry": "Tiny.apply", "dims": {}, "consts": {"D": 8}, "realization": "f32"}
{"buffer": 1, "dtype": "f32", "shape": [4, 8], "role": "input", "name": "x"}
{"buffer": 2, "dtype": "f32", "shape": [8, 8], "role": "param", "name": "weight", "group": "lin"}
{"buffer": 3, "dtype": "f32", "shape": [4, 8], "name": "y", "group": "lin"}
{"op": "Linear.apply", "path": "lin", "reads": [1, 2], "writes": [3]}
{"buffer": 4, "bytes": 100, "name": "scratch"}
{"op": "Tiny.scratch", "reads": [3], "writes": [4]}
{"buffer": 5, "dtype": "f32", "shape": [4], "name": "out"}
{"op": "Tiny.out", "reads": [4, 3], "writes": [5]}
{"result": [5]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustRunCLI(t, "explain", rec, "-o", dir)
	md := string(readDir(t, dir)["chapter13.md"])
	for _, want := range []string{"`Tiny.apply` has no dimensions", "| the peak of live bytes, at operation 3 of 3 | 244 |", "## 13.2 Its counts"} {
		if !strings.Contains(md, want) {
			t.Errorf("the chapter of a recording without dimensions has no %q:\n%s", want, md)
		}
	}
}

// TestExplainUsage: the formats, the names and -o are checked before
// anything is recorded or written. A want ending in a space is the start
// of the one line said.
func TestExplainUsage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--program", "gpt-course"}, "memsym: explain needs -o DIR, the directory to write the chapter into"},
		{[]string{"--program", "gpt-course", "-o", dir, "--format", "md,docx"}, "memsym: --format docx: expected some of html, md, pdf, tikz, page"},
		{[]string{"--program", "gpt-course", "-o", dir, "--name", "../x"}, "memsym: --name ../x: expected letters, digits and _, beginning with a letter or a digit"},
		{[]string{"--program", "gpt-course", "-o", dir, "--tex-prefix", ""}, "memsym: --tex-prefix \"\": expected letters alone, as a LaTeX macro's name is"},
		{[]string{"--program", "gpt-course", "-o", dir, "--name", ""}, "memsym: --name \"\": expected letters, digits and _, beginning with a letter or a digit"},
		{[]string{"--program", "gpt-course", "-o", dir, "--tex-prefix", "gpt2"}, "memsym: --tex-prefix gpt2: expected letters alone, as a LaTeX macro's name is"},
		{[]string{"--program", "gpt-course", "-o", dir, "--scale", "cubic"}, "memsym: --scale cubic: expected auto, linear or log"},
		{[]string{"-o", dir, "--other-consts", "D=384", "x.jsonl"}, "memsym: --other-consts records the program at other constants: use it with --program"},
		{[]string{"-o", dir}, "memsym: no recordings: give recording files, "},
		{[]string{"-o", dir, "--confirm", "x.jsonl"}, "memsym: --confirm records new points: use it with --program, --recorder or --torch"},
	} {
		out, errs, code := runCLI(append([]string{"explain"}, c.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") ||
			!strings.HasSuffix(c.want, " ") && errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("bad usage created %s", dir)
	}
}

// TestExplainGridFiles writes the chapter of recordings in files on a grid,
// without --at: the model is built, no point is counted (a file cannot be
// recorded at a new one), and the chapter says that memsym read the
// recordings rather than made them.
func TestExplainGridFiles(t *testing.T) {
	tmp := t.TempDir()
	var grid []string
	for _, b := range []string{"1", "2", "3"} {
		for _, tt := range []string{"64", "128", "192"} {
			path := filepath.Join(tmp, "B"+b+"_T"+tt+".jsonl")
			mustRunCLI(t, "record", "--program", "synthetic", "--dim", "B="+b, "--dim", "T="+tt, "--const", "N=10", "-o", path)
			grid = append(grid, path)
		}
	}
	check := filepath.Join(tmp, "check.jsonl")
	mustRunCLI(t, "record", "--program", "synthetic", "--dim", "B=5", "--dim", "T=320", "--const", "N=10", "-o", check)
	dir := filepath.Join(tmp, "out")
	mustRunCLI(t, append([]string{"explain", "-o", dir, "--format", "md", "--check", check}, grid...)...)
	md := string(readDir(t, dir)["chapter13.md"])
	for _, want := range []string{
		"memsym read the recordings of `Synthetic.apply` in f32, made operation by operation on buffers that have an identity, from files (at the grid's first point, " + strings.ReplaceAll(filepath.Base(grid[0]), "_", "\\_") + ")",
		"## 13.2 As polynomials in B and T",
		"recordings read from files cannot be made at new points",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the chapter of recordings in files has no %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "memsym recorded") {
		t.Errorf("the chapter of recordings in files says memsym recorded them:\n%s", md)
	}
}

// TestExplainCaveats: a chapter whose polynomials are checked at no point
// off the grid, and whose buffer's polynomial turns negative (B · T · (3 −
// T) on T ∈ {1, 2, 3}), says both in its text and in its formulas file,
// which a paper inputs without the text.
func TestExplainCaveats(t *testing.T) {
	grid := writeGrid(t, func(b, tt int64) int64 { return b * tt * (3 - tt) })
	grid = grid[:len(grid)-2] // no check point
	dir := t.TempDir()
	mustRunCLI(t, append([]string{"explain", "-o", dir, "--format", "md,tikz"}, grid...)...)
	files := readDir(t, dir)
	md := string(plainThinSpaces(files["chapter13.md"]))
	for _, want := range []string{"the model is UNCHECKED", "A buffer's bytes are never negative, yet the polynomial of `x`'s, −*B* · *T²* + 3 · *B* · *T*, is −4 at *B* = 1, *T* = 4"} {
		if !strings.Contains(md, want) {
			t.Errorf("the chapter lacks %q:\n%s", want, md)
		}
	}
	tex := string(files["chapter13-formulas.tex"])
	for _, want := range []string{"% Note: The polynomials are UNCHECKED", "% Note: The polynomial of x's bytes, −B · T² + 3 · B · T, is −4 at B = 1, T = 4"} {
		if !strings.Contains(tex, want) {
			t.Errorf("the formulas file lacks %q:\n%s", want, tex)
		}
	}
}

// TestExplainWarnsOfLostNames: names whose characters the LaTeX or the
// PDF cannot show are written as ? or empty boxes there, which explain
// says on stderr rather than leave a reader to take them for the names.
func TestExplainWarnsOfLostNames(t *testing.T) {
	grid := writeGrid(t, func(b, tt int64) int64 { return b * tt })
	for _, f := range grid {
		if strings.HasSuffix(f, ".jsonl") {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, bytes.ReplaceAll(b, []byte(`"name": "x"`), []byte(`"name": "注意 вверх\u202e"`)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, errs, code := runCLI(append([]string{"explain", "-o", t.TempDir(), "--format", "pdf,tikz"}, grid...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"memsym explain: chapter13.pdf shows 注 意 U+202E in the recording's names as empty boxes or ?: its fonts lack them\n",
		"memsym explain: the LaTeX (chapter13-tikz.tex, chapter13-formulas.tex and the figures' .tex) writes ? for 注 意 в е р х U+202E in the recording's names: pdflatex's fonts lack them\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.ContainsRune(errs, 0x202e) {
		t.Errorf("stderr writes the bidirectional control as it is: %q", errs)
	}
}

// TestExplainNoEntry: recordings that name no entry point (the format
// allows it) get a chapter about "the program", with no empty code span,
// and their one buffer, given in bytes alone, is said to be one.
func TestExplainNoEntry(t *testing.T) {
	grid := writeGrid(t, func(b, tt int64) int64 { return b * tt })
	dir := t.TempDir()
	mustRunCLI(t, append([]string{"explain", "-o", dir, "--format", "md"}, grid...)...)
	md := string(readDir(t, dir)["chapter13.md"])
	for _, want := range []string{"# 13 Memory: what the program needs", "The one buffer of the program is given in bytes alone, so nothing is known of its axes."} {
		if !strings.Contains(md, want) {
			t.Errorf("the chapter lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "``") || strings.Contains(md, "1 buffers") {
		t.Errorf("an empty code span or \"1 buffers\":\n%s", md)
	}
}

// A program without operations gets its chapter, with dimensions or
// without, and the chapter names no operation 0: before, explain refused
// the one with dimensions ("no peak to follow along B") and wrote "the
// peak is at operation 0" for the other.
func TestExplainWithoutOperations(t *testing.T) {
	dir := t.TempDir()
	var grid []string
	for b := 1; b <= 3; b++ {
		path := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", b))
		text := fmt.Sprintf("{\"memsym\": 1, \"dims\": {\"B\": %d}}\n{\"buffer\": 1, \"dtype\": \"f32\", \"shape\": [%d], \"role\": \"param\"}\n{\"result\": [1]}\n", b, b)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		grid = append(grid, path)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, []byte("{\"memsym\": 1, \"dims\": {}}\n{\"result\": []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{grid, "The program has no operations: nothing is live at any *B* ≥ 1, so the peak is 0 bytes and what is needed is the inputs."},
		{[]string{empty}, "There are no operations: nothing is live, and the peak is 0 bytes."},
	} {
		out := filepath.Join(dir, "ch")
		mustRunCLI(t, append([]string{"explain", "--format", "md", "-o", out}, c.files...)...)
		md, err := os.ReadFile(filepath.Join(out, "chapter13.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), c.want) || strings.Contains(string(md), "operation 0") {
			t.Errorf("%v: the chapter lacks %q or names operation 0:\n%s", c.files, c.want, md)
		}
		os.RemoveAll(out)
	}
}

// TestExplainSizeOneNotRecorded: a chapter of recordings whose grid starts
// above 1 says that its claims at 1 are the polynomials', and where the
// recordings start (the check point at B = 5 among them); a bundled
// program's does not.
func TestExplainSizeOneNotRecorded(t *testing.T) {
	dir := t.TempDir()
	files, check := recordGridAndCheck(t, dir)
	out := filepath.Join(dir, "chapter")
	mustRunCLI(t, append([]string{"explain", "--format", "md", "--check", check, "-o", out}, files...)...)
	md, err := os.ReadFile(filepath.Join(out, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Nothing was recorded at *B* = 1 or *T* = 1: the recordings start at *B* = 5 and *T* = 256. What this chapter says for every value from 1 is said of the polynomials; a program may run other operations where a size is 1 (PyTorch does), and there they are the program's only where a recording at 1 shows it (a check point, --check)."
	if !strings.Contains(string(md), want) {
		t.Errorf("the chapter of recordings lacks %q", want)
	}
	bundled := filepath.Join(dir, "bundled")
	mustRunCLI(t, "explain", "--format", "md", "--program", "gpt-course", "-o", bundled)
	if md, err := os.ReadFile(filepath.Join(bundled, "chapter13.md")); err != nil || strings.Contains(string(md), "Nothing was recorded at") {
		t.Errorf("a bundled program's chapter says nothing was recorded at 1 (%v)", err)
	}
}
