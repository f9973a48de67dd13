package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"memsym/programs"
)

func TestProgramsCmdGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"programs/list.txt", []string{"programs"}},
		{"programs/list.json", []string{"programs", "--json"}},
	} {
		out, errs, code := runRecordCmd(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		golden(t, c.golden, []byte(out))
		again, _, _ := runRecordCmd(c.args...)
		if again != out {
			t.Errorf("%v: two runs differ", c.args)
		}
	}
}

// TestProgramsCmdJSON reads the JSON listing back and checks it against the
// programs themselves.
func TestProgramsCmdJSON(t *testing.T) {
	out, _, _ := runRecordCmd("programs", "--json")
	var got programsJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	all := programs.All()
	if len(got.Programs) != len(all) {
		t.Fatalf("%d programs listed, want %d", len(got.Programs), len(all))
	}
	for i, p := range all {
		g := got.Programs[i]
		if g.Name != p.Name || g.Refused != (p.Refusal != "") || len(g.Dims) != len(p.Dims) || len(g.Consts) != len(p.Consts) {
			t.Errorf("%s listed as %+v", p.Name, g)
			continue
		}
		for j, d := range p.Dims {
			if g.Dims[j].Grid != d.Grid || g.Dims[j].Check != d.Check || g.Dims[j].Default != d.Default || g.Dims[j].Max != d.Limit() {
				t.Errorf("%s: dimension %s listed as %+v", p.Name, d.Name, g.Dims[j])
			}
		}
		for j, c := range p.Consts {
			if g.Consts[j].Name != c.Name || g.Consts[j].Default != c.Default || g.Consts[j].Max != c.Limit() {
				t.Errorf("%s: constant %s listed as %+v", p.Name, c.Name, g.Consts[j])
			}
		}
	}
}

// TestProgramsCmdBounds checks that the text says "at most N" of a
// dimension or constant exactly when the JSON's max is below every
// program's limit, and with the same N.
func TestProgramsCmdBounds(t *testing.T) {
	text, _, _ := runRecordCmd("programs")
	out, _, _ := runRecordCmd("programs", "--json")
	var got programsJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	bounded := 0
	for _, p := range got.Programs {
		start := strings.Index(text, "\n"+p.Name+": ")
		block := text[start+1:]
		if end := strings.Index(block, "\n\n"); end >= 0 {
			block = block[:end]
		}
		lines := strings.Split(block, "\n")
		check := func(kind, name string, max, all int64) {
			for _, l := range lines {
				if f := strings.Fields(l); len(f) > 2 && f[0] == kind && f[1] == name {
					says := strings.HasSuffix(l, fmt.Sprintf("; at most %d", max))
					if says != (max < all) || (max >= all && atMost.MatchString(l)) {
						t.Errorf("%s: %q, with max %d in the JSON (every program's limit %d)", p.Name, l, max, all)
					}
					if says {
						bounded++
					}
					return
				}
			}
			t.Errorf("%s: no %s %s in the text", p.Name, kind, name)
		}
		for _, d := range p.Dims {
			check("dimension", d.Name, d.Max, programs.MaxDim)
		}
		for _, c := range p.Consts {
			check("constant", c.Name, c.Max, programs.MaxConst)
		}
	}
	if bounded == 0 {
		t.Error("no program bounds a dimension or constant: the test checks nothing said")
	}
}

// atMost is a number bound at a line's end, as the text writes it.
var atMost = regexp.MustCompile(`; at most [0-9]+$`)

func TestProgramsCmdUsage(t *testing.T) {
	if _, errs, code := runRecordCmd("programs", "gpt-course"); code != 2 || !strings.Contains(errs, `programs takes no arguments, found "gpt-course"`) {
		t.Errorf("an argument: exit %d, %s", code, errs)
	}
	if _, _, code := runRecordCmd("programs", "--yaml"); code != 2 {
		t.Errorf("an unknown flag: exit %d", code)
	}
}

// TestWithMax: a program's own bound is said when it is below every
// program's limit, and as the limit the JSON gives, never beyond it.
func TestWithMax(t *testing.T) {
	for _, c := range []struct {
		d    programs.Dim
		want string
	}{
		{programs.Dim{Doc: "tokens", Max: 7}, "tokens; at most 7"},
		{programs.Dim{Doc: "tokens"}, "tokens"},
		{programs.Dim{Doc: "tokens", Max: programs.MaxDim}, "tokens"},
		{programs.Dim{Doc: "tokens", Max: programs.MaxDim + 5}, "tokens"},
	} {
		if got := withMax(c.d.Doc, c.d.Limit(), programs.MaxDim); got != c.want {
			t.Errorf("Max %d: %q, want %q", c.d.Max, got, c.want)
		}
	}
}

// TestProgramsJSONDocumented: docs/json.md has a section on `memsym
// programs --json` that names each key the output has.
func TestProgramsJSONDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## `memsym programs --json`\n")
	if !ok {
		t.Fatal("docs/json.md has no section on `memsym programs --json`")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	out := mustRunCLI(t, "programs", "--json")
	var keys func(v any)
	keys = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !strings.Contains(section, "`"+k+"`") && !strings.Contains(section, `"`+k+`"`) {
					t.Errorf("docs/json.md's section on programs does not name the key %q", k)
				}
				keys(x)
			}
		case []any:
			for _, x := range v {
				keys(x)
			}
		}
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	keys(v)
}
