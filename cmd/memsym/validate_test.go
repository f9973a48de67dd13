package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestValidate checks recordings: one line each for those that follow the
// format, and the first that does not stops it, exit 1, saying where.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join("testdata", "record", "views-heavy-small.jsonl")
	out := mustRunCLI(t, "validate", good, filepath.Join("testdata", "record", "gpt-course.jsonl"))
	want := good + ": ok: 14 buffers, 17 views, 27 operations, `Views.apply` in f32 at B = 1, T = 3\n" +
		"testdata/record/gpt-course.jsonl: ok: 77 buffers, 45 operations, `GPT.apply` in f64 at B = 2, T = 16\n"
	if out != filepath.FromSlash(want) {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}

	// A recording written by memsym record is valid, at any point.
	rec := filepath.Join(dir, "llama.jsonl")
	mustRunCLI(t, "record", "--program", "llama2-7b-block", "--dim", "T=3", "-o", rec)
	if out := mustRunCLI(t, "validate", rec); out != rec+": ok: 38 buffers, 23 operations, `DecoderBlock.apply` in f32 at B = 1, T = 3\n" {
		t.Errorf("a recording of memsym record: %s", out)
	}

	// "-" reads stdin.
	f, err := os.Open(good)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	out = mustRunCLI(t, "validate", "-")
	os.Stdin = saved
	if out != "<stdin>: ok: 14 buffers, 17 views, 27 operations, `Views.apply` in f32 at B = 1, T = 3\n" {
		t.Errorf("from stdin: %s", out)
	}

	// Cut short, garbage, out of order: each bad one is one line on
	// stderr, and the files after it are checked too.
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(whole), "\n")
	okLine := good + ": ok: 14 buffers, 17 views, 27 operations, `Views.apply` in f32 at B = 1, T = 3\n"
	var bad []string
	var wants []string
	for _, c := range []struct {
		name, text, want string
	}{
		{"cut.jsonl", strings.Join(lines[:10], ""), ":10: the recording ends without the result line {\"result\": [...]}"},
		{"garbage.jsonl", "not json\n", ":1: expected a record, a JSON object {...}, found \"not json\""},
		{"empty.jsonl", "", ":1: the recording ends without the header and the result line"},
		{"twice.jsonl", lines[0] + lines[0], ":2: "},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := runCLI("validate", good, path, good)
		if code != 1 || out != okLine+okLine || !strings.HasPrefix(errs, "memsym: "+path+c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 with two ok lines, and %q", c.name, code, out, errs, path+c.want)
		}
		bad, wants = append(bad, path), append(wants, "memsym: "+path+c.want)
	}
	// All at once, among good ones: one line each, in order.
	args := []string{"validate", good}
	for _, b := range bad {
		args = append(args, b, good)
	}
	out, errs, code := runCLI(args...)
	got := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if code != 1 || out != strings.Repeat(okLine, len(bad)+1) || len(got) != len(wants) {
		t.Fatalf("every bad file: exit %d, stdout %q, stderr %q; want exit 1, %d ok lines and %d errors", code, out, errs, len(bad)+1, len(wants))
	}
	for i := range wants {
		if !strings.HasPrefix(got[i], wants[i]) {
			t.Errorf("error %d: %q, want it to start %q", i+1, got[i], wants[i])
		}
	}
}

// TestValidateInOrder: with stdout and stderr one stream, as in a CI log,
// each file's line comes in the order the files were given, a failure as
// it is found.
func TestValidateInOrder(t *testing.T) {
	good := filepath.Join("testdata", "record", "gpt-course.jsonl")
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var both bytes.Buffer
	code := exitCode(run(&both, &both, []string{"validate", good, empty, good, empty, good}), &both)
	lines := strings.Split(strings.TrimSuffix(both.String(), "\n"), "\n")
	var got []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, good+": ok: "):
			got = append(got, "ok")
		case l == "memsym: "+empty+":1: the recording ends without the header and the result line {\"result\": [...]}":
			got = append(got, "bad")
		default:
			got = append(got, l)
		}
	}
	if want := []string{"ok", "bad", "ok", "bad", "ok"}; code != 1 || !slices.Equal(got, want) {
		t.Errorf("exit %d, lines %q; want exit 1 and %q", code, got, want)
	}
}

// validateFullStdout fails every write, as stdout on a full disk does.
type validateFullStdout struct{}

var errValidateNoSpace = errors.New("no space left on device")

func (validateFullStdout) Write([]byte) (int, error) { return 0, errValidateNoSpace }

// TestValidateStdoutError reports a failure to write stdout, exit 1.
func TestValidateStdoutError(t *testing.T) {
	var errs bytes.Buffer
	code := exitCode(run(validateFullStdout{}, &errs, []string{"validate", filepath.Join("testdata", "record", "gpt-course.jsonl")}), &errs)
	if code != 1 || errs.String() != "memsym: no space left on device\n" {
		t.Errorf("validate to a full stdout: exit %d, stderr %q; want exit 1 and the write's error", code, errs.String())
	}
}

// TestValidateQuotesControlCharacters: an entry or a realization holding a
// newline or an escape is quoted, so that validate's one line per file
// stays one line and cannot be forged by a recording.
func TestValidateQuotesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "esc.jsonl")
	rec := `{"memsym": 1, "dims": {"B": 2}, "entry": "E\nother.jsonl: ok: forged\u001b[31m", "realization": "f32\n"}` + "\n" + `{"result": []}` + "\n"
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRunCLI(t, "validate", path)
	want := path + `: ok: 0 buffers, 0 operations, "E\nother.jsonl: ok: forged\x1b[31m" in "f32\n" at B = 2` + "\n"
	if out != want {
		t.Errorf("validate:\n got %q\nwant %q", out, want)
	}
}
