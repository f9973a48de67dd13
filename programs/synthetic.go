package programs

import (
	"strconv"
	"sync/atomic"
)

// maxSyntheticOps bounds synthetic's operation count: a recording of 10^7
// operations takes a few GB to hold.
const maxSyntheticOps = 10_000_000

var synthetic = &Program{
	Name:        "synthetic",
	Summary:     "N operations cycling through five kinds on a few shapes, for benchmarks: N = 10^6 records quickly",
	Entry:       "Synthetic.apply",
	Realization: "f32",
	Dims: []Dim{
		{Name: "B", Default: 4, Grid: [3]int64{1, 2, 3}, Check: 5, Doc: "sequences in the batch"},
		{Name: "T", Default: 256, Grid: [3]int64{64, 128, 192}, Check: 320, Doc: "tokens in each sequence"},
	},
	Consts: []Const{
		{Name: "N", Default: 1000, Doc: "operations", Max: maxSyntheticOps},
		{Name: "D", Default: 64, Doc: "the width"},
	},
	build: buildSynthetic,
}

// buildSynthetic records N operations in cells of five, each cell at its own
// path cells[j]: an up projection u [B, T, 4D] of the stream x, an
// activation a of u, scores s [B, T, T] of x, a down projection of a and s
// back to [B, T, D], and its sum with x, the next cell's stream. The last
// cell may stop short; the last buffer made is the result. Two weights are
// shared by every cell.
func buildSynthetic(n *net, v values) {
	B, T, N, D := v["B"], v["T"], v["N"], v["D"]
	wide, narrow, square := shape(B, T, 4*D), shape(B, T, D), shape(B, T, T)
	x := n.input("x", n.dt, B, T, D)
	up := n.param("weights", "up", D, 4*D)
	down := n.param("weights", "down", 4*D, D)

	n.r.Grow(int(N), int(N))
	var u, a, s, last int64
	var path string
	for i := int64(0); i < N; i++ {
		if i%5 == 0 {
			path = cellPath(i / 5)
		}
		switch i % 5 {
		case 0:
			u = n.do("Synthetic.up", path, "up", wide, x, up)
			last = u
		case 1:
			a = n.do("Synthetic.act", path, "act", wide, u)
			last = a
		case 2:
			s = n.do("Synthetic.scores", path, "scores", square, x)
			last = s
		case 3:
			last = n.do("Synthetic.down", path, "down", narrow, a, s, down)
		case 4:
			x = n.do("Synthetic.add", path, "x", narrow, x, last)
			last = x
		}
	}
	n.result(last)
}

// cellPaths remembers the paths of the cells made last, cell j's at j
// modulo its length: a grid's points are made at once, on as many
// goroutines, each making the same cells in the same order not far
// apart, and one string serves them all rather than a string each (some
// 35 MB for 10^6 operations on a 3×3 grid and two check points).
var cellPaths [1 << 15]atomic.Pointer[cellPathOf]

type cellPathOf struct {
	j    int64
	path string
}

// cellPath returns cell j's path, cells[j].
func cellPath(j int64) string {
	slot := &cellPaths[j%int64(len(cellPaths))]
	if p := slot.Load(); p != nil && p.j == j {
		return p.path
	}
	var text [32]byte
	p := &cellPathOf{j: j, path: string(append(strconv.AppendInt(append(text[:0], "cells["...), j, 10), ']'))}
	slot.Store(p)
	return p.path
}
