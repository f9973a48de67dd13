package pages

import (
	"syscall"
	"unsafe"
)

// The madvise advice package syscall does not name.
const (
	madvHugePage      = 14 // MADV_HUGEPAGE
	madvNoHugePage    = 15 // MADV_NOHUGEPAGE
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14 and later
)

// adviseHuge asks the kernel to back the whole huge pages among the n bytes
// at p with huge pages. It is advice: an error (a kernel without them) is
// no reason to fail.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	madvise(p, n, hugePage, madvHugePage)
}

// adviseSmall withdraws adviseHuge for the whole huge pages among the n
// bytes at p: what is not yet resident there is backed with small pages.
func adviseSmall(p unsafe.Pointer, n uintptr) {
	madvise(p, n, hugePage, madvNoHugePage)
}

// populate asks the kernel to make the whole pages among the n bytes at p
// resident and writable now, as writing a byte to each would, without
// changing what they hold. It reports whether the kernel did: an error (a
// kernel before 5.14) leaves the pages to be faulted in as they are
// touched.
func populate(p unsafe.Pointer, n uintptr) bool {
	return madvise(p, n, pageSize, madvPopulateWrite) == nil
}

// madvise gives the advice for the whole pages of the given size among the
// n bytes at p.
func madvise(p unsafe.Pointer, n, page uintptr, advice int) error {
	start, end := whole(uintptr(p), n, page)
	if start == end {
		return nil
	}
	b := unsafe.Slice((*byte)(p), n)[start-uintptr(p) : end-uintptr(p)]
	return syscall.Madvise(b, advice)
}
