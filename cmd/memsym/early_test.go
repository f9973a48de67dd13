package main

import (
	"os"
	"path/filepath"
	"testing"
)

// With --recorder (and --torch) every dimension is named by --grid, and a
// bundled program names its own: --along and --at that name no dimension,
// or leave one without a value, are refused before anything is recorded,
// in the words used once the grid is recorded. Before, the whole grid was
// recorded first (minutes on a large model). The recorder here leaves a
// mark when it runs; a refusal must leave none.
func TestFlagsCheckedBeforeRecording(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "recorder", "extraop.sh"))
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "recorded")
	rec := []string{"--recorder", "touch '" + mark + "'; sh '" + script + "' {B} {T}", "--grid", "B=1,2,3", "--grid", "T=4,8,12"}
	const why = " (asked before the grid is recorded, which alone says which dimensions the needs depend on)"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--budget", "24GiB", "--along", "t", "--at", "b=8"}, "--along t: no dimension t (the dimensions are B, T)"},
		{[]string{"fit", "--budget", "24GiB", "--along", "T"}, "--at: no value for B: every dimension but T needs one" + why},
		{[]string{"fit", "--budget", "24GiB", "--along", "T", "--at", "B=8,Z=3"}, "--at B=8,Z=3: no dimension Z (the dimensions are B, T)"},
		{[]string{"fit", "--budget", "24GiB", "--along", "T", "--at", "B=8,T=3"}, "--at B=8,T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"fit", "--step", "--budget", "24GiB", "--along", "t", "--at", "B=8"}, "--along t: no dimension t (the dimensions are B, T)"},
		{[]string{"eval", "--at", "B=8"}, "--at B=8: no value for T: every dimension (B, T) needs one"},
		{[]string{"eval", "--at", "b=8,T=3"}, "--at T=3,b=8: no dimension b (the dimensions are B, T)"},
		{[]string{"eval", "--along", "T", "--at", "Z=1"}, "--at Z=1: no dimension Z (the dimensions are B, T)"},
		{[]string{"crossover", "--along", "t"}, "--along t: no dimension t (the dimensions are B, T)"},
		{[]string{"crossover", "--along", "T", "--at", "Z=1"}, "--at Z=1: no dimension Z (the dimensions are B, T)"},
	} {
		out, errs, code := runCLI(append(c.args, rec...)...)
		if code != 2 || out != "" || errs != "memsym: "+c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant memsym: %s", c.args, code, out, errs, c.want)
		}
		if _, err := os.Stat(mark); err == nil {
			t.Errorf("%v: the recorder ran before the flags were refused", c.args)
			os.Remove(mark)
		}
	}
	// The same flags, right, record the grid: the mark is the recorder's.
	if _, errs, code := runCLI(append([]string{"eval", "--at", "B=8,T=3"}, rec...)...); code != 0 {
		t.Fatalf("eval --at B=8,T=3: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the recorder left no mark: %v", err)
	}
	// A bundled program's dimensions are its own: one it lacks is said as
	// after building.
	_, errs, code := runCLI("fit", "--program", "mlp-train-step", "--budget", "1GiB", "--along", "T")
	if want := "memsym: --along T: no dimension T (the dimensions are B)\n"; code != 2 || errs != want {
		t.Errorf("fit --along T on mlp-train-step: exit %d, %q, want %q", code, errs, want)
	}
}
