// Package outfile writes a command's output file: a regular file whole or
// not at all, and anything else (a device, a FIFO, a socket, /dev/fd/N) in
// place, as a shell's redirection would; and a directory's files, all of
// them or none (WriteDir).
package outfile

import (
	"memsym/internal/ending"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// ErrIsDir is the cause of the error of a path that names a directory.
var ErrIsDir = errors.New("is a directory")

// maxLinks bounds the symbolic links followed to find a path's file.
const maxLinks = 255

// Error is a failure to write Path: its message is the path and the cause,
// "PATH: no space left on device".
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// fail returns err as an *Error of path: a system call's error without
// its operation and its file, which may be the temporary one.
func fail(path string, err error) error {
	switch e := err.(type) {
	case *fs.PathError:
		err = e.Err
	case *os.LinkError:
		err = e.Err
	}
	return &Error{Path: path, Err: err}
}

// Write calls write with a writer to path and returns an *Error if it or
// the writing fails.
//
// A path that does not exist or names a regular file gets a new file
// written beside it and renamed over it: on failure, or a signal ending
// memsym, it is left as it was and no temporary file remains. As after a
// shell's >, an existing file keeps its mode, and a new one's is 0666 less
// the umask. A symbolic link is followed, the link kept and its target
// written. A path that exists and is not a regular file nor a directory (a
// device, a FIFO, a socket, /dev/fd/N) is opened and written in place. A
// directory is refused with ErrIsDir.
func Write(path string, write func(io.Writer) error) error {
	if fd, ok := descriptor(path); ok {
		return writeDescriptor(path, fd, write)
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return &Error{Path: path, Err: ErrIsDir}
	case err == nil && !fi.Mode().IsRegular():
		return writeInPlace(path, write)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fail(path, err)
	}
	target, err := resolve(path)
	if err != nil {
		return fail(path, err)
	}
	return writeAtomic(path, target, write)
}

// descriptor returns the number of the open file descriptor path names,
// /dev/stdout, /dev/fd/N or /proc/self/fd/N, as a shell's redirection
// gives them: written through the descriptor itself, a file behind it is
// written as the shell opened it (appended to, after >>), never replaced.
func descriptor(path string) (int, bool) {
	clean := filepath.ToSlash(filepath.Clean(path))
	switch clean {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	n, ok := strings.CutPrefix(clean, "/dev/fd/")
	if !ok {
		n, ok = strings.CutPrefix(clean, "/proc/self/fd/")
	}
	if !ok {
		return 0, false
	}
	fd, err := strconv.Atoi(n)
	return fd, err == nil && fd >= 0
}

// writeDescriptor writes to the open descriptor fd, which path names,
// through a duplicate of it, which shares its offset and its flags: fd
// itself stays open, the caller's.
func writeDescriptor(path string, fd int, write func(io.Writer) error) error {
	f, err := dupFile(fd, path)
	if err != nil {
		return fail(path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return &Error{Path: path, Err: ErrIsDir}
	}
	if err := write(f); err != nil {
		return fail(path, err)
	}
	return f.Close()
}

// writeInPlace opens path, a file other than a regular one, and writes it.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fail(path, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(path, err)
	}
	return nil
}

// writeAtomic writes a temporary file beside target and renames it to
// target; errors are path's. The file has the mode a shell's > leaves:
// target's, when it exists, else a new file's, 0666 less the umask.
//
// A signal that ends memsym meanwhile removes the temporary file (see
// removeTemps): it comes before the rename or after it, never between, so
// that it leaves either target as it was or the whole file, and nothing
// else.
func writeAtomic(path, target string, write func(io.Writer) error) error {
	dir, base := split(target)
	if base == "" {
		return &Error{Path: path, Err: errors.New("ends in a separator: expected a file's name")}
	}
	perm, keep := fs.FileMode(0o666), false
	if fi, err := os.Stat(target); err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	release := watchTemps()
	defer release()
	temps.mu.Lock()
	f, err := createTemp(dir, base, perm)
	if err == nil {
		temps.names[f.Name()] = true
	}
	temps.mu.Unlock()
	if err != nil {
		return fail(path, err)
	}
	tmp := f.Name()
	err = write(f)
	if err == nil && keep {
		// The umask may have taken from target's mode: it is given back.
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	temps.mu.Lock()
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		os.Remove(tmp)
	}
	delete(temps.names, tmp)
	temps.mu.Unlock()
	if err != nil {
		return fail(path, err)
	}
	return nil
}

// temps are the temporary files being written, which a signal ending
// memsym removes. Each is made, and renamed or removed, with mu held.
var temps = struct {
	mu    sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

// removeTemps removes the temporary files being written: it is what a
// signal ending memsym undoes. It keeps temps.mu for good, so that a write
// going on meanwhile stops there, before it makes a file or renames one.
func removeTemps() {
	temps.mu.Lock()
	for name := range temps.names {
		os.Remove(name)
	}
}

// watch counts the writes, and WriteDirs, that need removeTemps registered
// with ending; forget forgets it.
var watch struct {
	mu     sync.Mutex
	n      int
	forget func()
}

// watchTemps registers removeTemps, to be run if a signal ends memsym,
// unless it is registered already, and returns what forgets it once no
// caller needs it. It registers with ending only outside ending.Critical:
// a write within it, which must not register, is one within WriteDir's
// commit, and WriteDir has called watchTemps before.
func watchTemps() (release func()) {
	watch.mu.Lock()
	defer watch.mu.Unlock()
	if watch.n == 0 {
		watch.forget = ending.OnEnd(removeTemps)
	}
	watch.n++
	return func() {
		watch.mu.Lock()
		defer watch.mu.Unlock()
		if watch.n--; watch.n == 0 {
			watch.forget()
		}
	}
}

// createTemp makes a new file in dir named ".base.N.tmp", N random, with
// the mode perm less the umask, as the system applies it when it makes a
// file: the umask is never read, nor changed.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	if !os.IsPathSeparator(dir[len(dir)-1]) {
		dir += string(filepath.Separator)
	}
	for range 10000 {
		name := dir + "." + base + "." + strconv.FormatUint(uint64(rand.Uint32()), 10) + ".tmp"
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, errors.New("no unused name for a temporary file beside it")
}

// resolve follows the symbolic links from path to the name of the file
// they lead to, which may not exist yet. The names are kept as given, not
// cleaned, so that the system resolves each ".." after the links before it.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			dir, _ := split(path)
			link = dir + string(filepath.Separator) + link
		}
		path = link
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// split splits path after its last separator, without cleaning it: the
// directory ("." for none) and the name.
func split(path string) (dir, name string) {
	vol := filepath.VolumeName(path)
	i := strings.LastIndexFunc(path[len(vol):], func(r rune) bool { return os.IsPathSeparator(uint8(r)) })
	if i < 0 {
		return vol + ".", path[len(vol):]
	}
	i += len(vol)
	dir = path[:i]
	if dir == vol {
		dir = path[:i+1] // the root
	}
	return dir, path[i+1:]
}
