package record

import (
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"unsafe"
)

// Reading a file in place. A File that Follow reads, a grid point after the
// first, is mapped into memory at Follow's first call when it is a regular
// file of mapFrom bytes or more (on Linux): Follow then compares its lines
// with their templates where the page cache holds them, without the copy a
// read makes of every byte. The Scanner shows the mapping a step at a
// time, as it would fill its buffer, and gives back the pages it has read
// (MADV_DONTNEED), so that a file read in place holds about a step of the
// process's memory, not the file. Bytes past the mapping's end (a file that
// grew after Follow mapped it) are read as before.
//
// A file cut short while it is mapped leaves pages that fault when they
// are touched. Every method that touches the mapping (Scan, Follow, Keep,
// CountOps) runs with the runtime's panic on fault and recovers a fault in
// the mapping as the Scanner's error: the file was cut short. A fault
// anywhere else is not the Scanner's, and panics on.
//
// What it saves depends on how the page cache holds the file. In large
// folios (a file read from disk, or written in large writes, as WriteTo
// writes a large recording, on Linux 6.18's ext4), a fault maps hundreds
// of KiB, and `memsym symbolic` on a grid of 10^6 operations takes about 6%
// less CPU time reading in place than reading: the kernel's copies go, and
// the comparisons, meeting the bytes in memory rather than in the cache,
// take back about half of what they cost. In folios of 64 KiB (a file
// written 64 KiB at a time and still cached), a fault maps 64 KiB, and the
// two cost about the same (BENCHMARKS.md, issue 16's twenty-sixth round).

// mapFrom is the least size of a file Follow maps; tests lower it.
var mapFrom int64 = 4 << 20

// How much more of a mapped file the Scanner shows at a time, its step: a
// 64th of the file, at least minStep and at most maxStep, and so about the
// most memory the file holds, as the pages read are given back at each
// step. Each step is one call to give them back, whose flush of the
// mapping's entries from the cores' caches of them (TLBs) costs the other
// core too: a large file takes large steps. At most maxMapped files are
// mapped at once, in the process; those after them are read. A grid of
// 3×3 points of 10^6 operations maps its nine other files of 190 MB in
// steps of 3 MiB; one of 3^4 points of 10^5 operations sixteen of its
// eighty files of 19 MB, in steps of 300 KiB.
var (
	minStep = 256 << 10
	maxStep = 4 << 20 // tests lower it
)

const maxMapped = 16

// mappedNow counts the files mapped now, in the process.
var mappedNow atomic.Int64

// The pages given back: small ones, or huge ones where the steps are at
// least that large. A file the page cache holds in folios of 2 MiB (one
// written 2 MiB at a time, as WriteTo writes a large recording) is mapped
// a huge page at a time, and giving back part of one unmaps it whole, to be
// mapped again for the rest.
var (
	pageSize = os.Getpagesize()
	hugePage = 2 << 20
)

// startMapping maps the Scanner's file when it is large enough, and goes on
// from the mapping: the unread bytes of buf are the same bytes of the file,
// where the mapping holds them.
func (s *Scanner) startMapping() {
	s.mayMap = false
	f, ok := s.r.(*os.File)
	if !ok || s.err != nil {
		return
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() < mapFrom || info.Size() < s.read {
		return
	}
	if mappedNow.Add(1) > maxMapped {
		mappedNow.Add(-1)
		return
	}
	m := mapFile(f, info.Size())
	if m == nil {
		mappedNow.Add(-1)
		return
	}
	s.m, s.mlo = m, 0
	s.step = int(min(int64(maxStep), max(int64(minStep), info.Size()/64)))
	s.pos, s.end = int(s.read)-(s.end-s.pos), int(s.read)
	s.buf = m[:s.end:len(m)]
}

// fillMapped shows a step more of the mapping in buf, or up to its end, and
// gives back the whole pages read before the unread bytes: huge pages, where
// the steps are at least that large.
func (s *Scanner) fillMapped() {
	// buf starts at mlo in the mapping: the unread bytes are at [at, shown).
	at, shown := s.mlo+s.pos, s.mlo+s.end
	unit := pageSize
	if s.step >= hugePage {
		unit = hugePage
	}
	if cut := at &^ (unit - 1); cut > s.mlo {
		drop(s.m[s.mlo:cut])
		s.mlo = cut
	}
	end := min(shown+s.step, len(s.m))
	s.read += int64(end - shown)
	// Loads past the end, up to the mapping's, are of the file's bytes:
	// fastRecord may make them, and never trusts them.
	s.buf = s.m[s.mlo:end:len(s.m)]
	s.pos, s.end = at-s.mlo, end-s.mlo
}

// leaveMapping copies the unread bytes, at the mapping's end, into a buffer
// of the Scanner's own, unmaps the mapping and reads the file on from its
// end.
func (s *Scanner) leaveMapping() {
	rest := s.buf[s.pos:s.end]
	buf := make([]byte, max(firstBuffer, 2*len(rest)))
	n := copy(buf, rest)
	s.unmap()
	s.buf, s.pos, s.end = buf, 0, n
	if _, err := s.r.(io.Seeker).Seek(s.read, io.SeekStart); err != nil {
		s.fail(err)
	}
}

// unmapAll unmaps what is left of the mapping, if any, and empties buf,
// which shows it.
func (s *Scanner) unmapAll() {
	if s.m == nil {
		return
	}
	s.unmap()
	s.buf, s.pos, s.end, s.cur = nil, 0, 0, nil
}

// unmap unmaps the mapping.
func (s *Scanner) unmap() {
	unmap(s.m)
	s.m, s.mlo = nil, 0
	mappedNow.Add(-1)
}

// guard makes a fault panic on this goroutine, and returns the function to
// defer, which puts the setting back and recovers a fault in the mapping:
// the Scanner is done, its error that the file was cut short, and faulted
// runs (to set its caller's results). It is for the Scanner's methods while
// it reads in place.
func (s *Scanner) guard(faulted func()) func() {
	was := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(was)
		if r := recover(); r != nil {
			if !s.inMapping(r) {
				panic(r)
			}
			s.err = &SyntaxError{File: s.file, Line: s.line + 1, Msg: "the file was cut short while it was read"}
			s.done = true
			s.unmapAll()
			faulted()
		}
	}
}

// inMapping reports whether r is the panic of a fault at an address in the
// Scanner's mapping.
func (s *Scanner) inMapping(r any) bool {
	e, ok := r.(interface{ Addr() uintptr })
	if !ok || s.m == nil {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s.m)))
	return e.Addr() >= lo && e.Addr()-lo < uintptr(len(s.m))
}

// scanMapped is Scan while the Scanner reads in place.
func (s *Scanner) scanMapped() (ok bool) {
	defer s.guard(func() { ok = false })()
	return s.scan()
}
