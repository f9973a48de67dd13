// Package pages makes the large arrays memsym fills once, such as a
// recording's buffers and operations, so that their memory costs as little
// as it can to touch for the first time.
//
// An array of a million records is hundreds of megabytes that the kernel
// maps one 4 KiB page at a time as it is first touched, each page a fault.
// When a page is read before it is written (by the collector scanning the
// array, or by a check before a store) the kernel first maps its shared
// zero page there, and the first write then faults again and flushes the
// TLB of every core the process runs on. On a virtual machine every fault
// is dearer still, and so are huge pages the host has to back afresh.
//
// So an array that will be filled (Make, Grow) is made resident as it is
// made, all its pages in one call (MADV_POPULATE_WRITE), before the
// collector can scan it: no fault as it is filled, and no zero page. An
// array that may stay partly unused (MakeLazy, GrowLazy: room made on a
// guess, an array that doubles as it grows, an index filled sparsely) is
// marked for huge pages instead, so that the zero page is mapped at most
// once per 2 MiB, and room never touched costs nothing. BENCHMARKS.md has
// what each gave on a 10^6-operation grid.
package pages

import "unsafe"

// Make returns make([]T, n, c) for an array that will be filled up to its
// capacity: when it is large, its memory is made resident at once.
func Make[T any](n, c int) []T { return makeWith[T](n, c, populate) }

// MakeLazy returns make([]T, n, c) for an array that may be filled
// sparsely, such as an index: when it is large, its memory is marked for
// huge pages, where the system has them.
func MakeLazy[T any](n, c int) []T { return makeWith[T](n, c, adviseHuge) }

// Grow returns s with room for at least n more elements, as slices.Grow
// does, that will be filled: a new array is made by Make.
func Grow[T any](s []T, n int) []T { return growWith(s, n, Make[T]) }

// GrowLazy is Grow for room that may stay partly unused, such as the
// doubling of an array whose final length is not known: a new array is made
// by MakeLazy.
func GrowLazy[T any](s []T, n int) []T { return growWith(s, n, MakeLazy[T]) }

// makeWith makes the array and, when it is large, gives its memory the
// advice.
func makeWith[T any](n, c int, advice func(p unsafe.Pointer, n uintptr)) []T {
	s := make([]T, n, c)
	if size := sizeOf[T](c); size >= from {
		advice(unsafe.Pointer(unsafe.SliceData(s)), uintptr(size))
	}
	return s
}

// growWith is Grow with its new array made by mk.
func growWith[T any](s []T, n int, mk func(n, c int) []T) []T {
	if n <= cap(s)-len(s) {
		return s
	}
	t := mk(len(s), len(s)+n)
	copy(t, s)
	return t
}

// sizeOf returns the bytes of n elements of type T.
func sizeOf[T any](n int) int {
	var zero T
	return int(unsafe.Sizeof(zero)) * n
}

// from is the smallest array Make and MakeLazy do anything for: it must
// hold at least one whole huge page wherever it lies.
const from = 2 * hugePage

// hugePage is the size of the huge pages on the systems memsym runs on.
const hugePage = 2 << 20

// Size is the smallest page of the systems memsym runs on, the unit the
// kernel maps memory and files in.
const Size = 4 << 10

const pageSize = Size

// whole returns the whole pages of the given size, a power of 2, inside
// the n bytes at p.
func whole(p, n, page uintptr) (start, end uintptr) {
	start = (p + page - 1) &^ (page - 1)
	end = (p + n) &^ (page - 1)
	if end < start {
		end = start
	}
	return start, end
}
