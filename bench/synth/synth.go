// Package synth writes recordings of the bundled program synthetic straight
// to files, one record at a time, for benchmarks whose recordings are too
// large to hold: with B and T as its dimensions, as bundled, or with its
// width D and a head count H as dimensions too, for a grid of 3^4 points.
package synth

import (
	"fmt"
	"io"
	"strconv"

	"memsym/record"
)

// Program is synthetic at Ops operations. With FourDims its width D and a
// head count H are dimensions besides B and T, and its scores are
// [B, H, T, T] rather than [B, T, T]; without, it is the bundled program at
// D = 64, record for record.
type Program struct {
	Ops      int64
	FourDims bool
}

// Width is D when it is not a dimension, the bundled program's default.
const Width = 64

// grids and checks are each dimension's grid values and check value: the
// bundled program's for B and T.
var (
	grids  = map[string][3]int64{"B": {1, 2, 3}, "T": {64, 128, 192}, "D": {32, 64, 96}, "H": {1, 2, 3}}
	checks = map[string]int64{"B": 5, "T": 320, "D": 128, "H": 4}
)

// Vars returns the dimensions, in the header's order.
func (p Program) Vars() []string {
	if p.FourDims {
		return []string{"B", "T", "D", "H"}
	}
	return []string{"B", "T"}
}

// Grid returns the grid's points, each aligned with Vars, the first
// dimension's values outermost.
func (p Program) Grid() [][]int64 {
	points := [][]int64{nil}
	for _, v := range p.Vars() {
		var next [][]int64
		for _, pt := range points {
			for _, x := range grids[v] {
				next = append(next, append(append([]int64(nil), pt...), x))
			}
		}
		points = next
	}
	return points
}

// Check returns the check point off the grid, aligned with Vars.
func (p Program) Check() []int64 {
	var pt []int64
	for _, v := range p.Vars() {
		pt = append(pt, checks[v])
	}
	return pt
}

// Write writes the recording at point, aligned with Vars, to w in the
// format's canonical form.
func (p Program) Write(w io.Writer, point []int64) error {
	vars := p.Vars()
	if len(point) != len(vars) {
		return fmt.Errorf("a point of synthetic has %d values, one per dimension, found %d", len(vars), len(point))
	}
	if p.Ops < 1 {
		return fmt.Errorf("synthetic at %d operations: expected at least 1", p.Ops)
	}
	at := map[string]int64{"D": Width, "H": 1}
	dims := make([]record.Dim, len(vars))
	for i, v := range vars {
		if point[i] < 1 {
			return fmt.Errorf("dimension %s = %d: dimensions are integers of at least 1", v, point[i])
		}
		dims[i] = record.Dim{Name: v, Value: point[i]}
		at[v] = point[i]
	}
	consts := []record.Const{{Name: "N", Value: strconv.FormatInt(p.Ops, 10)}}
	if !p.FourDims {
		consts = append(consts, record.Const{Name: "D", Value: strconv.Itoa(Width)})
	}
	s := &stream{w: record.NewWriter(w)}
	s.put(&record.Record{Kind: record.KindHeader, Header: record.Header{
		Version: record.Version, Entry: "Synthetic.apply", Dims: dims, Consts: consts, Realization: "f32",
	}})
	p.cells(s, at)
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// cells writes the program after its header, as programs' buildSynthetic
// records it: cells of five operations, an up projection u [B, T, 4D] of the
// stream x, an activation a of u, scores s of x, a down projection of a and s
// back to [B, T, D], and its sum with x, the next cell's stream.
func (p Program) cells(s *stream, at map[string]int64) {
	B, T, D, H := at["B"], at["T"], at["D"], at["H"]
	wide, narrow, square := []int64{B, T, 4 * D}, []int64{B, T, D}, []int64{B, T, T}
	if p.FourDims {
		square = []int64{B, H, T, T}
	}
	x := s.buffer(record.Input, "x", "", narrow)
	up := s.buffer(record.Param, "up", "weights", []int64{D, 4 * D})
	down := s.buffer(record.Param, "down", "weights", []int64{4 * D, D})
	var u, a, sc, last int64
	var path string
	for i := int64(0); i < p.Ops && s.err == nil; i++ {
		if i%5 == 0 {
			path = "cells[" + strconv.FormatInt(i/5, 10) + "]"
		}
		switch i % 5 {
		case 0:
			u = s.do("Synthetic.up", path, "up", wide, x, up)
			last = u
		case 1:
			a = s.do("Synthetic.act", path, "act", wide, u)
			last = a
		case 2:
			sc = s.do("Synthetic.scores", path, "scores", square, x)
			last = sc
		case 3:
			last = s.do("Synthetic.down", path, "down", narrow, a, sc, down)
		case 4:
			x = s.do("Synthetic.add", path, "x", narrow, x, last)
			last = x
		}
	}
	s.put(&record.Record{Kind: record.KindResult, Result: []int64{last}})
}

// stream writes records, numbering buffers from 1 and keeping the first
// error.
type stream struct {
	w    *record.Writer
	next int64
	err  error
	rec  record.Record
}

var f32 = record.MustDType("f32")

func (s *stream) put(r *record.Record) {
	if s.err == nil {
		s.err = s.w.Write(r)
	}
}

// buffer declares a buffer of f32 and returns its id.
func (s *stream) buffer(role record.Role, name, group string, shape []int64) int64 {
	s.next++
	s.rec = record.Record{Kind: record.KindBuffer, Buffer: record.Buffer{
		ID: s.next, DType: f32, Shape: shape, Bytes: record.SizeOf(f32, shape), Role: role, Name: name, Group: group,
	}}
	s.put(&s.rec)
	return s.next
}

// do declares a temp at path and the operation that reads reads and makes
// it, and returns the temp.
func (s *stream) do(label, path, name string, shape []int64, reads ...int64) int64 {
	out := s.buffer(record.Temp, name, path, shape)
	s.rec = record.Record{Kind: record.KindOp, Op: record.Op{
		Label: label, Path: path, Reads: reads, Writes: []int64{out}, Launch: true,
	}}
	s.put(&s.rec)
	return out
}
