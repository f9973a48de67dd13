//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// LockDir locks the directory dir against other memsym runs that lock it,
// waiting for them (telling wait first, when it must) and returns what
// unlocks it: two runs writing into one directory take turns, so that its
// files are one run's whole set. The lock is the kernel's on the directory
// itself (flock), so nothing is left behind, and it goes with the process.
// Where the file system has no such locks, dir is not locked.
//
// A directory the run that held it removed meanwhile (it made it, and was
// interrupted) is made again and locked anew. A directory that cannot be
// opened to lock (written into, not listed: mode 0333) or whose file
// system has no such locks is not locked.
func LockDir(dir string, wait func()) (unlock func(), err error) {
	for {
		f, err := os.Open(dir)
		if err != nil {
			return func() {}, nil
		}
		fd := int(f.Fd())
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if wait != nil {
				wait()
				wait = nil
			}
			for err = syscall.EINTR; errors.Is(err, syscall.EINTR); {
				err = syscall.Flock(fd, syscall.LOCK_EX)
			}
		}
		if err != nil {
			// No locks here (ENOLCK, EOPNOTSUPP): go on unlocked.
			f.Close()
			return func() {}, nil
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(dir)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() { f.Close() }, nil // closing the last descriptor unlocks
		}
		f.Close()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
}
