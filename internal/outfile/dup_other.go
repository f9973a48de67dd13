//go:build !unix

package outfile

import (
	"errors"
	"os"
)

// dupFile has no descriptors to duplicate where there is no Unix.
func dupFile(fd int, name string) (*os.File, error) {
	return nil, errors.New("no file descriptors to write to on this system")
}
