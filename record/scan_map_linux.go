package record

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"unsafe"

	"memsym/internal/pages"
	"memsym/poly"
)

// Reading a file by mapping it. A Scanner that follows a regular file of
// at least mapFrom bytes (Follow) maps the rest of the file into memory at
// its first Follow and reads it where it lies, rather than copying it into
// its buffer a read at a time: on a grid of ten recordings of 200 MB, read
// by comparison with the first, the copies were a tenth of the CPU time. A
// Scanner that parses every line (Scan alone: Read, Validate, point 0 of a
// grid) goes on reading: by turns, its lines parsed where the file lies
// took 1.03x to 1.09x the CPU of lines copied into a buffer the cache
// holds. The pages the Scanner has passed are given back as it goes
// (releaseStep), so that the files' pages do not add up in the resident
// memory, however many are mapped at once. The mapping ends with the
// reading, at Close, or when the Scanner is dropped.
//
// A file made shorter while it is mapped faults where its pages were; the
// Scanner turns that fault into an error at the line it was reading.

// mapFrom is the smallest rest of a file the Scanner maps; tests lower it.
var mapFrom int64 = 1 << 20

// mapsOpen counts the mappings of all Scanners.
var mapsOpen atomic.Int64

// The pages the mapped files hold together, passed and not yet given back,
// stay under about mappedBudget: each Scanner gives its pages back every
// mappedBudget / mapsOpen bytes it passes, within [minRelease, maxRelease],
// and at most maxMaps files are mapped at once; the Scanners of any more
// read theirs. A grid of 81 recordings, each followed by its own Scanner,
// held 4 MiB a file, 324 MB, when each gave its pages back every 4 MiB.
const (
	mappedBudget = 8 << 20
	minRelease   = 256 << 10
	maxRelease   = 4 << 20
	maxMaps      = 32
)

// releaseStep returns how many bytes a Scanner passes before it gives their
// pages back.
func releaseStep() int {
	return int(min(maxRelease, max(minRelease, mappedBudget/max(1, mapsOpen.Load()))))
}

// mapSource is a file the Scanner may map when it follows: the file, and
// its offset when the Scanner was made.
type mapSource struct {
	f   *os.File
	off int64
}

// mapping is a Scanner's mapped file.
type mapping struct {
	data     []byte // the mapping, from a page boundary of the file
	skip     int    // where the Scanner's buffer begins in data
	released int    // the bytes at the start of data given back
	cleanup  runtime.Cleanup
}

// mappable notes f as a file to map at the first Follow, when it is a
// regular file of at least mapFrom bytes after its offset.
func (s *Scanner) mappable(f *os.File) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || fi.Size()-off < mapFrom {
		return
	}
	s.source = &mapSource{f: f, off: off}
}

// mapRest maps the rest of the Scanner's file, from the first byte it has
// not passed, and makes the Scanner read it there; the lines it holds in
// its buffer are read again from the mapping. Where it cannot, the Scanner
// goes on reading.
func (s *Scanner) mapRest() {
	src := s.source
	s.source = nil
	if s.done || s.err != nil {
		return
	}
	fi, err := src.f.Stat()
	if err != nil {
		return
	}
	passed := s.Offset()
	at, size := src.off+passed, fi.Size()
	if size-at < mapFrom || uint64(size) > math.MaxInt {
		return
	}
	if mapsOpen.Add(1) > maxMaps {
		mapsOpen.Add(-1)
		return
	}
	start := at &^ (pages.Size - 1)
	data, err := syscall.Mmap(int(src.f.Fd()), start, int(size-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		mapsOpen.Add(-1)
		return
	}
	m := &mapping{data: data, skip: int(at - start)}
	m.cleanup = runtime.AddCleanup(s, dropMapping, data)
	s.mapped = m
	s.buf = data[m.skip:]
	s.pos, s.end, s.eof, s.read = 0, len(s.buf), true, passed+int64(len(s.buf))
}

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
	dropMapping(m.data)
}

// dropMapping unmaps data, a Scanner's mapping.
func dropMapping(data []byte) {
	syscall.Munmap(data)
	mapsOpen.Add(-1)
}

// releaseBehind gives back the pages of the mapping the Scanner has passed,
// every releaseStep bytes.
func (s *Scanner) releaseBehind() {
	m := s.mapped
	done := (m.skip + s.pos) &^ (pages.Size - 1)
	if done-m.released < releaseStep() {
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
		if e.Addr()-uintptr(unsafe.Pointer(unsafe.SliceData(d))) < uintptr(len(d)) { // below the mapping wraps around
			s.fail(fmt.Errorf("%s:%d: the file was cut short while it was read", s.file, s.line+1))
			s.done = true
			s.unmap()
			return
		}
	}
	panic(r)
}
