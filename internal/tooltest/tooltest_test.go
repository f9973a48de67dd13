package tooltest

import "testing"

// fakeT records what Need does instead of stopping the test.
type fakeT struct {
	testing.TB
	skipped, failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Skip(args ...any)      { f.skipped = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }

func TestNeedMissing(t *testing.T) {
	for _, required := range []string{"", "1"} {
		t.Setenv("MEMSYM_REQUIRE_TOOLS", required)
		f := &fakeT{TB: t}
		if got := Need(f, "memsym-no-such-tool", "nothing is checked"); got != "" {
			t.Fatalf("Need found %q for a tool that does not exist", got)
		}
		if want := required == "1"; f.failed != want || f.skipped == want {
			t.Errorf("MEMSYM_REQUIRE_TOOLS=%q: failed %v, skipped %v; want failed %v", required, f.failed, f.skipped, want)
		}
	}
}

func TestNeedPresent(t *testing.T) {
	t.Setenv("MEMSYM_REQUIRE_TOOLS", "1")
	f := &fakeT{TB: t}
	if Need(f, "sh", "") == "" || f.failed || f.skipped {
		t.Fatalf("Need(sh) did not find sh")
	}
}
