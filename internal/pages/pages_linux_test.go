package pages

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// TestMakePopulates checks, where the kernel can (Linux 5.14 and later),
// that every whole page of a large array from Make and Grow is resident
// before anything touches it, its first part as Make returns and the rest
// once the goroutine is done, and that it holds zeros. (The runtime may
// clear a process's first large array itself, making it resident either
// way; the second shows what populate does.)
func TestMakePopulates(t *testing.T) {
	if !populateWorks(t) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	for _, c := range []struct {
		name string
		make func() []int64
	}{
		{"Make", func() []int64 { return Make[int64](0, 8<<20) }},
		{"Grow", func() []int64 { return Grow(make([]int64, 3, 3), 8<<20) }},
		{"Make of 2 MiB", func() []int64 { return Make[int64](0, 256<<10) }},
	} {
		s := c.make()
		pending.Wait() // the part past background, made resident on a goroutine
		p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		start, end := whole(p, uintptr(cap(s))*8, pageSize)
		if n, in := resident(t, start, end); n != in {
			t.Errorf("%s: %d of the array's %d whole pages are resident, want all", c.name, n, in)
		}
		for _, v := range s[len(s):cap(s)] {
			if v != 0 {
				t.Fatalf("%s: the array's room is not zero", c.name)
			}
		}
		runtime.KeepAlive(s)
	}
}

// populateWorks reports whether the kernel knows MADV_POPULATE_WRITE.
func populateWorks(t *testing.T) bool {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, 2*pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(b)
	return syscall.Madvise(b, madvPopulateWrite) == nil
}

// resident returns how many of the pages in [start, end) are resident
// (mincore), and how many there are.
func resident(t *testing.T, start, end uintptr) (n, of int) {
	t.Helper()
	of = int((end - start) / pageSize)
	vec := make([]byte, of)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, start, end-start, uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	for _, v := range vec {
		n += int(v & 1)
	}
	return n, of
}
