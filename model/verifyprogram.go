package model

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"memsym/doc"
	"memsym/programs"
	"memsym/source"
)

// VerifyExpectation is what `memsym verify` knows of a program before it
// models it: the name its result goes under and, for a bundled program,
// the program and the constants given, which say whether memsym must
// refuse to model it (programs.Program.RefusalWith).
type VerifyExpectation struct {
	// Name is the program's name in the result: a bundled program's, a
	// torch function's, or "recorder".
	Name string
	// Program is the bundled program; nil for a recorder.
	Program *programs.Program
	// Consts are the constants given to Program (--const), the others at
	// their defaults; none for the defaults.
	Consts map[string]int64
}

// refusal is why memsym must refuse to model the program at its
// constants, "" where it need not.
func (e VerifyExpectation) refusal() string {
	if e.Program == nil {
		return ""
	}
	return e.Program.RefusalWith(e.Consts)
}

// VerifyProgram is one program's verification (the M3 runs): it builds
// src's model on spec and checks it at n fresh points off the grid
// (FreshPoints, from seed), recording each afresh. openErr, when not nil,
// is why src could not be opened (src is then nil), and is judged as a
// failure to build. A failure to build is the program's failure, at the
// check point it happened at where it did one (the source's message
// says when memsym chose that check point, and what to do), or its expected
// refusal where memsym must refuse to model the program (want.Program's
// RefusalWith); a program memsym must refuse but models fails, saying
// what this run showed, and so does one where no fresh point was found.
// A build failure that is a *source.UsageError, a mistake in what was
// asked, is returned as the error, with no result.
func VerifyProgram(ctx context.Context, src source.Source, spec source.Spec, openErr error, want VerifyExpectation, n int, seed uint64) (*VerifyProgramJSON, error) {
	r := &VerifyProgramJSON{Program: want.Name, Points: []VerifyPointJSON{}}
	expected := want.refusal()
	if openErr != nil {
		if expected != "" {
			r.Refused = oneLine(openErr)
		} else {
			r.Failed = oneLine(openErr)
		}
		return r, nil
	}
	m, err := Build(ctx, src, spec)
	if err != nil {
		if u := (*source.UsageError)(nil); errors.As(err, &u) {
			return nil, err
		}
		c, atCheck := FailedCheck(src, spec, err)
		if atCheck {
			r.At = OrderedPoint(c.Point)
		}
		switch {
		case expected != "":
			r.Refused = oneLine(err)
		default:
			r.Failed = oneLine(err)
		}
		return r, nil
	}
	points, why := m.FreshPoints(src, n, seed)
	r.Asked = n
	if len(points) < n {
		r.Fewer = fmt.Sprintf("%d of the %s asked for were found off the grid where the program runs: %s", len(points), doc.Plural(n, "point", "points"), why)
	}
	checks := m.CheckEach(ctx, src, points)
	for _, c := range checks {
		p := VerifyPointJSON{Point: OrderedPoint(c.Point), OK: c.Err == nil, Unrecorded: c.Unrecorded}
		if c.Err != nil {
			p.Error = oneLine(c.Err)
		}
		r.Points = append(r.Points, p)
	}
	switch {
	case expected != "":
		r.Failed = m.modelledRefused(want, checks, why)
	case len(r.Points) == 0: // nothing checked is no pass
		r.Failed = "no point off the grid was found where the program runs, so none was checked: " + why + "; give a grid with room beside it (--grid)"
	}
	return r, nil
}

// modelledRefused says why a bundled program listed as refused fails
// when it is modelled (m): the listing's reason, which its description
// gives for the program's default grid (and constants), and what this
// run's grid, its check points and the fresh points checks show; why is
// FreshPoints's word where it found none.
func (m *Model) modelledRefused(want VerifyExpectation, checks []Check, why string) string {
	p := want.Program
	var b strings.Builder
	vars := make([]string, len(p.Dims))
	grid := make([][]int64, len(p.Dims))
	for i, d := range p.Dims {
		vars[i], grid[i] = d.Name, d.Grid[:]
	}
	fmt.Fprintf(&b, "modelled, but memsym must refuse it: memsym programs lists %s as refused, with the reason, written for its default grid %s", p.Name, gridText(vars, grid))
	if len(want.Consts) > 0 {
		b.WriteString(" and its default constants")
	}
	fmt.Fprintf(&b, ": \"%s\"; on this grid, %s, the model was built", p.Refusal, m.GridString())
	if cps := m.CheckPoints(); len(cps) > 0 {
		var parts []string
		for _, c := range cps {
			parts = append(parts, c.String())
		}
		fmt.Fprintf(&b, " and its check points (%s) did not contradict it", strings.Join(parts, "; "))
	} else {
		b.WriteString(", with no check point to test it")
	}
	wrong := 0
	for _, c := range checks {
		if c.Err != nil {
			wrong++
		}
	}
	switch {
	case len(checks) == 0:
		fmt.Fprintf(&b, "; no fresh point was found to check: %s", why)
	case len(checks) == 1 && wrong == 0:
		b.WriteString("; nor does the fresh point checked")
	case len(checks) == 1:
		b.WriteString("; the fresh point checked does")
	case wrong == 0:
		fmt.Fprintf(&b, "; nor does any of the %d fresh points checked", len(checks))
	case wrong == 1:
		fmt.Fprintf(&b, "; 1 of the %d fresh points checked does", len(checks))
	default:
		fmt.Fprintf(&b, "; %d of the %d fresh points checked do", wrong, len(checks))
	}
	return b.String()
}

// oneLine is err's message on one line, for a row of verify's table.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
