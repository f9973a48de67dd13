// Package pages makes the large arrays memsym fills once, such as a
// recording's buffers and operations, so that their memory costs as little
// as it can to touch for the first time.
//
// An array of a million records is hundreds of megabytes that the kernel
// maps one 4 KiB page at a time as it is first touched, each page a fault
// and a page to clear. On a virtual machine every fault is dearer still,
// and what a page costs depends on the host: memory the host must back
// afresh costs many times what it costs to map memory the guest used
// lately. Huge pages (2 MiB) turn that either way. Where the host has them
// at hand, an array backed by them and made resident in one call
// (MADV_HUGEPAGE, then MADV_POPULATE_WRITE) costs a tenth of what small
// pages do: 400 MB in about 45 ms against 600 ms, on the machine of issue
// 16's fifteenth round. Where it has not, each huge page is 2 MiB the host
// backs afresh, and they cost five times what small pages do: 200 MB in
// about 320 ms against 80 ms, on the machine of its twenty-third round,
// whose kernel hands free 2 MiB blocks back to the host
// (page_reporting_order 9): a huge page is then mostly memory the host
// backs afresh, where small pages are likely memory the guest freed lately.
//
// So a large array from Make is marked for huge pages and made resident a
// few huge pages at a time, each part timed, while huge pages are at hand:
// no fault as the array is filled, and no zero page. A large one is made
// resident on a goroutine of its own past its first part, so that the
// caller fills it, and the other cores work, while that cost is paid. The
// first part that takes longer than huge pages at hand do turns the choice
// for the rest of the process: the rest of that array, and the arrays
// after it, are left as Go makes them, to be faulted in small pages as
// they are touched. (A host may have a few huge pages at hand and then
// none: on the twenty-third round's machine, parts of two huge pages took
// 0.2–0.8 ms in some runs, and 5–10 ms from the first or the sixth on in
// others.) An array that may stay partly unused (MakeLazy,
// GrowLazy: room made on a guess, an array that doubles as it grows, an
// index filled sparsely) is marked for huge pages while they are at hand,
// and never made resident: room never touched costs nothing.
// BENCHMARKS.md has what each gave on a 10^6-operation grid.
package pages

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Make returns make([]T, n, c) for an array that will be filled up to its
// capacity: when it is large and huge pages are at hand, its memory is
// marked for them and made resident at once, or, past background, its
// first part at once and the rest on a goroutine of its own while the
// caller fills it.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	if size := sizeOf[T](c); size >= residentFrom {
		hugeResident(unsafe.Pointer(unsafe.SliceData(s)), uintptr(size))
	}
	return s
}

// hugeResident backs the n bytes at p with huge pages made resident, a
// part at a time, as long as huge pages are at hand, and else leaves them
// be. Past background bytes, only the first backgroundPart are made
// resident before it returns, and the others by a goroutine, in order: the
// caller, filling the array from its start, need not wait for them.
// (Making a page resident never changes what it holds, so the goroutine
// and the caller's writes may meet in any order.) The ragged ends around
// the whole huge pages are small pages, made resident untimed; an array
// without a whole huge page is all small pages, made resident.
func hugeResident(p unsafe.Pointer, n uintptr) {
	if huge.Load() == dear {
		return
	}
	adviseHuge(p, n)
	base := uintptr(p)
	start, end := whole(base, n, hugePage)
	if start == end {
		populate(p, n)
		return
	}
	populate(p, start-base)
	tail := func() {
		if end < base+n { // a pointer past the array's end is not to be made
			populate(unsafe.Add(p, end-base), base+n-end)
		}
	}
	now := end
	if n >= background {
		now = min(end, start+backgroundPart)
	}
	if !residentParts(p, n, start, now) {
		return
	}
	if now == end {
		tail()
		return
	}
	pending.Add(1)
	go func() { // p keeps the array alive until it is done
		defer pending.Done()
		if residentParts(p, n, now, end) {
			tail()
		}
	}()
}

// residentParts makes the whole huge pages from address start to end,
// among the n bytes at p, resident, part bytes at a time, timing each. A
// part that takes longer than huge pages at hand do (cheap), or a choice
// turned elsewhere, turns the choice for the process: the rest of the n
// bytes are left to small pages, and it reports false.
func residentParts(p unsafe.Pointer, n, start, end uintptr) bool {
	base := uintptr(p)
	for a := start; a < end; a += part {
		k := min(part, end-a)
		began := time.Now()
		made := populate(unsafe.Add(p, a-base), k)
		if !made || huge.Load() == dear || !cheap(since(began), k) {
			huge.Store(dear)
			if rest := a + k; rest < base+n {
				adviseSmall(unsafe.Add(p, rest-base), base+n-rest)
			}
			return false
		}
		huge.CompareAndSwap(unknown, atHand)
	}
	return true
}

// pending counts the arrays being made resident in the background.
var pending sync.WaitGroup

// huge is whether huge pages are at hand, as the parts made resident so
// far found: unknown before the first.
var huge atomic.Int32

const (
	unknown = iota // tried on the first large array
	atHand         // huge pages are asked for and made resident
	dear           // arrays are left to small pages, faulted in as touched
)

// since is time.Since, but for tests of a host whose huge pages are dear.
var since = time.Since

// cheap reports whether making n bytes of whole huge pages resident in d
// was no dearer than huge pages the host has at hand are: cheapPerHuge for
// each.
func cheap(d time.Duration, n uintptr) bool {
	return d <= cheapPerHuge*time.Duration(n/hugePage)
}

// cheapPerHuge is what making one huge page resident may take for huge
// pages to be at hand. On issue 16's machines, one the host has at hand
// takes about 0.2 ms; 2 MiB of small pages the guest used lately about
// 0.7 ms; a huge page the host backs afresh 2 to 5 ms.
const cheapPerHuge = 500 * time.Microsecond

const (
	// residentFrom is the smallest array Make makes resident: a few
	// hundred pages, whose faults cost more than the call.
	residentFrom = 1 << 20
	// background is the smallest array Make makes resident partly in
	// the background: backgroundPart bytes before it returns, the rest
	// on a goroutine.
	background     = 32 << 20
	backgroundPart = 8 << 20
	// part is how much is made resident, and timed, at a time: two
	// huge pages.
	part = 2 * hugePage
)

// MakeLazy returns make([]T, n, c) for an array that may be filled
// sparsely, such as an index: when it is large and huge pages were found
// at hand (by Make's parts), its memory is marked for them.
func MakeLazy[T any](n, c int) []T {
	s := make([]T, n, c)
	if size := sizeOf[T](c); size >= from && huge.Load() == atHand {
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
