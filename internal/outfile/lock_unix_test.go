//go:build unix

package outfile

import (
	"testing"
	"time"
)

// A second lock on a directory waits, saying so, until the first is
// released; then it holds the directory.
func TestLockDirTakesTurns(t *testing.T) {
	dir := t.TempDir()
	unlock, err := LockDir(dir, func() { t.Error("the first lock waited") })
	if err != nil {
		t.Fatal(err)
	}
	waiting, locked := make(chan bool, 1), make(chan func(), 1)
	go func() {
		u, err := LockDir(dir, func() { waiting <- true })
		if err != nil {
			t.Error(err)
		}
		locked <- u
	}()
	select {
	case <-waiting:
	case <-time.After(10 * time.Second):
		t.Fatal("the second lock did not wait")
	}
	select {
	case <-locked:
		t.Fatal("the second lock was taken while the first was held")
	default:
	}
	unlock()
	select {
	case u := <-locked:
		u()
	case <-time.After(10 * time.Second):
		t.Fatal("the second lock was not taken once the first was released")
	}
}
