package model

import (
	"errors"
	"slices"

	"memsym/interp"
	"memsym/record"
	"memsym/source"
)

// CheckFailure is Build's failure at one of its check points.
type CheckFailure struct {
	Point     record.Point
	Chosen    bool // one of memsym's own check points, not one given
	Recording bool // recording there failed, rather than the recording being refused
}

// FailedCheck returns the check point at which err, Build's failure on src
// and spec, happened, when it happened at one: recording there failed (a
// *source.PointError at a check point), or its recording was refused (an
// *interp.CheckError). Only a source that plans its points (a bundled
// program, a recorder) can say which of them were memsym's own.
func FailedCheck(src source.Source, spec source.Spec, err error) (CheckFailure, bool) {
	planner, ok := src.(interface {
		Plan(source.Spec) (*source.Plan, error)
	})
	if !ok {
		return CheckFailure{}, false
	}
	pl, perr := planner.Plan(spec)
	if perr != nil {
		return CheckFailure{}, false
	}
	var at *source.PointError
	if errors.As(err, &at) {
		i := slices.IndexFunc(pl.Checks, at.Point.Equal)
		if i < 0 {
			return CheckFailure{}, false // a grid point
		}
		return CheckFailure{Point: pl.Checks[i], Chosen: i < pl.Defaults, Recording: true}, true
	}
	var refused *interp.CheckError
	if errors.As(err, &refused) && refused.Index < len(pl.Checks) {
		i := refused.Index
		return CheckFailure{Point: pl.Checks[i], Chosen: i < pl.Defaults}, true
	}
	return CheckFailure{}, false
}
