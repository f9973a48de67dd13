package record

import (
	"os"
	"strconv"
	"syscall"
)

// mapFile maps the first size bytes of f for reading, or returns nil where
// it cannot: the Scanner then goes on reading f.
//
// Only a 64-bit process maps: each mapping takes the whole file's address
// space while it is read, and sixteen files of a large grid would take
// most of a 32-bit process's.
func mapFile(f *os.File, size int64) []byte {
	if size <= 0 || strconv.IntSize < 64 {
		return nil
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return m
}

// drop gives back the pages of b, whole pages of a mapping mapFile made that
// the Scanner has read: the mapping stays, and holds no memory there until
// touched again.
func drop(b []byte) {
	syscall.Madvise(b, syscall.MADV_DONTNEED)
}

// unmap unmaps a mapping mapFile made, whole.
func unmap(m []byte) {
	syscall.Munmap(m)
}
