package pages

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestMakePopulates checks, where the kernel can (Linux 5.14 and later)
// and huge pages are at hand, that every whole page of a large array from Make and Grow is resident
// before anything touches it, its first part as Make returns and the rest
// once the goroutine is done, and that it holds zeros. (The runtime may
// clear a process's first large array itself, making it resident either
// way; the second shows what populate does.)
func TestMakePopulates(t *testing.T) {
	if !populateWorks(t) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	setHuge(t, atHand)
	setSince(t, func(int) time.Duration { return 0 }) // every part as quick as at hand
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

// TestHugeResidentChoice checks what hugeResident does to fresh memory
// once the choice is made: huge pages at hand, the memory is marked for
// them and resident; dear, it is neither, left to be faulted in as it is
// touched.
func TestHugeResidentChoice(t *testing.T) {
	if !populateWorks(t) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	for _, c := range []struct {
		state    int32
		resident bool
	}{{atHand, true}, {dear, false}} {
		setHuge(t, c.state)
		setSince(t, func(int) time.Duration { return 0 })
		p, n := fresh(t, 16<<20)
		hugeResident(p, n)
		pending.Wait()
		start, end := whole(uintptr(p), n, hugePage)
		got, of := resident(t, start, end)
		if c.resident && got != of || !c.resident && got != 0 {
			t.Errorf("huge %d: %d of %d pages resident, want all: %t", c.state, got, of, c.resident)
		}
		if marked := strings.Contains(mappingFlags(t, start), " hg"); marked != c.resident && thpAsked(t) {
			t.Errorf("huge %d: marked for huge pages %t, want %t", c.state, marked, c.resident)
		}
	}
}

// TestFirstPart checks that the first part made resident decides while
// the choice is open: one as quick as huge pages at hand makes it at hand
// and the array resident; a slow one makes it dear, leaving the rest of
// the array unmarked and untouched.
func TestFirstPart(t *testing.T) {
	if !populateWorks(t) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	for _, c := range []struct {
		took time.Duration
		want int32
	}{{0, atHand}, {time.Second, dear}} {
		setHuge(t, unknown)
		setSince(t, func(int) time.Duration { return c.took })
		p, n := fresh(t, 16<<20)
		hugeResident(p, n)
		pending.Wait()
		if h := huge.Load(); h != c.want {
			t.Fatalf("a first part that took %v: huge %d, want %d", c.took, h, c.want)
		}
		start, end := whole(uintptr(p), n, hugePage)
		got, of := resident(t, start, end)
		switch {
		case c.want == atHand && got != of:
			t.Errorf("at hand: %d of %d pages resident, want all", got, of)
		case c.want == dear && got > of/2:
			t.Errorf("dear: %d of %d pages resident, want the first part's at most", got, of)
		}
		if c.want == dear && thpAsked(t) && strings.Contains(mappingFlags(t, end-1), " hg") {
			t.Errorf("dear: the rest is still marked for huge pages")
		}
	}
}

// TestTurnsDear checks that a part of a large array that takes long to
// make resident, on the goroutine, turns the choice: the rest of the array
// is neither made resident nor marked for huge pages, and the arrays after
// it are left be.
func TestTurnsDear(t *testing.T) {
	if !populateWorks(t) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	setHuge(t, atHand)
	const quick = backgroundPart / part // the parts made resident before hugeResident returns
	setSince(t, func(k int) time.Duration {
		if k < quick {
			return 0
		}
		return time.Second
	})
	p, n := fresh(t, 64<<20)
	hugeResident(p, n)
	pending.Wait()
	if h := huge.Load(); h != dear {
		t.Fatalf("after a part that took 1 s, huge is %d, want dear (%d)", h, dear)
	}
	start, end := whole(uintptr(p), n, hugePage)
	made := start + backgroundPart + part // to the end of the part that turned it
	if got, of := resident(t, uintptr(p), made); got != of {
		t.Errorf("the parts made resident: %d of %d pages resident, want all", got, of)
	}
	if got, _ := resident(t, made, uintptr(p)+n); got != 0 {
		t.Errorf("the rest: %d pages resident, want none", got)
	}
	if thpAsked(t) && strings.Contains(mappingFlags(t, end-1), " hg") {
		t.Errorf("the rest is still marked for huge pages")
	}
	q, m := fresh(t, 16<<20)
	hugeResident(q, m)
	if s, e := whole(uintptr(q), m, hugePage); func() int { got, _ := resident(t, s, e); return got }() != 0 {
		t.Errorf("an array after the turn was made resident")
	}
}

// fresh returns n bytes of memory mapped for the test alone, none of it
// touched or advised yet, unmapped after it.
func fresh(t *testing.T, n uintptr) (unsafe.Pointer, uintptr) {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return unsafe.Pointer(unsafe.SliceData(b)), n
}

// thpAsked reports whether the kernel marks memory for huge pages on
// madvise.
func thpAsked(t *testing.T) bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !strings.Contains(string(mode), "[never]")
}
