package pages

import (
	"syscall"
	"unsafe"
)

// madvHugePage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugePage = 14

// advise asks the kernel to back the whole huge pages among the n bytes at
// p with huge pages. It is advice: an error (a kernel without them) is no
// reason to fail.
func advise(p unsafe.Pointer, n uintptr) {
	start, end := hugeRange(uintptr(p), n)
	if start == end {
		return
	}
	b := unsafe.Slice((*byte)(p), n)[start-uintptr(p) : end-uintptr(p)]
	syscall.Madvise(b, madvHugePage)
}
