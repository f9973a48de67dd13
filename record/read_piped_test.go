package record

import (
	"bytes"
	"math"
	"testing"
)

// TestReadPiped reads recordings of many batches on two cores and on one,
// and wants the same recording, or the same error: the Builder's (a read
// of an id not declared) or the Scanner's (a line cut short), early or
// late, the one before the other either way, and the Builder's at the end.
func TestReadPiped(t *testing.T) {
	lines := bytes.SplitAfter(bigRecording(400<<10), []byte("\n"))
	if len(lines) < 4000 {
		t.Fatalf("%d lines: want several batches", len(lines))
	}
	const (
		badOp  = `{"op": "F.apply", "reads": [99999999], "writes": [1]}` + "\n"
		badKey = `{"op": "F.apply", "reads": [1, 2` + "\n"
	)
	edited := func(at map[int]string) []byte {
		var b bytes.Buffer
		for i, l := range lines {
			if s, ok := at[i]; ok {
				b.WriteString(s)
				continue
			}
			b.Write(l)
		}
		return b.Bytes()
	}
	n := len(lines) - 1 // the last is empty
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"whole", edited(nil)},
		{"the Builder's, early", edited(map[int]string{7: badOp})},
		{"the Builder's, late", edited(map[int]string{n - 5: badOp})},
		{"the Scanner's, early", edited(map[int]string{7: badKey})},
		{"the Scanner's, late", edited(map[int]string{n - 5: badKey})},
		{"the Builder's, then the Scanner's", edited(map[int]string{2000: badOp, 3000: badKey})},
		{"the Scanner's, then the Builder's", edited(map[int]string{2000: badKey, 3000: badOp})},
		{"the Builder's, in the same batch as the Scanner's", edited(map[int]string{2000: badOp, 2001: badKey})},
		{"no result", edited(map[int]string{n - 1: ""})},
	} {
		one, errOne := readWith(c.data, math.MaxInt64)
		two, errTwo := readWith(c.data, 1)
		switch {
		case (errOne == nil) != (errTwo == nil) || errOne != nil && errOne.Error() != errTwo.Error():
			t.Errorf("%s: on two cores %v, on one %v", c.name, errTwo, errOne)
		case errOne == nil && !bytes.Equal(one, two):
			t.Errorf("%s: the recordings read on two cores and on one differ", c.name)
		case c.name != "whole" && errOne == nil:
			t.Errorf("%s: no error", c.name)
		}
	}
}

// readWith reads data with Read, on two cores from the size pipe on, and
// returns the recording written back.
func readWith(data []byte, pipe int64) ([]byte, error) {
	defer func(p int64) { pipeFrom = p }(pipeFrom)
	pipeFrom = pipe
	rec, err := Read(bytes.NewReader(data), "r.jsonl")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
