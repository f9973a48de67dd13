package synth

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/interp"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// TestSameAsBundled checks that with B and T as its dimensions the writer
// writes the bundled program's recording byte for byte.
func TestSameAsBundled(t *testing.T) {
	prog, err := programs.Lookup("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	for _, ops := range []int64{1, 4, 5, 6, 13, 1000} {
		for _, pt := range [][]int64{{1, 64}, {3, 192}, {5, 320}, {2, 7}} {
			rec, err := prog.Record(map[string]int64{"B": pt[0], "T": pt[1]}, map[string]int64{"N": ops, "D": Width})
			if err != nil {
				t.Fatal(err)
			}
			var want, got bytes.Buffer
			if _, err := rec.WriteTo(&want); err != nil {
				t.Fatal(err)
			}
			if err := (Program{Ops: ops}).Write(&got, pt); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("N = %d at %v: the writer's recording differs from the bundled program's\n got %.300s\nwant %.300s", ops, pt, got.String(), want.String())
			}
		}
	}
}

// TestFourDims builds the model of the four-dimensional program from its
// files and checks its polynomials against the shapes by hand.
func TestFourDims(t *testing.T) {
	p := Program{Ops: 12, FourDims: true}
	if got := len(p.Grid()); got != 81 {
		t.Fatalf("%d grid points, want 81", got)
	}
	files, err := p.WriteFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m, err := interp.Build(sources(files.Grid), sources([]string{files.Check}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Vars, ","), "B,T,D,H"; got != want {
		t.Errorf("dimensions %s, want %s", got, want)
	}
	tests := []struct {
		name string
		got  poly.Poly
		want string
	}{
		{"parameters", m.Params, "32 · D²"},
		{"inputs", m.Inputs, "4 · B · T · D + 32 · D²"},
		{"outputs", m.Outputs, "16 · B · T · D"}, // operation 12 is cell 2's activation
		{"scores", m.Bytes(5), "4 · B · T² · H"},
		{"up", m.Bytes(3), "16 · B · T · D"},
	}
	for _, tt := range tests {
		want, err := poly.Parse(tt.want)
		if err != nil {
			t.Fatalf("%s: %v", tt.want, err)
		}
		if !tt.got.Equal(want) {
			t.Errorf("%s: %s, want %s", tt.name, tt.got, tt.want)
		}
	}
	if files.Bytes <= 0 {
		t.Errorf("files of %d bytes", files.Bytes)
	}
}

// TestFourDimsAtBundledPoint checks that at D = 64 and H = 1 the
// four-dimensional program's buffers have the bundled program's sizes.
func TestFourDimsAtBundledPoint(t *testing.T) {
	read := func(p Program, pt []int64) *record.Recording {
		var b bytes.Buffer
		if err := p.Write(&b, pt); err != nil {
			t.Fatal(err)
		}
		rec, err := record.Read(&b, "synthetic.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	two := read(Program{Ops: 23}, []int64{3, 128})
	four := read(Program{Ops: 23, FourDims: true}, []int64{3, 128, Width, 1})
	if two.Buffers.Len() != four.Buffers.Len() || two.Ops.Len() != four.Ops.Len() {
		t.Fatalf("%d buffers and %d operations, want %d and %d", four.Buffers.Len(), four.Ops.Len(), two.Buffers.Len(), two.Ops.Len())
	}
	for i := range two.Buffers.Len() {
		if !four.Buffers.Bytes(i).Equal(two.Buffers.Bytes(i)) {
			t.Errorf("buffer %d: %s bytes, want %s", i+1, four.Buffers.Bytes(i), two.Buffers.Bytes(i))
		}
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		p     Program
		point []int64
		want  string
	}{
		{Program{Ops: 5}, []int64{1, 2, 3}, "a point of synthetic has 2 values, one per dimension, found 3"},
		{Program{Ops: 5, FourDims: true}, []int64{1, 2}, "a point of synthetic has 4 values, one per dimension, found 2"},
		{Program{Ops: 0}, []int64{1, 2}, "synthetic at 0 operations: expected at least 1"},
		{Program{Ops: 5}, []int64{0, 2}, "dimension B = 0: dimensions are integers of at least 1"},
	}
	for _, tt := range tests {
		err := tt.p.Write(&bytes.Buffer{}, tt.point)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%+v at %v: error %v, want %q", tt.p, tt.point, err, tt.want)
		}
	}
}

func TestWriteFilesNames(t *testing.T) {
	dir := t.TempDir()
	files, err := Program{Ops: 3}.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files.All() {
		names = append(names, filepath.Base(f))
	}
	want := "B1_T64.jsonl B1_T128.jsonl B1_T192.jsonl B2_T64.jsonl B2_T128.jsonl B2_T192.jsonl B3_T64.jsonl B3_T128.jsonl B3_T192.jsonl B5_T320.jsonl"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("files %s, want %s", got, want)
	}
	var total int64
	for _, f := range files.All() {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
	}
	if total != files.Bytes {
		t.Errorf("Bytes = %d, the files hold %d", files.Bytes, total)
	}
}

// sources reads recording files.
func sources(paths []string) []interp.Source {
	var out []interp.Source
	for _, p := range paths {
		out = append(out, interp.Source{Name: p, Open: func() (record.Stream, error) {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			return record.NewScanner(bytes.NewReader(b), p), nil
		}})
	}
	return out
}

// TestBundledGrid checks that B's and T's grid and check values are the
// bundled program's.
func TestBundledGrid(t *testing.T) {
	prog, err := programs.Lookup("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Dims) != 2 {
		t.Fatalf("the bundled synthetic has %d dimensions; bench/synth writes B and T as it did", len(prog.Dims))
	}
	for _, d := range prog.Dims {
		if grids[d.Name] != d.Grid || checks[d.Name] != d.Check {
			t.Errorf("%s: grid %v check %d, the bundled program's %v and %d", d.Name, grids[d.Name], checks[d.Name], d.Grid, d.Check)
		}
	}
	if got, want := (Program{}).Check(), []int64{5, 320}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("check point %v, want %v", got, want)
	}
}
