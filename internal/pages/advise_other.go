//go:build !linux

package pages

import "unsafe"

// advise does nothing where huge pages are not asked for by madvise.
func advise(p unsafe.Pointer, n uintptr) {}
