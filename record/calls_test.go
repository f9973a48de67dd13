package record

import (
	"fmt"
	"reflect"
	"strings"
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

// TestCallsOrder checks the table's rows: the entry's own first, each call
// before its callees, siblings in order of appearance, a fold's iterations
// counted as distinct indices.
func TestCallsOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(hdr)
	for i, path := range []string{"a.x", "b", "outer[0].inner[0].f", "a.y", "outer[0].inner[1].f", "outer[1].inner[0].f", "outer[1]", ""} {
		fmt.Fprintf(&b, `{"buffer": %d, "bytes": %d}`+"\n", i+1, 64*(i+1))
		fmt.Fprintf(&b, `{"op": "op%d", "path": %q, "writes": [%d]}`+"\n", i, path, i+1)
	}
	b.WriteString(`{"result": []}` + "\n")
	rec, err := Read(strings.NewReader(b.String()), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range Count(rec).Calls {
		got = append(got, fmt.Sprintf("%s×%d d%d ops%d own%s", c.Path, c.Iterations, c.Depth, c.Ops, c.OwnPeak))
	}
	want := []string{
		"×0 d0 ops1 own512",
		"a×0 d1 ops2 own256", "a.x×0 d2 ops1 own64", "a.y×0 d2 ops1 own256",
		"b×0 d1 ops1 own128",
		"outer×2 d1 ops4 own448", "outer.inner×2 d2 ops3 own384", "outer.inner.f×0 d3 ops3 own384",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
