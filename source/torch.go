package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"memsym/interp"
	"memsym/record"
	"memsym/recorders/torch"
)

// Torch records a PyTorch model with memsym_torch, the recorder shipped
// inside memsym (recorders/torch, docs/torch.md): its Python package is
// written to a temporary folder and run by a Python that has torch. Torch
// takes seconds to import and a point milliseconds to record, so the points
// are recorded in batches, one process per job.
type Torch struct {
	// Args are the recorder's arguments before the points, as a shell
	// reads them: "mymodel.py:build --step adamw --const D=64".
	Args string
	// Jobs is how many processes run at once; 0 means DefaultJobs.
	Jobs int
	// Timeout is how long one process may run, recording its batch of
	// points; 0: no limit.
	Timeout time.Duration
	// Progress, when set, is told of each batch recorded.
	Progress func(done, total int)
	// Note, when set, is given by Close the note on what the recorder's
	// processes that succeeded wrote to their standard error (Python's
	// warnings, the model's prints there): one line, as Recorder's,
	// said of the processes, each of which records several points.
	Note func(msg string)
	scratch
	kept  kept // what Prefetch recorded
	notes stderrNotes
}

func (s *Torch) Name() string {
	spec, _, _ := strings.Cut(strings.TrimSpace(s.Args), " ")
	return spec
}

// Close gives the note on the recorder's standard error (Note), and
// removes what recording left behind.
func (s *Torch) Close() error {
	if msg := torchNote(&s.notes); msg != "" && s.Note != nil {
		s.Note(msg)
	}
	return s.scratch.Close()
}

// check refuses arguments that do not begin FILE.py:FUNCTION, before any
// recorder runs.
func (s *Torch) check() error {
	spec := s.Name()
	if file, fn, ok := strings.Cut(spec, ":"); !ok || file == "" || fn == "" {
		return usagef("--torch %s: expected FILE.py:FUNCTION, such as model.py:build, then the recorder's own flags", spec)
	}
	return nil
}

// Plan returns the grid spec gives, which must name every dimension, and
// the check points: two from DefaultChecks and spec's.
func (s *Torch) Plan(spec Spec) (*Plan, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(spec.Grid) == 0 {
		return nil, usagef("--torch needs the grid: --grid B=2,3,4 for each dimension the model's function takes")
	}
	var vars []string
	for _, g := range spec.Grid {
		vars = append(vars, g.Name)
	}
	return plan(vars, nil, nil, spec)
}

func (s *Torch) Recordings(ctx context.Context, spec Spec) (*Recordings, error) {
	pl, err := s.Plan(spec)
	if err != nil {
		return nil, err
	}
	grid := pl.Points()
	all := append(append([]record.Point(nil), grid...), pl.Checks...)
	out, _, err := s.recordAll(ctx, all, pl.Checks[:pl.Defaults], false, false)
	if err != nil {
		return nil, err
	}
	mk := func(p record.Point) interp.Source {
		path, name := filepath.Join(out, p.Key()+".jsonl"), pointName(s.Name(), p)
		return interp.Source{Name: name, Open: func() (record.Stream, error) {
			f, err := record.OpenNamed(path, name)
			if err != nil {
				return nil, &PointError{Point: p, Err: fmt.Errorf("the PyTorch recorder wrote no recording at %s", p)}
			}
			return &pointStream{File: f, want: p}, nil
		}}
	}
	recs := &Recordings{}
	for _, p := range grid {
		recs.Grid = append(recs.Grid, mk(p))
	}
	for _, p := range pl.Checks {
		recs.Checks = append(recs.Checks, mk(p))
	}
	return recs, nil
}

// Record records one point in a process of its own, or returns what
// Prefetch recorded there, or its failure there.
func (s *Torch) Record(ctx context.Context, p record.Point) (*record.Recording, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	path := ""
	if kp, _, ok := s.kept.take(p); ok {
		if kp.err != nil {
			return nil, kp.err
		}
		path = kp.path
	} else {
		out, _, err := s.recordAll(ctx, []record.Point{p}, nil, false, false)
		if err != nil {
			return nil, err
		}
		path = filepath.Join(out, p.Key()+".jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the PyTorch recorder wrote no recording at %s", p)
	}
	defer f.Close()
	return readAt(f, pointName(s.Name(), p), p)
}

// Prefetch records points in as few processes as Jobs allows, all at
// once, and keeps each recording made for the Record call that asks for
// it (Prefetcher). A process that ran out of time at one of its points
// keeps that failure for the point's Record call, said as recording the
// point alone says it, so that no point's time runs out twice; so does
// one that failed at its first point (the model's error, no torch).
// Record records in a process of its own the points after it, which its
// process did not reach, and a point whose failure alone might be said
// otherwise: a mistake in the command line, which may name another of
// the points, and a failure after other points were recorded, whose
// standard error may be theirs too. A failure at the first of points,
// which the caller asks for first, stops the other processes, keeping
// what they had recorded: the points they had not are recorded by
// Record, if it asks for them.
func (s *Torch) Prefetch(ctx context.Context, points []record.Point) {
	if s.check() != nil {
		return
	}
	fresh, uses := s.kept.want(points)
	if len(fresh) == 0 {
		return
	}
	out, failed, _ := s.recordAll(ctx, fresh, nil, true, fresh[0].Equal(points[0]))
	if out == "" || ctx.Err() != nil {
		return
	}
	for _, p := range fresh {
		if recorded(out, p) {
			s.kept.put(p, keptPoint{path: filepath.Join(out, p.Key()+".jsonl"), uses: uses[p.Key()]})
		}
	}
	for _, f := range failed {
		s.kept.put(f.p, keptPoint{err: f.err, uses: uses[f.p.Key()]})
	}
}

// aloneFailure is a process's failure at p, one of its points, as
// recording p alone in a process of its own would say it: err.
type aloneFailure struct {
	p   record.Point
	err error
}

// recordAll records the points, split in batches over the jobs, into a new
// folder of the source's temporary folder, and returns that folder. A
// failure at one of chosen, the check points memsym chose, is said to be
// there (pointWords). A batch's failure stops the others, and is
// returned, unless the points are prefetched: then the failures
// returned are those Prefetch keeps (aloneFailure), one a batch at most,
// the error returned is only that of making the folder, and the folder
// is "" when that failed; a prefetched batch's failure stops the others
// only when stopFirst and it failed at the first of points.
func (s *Torch) recordAll(ctx context.Context, points, chosen []record.Point, prefetch bool, stopFirst bool) (string, []aloneFailure, error) {
	py, err := Python()
	if err != nil {
		return "", nil, err
	}
	if s.dir == "" {
		dir, err := s.folder()
		if err != nil {
			return "", nil, err
		}
		if err := torch.Install(dir); err != nil {
			return "", nil, err
		}
	}
	out, err := os.MkdirTemp(s.dir, "points-")
	if err != nil {
		return "", nil, err
	}
	jobs := s.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs()
	}
	jobs = min(jobs, len(points))
	ord := s.notes.reserve(len(points))
	// One process a batch, every batch at once: torch's import is paid once
	// a process. The batches are runs of points in order, so that the
	// failure returned, the first batch's that fails (runJobs) at the
	// first of its points that fails, is at the first point that fails
	// in points' order, however the processes are timed.
	var mu sync.Mutex
	var failed []aloneFailure
	err = runJobs(ctx, jobs, jobs, s.Progress, func(ctx context.Context, j int) error {
		from := j * len(points) / jobs
		batch := points[from : (j+1)*len(points)/jobs]
		alone, err := s.run(ctx, py, batch, chosen, out, ord+from)
		if !prefetch {
			return err
		}
		if alone != nil {
			mu.Lock()
			failed = append(failed, *alone)
			mu.Unlock()
		}
		if stopFirst && j == 0 && err != nil && !recorded(out, points[0]) {
			return err
		}
		return nil
	})
	if prefetch {
		return out, failed, nil
	}
	return out, nil, err
}

// run records one batch of points in one process, into the folder out.
// The recorder records them in order, writing each one's recording there
// once it is made: where it fails, the first point of the batch without
// one is where it failed, and a failure there is a *PointError; the
// points after it it never reached. alone is that failure as recording
// the point alone, in a process of its own, would say it (Prefetch keeps
// it for the point's Record call; chosen is then nil, as Record's): when
// the process ran out of time there, said without the points it had
// recorded before, or failed there before recording any point, when its
// standard error is what a process of its own would write; nil
// otherwise. A process that succeeds is counted for the note on its
// standard error as the run ord.
func (s *Torch) run(ctx context.Context, py string, batch, chosen []record.Point, out string, ord int) (alone *aloneFailure, err error) {
	// The points and the folder by memsym's own flags, after the user's:
	// the recorder refuses the user's --at, -o and --out-dir under memsym.
	line := shellQuote(py) + " -m " + torch.Package + " " + s.Args
	for _, p := range batch {
		line += " --memsym-at " + p.Key()
	}
	line += " --memsym-out-dir " + shellQuote(out)
	cmd := exec.Command("sh", "-c", line)
	// MEMSYM_TORCH_DRIVER: the recorder's messages speak of memsym's
	// flags (--grid), not its own (--dim).
	cmd.Env = append(os.Environ(), "PYTHONPATH="+s.dir, "MEMSYM_TORCH_DRIVER=memsym")
	tail := &tailBuffer{max: tailMax}
	parent := ctx
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	// In a process group of its own, killed whole when another batch fails,
	// the timeout passes or the process ends: torch's workers do not
	// outlive it.
	if err := runGroup(ctx, cmd, nil, tail); err != nil {
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		made := 0 // the points recorded, before the one it was at
		for made < len(batch) && recorded(out, batch[made]) {
			made++
		}
		p := batch[min(made, len(batch)-1)]
		at, note := pointWords(p, chosen)
		if ctx.Err() == context.DeadlineExceeded {
			// The limit is the process's, which was recording p: alone,
			// without the points before it.
			stopped := func(took string) error {
				return &PointError{Point: p, Err: fmt.Errorf("the PyTorch recorder at %s did not finish within %s and was stopped%s%s%s", at, s.Timeout, took, tail.quote(), note)}
			}
			one := &aloneFailure{p: p, err: stopped("")}
			if len(batch) == 1 {
				return one, one.err
			}
			return one, stopped(fmt.Sprintf(" (its process, which records %d points in turn, had recorded %d of them)", len(batch), made))
		}
		// Exit status 2 with the recorder's mark is a mistake in the
		// command line, which it says in one line: memsym's usage error.
		// (The model's own code may exit with 2 too, unmarked.) It may
		// name another of the points than p: alone, p may have none.
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 {
			if msg, ok := strings.CutPrefix(lastLine(tail.buf), torch.Package+": command line: "); ok {
				return nil, usagef("--torch: %s", msg)
			}
		}
		// Exit status 1 with the recorder's mark: the Python does not
		// import torch, said in memsym's terms, naming the Python; the
		// same at any point.
		if errors.As(err, &exit) && exit.ExitCode() == 1 {
			if msg, ok := strings.CutPrefix(lastLine(tail.buf), torch.Package+": no torch: "); ok {
				err := noTorch(py, msg)
				return &aloneFailure{p: p, err: err}, err
			}
		}
		if made == len(batch) && len(batch) > 1 {
			// Every point recorded, and then it failed: at none of them.
			return nil, fmt.Errorf("the PyTorch recorder at %s and %d more points failed after recording them all (%v)%s", batch[0], len(batch)-1, err, tail.quote())
		}
		err = &PointError{Point: p, Err: fmt.Errorf("the PyTorch recorder at %s failed (%v)%s%s", at, err, tail.quote(), note)}
		if made > 0 {
			// Its standard error may be the points' before p too.
			return nil, err
		}
		return &aloneFailure{p: p, err: err}, err
	}
	s.notes.add(ord, batch[0].String(), len(batch)-1, tail)
	return nil, nil
}

// recorded reports whether the recorder wrote p's recording into out: it
// writes each whole, under its name, once it is made.
func recorded(out string, p record.Point) bool {
	_, err := os.Stat(filepath.Join(out, p.Key()+".jsonl"))
	return err == nil
}

// lastLine returns the last non-empty line of b, trimmed.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// noTorch says that py, the Python that runs the recorder, does not import
// torch (why: as Python says it), and how to choose another.
func noTorch(py, why string) error {
	if os.Getenv("MEMSYM_PYTHON") == "" {
		return fmt.Errorf("%s does not import torch (%s): set MEMSYM_PYTHON to a Python that does (docs/torch.md)", py, why)
	}
	return fmt.Errorf("the Python named by MEMSYM_PYTHON, %s, does not import torch (%s): %s", py, why, otherPython)
}

// otherPython says how to choose another Python than MEMSYM_PYTHON's.
const otherPython = "set MEMSYM_PYTHON to a Python that imports torch, or unset it for the first of python3 and /usr/bin/python3 that does (docs/torch.md)"

var python struct {
	once sync.Once
	path string
	err  error
}

// Python returns the Python that runs the PyTorch recorder: $MEMSYM_PYTHON,
// else the first of python3 and /usr/bin/python3 that finds torch.
// $MEMSYM_PYTHON is only looked for, not run: whether it imports torch the
// recorder says, as it starts. The others are asked only whether torch is
// installed for them (importlib's find_spec), which takes tens of
// milliseconds where importing it takes seconds; one that finds a torch
// that then fails to import is said to by the recorder, naming it.
func Python() (string, error) {
	if p := os.Getenv("MEMSYM_PYTHON"); p != "" {
		if _, err := exec.LookPath(p); err != nil && !errors.Is(err, exec.ErrDot) {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, exec.ErrNotFound) {
				return "", fmt.Errorf("the Python named by MEMSYM_PYTHON, %s, was not found: %s", p, otherPython)
			}
			why := err
			if inner := errors.Unwrap(err); inner != nil {
				why = inner // "permission denied", not exec's "exec: ...: permission denied"
			}
			return "", fmt.Errorf("the Python named by MEMSYM_PYTHON, %s, cannot be run (%v): %s", p, why, otherPython)
		}
		return p, nil
	}
	python.once.Do(func() {
		var tried []string
		for _, p := range []string{"python3", "/usr/bin/python3"} {
			if err := exec.Command(p, "-c", findTorch).Run(); err == nil {
				python.path = p
				return
			}
			tried = append(tried, p)
		}
		python.err = fmt.Errorf("no Python with torch found (tried %s): install python3-torch, or set MEMSYM_PYTHON", strings.Join(tried, ", "))
	})
	return python.path, python.err
}

// findTorch is Python that exits with 0 where torch is installed, and
// with 1 where it is not, without importing it.
const findTorch = "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)"

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// FreesOnRelease reports whether the recorder is asked for --free release
// (eager PyTorch's freeing) in Args; without it a temporary is freed after
// its last use.
func (t *Torch) FreesOnRelease() bool {
	f := strings.Fields(t.Args)
	for i, a := range f {
		if a == "--free=release" || a == "--free" && i+1 < len(f) && f[i+1] == "release" {
			return true
		}
	}
	return false
}
