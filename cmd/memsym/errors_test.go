package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// commandLineCases reads the table of docs/errors.md's section "On the
// command line": rows of "| case | `memsym ...` | `message` |".
func commandLineCases(t *testing.T) [][3]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "docs", "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n## On the command line\n")
	if !ok {
		t.Fatal("docs/errors.md has no section \"On the command line\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	cell := regexp.MustCompile("^\\| (.*?) \\| `(memsym [^`]*)` \\| `(.*)` \\|$")
	var out [][3]string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| case ") {
			continue
		}
		m := cell.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("docs/errors.md: expected | case | `memsym ...` | `message` |, found %s", line)
		}
		out = append(out, [3]string{m[1], m[2], m[3]})
	}
	return out
}

// TestErrorsDocumented runs every command of docs/errors.md's section "On
// the command line" and checks that memsym says exactly what the page
// shows, as bad usage.
func TestErrorsDocumented(t *testing.T) {
	cases := commandLineCases(t)
	if len(cases) < 8 {
		t.Fatalf("%d cases on the command line, expected more", len(cases))
	}
	for _, c := range cases {
		args := strings.Fields(strings.TrimPrefix(c[1], "memsym "))
		out, errs, code := runCLI(args...)
		if code != 2 || out != "" || errs != c[2]+"\n" {
			t.Errorf("%s: %s: exit %d, stdout %q\n got %s\nwant %s", c[0], c[1], code, out, strings.TrimSuffix(errs, "\n"), c[2])
		}
	}
}
