package model

import (
	"fmt"
	"slices"
	"strings"
)

// LineError is a query along one dimension (fit, crossover, eval --along)
// whose names do not match the program's dimensions. Along reports
// whether the dimension to go along is at fault (the program lacks it, or
// has none); else the values fixed are (one names a dimension the program
// lacks, or the one gone along).
type LineError struct {
	Along bool
	msg   string
}

func (e *LineError) Error() string { return e.msg }

// CheckLine checks the names of a query along one dimension against the
// program's dimensions dims: along must be one of them, and each of fixed,
// in the order given, one of the others. It is the one check of those
// names, made before anything is recorded where the dimensions are known
// then (a bundled program's, --grid's), and again on the model (Line).
func CheckLine(dims []string, along string, fixed []string) error {
	if len(dims) == 0 {
		return &LineError{Along: true, msg: "the program has no dimensions"}
	}
	if !slices.Contains(dims, along) {
		return &LineError{Along: true, msg: fmt.Sprintf("no dimension %s (the dimensions are %s)", along, strings.Join(dims, ", "))}
	}
	for _, k := range fixed {
		if k == along {
			return &LineError{msg: fmt.Sprintf("%s is the dimension gone along: give only the others a value", along)}
		}
		if !slices.Contains(dims, k) {
			return &LineError{msg: fmt.Sprintf("no dimension %s (the dimensions are %s)", k, strings.Join(dims, ", "))}
		}
	}
	return nil
}
