package model

import (
	"errors"
	"testing"
)

// TestCheckLine checks the one check of a query's names along a line: the
// dimension gone along first, then each value fixed in the order given.
func TestCheckLine(t *testing.T) {
	dims := []string{"B", "T", "L"}
	for _, c := range []struct {
		dims    []string
		along   string
		fixed   []string
		want    string // "" for none
		onAlong bool
	}{
		{dims, "T", []string{"B"}, "", false},
		{dims, "T", nil, "", false},
		{nil, "T", nil, "the program has no dimensions", true},
		{dims, "S", []string{"B"}, "no dimension S (the dimensions are B, T, L)", true},
		{dims, "T", []string{"B", "T"}, "T is the dimension gone along: give only the others a value", false},
		{dims, "T", []string{"X", "T"}, "no dimension X (the dimensions are B, T, L)", false},
		{dims, "T", []string{"T", "X"}, "T is the dimension gone along: give only the others a value", false},
	} {
		err := CheckLine(c.dims, c.along, c.fixed)
		if c.want == "" {
			if err != nil {
				t.Errorf("CheckLine(%v, %s, %v): %v, want none", c.dims, c.along, c.fixed, err)
			}
			continue
		}
		var le *LineError
		if !errors.As(err, &le) || err.Error() != c.want || le.Along != c.onAlong {
			t.Errorf("CheckLine(%v, %s, %v): %#v, want %q (along at fault: %v)", c.dims, c.along, c.fixed, err, c.want, c.onAlong)
		}
	}
}
