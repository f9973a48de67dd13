package record

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validateAgrees checks that Validate says what Read says of in: the same
// error, byte for byte, or the counts of the same recording.
func validateAgrees(t *testing.T, in []byte) {
	t.Helper()
	rec, rerr := Read(bytes.NewReader(in), "v.jsonl")
	sum, verr := Validate(bytes.NewReader(in), "v.jsonl")
	if fmt.Sprint(rerr) != fmt.Sprint(verr) {
		t.Fatalf("%q:\nRead     %v\nValidate %v", in, rerr, verr)
	}
	if rerr != nil {
		return
	}
	views := 0
	for i := range rec.Buffers.Len() {
		if rec.Buffers.IsView(i) {
			views++
		}
	}
	got := fmt.Sprintf("%d %d %d %+v", sum.Buffers, sum.Views, sum.Ops, sum.Header)
	want := fmt.Sprintf("%d %d %d %+v", rec.Buffers.Len()-views, views, rec.Ops.Len(), rec.Header)
	if got != want {
		t.Fatalf("%q: Validate counts %s, Read %s", in, got, want)
	}
}

func validateCorpus(t testing.TB) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	for _, tc := range readAccepts {
		out = append(out, []byte(tc.in))
	}
	for _, tc := range readErrors {
		out = append(out, []byte(tc.in))
	}
	for _, a := range followCorpus(t) {
		out = append(out, []byte(a))
	}
	return out
}

// TestValidateAgreesWithRead runs the read tests' inputs, and edits of the
// test recordings, through both.
func TestValidateAgreesWithRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, in := range validateCorpus(t) {
		validateAgrees(t, in)
		for range 40 {
			validateAgrees(t, []byte(mutate(rng, string(in))))
		}
	}
	// Lines moved: ids used before they are declared, the result early.
	for _, a := range followCorpus(t) {
		lines := strings.SplitAfter(a, "\n")
		for range 100 {
			i, j := rng.IntN(len(lines)), rng.IntN(len(lines))
			moved := append([]string(nil), lines...)
			moved[i], moved[j] = moved[j], moved[i]
			validateAgrees(t, []byte(strings.Join(moved, "")))
		}
	}
}

func TestValidateFile(t *testing.T) {
	_, err := ValidateFile("testdata/no-such-file.jsonl")
	_, rerr := ReadFile("testdata/no-such-file.jsonl")
	if err == nil || fmt.Sprint(err) != fmt.Sprint(rerr) {
		t.Fatalf("ValidateFile: %v; ReadFile: %v", err, rerr)
	}
	sum, err := ValidateFile("testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Buffers != 13 || sum.Views != 3 || sum.Ops != 11 {
		t.Errorf("mlp.jsonl: %d buffers, %d views, %d operations; want 13, 3, 11", sum.Buffers, sum.Views, sum.Ops)
	}
}

func FuzzValidate(f *testing.F) {
	for _, in := range validateCorpus(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		validateAgrees(t, in)
	})
}

// TestValidateOneAfterAnother checks that Validate, which reuses its
// checks' arrays from one recording to the next, holds nothing of the one
// before: a recording that uses an id the one before declared is refused,
// and every recording of the corpus, checked after a large one and after
// each other, gets what Read says of it.
func TestValidateOneAfterAnother(t *testing.T) {
	var big strings.Builder
	big.WriteString(`{"memsym": 1, "entry": "e", "dims": {}, "consts": {}}` + "\n")
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&big, `{"buffer": %d, "bytes": 8, "role": "input"}`+"\n", i)
	}
	big.WriteString(`{"result": [1]}` + "\n")
	if _, err := Validate(strings.NewReader(big.String()), "big.jsonl"); err != nil {
		t.Fatal(err)
	}
	undeclared := `{"memsym": 1, "entry": "e", "dims": {}, "consts": {}}
{"buffer": 1, "bytes": 8, "role": "input"}
{"buffer": 2, "bytes": 8}
{"op": "f", "reads": [5], "writes": [2]}
{"result": [2]}
`
	_, verr := Validate(strings.NewReader(undeclared), "u.jsonl")
	_, rerr := Read(strings.NewReader(undeclared), "u.jsonl")
	if verr == nil || fmt.Sprint(verr) != fmt.Sprint(rerr) {
		t.Fatalf("after a recording declaring 3000 ids, Validate says %v of one reading an undeclared id; Read says %v", verr, rerr)
	}
	for _, in := range validateCorpus(t) {
		validateAgrees(t, in)
	}
}
