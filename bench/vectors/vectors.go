// Package vectors makes value vectors for measuring interpolation: buffers
// whose bytes on a 3×3 grid are the values of distinct random polynomials,
// so that no two buffers share a vector and deduplication saves nothing.
// memsym interpolates them with interp.Interpolate, from the values alone,
// and through interp.Build, from recordings; a peer (bench/sympy_interp.py)
// interpolates the same vectors, written as JSON.
package vectors

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"

	"memsym/interp"
	"memsym/poly"
	"memsym/record"
)

// Vars are the dimensions and Grid their values: llama2-7b-block's grid.
var (
	Vars = []string{"B", "T"}
	Grid = [2][3]int64{{1, 2, 3}, {128, 256, 384}}
)

// Exps are the exponents of B and T of each coefficient, in Set.Coefs's order.
var Exps = [9][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}}

// Count and Seed are the benchmark's: BenchmarkBuild interpolates Count
// vectors, Generate(Count, Seed), and the peer gets the same.
const (
	Count = 10_000
	Seed  = 1
)

// maxCoef bounds the coefficients: bytes up to about 2^35 on the grid.
const maxCoef = 1 << 16

// Set is n distinct polynomials of degree at most 2 in B and in T with
// non-negative integer coefficients.
type Set struct {
	Coefs [][9]int64 // per vector, aligned with Exps
}

// Generate returns n distinct polynomials drawn from a generator seeded with
// seed: the same n and seed give the same Set.
func Generate(n int, seed uint64) *Set {
	rng := rand.New(rand.NewPCG(seed, 0x6d656d73796d))
	s := &Set{Coefs: make([][9]int64, 0, n)}
	seen := make(map[[9]int64]bool, n)
	for len(s.Coefs) < n {
		var c [9]int64
		for i := range c {
			c[i] = rng.Int64N(maxCoef)
		}
		if !seen[c] {
			seen[c] = true
			s.Coefs = append(s.Coefs, c)
		}
	}
	return s
}

// Len returns the number of vectors.
func (s *Set) Len() int { return len(s.Coefs) }

// At returns vector v's value at B = b, T = t.
func (s *Set) At(v int, b, t int64) int64 {
	var sum int64
	for i, e := range Exps {
		sum += s.Coefs[v][i] * pow(b, e[0]) * pow(t, e[1])
	}
	return sum
}

// Values returns vector v: its values at the grid's points, B's values
// outermost.
func (s *Set) Values(v int) []int64 {
	out := make([]int64, 0, 9)
	for _, b := range Grid[0] {
		for _, t := range Grid[1] {
			out = append(out, s.At(v, b, t))
		}
	}
	return out
}

// Rats returns every vector's values as interp.Interpolate takes them,
// with Grid[:] as its grid.
func (s *Set) Rats() [][]poly.Rat {
	out := make([][]poly.Rat, len(s.Coefs))
	for v := range s.Coefs {
		out[v] = make([]poly.Rat, 0, 9)
		for _, x := range s.Values(v) {
			out[v] = append(out[v], poly.Int(x))
		}
	}
	return out
}

// Poly returns vector v's polynomial.
func (s *Set) Poly(v int) poly.Poly {
	terms := make([]poly.Term, len(Exps))
	for i, e := range Exps {
		terms[i] = poly.Term{Coef: poly.Int(s.Coefs[v][i]), Exp: []int{e[0], e[1]}}
	}
	return poly.New(Vars, terms)
}

func pow(x int64, e int) int64 {
	p := int64(1)
	for range e {
		p *= x
	}
	return p
}

// Recording returns the recording at B = b, T = t: one caller-held input per
// vector whose bytes are the vector's value there, then one operation making
// a one-byte result, which a recording needs.
func (s *Set) Recording(b, t int64) (*record.Recording, error) {
	r := record.NewRecorder("Vectors.apply", []record.Dim{{Name: "B", Value: b}, {Name: "T", Value: t}}, nil, "")
	r.Grow(len(s.Coefs)+1, 1)
	for v := range s.Coefs {
		r.Bytes(record.Input, fmt.Sprintf("v%d", v), "", poly.Int(s.At(v, b, t)))
	}
	out := r.Bytes(record.Temp, "out", "", poly.Int(1))
	r.Op("Vectors.out", "", nil, []int64{out})
	r.Result(out)
	return r.Finish()
}

// Sources returns the grid's recordings, served from memory, for
// interp.Build.
func (s *Set) Sources() ([]interp.Source, error) {
	var out []interp.Source
	for _, b := range Grid[0] {
		for _, t := range Grid[1] {
			rec, err := s.Recording(b, t)
			if err != nil {
				return nil, err
			}
			name := fmt.Sprintf("B = %d, T = %d", b, t)
			out = append(out, interp.Source{Name: name, Open: func() (record.Stream, error) { return rec.Replay(), nil }})
		}
	}
	return out, nil
}

// setJSON is the file the peer reads.
type setJSON struct {
	Vars    []string     `json:"vars"`
	Grid    [2][3]int64  `json:"grid"`
	Exps    [9][2]int    `json:"exps"`
	Vectors []vectorJSON `json:"vectors"`
}

type vectorJSON struct {
	Values []int64  `json:"values"` // at the grid's points, B's values outermost
	Coefs  [9]int64 `json:"coefs"`  // the polynomial, aligned with exps, to check the peer's answer
}

// WriteJSON writes the grid and every vector with its polynomial.
func (s *Set) WriteJSON(w io.Writer) error {
	out := setJSON{Vars: Vars, Grid: Grid, Exps: Exps, Vectors: make([]vectorJSON, len(s.Coefs))}
	for v, c := range s.Coefs {
		out.Vectors[v] = vectorJSON{Values: s.Values(v), Coefs: c}
	}
	return json.NewEncoder(w).Encode(out)
}
