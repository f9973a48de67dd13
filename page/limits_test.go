package page

import (
	"fmt"
	"strings"
	"testing"

	"memsym/model"
)

// modelOfN models a program of one u8 buffer of N bytes, recorded at
// N = base, base + 1, base + 2.
func modelOfN(t *testing.T, base int64) *model.Model {
	t.Helper()
	var recordings []string
	for n := base; n < base+3; n++ {
		recordings = append(recordings, fmt.Sprintf("{\"memsym\": 1, \"entry\": \"H\", \"dims\": {\"N\": %d}}\n{\"buffer\": 1, \"dtype\": \"u8\", \"shape\": [%d], \"name\": \"x\"}\n{\"op\": \"a\", \"writes\": [1]}\n{\"result\": [1]}\n", n, n))
	}
	return modelOfRecordings(t, recordings...)
}

// The page holds each value as a JavaScript number: a model recorded past
// 2^53 − 1 is refused, and a default largest value that would pass it
// stops there.
func TestPageValuesExact(t *testing.T) {
	if _, err := New(modelOfN(t, 1<<60), Options{}); err == nil || !strings.Contains(err.Error(), "the page cannot show N = 1152921504606846976, where the model was recorded") {
		t.Errorf("a grid past 2^53 − 1: %v", err)
	}
	pg, err := New(modelOfN(t, 1<<52), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := pg.Dims()[0]; d.Max != MaxValue || d.Value != 1<<52 {
		t.Errorf("a grid from 2^52: the slider runs to %d from %d, want %d from %d", d.Max, d.Value, int64(MaxValue), int64(1<<52))
	}
	if _, err := New(modelOfN(t, 4), Options{Max: map[string]int64{"N": MaxValue + 1}}); err == nil || !strings.Contains(err.Error(), "at most 9007199254740991") {
		t.Errorf("a largest value past 2^53 − 1: %v", err)
	}
}
