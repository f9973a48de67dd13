package pages

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

func TestWhole(t *testing.T) {
	const h, k = hugePage, pageSize
	for _, c := range []struct{ p, n, page, start, end uintptr }{
		{0, 0, h, 0, 0},
		{h, h, h, h, 2 * h},                        // one huge page, aligned
		{h + 1, h, h, 2 * h, 2 * h},                // none whole
		{h - 8, 3 * h, h, h, 3 * h},                // two whole, between ragged ends
		{5*h + 4096, 10 * h, h, 6 * h, 15 * h},     // nine whole
		{3 * h, h - 1, h, 3 * h, 3 * h},            // smaller than one
		{5*h + 4096, 10 * h, k, 5*h + k, 15*h + k}, // the same bytes in small pages: all whole
		{k + 1, 3 * k, k, 2 * k, 4 * k},            // two whole small pages
	} {
		start, end := whole(c.p, c.n, c.page)
		if start != c.start || end != c.end {
			t.Errorf("whole(%#x, %#x, %#x) = %#x, %#x, want %#x, %#x", c.p, c.n, c.page, start, end, c.start, c.end)
		}
	}
}

func TestMakeAndGrow(t *testing.T) {
	s := Make[int64](3, 10)
	if len(s) != 3 || cap(s) != 10 || s[0] != 0 || s[2] != 0 {
		t.Fatalf("Make(3, 10) = len %d cap %d %v", len(s), cap(s), s)
	}
	s[0], s[1], s[2] = 7, 8, 9
	if g := Grow(s, 7); unsafe.SliceData(g) != unsafe.SliceData(s) {
		t.Errorf("Grow with room made a new array")
	}
	g := Grow(s, 1<<20)
	if len(g) != 3 || cap(g) < 3+1<<20 || g[0] != 7 || g[1] != 8 || g[2] != 9 {
		t.Fatalf("Grow(s, 1<<20) = len %d cap %d %v", len(g), cap(g), g[:3])
	}
	for _, v := range g[3:cap(g)] {
		if v != 0 {
			t.Fatal("Grow's new room is not zero")
		}
	}
}

// TestMakeLazyAdvises checks, where the kernel takes the advice and huge
// pages are at hand, that a large array's memory, lazy or made resident, is marked for huge pages
// ("hg" among its mapping's flags in /proc/self/smaps), at both ends.
func TestMakeLazyAdvises(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are asked for on Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("this kernel has no transparent huge pages to ask for")
	}
	setHuge(t, atHand)
	setSince(t, func(int) time.Duration { return 0 }) // every part as quick as at hand
	for _, c := range []struct {
		name string
		make func() []byte
	}{
		{"MakeLazy", func() []byte { return MakeLazy[byte](0, 64<<20) }},
		{"Make", func() []byte { return Make[byte](0, 64<<20) }},
	} {
		big := c.make()
		start, end := whole(uintptr(unsafe.Pointer(unsafe.SliceData(big))), uintptr(cap(big)), hugePage)
		if flags := mappingFlags(t, start); !strings.Contains(flags, " hg") {
			t.Errorf("%s: a 64 MiB array's memory has flags %q, without hg", c.name, flags)
		}
		if flags := mappingFlags(t, end-1); !strings.Contains(flags, " hg") {
			t.Errorf("%s: the end of a 64 MiB array's memory has flags %q, without hg", c.name, flags)
		}
		runtime.KeepAlive(big)
	}
}

// mappingFlags returns the VmFlags line of the mapping that holds addr.
func mappingFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line + " "
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// mappingRange reads the address range at the start of a mapping's first
// line in smaps, "7f00-7f80 rw-p ...".
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	r, _, found := strings.Cut(line, " ")
	a, b, dash := strings.Cut(r, "-")
	if !found || !dash {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}

func TestCheap(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		n    uintptr
		want bool
	}{
		{0, hugePage, true},
		{cheapPerHuge, hugePage, true},
		{cheapPerHuge + 1, hugePage, false},
		{3 * cheapPerHuge, 4 * hugePage, true},   // 8 MiB at 3/4 of the budget a page
		{5 * cheapPerHuge, 4 * hugePage, false},  // past it
		{4 * time.Millisecond, 8 << 20, false},   // the 2 MiB pages a host backs afresh
		{200 * time.Microsecond, hugePage, true}, // the ones it has at hand
	} {
		if got := cheap(c.d, c.n); got != c.want {
			t.Errorf("cheap(%v, %d) = %t, want %t", c.d, c.n, got, c.want)
		}
	}
}

// setHuge sets the choice of huge pages for a test, putting it back after.
func setHuge(t *testing.T, h int32) {
	t.Helper()
	was := huge.Load()
	huge.Store(h)
	t.Cleanup(func() {
		pending.Wait()
		huge.Store(was)
	})
}

// setSince makes the parts made resident in a test take what took says,
// given each part's number from 0.
func setSince(t *testing.T, took func(part int) time.Duration) {
	t.Helper()
	var parts atomic.Int32
	was := since
	since = func(time.Time) time.Duration { return took(int(parts.Add(1)) - 1) }
	t.Cleanup(func() {
		pending.Wait() // the goroutines still timing their parts
		since = was
	})
}
