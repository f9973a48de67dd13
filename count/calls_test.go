package count

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"memsym/record"
)

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
	rec, err := record.Read(strings.NewReader(b.String()), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range At(rec).Calls {
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
