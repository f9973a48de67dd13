package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// runRecordCmd runs memsym with args in process and returns its stdout,
// stderr and exit code.
func runRecordCmd(args ...string) (stdout, stderr string, code int) {
	var out, errs bytes.Buffer
	code = exitCode(run(&out, &errs, args), &errs)
	return out.String(), errs.String(), code
}

func TestRecordCmdGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"record/gpt-course.jsonl", []string{"record", "--program", "gpt-course"}},
		{"record/llama2-int4-T7.jsonl", []string{"record", "--program=llama2-7b-block-int4", "--dim", "T=7", "--const", "D=256", "--const", "H=2", "--const", "F=384", "--const", "V=100"}},
		{"record/views-heavy-small.jsonl", []string{"record", "--const", "D=8", "--program", "views-heavy", "--dim", "B=1", "--dim", "T=3", "--const", "H=2"}},
	} {
		out, errs, code := runRecordCmd(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		golden(t, c.golden, []byte(out))
	}
}

// TestRecordCmdReadsBack reads the written recording back and counts it:
// the seed's numbers survive the file.
func TestRecordCmdReadsBack(t *testing.T) {
	out, errs, code := runRecordCmd("record", "--program", "gpt-course", "--dim", "B=2", "--dim", "T=16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rec, err := record.Read(strings.NewReader(out), "gpt-course.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := count.At(rec)
	if !c.Peak.Equal(poly.Int(149504)) || !c.Needs.Equal(poly.Int(1052928)) {
		t.Errorf("read back: peak %s, needs %s; want 149504 and 1052928", c.Peak, c.Needs)
	}
}

// TestRecordCmdFile writes with -o: the file holds what stdout would, and
// nothing else is left in the directory; on an error an existing file is
// left as it was.
func TestRecordCmdFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	want, _, _ := runRecordCmd("record", "--program", "mlp-width")
	if _, errs, code := runRecordCmd("record", "--program", "mlp-width", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("the file holds %d bytes (%v), stdout %d", len(got), err, len(want))
	}

	if _, _, code := runRecordCmd("record", "--program", "mlp-width", "--dim", "Q=1", "-o", path); code != 2 {
		t.Errorf("an unknown dimension: exit %d, want 2 (bad usage)", code)
	}
	if again, _ := os.ReadFile(path); string(again) != want {
		t.Errorf("a failed record changed %s", path)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files left in the directory, want 1", len(entries))
	}
}

func TestRecordCmdErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string // the last line of stderr
	}{
		{[]string{"record"}, 2, "memsym: record needs --program NAME or --torch FILE.py:FUNCTION; memsym programs lists the bundled programs"},
		{[]string{"record", "--torch", "m.py:build"}, 2, "memsym: record --torch needs the point: --dim B=2,T=16, a value for each of the function's dimensions, outside the quotes"},
		{[]string{"record", "--torch", "m.py:build --dim B=3"}, 2, "memsym: record --torch needs the point: --dim B=2,T=16, a value for each of the function's dimensions, outside the quotes"},
		{[]string{"record", "--torch", "m.py:build", "--dim", "B=2", "--optimizer", "sgd"}, 2, "memsym: --optimizer goes with --program: a PyTorch model's training step is the recorder's own flag (--torch 'FILE.py:FUNCTION --step adamw', docs/torch.md)"},
		{[]string{"record", "--torch", "m.py:build", "--dim", "B=0,T=16"}, 2, "memsym: --dim B=0: expected an integer of at least 1, as every dimension is"},
		{[]string{"record", "--program", "gpt-course", "extra"}, 2, `memsym: record takes no arguments, found "extra"; usage: memsym record ` + recordLine},
		{[]string{"record", "--program", "gpt-course", "--dim", "B"}, 2, ""},
		{[]string{"record", "--program", "gpt-course", "--dim", "B=x"}, 2, ""},
		{[]string{"record", "--program", "gpt-course", "--dim", "B=2", "--dim", "B=3"}, 2, ""},
		{[]string{"record", "--program", "gpt"}, 2, `memsym: no bundled program "gpt": expected one of gpt-course, llama2-7b-block, llama2-7b-block-int4, bert-encoder, encdec-cross, decode-kv-cache, mlp-width, mlp-train-step, conv-same, ssm-scan, moe-layer, views-heavy, mixed-precision, synthetic, layers-as-dim, gpt-depth, strided-conv`},
		{[]string{"record", "--program", "gpt-course", "--dim", "N=3"}, 2, `memsym: --dim N: gpt-course has no dimension N; its dimensions are B and T`},
		{[]string{"record", "--program", "gpt-course", "--const", "Q=3"}, 2, `memsym: --const Q: gpt-course has no constant Q; its constants are D, H and L`},
		{[]string{"record", "--program", "gpt-course", "--const", "D=63"}, 2, "memsym: --const: D = 63 is not divisible by H = 2"},
		{[]string{"record", "--program", "gpt-course", "--dim", "B=0"}, 2, "memsym: gpt-course: dimension B = 0: expected an integer from 1 to 1099511627776"},
		{[]string{"record", "--program", "gpt-course", "-o", "/nonexistent-dir/r.jsonl"}, 1, ""},
		{[]string{"record", "-h"}, 0, ""},
	} {
		_, errs, code := runRecordCmd(c.args...)
		lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
		if code != c.code || c.want != "" && lines[len(lines)-1] != c.want {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	_, errs, _ := runRecordCmd("record", "--program", "gpt-course", "--dim", "B=2", "--dim", "B=3")
	if !strings.Contains(errs, "B is given twice") {
		t.Errorf("a dimension given twice: %s", errs)
	}
	_, errs, _ = runRecordCmd("record", "-h")
	if !strings.HasPrefix(errs, "Usage: memsym record "+recordUsage) {
		t.Errorf("-h: %s", errs)
	}
}

// TestRecordCmdOutPaths writes with -o to what is not a plain new file:
// "-" is stdout, a directory is refused, a symbolic link's target is
// written and the link kept, and a pipe (/dev/fd/N, as bash's >(command)
// gives) is written in place.
func TestRecordCmdOutPaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	want, _, _ := runRecordCmd("record", "--program", "mlp-width")

	out, errs, code := runRecordCmd("record", "--program", "mlp-width", "-o", "-")
	if code != 0 || out != want {
		t.Errorf("-o -: exit %d, %d bytes on stdout, want %d: %s", code, len(out), len(want), errs)
	}
	if _, err := os.Lstat("-"); err == nil {
		t.Error("-o - wrote a file named -")
	}

	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runRecordCmd("record", "--program", "mlp-width", "-o", sub)
	if code != 1 || errs != "memsym: -o "+sub+": is a directory\n" {
		t.Errorf("-o a directory: exit %d, stderr %q", code, errs)
	}
	if entries, _ := os.ReadDir(sub); len(entries) != 0 {
		t.Errorf("-o a directory left %d files in it", len(entries))
	}

	real := filepath.Join(sub, "real.jsonl")
	if err := os.WriteFile(real, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(filepath.Join("sub", "real.jsonl"), link); err != nil {
		t.Logf("no symbolic links here: %v", err)
	} else {
		if _, errs, code := runRecordCmd("record", "--program", "mlp-width", "-o", link); code != 0 {
			t.Fatalf("-o a link: exit %d: %s", code, errs)
		}
		if got, _ := os.ReadFile(real); string(got) != want {
			t.Errorf("-o a link: its target holds %d bytes, want %d", len(got), len(want))
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != fs.ModeSymlink {
			t.Errorf("-o a link replaced the link: %v (%v)", fi.Mode(), err)
		}
		if entries, _ := os.ReadDir(sub); len(entries) != 1 {
			t.Errorf("-o a link left %d files beside its target, want 1", len(entries))
		}
	}

	if runtime.GOOS == "linux" {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(r)
			got <- string(b)
		}()
		_, errs, code := runRecordCmd("record", "--program", "mlp-width", "-o", fmt.Sprintf("/dev/fd/%d", w.Fd()))
		w.Close()
		if code != 0 {
			t.Errorf("-o /dev/fd/N: exit %d: %s", code, errs)
		}
		if s := <-got; s != want {
			t.Errorf("-o /dev/fd/N: the reader got %d bytes, want %d", len(s), len(want))
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d files, want link.jsonl and sub", len(entries))
	}
}

// TestRecordCmdHelp lists only the flags record takes: no --compare, and
// no --remat both.
func TestRecordCmdHelp(t *testing.T) {
	_, errs, code := runRecordCmd("record", "-h")
	if code != 0 {
		t.Fatalf("record -h: exit %d", code)
	}
	for _, bad := range []string{"-compare", "both"} {
		if strings.Contains(errs, bad) {
			t.Errorf("record -h lists %q:\n%s", bad, errs)
		}
	}
	for _, good := range []string{"-step\n", "-remat store|recompute\n", "-optimizer ", "-types ", "-o FILE\n"} {
		if !strings.Contains(errs, good) {
			t.Errorf("record -h does not list %q:\n%s", good, errs)
		}
	}
	if _, errs, code := runRecordCmd("record", "--program", "gpt-course", "--step", "--compare"); code != 2 || !strings.Contains(errs, "-compare") {
		t.Errorf("record --compare: exit %d, %q", code, errs)
	}
}
