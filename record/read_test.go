package record

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"memsym/poly"
)

// readAccepts lists valid recordings, each with its canonical form.
var readAccepts = []struct {
	name, in, want string
}{
	{
		"a byte order mark, whitespace anywhere, CRLF, blank lines, no final newline",
		"\ufeff { \"memsym\" :1 ,\t\"dims\":{ \"B\" : 2 } }\r\n\n   \n" +
			"{\"buffer\":1,\"bytes\":8,\"role\":\"input\"}\r\n" +
			"{ \"result\" : [ 1 ] }",
		`{"memsym": 1, "dims": {"B": 2}}
{"buffer": 1, "bytes": 8, "role": "input"}
{"result": [1]}
`,
	},
	{
		"escapes and unicode in strings",
		`{"memsym": 1, "entry": "Caf\u00e9.apply \ud83d\ude00", "dims": {}}
{"buffer": 1, "bytes": 8, "role": "input", "name": "a\"b\\c\/d\n\t\u0001", "group": "Grüße"}
{"result": [1]}
`,
		"{\"memsym\": 1, \"entry\": \"Café.apply 😀\", \"dims\": {}}\n" +
			`{"buffer": 1, "bytes": 8, "role": "input", "name": "a\"b\\c/d\n\t\u0001", "group": "Grüße"}
{"result": [1]}
`,
	},
	{
		"defaults left out, meta dropped, keys in any order",
		`{"dims": {"T": 3, "B": 1000000000000}, "realization": "bf16", "consts": {"eps": 1e-5, "D": 64}, "memsym": 1, "meta": {"tool": ["x", 1.5, true, null, {}]}}
{"shape": [], "dtype": "bf16", "buffer": 1, "role": "temp", "name": ""}
{"launch": true, "writes": [1], "reads": [], "op": "f", "path": ""}
{"buffer": -5, "bytes": "6/4", "role": "param"}
{"view": 2, "of": 1}
{"op": "g", "reads": [2, -5], "writes": [], "launch": false}
{"result": [2, 1]}
`,
		`{"memsym": 1, "dims": {"T": 3, "B": 1000000000000}, "consts": {"eps": 1e-5, "D": 64}, "realization": "bf16"}
{"buffer": 1, "dtype": "bf16", "shape": []}
{"op": "f", "reads": [], "writes": [1]}
{"buffer": -5, "bytes": "3/2", "role": "param"}
{"view": 2, "of": 1}
{"op": "g", "reads": [2, -5], "writes": [], "launch": false}
{"result": [2, 1]}
`,
	},
	{
		"sizes beyond 64 bits, unnamed types, views with display types",
		`{"memsym": 1, "dims": {"B": 9223372036854775807}}
{"buffer": 1, "dtype": {"bits": 3}, "shape": [9223372036854775807, 9223372036854775807]}
{"buffer": 2, "bytes": 123456789012345678901234567890, "role": "input"}
{"buffer": 3, "bytes": "123456789012345678901234567891/8", "role": "input"}
{"view": 4, "of": 1, "dtype": "f32"}
{"view": 5, "of": 4, "shape": [2, 3], "name": "v"}
{"op": "f", "reads": [2, 3], "writes": [5]}
{"result": [4]}
`,
		`{"memsym": 1, "dims": {"B": 9223372036854775807}}
{"buffer": 1, "dtype": {"bits": 3}, "shape": [9223372036854775807, 9223372036854775807]}
{"buffer": 2, "bytes": 123456789012345678901234567890, "role": "input"}
{"buffer": 3, "bytes": "123456789012345678901234567891/8", "role": "input"}
{"view": 4, "of": 1, "dtype": "f32"}
{"view": 5, "of": 4, "shape": [2, 3], "name": "v"}
{"op": "f", "reads": [2, 3], "writes": [5]}
{"result": [4]}
`,
	},
	{
		"zero written -0, as JSON allows, in bytes as in a shape and an id",
		`{"memsym": 1, "dims": {}}
{"buffer": -0, "bytes": -0, "role": "input"}
{"buffer": 1, "dtype": "f32", "shape": [-0, 2], "role": "input"}
{"result": [0, 1]}
`,
		`{"memsym": 1, "dims": {}}
{"buffer": 0, "bytes": 0, "role": "input"}
{"buffer": 1, "dtype": "f32", "shape": [0, 2], "role": "input"}
{"result": [0, 1]}
`,
	},
}

func TestReadAccepts(t *testing.T) {
	for _, tc := range readAccepts {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Read(strings.NewReader(tc.in), "t.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			n, err := rec.WriteTo(&out)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(out.Len()) {
				t.Errorf("WriteTo says %d bytes, wrote %d", n, out.Len())
			}
			if out.String() != tc.want {
				t.Errorf("canonical form\n got %s\nwant %s", out.String(), tc.want)
			}
		})
	}
}

func TestReadValues(t *testing.T) {
	rec, err := Read(strings.NewReader(readAccepts[3].in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b1, _ := rec.Buffer(1)
	m := int64(9223372036854775807)
	want := poly.FromBig(new(big.Rat).SetFrac(
		new(big.Int).Mul(new(big.Int).Mul(big.NewInt(m), big.NewInt(m)), big.NewInt(3)), big.NewInt(8)))
	if !b1.Bytes.Equal(want) {
		t.Errorf("buffer 1 has %s bytes, want %s", b1.Bytes, want)
	}
	if b := rec.Base(5); b.ID != 1 {
		t.Errorf("view 5's base is %d, want 1", b.ID)
	}
	if v, _ := rec.Buffer(5); !v.IsView || v.Of != 4 || !reflect.DeepEqual(v.Shape, []int64{2, 3}) || v.Bytes.Sign() != 0 {
		t.Errorf("view 5 is %+v", v)
	}
	if got := rec.Header.Dims; len(got) != 1 || got[0] != (Dim{"B", m}) {
		t.Errorf("dims %v", got)
	}
}

// TestReadKeepsSlices checks that a Recording does not share the slices the
// Scanner reuses from line to line.
func TestReadKeepsSlices(t *testing.T) {
	in := hdr + `{"buffer": 1, "dtype": "f32", "shape": [2, 3]}
{"buffer": 2, "dtype": "f32", "shape": [4]}
{"op": "a", "writes": [1]}
{"op": "b", "reads": [1], "writes": [2]}
{"result": [2]}
`
	rec, err := Read(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if s := rec.Buffers.At(0).Shape; !reflect.DeepEqual(s, []int64{2, 3}) {
		t.Errorf("buffer 1's shape is %v", s)
	}
	if r := rec.Ops.Writes(0); !reflect.DeepEqual(r, []int64{1}) {
		t.Errorf("op 1 writes %v", r)
	}
	if r := rec.Ops.Reads(1); !reflect.DeepEqual(r, []int64{1}) {
		t.Errorf("op 2 reads %v", r)
	}
	if !reflect.DeepEqual(rec.Result, []int64{2}) {
		t.Errorf("result %v", rec.Result)
	}
}

// TestRoundTrip reads, writes and reads again every recording in testdata
// and a recorded GPT: the recordings are equal and the second write gives
// the first's bytes.
func TestRoundTrip(t *testing.T) {
	recs := map[string]*Recording{"course GPT": courseGPT(t, 2, 16, 64, 2, 2, 92)}
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, f := range files {
		rec, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs[f] = rec
	}
	for name, rec := range recs {
		var first bytes.Buffer
		if _, err := rec.WriteTo(&first); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, err := Read(bytes.NewReader(first.Bytes()), name)
		if err != nil {
			t.Fatalf("%s: reading what was written: %v", name, err)
		}
		if diff := diffRecordings(rec, again); diff != "" {
			t.Errorf("%s: read back differs: %s", name, diff)
		}
		var second bytes.Buffer
		if _, err := again.WriteTo(&second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Errorf("%s: the second write differs from the first", name)
		}
	}
}

// diffRecordings says how two recordings differ, apart from line numbers.
func diffRecordings(a, b *Recording) string {
	if !reflect.DeepEqual(a.Header, b.Header) {
		return "headers differ"
	}
	if a.Buffers.Len() != b.Buffers.Len() || a.Ops.Len() != b.Ops.Len() {
		return "counts differ"
	}
	for i := range a.Buffers.Len() {
		x, y := a.Buffers.At(i), b.Buffers.At(i)
		x.Line, y.Line = 0, 0
		if !reflect.DeepEqual(x, y) {
			return "buffer " + itoa(x.ID) + " differs"
		}
	}
	for i := range a.Ops.Len() {
		x, y := a.Ops.At(i), b.Ops.At(i)
		x.Line, y.Line = 0, 0
		if x.Label != y.Label || x.Path != y.Path || x.Launch != y.Launch ||
			!slicesEqual(x.Reads, y.Reads) || !slicesEqual(x.Writes, y.Writes) {
			return "operation " + itoa(int64(i+1)) + " differs"
		}
	}
	if !slicesEqual(a.Result, b.Result) {
		return "results differ"
	}
	return ""
}

func slicesEqual(a, b []int64) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

// TestReplayOrder checks that Replay gives the records in file order.
func TestReplayOrder(t *testing.T) {
	in, err := os.ReadFile("testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Read(bytes.NewReader(in), "mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := rec.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(in), `, "meta": {"note": "a packed bit mask: 20 bits are 5/2 bytes"}`, "", 1)
	if out.String() != want {
		t.Errorf("replayed\n%s\nwant\n%s", out.String(), want)
	}
	s := rec.Replay()
	line := 0
	for s.Scan() {
		r := s.Record()
		if r.Line <= line {
			t.Errorf("%s on line %d after line %d", r.Kind, r.Line, line)
		}
		line = r.Line
	}
	if s.Err() != nil || line != 29 {
		t.Errorf("replay ended at line %d, error %v", line, s.Err())
	}
}

func TestReadFile(t *testing.T) {
	_, err := ReadFile("testdata/no-such-file.jsonl")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("error %v, want one that is fs.ErrNotExist", err)
	}
	if want := "testdata/no-such-file.jsonl: cannot read the recording: no such file or directory"; err.Error() != want {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.WriteString(hdr + `{"result": []}` + "\n")
		w.Close()
	}()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	rec, err := ReadFile("-")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Header.Dims) != 1 {
		t.Errorf("read %+v from the standard input", rec.Header)
	}
}

func TestLineTooLong(t *testing.T) {
	s := NewScanner(strings.NewReader(hdr+`{"buffer": 1, "bytes": 8, "name": "`+strings.Repeat("x", 2000)+`"}`+"\n"), "t.jsonl")
	s.maxLine = 1024
	for s.Scan() {
	}
	if want := "t.jsonl:2: line longer than 1024 bytes"; s.Err() == nil || s.Err().Error() != want {
		t.Errorf("error %v, want %s", s.Err(), want)
	}
}

// endless is a line that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestLineTooLongForReal(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	_, err := Read(io.MultiReader(strings.NewReader(hdr), endless{}), "t.jsonl")
	if want := "t.jsonl:2: line longer than 64 MiB"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// failing returns its data, then an error.
type failing struct{ data io.Reader }

func (f failing) Read(p []byte) (int, error) {
	n, err := f.data.Read(p)
	if err == io.EOF {
		return n, errors.New("disk on fire")
	}
	return n, err
}

func TestReadError(t *testing.T) {
	_, err := Read(failing{strings.NewReader(hdr)}, "t.jsonl")
	if want := "t.jsonl:2: disk on fire"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestScannerReuse checks that the Scanner reports each record as it is,
// whatever the lines before it held.
func TestScannerReuse(t *testing.T) {
	in := `{"memsym": 1, "dims": {"B": 2, "T": 3}, "consts": {"D": 4}}
{"buffer": 1, "dtype": "f32", "shape": [2, 3, 4], "name": "a", "group": "g"}
{"buffer": 2, "bytes": 5}
{"op": "f", "path": "p[0]", "reads": [1, 2], "writes": [2]}
{"op": "g", "writes": [1]}
{"result": [1]}
`
	s := NewScanner(strings.NewReader(in), "t.jsonl")
	var got []Record
	for s.Scan() {
		r := *s.Record()
		got = append(got, r)
		switch r.Kind {
		case KindBuffer:
			if r.Buffer.ID == 2 && (r.Buffer.Shape != nil || !r.Buffer.DType.IsZero() || r.Buffer.Name != "" || r.Buffer.Group != "") {
				t.Errorf("buffer 2 keeps buffer 1's fields: %+v", r.Buffer)
			}
		case KindOp:
			if r.Op.Label == "g" && (len(r.Op.Reads) != 0 || r.Op.Path != "" || !r.Op.Launch) {
				t.Errorf("op g keeps op f's fields: %+v", r.Op)
			}
		}
		if r.Line != s.Line() {
			t.Errorf("record on line %d says line %d", s.Line(), r.Line)
		}
	}
	if s.Err() != nil || len(got) != 6 {
		t.Fatalf("%d records, error %v", len(got), s.Err())
	}
	if s.Scan() {
		t.Error("Scan after the end returned true")
	}
}

// TestReadDirectory: a directory given for a recording is said to be one,
// without a line number, by ReadFile, ValidateFile and OpenFile alike.
func TestReadDirectory(t *testing.T) {
	dir := t.TempDir()
	want := dir + ": cannot read the recording: is a directory"
	if _, err := ReadFile(dir); err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v, want %s", err, want)
	}
	if _, err := ValidateFile(dir); err == nil || err.Error() != want {
		t.Errorf("ValidateFile: %v, want %s", err, want)
	}
	if _, err := OpenFile(dir); err == nil || err.Error() != "cannot read the recording: is a directory" {
		t.Errorf("OpenFile: %v", err)
	}
}
