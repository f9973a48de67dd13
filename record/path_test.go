package record

import (
	"reflect"
	"testing"
)

func TestCheckPath(t *testing.T) {
	valid := []string{"", "a", "blocks[0].ff.up", "a[10].b[0]", "x y.z", "%5", "a[999999999999999999]"}
	invalid := []string{".", "a.", ".a", "a..b", "a[", "a[]", "a[x]", "a[01]", "a[-1]", "a]", "[0]", "a[0]b", "a[0][1]", "a[1234567890123456789]"}
	for _, p := range valid {
		if err := checkPath(p); err != nil {
			t.Errorf("checkPath(%q): %v", p, err)
		}
	}
	for _, p := range invalid {
		if err := checkPath(p); err == nil {
			t.Errorf("checkPath(%q) accepted it", p)
		}
	}
}

func TestSplitPath(t *testing.T) {
	tests := []struct {
		path, call string
		iterations []int64
	}{
		{"", "", nil},
		{"head", "head", nil},
		{"blocks[0].ff.up", "blocks.ff.up", []int64{0}},
		{"e[3].f[12].g", "e.f.g", []int64{3, 12}},
	}
	for _, tc := range tests {
		call, its := SplitPath(tc.path)
		if call != tc.call || !reflect.DeepEqual(its, tc.iterations) {
			t.Errorf("SplitPath(%q) = %q, %v; want %q, %v", tc.path, call, its, tc.call, tc.iterations)
		}
	}
}

// TestShow: a name is shown in backquotes, or quoted with escapes when it
// holds what would break the line or the quotes, or show the text after it
// in another order (U+202E, right-to-left override).
func TestShow(t *testing.T) {
	for in, want := range map[string]string{
		"Linear.apply/%5":   "`Linear.apply/%5`",
		"ñ.q&k":             "`ñ.q&k`",
		"a\nb":              `"a\nb"`,
		"a`b":               "\"a`b\"",
		"evil\u202efdp.exe": `"evil\u202efdp.exe"`,
		"x\u2066y":          `"x\u2066y"`,
	} {
		if got := Show(in); got != want {
			t.Errorf("Show(%q) = %s, want %s", in, got, want)
		}
	}
}
