package outfile

import (
	"memsym/internal/ending"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A command that writes several files into a directory (memsym explain's
// chapter) writes them all or none: into a staging directory first, then
// moved into place together.

// MissingDirs returns the directories of path, path among them, that do
// not exist yet, deepest first.
func MissingDirs(path string) []string {
	var out []string
	for d := filepath.Clean(path); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			break
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	return out
}

// WriteDir writes a run's files into dir all or none: render writes
// them into a staging directory inside dir and returns their names; only
// when all are written are they moved into place, the files they replace
// first moved aside, into the staging directory, and moved back if a move
// fails. A name that is a directory in dir is refused before anything in
// dir changes. Whatever happens, the staging directory is removed, and on
// an error dir is as it was. Then commit, when not nil, is told the names
// (to list them, say): a signal comes before the moves or after commit,
// never between. It returns the names, sorted, each once, and commit's
// error, the files being in place.
func WriteDir(dir, stem string, render func(stage string) ([]string, error), commit func(names []string) error) (names []string, err error) {
	removeDeadStages(dir, stem)
	stage, err := os.MkdirTemp(dir, fmt.Sprintf(".%s.staging-%d@%s-*", stem, os.Getpid(), hostName()))
	if err != nil {
		// The staging directory's name would only puzzle: say what of
		// dir failed.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("-o %s: cannot write into it: %w (nothing was written)", dir, err)
	}
	// A signal ending memsym removes it too (with the folders the run
	// made for it, which the caller registers): nothing is left half
	// written.
	forget := ending.OnEnd(func() { ending.RemoveAll(stage) })
	defer func() {
		os.RemoveAll(stage)
		forget()
	}()
	names, err = render(stage)
	if err != nil {
		// The staging directory is gone when the message is read: it
		// names the file where it was to go.
		return nil, errors.New(strings.ReplaceAll(err.Error(), stage+string(filepath.Separator), dir+string(filepath.Separator)))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, n := range names {
		if info, err := os.Lstat(filepath.Join(dir, n)); err == nil && info.IsDir() {
			return nil, fmt.Errorf("%s is a directory, where this run's %s goes: remove it or write into another directory (nothing was written)", filepath.Join(dir, n), n)
		}
	}
	aside := filepath.Join(stage, ".replaced")
	if err := os.Mkdir(aside, 0o755); err != nil {
		return nil, err
	}
	// A signal waits for the moves, or their undoing, and commit to end.
	// A file commit writes (see Write) registers nothing there: its
	// temporary file's removal is registered before.
	release := watchTemps()
	defer release()
	var commitErr error
	ending.Critical(func() {
		if err = moveIn(dir, stage, aside, names); err == nil && commit != nil {
			commitErr = commit(names)
		}
	})
	if err != nil {
		return nil, err
	}
	return names, commitErr
}

// moveIn moves the files names from stage into dir, those they replace
// first moved aside; on an error it puts dir back as it was.
func moveIn(dir, stage, aside string, names []string) (err error) {
	var movedAside, movedIn []string
	defer func() {
		if err == nil {
			return
		}
		for _, n := range movedIn {
			os.Remove(filepath.Join(dir, n))
		}
		for _, n := range movedAside {
			os.Rename(filepath.Join(aside, n), filepath.Join(dir, n))
		}
	}()
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			continue
		}
		if err := os.Rename(filepath.Join(dir, n), filepath.Join(aside, n)); err != nil {
			return fmt.Errorf("replacing %s: %w (nothing was written)", filepath.Join(dir, n), err)
		}
		movedAside = append(movedAside, n)
	}
	for _, n := range names {
		if err := os.Rename(filepath.Join(stage, n), filepath.Join(dir, n)); err != nil {
			return fmt.Errorf("writing %s: %w (nothing was written)", filepath.Join(dir, n), err)
		}
		movedIn = append(movedIn, n)
	}
	return nil
}

// removeDeadStages removes the staging directories in dir that runs no
// longer running left behind (a run killed outright cannot remove its
// own): each is named for its run's process and host, and the process, on
// this host, is asked whether it is alive. A directory whose run may be
// alive, is another host's (a directory shared over the network), or
// whose name says no process, is left be. The files a dead run had moved
// aside to put its own in their place are put back first.
func removeDeadStages(dir, stem string) {
	prefix := "." + stem + ".staging-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, tail, ok := strings.Cut(rest, "@")
		i := strings.LastIndex(tail, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || i < 0 || tail[:i] != hostName() || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		stage := filepath.Join(dir, e.Name())
		aside := filepath.Join(stage, ".replaced")
		if moved, err := os.ReadDir(aside); err == nil {
			for _, m := range moved {
				os.Rename(filepath.Join(aside, m.Name()), filepath.Join(dir, m.Name()))
			}
		}
		os.RemoveAll(stage)
	}
}

// hostName is this host's name in a staging directory's, without the
// characters that would make the name ambiguous; "host" when it has none.
func hostName() string {
	h, err := os.Hostname()
	h = strings.Map(func(r rune) rune {
		if r == '@' || r == '-' || r == '/' || r == '.' {
			return '_'
		}
		return r
	}, h)
	if err != nil || h == "" {
		return "host"
	}
	return h
}
