//go:build !linux

package record

import "os"

// mapFile returns nil where recordings are not mapped: the Scanner reads
// them.
func mapFile(f *os.File, size int64) []byte { return nil }

// drop and unmap are never called where mapFile maps nothing.
func drop(b []byte)  {}
func unmap(m []byte) {}
