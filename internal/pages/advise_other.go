//go:build !linux

package pages

import "unsafe"

// adviseHuge does nothing where huge pages are not asked for by madvise.
func adviseHuge(p unsafe.Pointer, n uintptr) {}

// adviseSmall does nothing where huge pages are not asked for.
func adviseSmall(p unsafe.Pointer, n uintptr) {}

// populate does nothing where pages are not made resident by madvise: they
// are faulted in as they are touched. It reports false: nothing was made
// resident.
func populate(p unsafe.Pointer, n uintptr) bool { return false }
