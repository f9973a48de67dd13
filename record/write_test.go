package record

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/poly"
)

func TestWriterRecords(t *testing.T) {
	tests := []struct {
		rec  Record
		want string
	}{
		{Record{Kind: KindHeader, Header: Header{Version: 1}}, `{"memsym": 1, "dims": {}}`},
		{Record{Kind: KindBuffer, Buffer: Buffer{ID: 3, DType: MustDType("i4"), Shape: []int64{3}, Bytes: poly.Frac(3, 2)}}, `{"buffer": 3, "dtype": "i4", "shape": [3]}`},
		{Record{Kind: KindBuffer, Buffer: Buffer{ID: 3, DType: MustDType("f32"), Bytes: poly.Int(4)}}, `{"buffer": 3, "dtype": "f32", "shape": []}`},
		{Record{Kind: KindBuffer, Buffer: Buffer{ID: 4, Bytes: poly.Frac(7, 3), Role: Input, Name: "n", Group: "g"}}, `{"buffer": 4, "bytes": "7/3", "role": "input", "name": "n", "group": "g"}`},
		{Record{Kind: KindView, Buffer: Buffer{ID: 5, IsView: true, Of: 4, DType: Bits(12)}}, `{"view": 5, "of": 4, "dtype": {"bits": 12}}`},
		{Record{Kind: KindOp, Op: Op{Label: "f", Launch: true}}, `{"op": "f", "reads": [], "writes": []}`},
		{Record{Kind: KindResult}, `{"result": []}`},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		w := NewWriter(&out)
		if err := w.Write(&tc.rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(out.String(), "\n"); got != tc.want {
			t.Errorf("wrote %s, want %s", got, tc.want)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	tests := []struct {
		rec  Record
		want string
	}{
		{Record{Kind: KindBuffer, Buffer: Buffer{ID: 1, Name: "a\xffb"}}, `record: "a\xffb" is not valid UTF-8`},
		{Record{Kind: KindHeader, Header: Header{Version: 1, Consts: []Const{{"D", "sixty"}}}}, `record: constant D = "sixty" is not a JSON number`},
		{Record{Kind: 9}, `record: cannot write a record of kind 9`},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		w := NewWriter(&out)
		err := w.Write(&tc.rec)
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
		w.Flush()
		if out.Len() != 0 {
			t.Errorf("wrote %q on an error", out.String())
		}
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteToError(t *testing.T) {
	rec := courseGPT(t, 1, 2, 4, 2, 1, 5)
	if _, err := rec.WriteTo(errWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want disk full", err)
	}
}

// FuzzRead checks that any input either gives a clean one-line error or
// reads into a recording that writes, reads back and writes again to the
// same bytes, and that counting it does not fail.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range readAccepts {
		f.Add([]byte(tc.in))
	}
	for _, tc := range readErrors {
		if len(tc.in) < 4096 {
			f.Add([]byte(tc.in))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(bytes.NewReader(data), "f.jsonl")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "f.jsonl:") || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error not one line at a position: %q", err)
			}
			return
		}
		var first bytes.Buffer
		if _, err := rec.WriteTo(&first); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		again, err := Read(bytes.NewReader(first.Bytes()), "again.jsonl")
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, first.Bytes())
		}
		if diff := diffRecordings(rec, again); diff != "" {
			t.Fatalf("read back differs: %s", diff)
		}
		var second bytes.Buffer
		if _, err := again.WriteTo(&second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("second write differs:\n%s\n%s", first.Bytes(), second.Bytes())
		}
	})
}

// writeSizes records the size of each Write.
type writeSizes struct {
	bytes.Buffer
	sizes []int
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}

// TestWriteToLarge writes a large recording in writes of largeWrites
// bytes, a small one in smaller writes, and both as the records written
// one by one.
func TestWriteToLarge(t *testing.T) {
	data := pointRecording(3*largeRecording, 2, 0)
	rec, err := Read(bytes.NewReader(data), "large.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	small, err := Read(bytes.NewReader(pointRecording(100, 2, 0)), "small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rec  *Recording
		want int // the size of every write but the last
	}{{rec, largeWrites}, {small, 0}} {
		var got writeSizes
		if _, err := tc.rec.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		w := NewWriter(&want)
		for s := tc.rec.Replay(); s.Scan(); {
			if err := w.Write(s.Record()); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatal("WriteTo wrote other bytes than the records written one by one")
		}
		if tc.want > 0 && (len(got.sizes) < 2 || got.Len() < 2*tc.want) {
			t.Fatalf("%d bytes: too few for the test", got.Len())
		}
		for i, n := range got.sizes[:len(got.sizes)-1] {
			if tc.want > 0 && n != tc.want || tc.want == 0 && n > writes {
				t.Fatalf("write %d of %d bytes", i, n)
			}
		}
	}
}
