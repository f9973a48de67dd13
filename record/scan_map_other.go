//go:build !linux

package record

import (
	"os"

	"memsym/poly"
)

// Elsewhere than on Linux a Scanner reads every file a read at a time.

type (
	mapping   struct{}
	mapSource struct{}
)

func (s *Scanner) mappable(f *os.File) {}

func (s *Scanner) mapRest() {}

func (s *Scanner) unmap() {}

func (s *Scanner) scanMapped() bool { return s.scan() }

func (s *Scanner) followMapped(t *Templates, from int, sizes []poly.Rat) (int, []poly.Rat) {
	return s.follow(t, from, sizes)
}
