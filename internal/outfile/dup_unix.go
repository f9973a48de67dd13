//go:build unix

package outfile

import (
	"os"
	"syscall"
)

// dupFile returns a new file for a duplicate of the open descriptor fd.
func dupFile(fd int, name string) (*os.File, error) {
	n, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(n), name), nil
}
