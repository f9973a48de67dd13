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
// So an array that will be filled (Make, Grow) is marked for huge pages and
// made resident as it is made (MADV_POPULATE_WRITE): no fault as it is
// filled, and no zero page. Where the kernel has huge pages at hand, it
// backs the array with them: on the virtual machines memsym is measured on,
// 400 MB take about 45 ms so, against 600 ms in small pages. Where it has
// none, the array gets small pages at their usual cost; and memory the
// host must back afresh (after the process before freed little) costs
// about 1 s per 400 MB either way. A large array is made resident a part
// at a time on a goroutine of its own, so that the caller fills it, and
// the other cores work, while that cost is paid. An array that may stay
// partly unused (MakeLazy, GrowLazy: room made on a guess, an array that
// doubles as it grows, an index filled sparsely) is marked for huge pages
// only, so that the zero page is mapped at most once per 2 MiB, and room
// never touched costs nothing. BENCHMARKS.md has what each gave on a
// 10^6-operation grid.
package pages

import (
	"sync"
	"unsafe"
)

// Make returns make([]T, n, c) for an array that will be filled up to its
// capacity: when it is large, its memory is marked for huge pages and made
// resident at once, or, past background, its first part at once and the
// rest on a goroutine of its own while the caller fills it.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	if size := sizeOf[T](c); size >= residentFrom {
		hugeResident(unsafe.Pointer(unsafe.SliceData(s)), uintptr(size))
	}
	return s
}

// hugeResident asks for huge pages for the n bytes at p, then makes them
// resident: the kernel backs them with huge pages where it has them at
// hand, and with small pages where it has not. Past background bytes, only
// the first are made resident before it returns, and the others by a
// goroutine, a part at a time in order: where the kernel has no huge pages
// at hand, making a recording's hundreds of megabytes resident takes a
// few hundred milliseconds, which the caller, filling the array from its
// start, need not wait for. (Making a page resident never changes what it
// holds, so the goroutine and the caller's writes may meet in any order.)
func hugeResident(p unsafe.Pointer, n uintptr) {
	adviseHuge(p, n)
	if n < background {
		populate(p, n)
		return
	}
	populate(p, backgroundPart)
	pending.Add(1)
	go func() { // p keeps the array alive until it is done
		defer pending.Done()
		for off := uintptr(backgroundPart); off < n; off += backgroundPart {
			populate(unsafe.Add(p, off), min(backgroundPart, n-off))
		}
	}()
}

// pending counts the arrays being made resident in the background.
var pending sync.WaitGroup

const (
	// residentFrom is the smallest array Make makes resident: a few
	// hundred pages, whose faults cost more than the call.
	residentFrom = 1 << 20
	// background is the smallest array Make makes resident in the
	// background, backgroundPart at a time.
	background     = 32 << 20
	backgroundPart = 8 << 20
)

// MakeLazy returns make([]T, n, c) for an array that may be filled
// sparsely, such as an index: when it is large, its memory is marked for
// huge pages, where the system has them.
func MakeLazy[T any](n, c int) []T {
	s := make([]T, n, c)
	if size := sizeOf[T](c); size >= from {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(s)), uintptr(size))
	}
	return s
}

// Grow returns s with room for at least n more elements, as slices.Grow
// does, that will be filled: a new array is made by Make.
func Grow[T any](s []T, n int) []T { return growWith(s, n, Make[T]) }

// GrowLazy is Grow for room that may stay partly unused, such as the
// doubling of an array whose final length is not known: a new array is made
// by MakeLazy.
func GrowLazy[T any](s []T, n int) []T { return growWith(s, n, MakeLazy[T]) }

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

// from is the smallest array MakeLazy marks: it must hold at least one
// whole huge page wherever it lies.
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
