//go:build unix

package cost

import "testing"

func TestMaxrssUnit(t *testing.T) {
	if maxrssUnit("darwin") != 1 || maxrssUnit("linux") != 1024 || maxrssUnit("freebsd") != 1024 {
		t.Error("ru_maxrss is bytes on darwin, kilobytes on Linux and the BSDs")
	}
}
