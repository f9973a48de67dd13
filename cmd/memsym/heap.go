package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// firstCollection is how large memsym lets its heap grow before its first
// garbage collection. What a run holds is mostly its model, made once and
// kept to the end, in a few large arrays whose memory is made resident in
// the background as they are filled (internal/pages.MakeBehind). A
// collection that starts as they are made scans them while they are still
// empty, freeing nothing, and maps the zero page under each of their
// pages, which the background has then to replace one by one: on the
// 10^6-operation grid the two together cost a tenth of symbolic's time.
// After the first collection, Go's usual pacing (GOGC=100) holds, so a
// larger run collects as any Go program does.
const firstCollection = 512 << 20

// deferCollection defers the process's first garbage collection until
// its heap reaches firstCollection, unless the user set GOGC or
// GOMEMLIMIT, which then hold as they are.
func deferCollection() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	old := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstCollection)
	// The first collection finds the sentinel unreachable, and its
	// cleanup gives the usual pacing back.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, restoreCollection, old)
}

// restoreCollection gives back the collector's pacing: percent, and no
// memory limit.
func restoreCollection(percent int) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(math.MaxInt64)
}
