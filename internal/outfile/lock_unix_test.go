//go:build unix

package outfile

import (
	"os"
	"path/filepath"
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
	waiting, locked := lockBehind(t, dir)
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

// A run waiting for a directory that the run holding it removes (it made
// it, and was interrupted) makes it again and locks it.
func TestLockDirRemovedWhileWaiting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := LockDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	waiting, locked := lockBehind(t, dir)
	<-waiting
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	unlock()
	select {
	case u := <-locked:
		defer u()
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting lock was not taken")
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("the directory was not made again: %v", err)
	}
}

// lockBehind locks dir on a goroutine of its own, which tells waiting when
// it must wait, and sends what unlocks it on locked once it holds it.
func lockBehind(t *testing.T, dir string) (waiting <-chan bool, locked <-chan func()) {
	w, l := make(chan bool, 1), make(chan func(), 1)
	go func() {
		u, err := LockDir(dir, func() { w <- true })
		if err != nil {
			t.Error(err)
		}
		l <- u
	}()
	return w, l
}
