package interp

import "testing"

// TestVectorCache checks that the merger's cache of whole vectors answers
// only for the very vector it holds: one with the same hash (the same slot)
// and other sizes is not found, and takes the slot when put.
func TestVectorCache(t *testing.T) {
	c := newVectorCache(3)
	a, b := []int64{1, 2, 3}, []int64{1, 2, 4}
	const h = 7 << 58 // one slot for both
	if _, ok := c.get(a, h); ok {
		t.Fatal("an empty cache found a vector")
	}
	c.put(a, h, 0)
	if id, ok := c.get(a, h); !ok || id != 0 {
		t.Fatalf("get(a) = %d, %v; want 0, true", id, ok)
	}
	if id, ok := c.get(b, h); ok {
		t.Fatalf("get(b) = %d, true: b has a's slot, not its sizes", id)
	}
	c.put(b, h, 5)
	if id, ok := c.get(b, h); !ok || id != 5 {
		t.Fatalf("get(b) = %d, %v; want 5, true", id, ok)
	}
	if _, ok := c.get(a, h); ok {
		t.Fatal("a is still found after b took its slot")
	}
	if _, ok := c.get(a, 8<<58); ok {
		t.Fatal("a is found in another slot")
	}
}
