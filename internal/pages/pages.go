// Package pages makes the large arrays memsym fills once, such as a
// recording's buffers and operations, in memory the kernel may back with
// huge pages.
//
// An array of a million records is hundreds of megabytes that the kernel
// maps one 4 KiB page at a time as it is first touched. When a page is read
// before it is written (by the collector scanning the array, or by a check
// before a store) the kernel first maps its shared zero page there, and the
// first write then faults again and flushes the TLB of every core the
// process runs on. With the array marked for huge pages, one fault maps
// 2 MiB and the zero page is mapped once per 2 MiB, not per 4 KiB: on a
// 10^6-operation grid this took a quarter of memsym symbolic's system time
// away (BENCHMARKS.md).
package pages

import "unsafe"

// Make returns make([]T, n, c), its memory marked for huge pages when it is
// large enough to hold some and the system has them.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	if size := int(unsafe.Sizeof(zero)) * c; size >= hugeFrom {
		advise(unsafe.Pointer(unsafe.SliceData(s)), uintptr(size))
	}
	return s
}

// Grow returns s with room for at least n more elements, as slices.Grow
// does, a new array made by Make.
func Grow[T any](s []T, n int) []T {
	if n <= cap(s)-len(s) {
		return s
	}
	t := Make[T](len(s), len(s)+n)
	copy(t, s)
	return t
}

// hugeFrom is the smallest array Make marks: it must hold at least one
// whole huge page wherever it lies.
const hugeFrom = 2 * hugePage

// hugePage is the size of the huge pages on the systems memsym runs on.
const hugePage = 2 << 20

// hugeRange returns the whole huge pages inside the n bytes at p.
func hugeRange(p, n uintptr) (start, end uintptr) {
	start = (p + hugePage - 1) &^ (hugePage - 1)
	end = (p + n) &^ (hugePage - 1)
	if end < start {
		end = start
	}
	return start, end
}
