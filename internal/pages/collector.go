package pages

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The collector and the arrays kept. The collector runs when the heap has
// grown by GOGC percent of what it found live the last time it ran. A
// program that reads a recording of a million records makes its arrays,
// hundreds of megabytes, in a few calls near its start, when the heap is
// small: each such array would start a cycle at once, and the cycles mark
// the arrays again and again while the heap grows into them, freeing
// nothing (on the 10^6-operation grid, two cycles and about a fifth of the
// run's CPU time, their marking of pages not yet made resident included).
//
// So Make and MakeLazy count a large array as live before it is made
// (keep): until the collector next runs, its target is what it would be
// had it found the array live the last time, that is, GOGC percent more
// than the heap then live and the arrays kept since. When it next runs,
// it finds the arrays that are still held, and the usual target is back.
// An array that turns out to be garbage (one a Grow replaced) only lets
// the heap grow by its own size once more before that cycle. GOGC=off
// is left alone, and so is a GOGC a program set itself after the first
// array (SetGCPercent is taken over until the next cycle).

// keepFrom is the smallest array counted as live before it is made: the
// arrays of large recordings, not the many small ones a doubling starts
// with.
const keepFrom = 32 << 20

var collector struct {
	sync.Mutex
	base   int    // GOGC as the program started, −1 for off; read once
	read   bool   // base is read
	credit uint64 // the bytes kept since the last cycle
}

// keep counts n bytes about to be made and held as live, as above.
func keep(n int) {
	if n < keepFrom {
		return
	}
	c := &collector
	c.Lock()
	defer c.Unlock()
	if !c.read {
		c.base, c.read = readGOGC(), true
	}
	if c.base < 0 {
		return
	}
	if c.credit == 0 {
		// A sentinel no one holds: its cleanup runs after the next cycle.
		runtime.AddCleanup(new([2]*int), func(struct{}) { cycled() }, struct{}{})
	}
	c.credit += uint64(n)
	debug.SetGCPercent(percentFor(liveHeap(), c.credit, c.base))
}

// cycled gives the collector its usual target back once it has run.
func cycled() {
	c := &collector
	c.Lock()
	defer c.Unlock()
	if c.credit > 0 {
		c.credit = 0
		debug.SetGCPercent(c.base)
	}
}

// minHeap is the heap the runtime treats as live before it has marked any.
const minHeap = 4 << 20

// percentFor returns the GOGC that makes the collector's target what base
// would give had live+credit bytes been found live: the target is then
// live·(1 + p/100) = (live + credit)·(1 + base/100).
func percentFor(live, credit uint64, base int) int {
	live = max(live, minHeap)
	target := float64(live+credit) * (1 + float64(base)/100)
	p := math.Ceil((target/float64(live) - 1) * 100)
	return int(min(p, math.MaxInt32))
}

// liveHeap returns the bytes the collector found live in its last cycle.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// readGOGC returns the collector's GOGC, −1 when it is off.
func readGOGC() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return -1
	}
	v := s[0].Value.Uint64()
	if v > math.MaxInt32 {
		return -1 // off: the runtime's −1, read unsigned
	}
	return int(v)
}
