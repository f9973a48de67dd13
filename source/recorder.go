package source

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"memsym/interp"
	"memsym/record"
)

// Recorder is a recorder command run once per point, as many at once as
// Jobs allows, each writing its recording to a file of a temporary folder
// that Close removes.
type Recorder struct {
	Cmd *Command
	// Jobs is how many commands run at once; 0 means the number of CPUs,
	// at most 4.
	Jobs int
	// Progress, when set, is told of each point recorded.
	Progress func(done, total int)
	// Note, when set, is given by Close the note on what the command
	// wrote to its standard error at the points it recorded, exiting
	// with 0 (its warnings): one line, the first such point in the
	// order the points were asked for named, and the end of what it
	// wrote there quoted as a failure's is. It is not called when the
	// command wrote nothing there at any point.
	Note func(msg string)
	scratch
	kept  kept // what Prefetch recorded
	notes stderrNotes
}

// DefaultJobs is the number of recorder commands run at once when none is
// asked for: one per CPU, at most 4.
func DefaultJobs() int { return min(runtime.NumCPU(), 4) }

func (s *Recorder) Name() string { return "recorder" }

// Close gives the note on the command's standard error (Note), and
// removes what recording left behind.
func (s *Recorder) Close() error {
	if msg := recorderNote(&s.notes); msg != "" && s.Note != nil {
		s.Note(msg)
	}
	return s.scratch.Close()
}

// Plan returns the grid spec gives, which must name every placeholder of the
// command, and the check points: spec's, or two from DefaultChecks.
func (s *Recorder) Plan(spec Spec) (*Plan, error) {
	var vars []string
	for _, g := range spec.Grid {
		vars = append(vars, g.Name)
	}
	if len(vars) == 0 {
		return nil, usagef("--recorder needs the grid: --grid B=16,32,48 for each dimension")
	}
	for _, n := range s.Cmd.Names {
		if !contains(vars, n) {
			return nil, usagef("the recorder command has {%s}, which no --grid gives", n)
		}
	}
	for _, v := range vars {
		if !contains(s.Cmd.Names, v) {
			return nil, usagef("the recorder command has no {%s}: each point would record the same thing", v)
		}
	}
	return plan(vars, nil, nil, spec)
}

func (s *Recorder) Recordings(ctx context.Context, spec Spec) (*Recordings, error) {
	pl, err := s.Plan(spec)
	if err != nil {
		return nil, err
	}
	dir, err := s.folder()
	if err != nil {
		return nil, err
	}
	grid := pl.Points()
	all := append(append([]record.Point(nil), grid...), pl.Checks...)
	paths, err := s.runAll(ctx, all, pl.Checks[:pl.Defaults], dir)
	if err != nil {
		return nil, err
	}
	mk := func(i int) interp.Source {
		point, path := all[i], paths[i]
		name := pointName("recorder", point)
		return interp.Source{Name: name, Open: func() (record.Stream, error) {
			f, err := record.OpenNamed(path, name)
			if err != nil {
				return nil, err
			}
			return &pointStream{File: f, want: point}, nil
		}}
	}
	out := &Recordings{}
	for i := range grid {
		out.Grid = append(out.Grid, mk(i))
	}
	for i := range pl.Checks {
		out.Checks = append(out.Checks, mk(len(grid)+i))
	}
	return out, nil
}

// Record runs the command once at p and reads what it writes, which waits
// in a file of the temporary folder, not in memory, until the command has
// ended; the command is stopped as soon as its output can no longer be a
// recording (watch). What Prefetch recorded at p is read instead.
func (s *Recorder) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	if kp, last, ok := s.kept.take(p); ok {
		if kp.err != nil {
			return nil, kp.err
		}
		f, err := os.Open(kp.path)
		if err != nil {
			return nil, err
		}
		defer func() {
			f.Close()
			if last {
				os.Remove(kp.path)
			}
		}()
		return readAt(f, pointName("recorder", p), p)
	}
	ord := s.notes.reserve(1)
	f, tail, err := s.run(ctx, p)
	if err != nil {
		return nil, err
	}
	s.notes.add(ord, p.String(), 0, tail)
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return readAt(f, pointName("recorder", p), p)
}

// run runs the command once at p, as Record does, into a file of the
// temporary folder, and returns the file, open, and the end of the
// command's standard error; the file is nil on failure, when it is
// removed.
func (s *Recorder) run(ctx context.Context, p record.Point) (*os.File, *tailBuffer, error) {
	dir, err := s.folder()
	if err != nil {
		return nil, nil, err
	}
	f, err := os.CreateTemp(dir, "record-*.jsonl")
	if err != nil {
		return nil, nil, err
	}
	name := pointName("recorder", p)
	tail, err := s.Cmd.run(ctx, p, p.String(), "", &watch{dst: f, name: name, first: readFirst(name, p)})
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, tail, err
	}
	return f, tail, nil
}

// Prefetch runs the command at each of points, as many at once as Jobs
// allows, and keeps each one's recording, or its failure, for the Record
// call that asks for it (Prefetcher). A failure at the first of points,
// which the caller asks for first, stops the commands at the others, and
// runs no more: a command stopped, because of that or because ctx is
// done, keeps nothing, and Record runs it again if it asks for it.
func (s *Recorder) Prefetch(ctx context.Context, points []record.Point) {
	fresh, uses := s.kept.want(points)
	if len(fresh) == 0 {
		return
	}
	stopFirst := fresh[0].Equal(points[0])
	ord := s.notes.reserve(len(fresh))
	runJobs(ctx, len(fresh), s.Jobs, nil, func(ctx context.Context, i int) error {
		p := fresh[i]
		f, tail, err := s.run(ctx, p)
		if ctx.Err() != nil {
			if f != nil {
				f.Close()
				os.Remove(f.Name())
			}
			return nil
		}
		kp := keptPoint{err: err, uses: uses[p.Key()]}
		if f != nil {
			kp.path = f.Name()
			f.Close()
			s.notes.add(ord+i, p.String(), 0, tail)
		}
		s.kept.put(p, kp)
		if stopFirst && i == 0 {
			return err
		}
		return nil
	})
}

// readFirst checks the first record of a recording made at p, named name,
// as Record's reading of it would (record.Read, then readAt): the header,
// at p.
func readFirst(name string, p record.Point) func(r *record.Record) error {
	return func(r *record.Record) error {
		if r.Kind != record.KindHeader {
			// In Read's words, which are a Builder's.
			if err := record.NewBuilder().Add(r); err != nil {
				return &record.SyntaxError{File: name, Line: r.Line, Msg: err.Error()}
			}
		}
		if !r.Header.Dims.Equal(p) {
			return wrongPoint(name, 1, p, r.Header.Dims)
		}
		return nil
	}
}

// gridFirst checks the first record of a recording made at p, named name,
// as the reading of a grid would (interp's reading of its headers, through
// a pointStream): the header, at p.
func gridFirst(name string, p record.Point) func(r *record.Record) error {
	return func(r *record.Record) error {
		if r.Kind != record.KindHeader {
			// In interp's words.
			return fmt.Errorf("%s:%d: %s before the header: the first line must be the header", name, r.Line, r.Kind.WithArticle())
		}
		if !r.Header.Dims.Equal(p) {
			return wrongPoint(name, r.Line, p, r.Header.Dims)
		}
		return nil
	}
}

// runAll runs the command at every point, Jobs at once, each writing to a
// file of the folder. A command whose output can no longer be a recording
// is stopped then, and fails (watch). The failure returned is that of the
// first point that fails in points' order (the grid's, then the check
// points'), the same however the commands are timed; the points after it
// are stopped.
func (s *Recorder) runAll(ctx context.Context, points, chosen []record.Point, dir string) ([]string, error) {
	paths := make([]string, len(points))
	ord := s.notes.reserve(len(points))
	for i := range points {
		paths[i] = filepath.Join(dir, fmt.Sprintf("point-%d.jsonl", i))
	}
	err := runJobs(ctx, len(points), s.Jobs, s.Progress, func(ctx context.Context, i int) error {
		f, err := os.Create(paths[i])
		if err != nil {
			return err
		}
		p := points[i]
		name := pointName("recorder", p)
		at, note := pointWords(p, chosen)
		tail, err := s.Cmd.run(ctx, p, at, note, &watch{dst: f, name: name, first: gridFirst(name, p)})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return &PointError{Point: p, Err: err}
		}
		s.notes.add(ord+i, p.String(), 0, tail)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return paths, nil
}

// runJobs runs do for 0 to n−1, jobs at once (DefaultJobs when jobs ≤ 0),
// starting them in order and telling progress, when not nil, as each ends.
// The error returned is the failure of the least i, whatever the order the
// jobs end in: a failure at i cancels the jobs after i (their context is
// done, and those not started are not), while those before i run on, for
// one of them may fail too and then be the one said.
func runJobs(ctx context.Context, n, jobs int, progress func(done, total int), do func(ctx context.Context, i int) error) error {
	if jobs <= 0 {
		jobs = DefaultJobs()
	}
	var mu sync.Mutex
	first := n // the least i that failed, n while none has
	errs := make([]error, n)
	cancels := make(map[int]context.CancelFunc)
	done := 0
	next := 0
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				if i >= first || i >= n || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				next++
				jctx, cancel := context.WithCancel(ctx)
				cancels[i] = cancel
				mu.Unlock()

				err := do(jctx, i)

				mu.Lock()
				cancel()
				delete(cancels, i)
				if err != nil && i < first {
					errs[i], first = err, i
					for j, c := range cancels {
						if j > i {
							c()
						}
					}
				}
				done++
				if progress != nil {
					progress(done, n)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first < n {
		return errs[first]
	}
	return ctx.Err()
}
