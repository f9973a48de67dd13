package record

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"

	"memsym/poly"
)

// Reading a file by mapping it. A Scanner given a regular file of at least
// mapFrom bytes maps the file into memory and reads it where it lies,
// rather than copying it into its buffer a read at a time: on a grid of ten
// recordings of 200 MB, the copies were a tenth of the CPU time. The pages
// it has passed are given back every releaseEvery bytes, so that a file's
// pages do not add up in the resident memory. The mapping ends with the
// reading, at Close, or when the Scanner is dropped.
//
// A file made shorter while it is mapped faults where its pages were; the
// Scanner turns that fault into an error at the line it was reading.

// mapFrom is the smallest file the Scanner maps; tests lower it.
var mapFrom int64 = 1 << 20

// releaseEvery is how many bytes the Scanner passes before it gives their
// pages back.
const releaseEvery = 4 << 20

// mapping is a Scanner's mapped file.
type mapping struct {
	data     []byte // the whole mapping, from a page boundary of the file
	skip     int    // where the file's unread part began in data
	released int    // the bytes at the start of data given back
	cleanup  runtime.Cleanup
}

// mapFile maps f, when it is a regular file of at least mapFrom bytes
// after its offset, and makes the Scanner read it there. Where it cannot,
// the Scanner reads f as any reader.
func (s *Scanner) mapFile(f *os.File) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	off, err := f.Seek(0, io.SeekCurrent)
	size := fi.Size()
	if err != nil || size-off < mapFrom || uint64(size) > math.MaxInt {
		return
	}
	start := off &^ (pageSize - 1)
	data, err := syscall.Mmap(int(f.Fd()), start, int(size-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return
	}
	m := &mapping{data: data, skip: int(off - start)}
	m.cleanup = runtime.AddCleanup(s, func(d []byte) { syscall.Munmap(d) }, data)
	s.mapped = m
	s.buf = data[m.skip:]
	s.pos, s.end, s.eof, s.read = 0, len(s.buf), true, int64(len(s.buf))
}

// pageSize is the size of the pages the Scanner maps and gives back.
const pageSize = 4 << 10

// unmap ends the mapping, if there is one. The Scanner must not read the
// input after.
func (s *Scanner) unmap() {
	m := s.mapped
	if m == nil {
		return
	}
	s.read -= int64(s.end - s.pos) // Offset stays as it was
	s.mapped, s.buf, s.pos, s.end, s.cur = nil, nil, 0, 0, nil
	m.cleanup.Stop()
	syscall.Munmap(m.data)
}

// releaseBehind gives back the pages of the mapping the Scanner has passed,
// every releaseEvery bytes.
func (s *Scanner) releaseBehind() {
	m := s.mapped
	done := (m.skip + s.pos) &^ (pageSize - 1)
	if done-m.released < releaseEvery {
		return
	}
	syscall.Madvise(m.data[m.released:done], syscall.MADV_DONTNEED)
	m.released = done
}

// scanMapped is Scan on a mapped file. After a fault it returns false.
func (s *Scanner) scanMapped() (ok bool) {
	s.releaseBehind()
	defer s.caught(debug.SetPanicOnFault(true))
	if ok = s.scan(); !ok {
		s.unmap()
	}
	return ok
}

// followMapped is Follow on a mapped file. After a fault it reports
// nothing read; Scan then returns false, and Err says why.
func (s *Scanner) followMapped(t *Templates, from int, sizes []poly.Rat) (n int, out []poly.Rat) {
	s.releaseBehind()
	n, out = from, sizes
	defer s.caught(debug.SetPanicOnFault(true))
	n, out = s.follow(t, from, sizes)
	return n, out
}

// caught restores the fault mode old and recovers from a fault in the
// mapping, which it makes the Scanner's error; any other panic goes on.
func (s *Scanner) caught(old bool) {
	debug.SetPanicOnFault(old)
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(interface{ Addr() uintptr }); ok && s.mapped != nil {
		d := s.mapped.data
		if at := e.Addr(); at >= uintptr(unsafe.Pointer(unsafe.SliceData(d))) && at-uintptr(unsafe.Pointer(unsafe.SliceData(d))) < uintptr(len(d)) {
			s.fail(fmt.Errorf("%s:%d: the file was cut short while it was read", s.file, s.line+1))
			s.done = true
			s.unmap()
			return
		}
	}
	panic(r)
}
