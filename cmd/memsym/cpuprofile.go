//go:build memsym_cpuprofile

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// A build with the tag memsym_cpuprofile writes a CPU profile of its run to
// the file MEMSYM_CPUPROFILE names, when it names one. Such profiles make
// cmd/memsym/default.pgo, by which Go optimizes every build of memsym
// (profile-guided optimization): `make pgo` builds memsym so and runs it
// (bench/run -pgo). Other builds have no such hook.
func init() {
	path := os.Getenv("MEMSYM_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "memsym: MEMSYM_CPUPROFILE: %v\n", err)
		os.Exit(1)
	}
	atExit = func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "memsym: MEMSYM_CPUPROFILE: %v\n", err)
		}
	}
}
