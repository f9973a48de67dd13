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
func LockDir(dir string, wait func()) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if wait != nil {
			wait()
		}
		for err = syscall.EINTR; errors.Is(err, syscall.EINTR); {
			err = syscall.Flock(fd, syscall.LOCK_EX)
		}
	}
	if err != nil {
		// No locks here (ENOLCK, EOPNOTSUPP): go on unlocked, as before.
		f.Close()
		return func() {}, nil
	}
	return func() { f.Close() }, nil // closing the last descriptor unlocks
}
