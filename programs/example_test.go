package programs_test

import (
	"fmt"

	"memsym/count"
	"memsym/programs"
)

// Record the course GPT at the seed's point and count what it needs.
func Example() {
	p, err := programs.Lookup("gpt-course")
	if err != nil {
		panic(err)
	}
	rec, err := p.Record(map[string]int64{"B": 2, "T": 16}, map[string]int64{"D": 64, "H": 2, "L": 2})
	if err != nil {
		panic(err)
	}
	c := count.At(rec)
	op := rec.Ops.At(c.PeakOp - 1)
	fmt.Printf("%d operations; peak %s bytes at %s in %s; needs %s bytes\n", c.Ops, c.Peak, op.Label, op.Path, c.Needs)
	// Output: 45 operations; peak 149504 bytes at Linear.apply/%5 in blocks[0].ff.up; needs 1052928 bytes
}
