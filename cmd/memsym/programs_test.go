package main

import (
	"encoding/json"
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

func TestProgramsCmdUsage(t *testing.T) {
	if _, errs, code := runRecordCmd("programs", "gpt-course"); code != 2 || !strings.Contains(errs, `programs takes no arguments, found "gpt-course"`) {
		t.Errorf("an argument: exit %d, %s", code, errs)
	}
	if _, _, code := runRecordCmd("programs", "--yaml"); code != 2 {
		t.Errorf("an unknown flag: exit %d", code)
	}
}
