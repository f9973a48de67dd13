package explain

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"memsym/model"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// Request says what a chapter is to show of one program.
type Request struct {
	// Program names the program in the chapter.
	Program string
	// Source and Spec give the recordings of the model, at the chapter's
	// constants.
	Source source.Source
	Spec   source.Spec
	// At is the point to count; nil counts none, but a program without
	// dimensions is always counted at its one recording.
	At record.Point
	// Along is the dimension of the crossovers; "" takes the last.
	Along string
	// Verify is how many points off the grid check M3 records afresh.
	Verify int
	// Confirm records both sides of every crossover.
	Confirm bool
	// Elsewhere are the program at other constants, whose crossovers the
	// chapter gives too: sources that record at those constants.
	Elsewhere []source.Source
	// Scale says how the candidates' figure draws its axes.
	Scale Scale
	// Step asks for the program's training step, a bundled program's,
	// under each of these options (store, then recompute); none for no
	// step.
	Step []programs.StepOptions
}

// Gather records, models, counts and checks what r asks, and returns the
// chapter's content.
func Gather(ctx context.Context, r *Request) (*Content, error) {
	m, err := model.Build(ctx, r.Source, r.Spec)
	if err != nil {
		return nil, err
	}
	_, files := r.Source.(*source.Files)
	c := &Content{Program: r.Program, FromFiles: files, Model: m, Along: r.Along, Scale: r.Scale}
	if files {
		// Named by the grid's first point's file, not by where it lies
		// nor by the order the files were given in: the same recordings
		// give the same chapter.
		c.Program = filepath.Base(m.First)
	}
	if r.Along != "" && !contains(m.Vars, r.Along) {
		return nil, &source.UsageError{Msg: fmt.Sprintf("--along %s: no dimension %s (the dimensions are %s)", r.Along, r.Along, wordsList(m.Vars))}
	}
	counts := r.At != nil && len(m.Vars) > 0
	c.Crossovers, err = Crossovers(m, r.Along, r.At)
	if err == nil {
		// The points recorded below, known before any is: recorded at
		// once where the source can (torch's import paid once a
		// process), each Record below then reading its own.
		source.Prefetch(ctx, r.Source, prefetched(m, r, c.Crossovers, counts))
	}
	crossErr := err
	if counts {
		if c.Counted, err = r.Source.Record(ctx, r.At); err != nil {
			return nil, err
		}
	}
	if crossErr != nil {
		return nil, crossErr
	}
	c.Confirmed, c.Unconfirmed, err = confirm(ctx, m, r.Source, c.Crossovers, r.At, r.Confirm)
	if err != nil {
		return nil, err
	}
	c.AtOne = m.UnrecordedAtOne(r.Source, nil, m.Vars)
	if c.Crossovers != nil {
		c.Reach = m.RunsTo(r.Source, c.Crossovers.Dim, m.ConfirmBase(c.Crossovers, within(m, r.At)))
	}
	switch {
	case r.Verify > 0:
		if c.Verified = m.Verify(ctx, r.Source, r.Verify, 1); len(c.Verified) == 0 {
			c.Unverified = noOffGrid
		}
	case files:
		c.Unverified = "recordings read from files cannot be made at new points"
	default:
		c.Unverified = "it was not asked for"
	}
	if len(r.Step) > 0 {
		if c.Steps, err = gatherSteps(ctx, r); err != nil {
			return nil, err
		}
	}
	for _, src := range r.Elsewhere {
		om, err := model.Build(ctx, src, r.Spec)
		if err != nil {
			return nil, err
		}
		o := Other{Model: om}
		if o.Crossovers, err = Crossovers(om, r.Along, r.At); err != nil {
			return nil, err
		}
		if o.Crossovers == nil {
			continue
		}
		if r.Confirm && len(o.Crossovers.Segments) >= 2 {
			source.Prefetch(ctx, src, om.ConfirmPoints(src, o.Crossovers, om.ConfirmBase(o.Crossovers, within(om, r.At))))
		}
		if o.Confirmed, o.Unconfirmed, err = confirm(ctx, om, src, o.Crossovers, r.At, r.Confirm); err != nil {
			return nil, err
		}
		c.Elsewhere = append(c.Elsewhere, o)
	}
	return c, nil
}

// prefetched returns the points Gather records r's source at once the
// model m is built, in the order it records them: the point counted
// (when counts), both sides of each of the crossovers cross (when
// confirmed) and the points off the grid checked.
func prefetched(m *model.Model, r *Request, cross *model.Crossovers, counts bool) []record.Point {
	var points []record.Point
	if counts {
		points = append(points, r.At)
	}
	if r.Confirm && cross != nil && len(cross.Segments) >= 2 {
		points = append(points, m.ConfirmPoints(r.Source, cross, m.ConfirmBase(cross, within(m, r.At)))...)
	}
	if r.Verify > 0 {
		points = append(points, m.VerifyPoints(r.Source, r.Verify, 1)...)
	}
	return points
}

// confirm records src on both sides of each of c's crossovers, or says
// why it did not.
func confirm(ctx context.Context, m *model.Model, src source.Source, c *model.Crossovers, at record.Point, asked bool) ([]model.Confirmation, string, error) {
	if c == nil || len(c.Segments) < 2 {
		return nil, "", nil
	}
	if !asked {
		return nil, "none was asked for", nil
	}
	out, err := m.Confirm(ctx, src, c, m.ConfirmBase(c, within(m, at)))
	if errors.Is(err, source.ErrCannotRecord) {
		return nil, "recordings read from files cannot be made at new points", nil
	}
	var past *model.NotRunningError
	if errors.As(err, &past) {
		return nil, past.Error(), nil
	}
	for _, f := range out {
		if f.Unrecorded != nil {
			// A chapter confirms every crossover it draws, or is not
			// written.
			return nil, "", f.Unrecorded
		}
	}
	return out, "", err
}

// within returns at with each dimension raised to the least value the
// model holds from (gpt-depth's L ≥ 2): a crossover found for every L ≥ 2
// is confirmed by recordings where it is claimed, never at L = 1, and the
// candidates are drawn there.
func within(m *model.Model, at record.Point) record.Point {
	least := leastOf(m)
	out := make(record.Point, len(at))
	for i, d := range at {
		out[i] = record.Dim{Name: d.Name, Value: max(d.Value, least[d.Name])}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wordsList joins names with commas: "B, T".
func wordsList(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// noOffGrid says why check M3 checked nothing where it was asked for.
const noOffGrid = "no point off the grid was found where the program runs; a grid with room beside it (--grid) gives some"
