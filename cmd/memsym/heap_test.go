package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestDeferCollection checks that the first collection is deferred to
// firstCollection, and that after it the pacing the process had holds
// again; and that GOGC or GOMEMLIMIT set by the user are left alone.
func TestDeferCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer restoreCollection(before)
	deferCollection()
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); p != -1 || limit != firstCollection {
		t.Fatalf("deferred: GC percent %d and memory limit %d, want -1 and %d", p, limit, firstCollection)
	}
	runtime.GC() // finds the sentinel unreachable
	for deadline := time.Now().Add(time.Minute); gcPercent() != 100 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		runtime.GC()
	}
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || limit != math.MaxInt64 {
		t.Fatalf("after the first collection: GC percent %d and memory limit %d, want 100 and none", p, limit)
	}

	t.Setenv("GOGC", "50")
	deferCollection()
	if p := gcPercent(); p != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left at 100", p)
	}
}

// gcPercent returns the collector's percent, leaving it as it is.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
