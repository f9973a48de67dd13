package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// fuzzProgram is a small program made from fuzzed bytes: buffers whose
// sizes, given in bytes, are polynomials of degree ≤ 2 in B and T (or B
// alone) with small fractional or huge coefficients, a chain of operations
// over the temps, and the last temp as the result.
type fuzzProgram struct {
	vars  []string
	roles []record.Role
	sizes []poly.Poly
}

// decodeProgram reads a program from data, a byte at a time; missing
// bytes read as zero.
func decodeProgram(data []byte) fuzzProgram {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	p := fuzzProgram{vars: []string{"B", "T"}}
	if next()%3 == 0 {
		p.vars = p.vars[:1]
	}
	n := 1 + next()%4
	dens := []int64{1, 1, 2, 3, 8}
	for i := range n {
		role := record.Role(next() % 3)
		if i == n-1 {
			role = record.Temp // the result
		}
		var terms []poly.Term
		for range 1 + next()%4 {
			exp := make([]int, len(p.vars))
			for j := range exp {
				exp[j] = next() % 3
			}
			c := poly.Frac(int64(next()), dens[next()%len(dens)])
			if next()%8 == 0 {
				c = c.Mul(poly.FromBigInt(new(big.Int).Lsh(big.NewInt(1), 70))) // beyond int64
			}
			terms = append(terms, poly.Term{Coef: c, Exp: exp})
		}
		p.roles = append(p.roles, role)
		p.sizes = append(p.sizes, poly.New(p.vars, terms))
	}
	return p
}

// write records the program at the point x into dir and returns the file.
func (p fuzzProgram) write(dir string, x []int64) (string, error) {
	dims := make([]record.Dim, len(p.vars))
	at := map[string]int64{}
	for j, v := range p.vars {
		dims[j] = record.Dim{Name: v, Value: x[j]}
		at[v] = x[j]
	}
	r := record.NewRecorder("Fuzz.apply", dims, nil, "")
	var prev int64
	for i, size := range p.sizes {
		v, err := size.EvalInt(at)
		if err != nil {
			return "", err
		}
		id := r.Bytes(p.roles[i], fmt.Sprintf("b%d", i), "", v)
		if p.roles[i] == record.Temp {
			var reads []int64
			if prev != 0 {
				reads = []int64{prev}
			}
			r.Op(fmt.Sprintf("Fuzz.apply/%%%d", i), "", reads, []int64{id})
			prev = id
		}
	}
	r.Result(prev)
	rec, err := r.Finish()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, strings.ReplaceAll(record.Point(dims).String(), " ", "")+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := rec.WriteTo(f); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// FuzzSymbolicJSON runs `memsym symbolic` on recordings of a fuzzed
// program, as text and as --json, and checks that every "poly" string of
// the JSON parses back with poly.Parse to a polynomial the text prints,
// that the parameters, inputs, outputs and peak are the same in both, and
// that the parameters and inputs are the program's own.
func FuzzSymbolicJSON(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2, 1, 1, 16, 2, 2, 2, 0, 7, 3})
	f.Add([]byte{0, 1, 2, 1, 2, 0, 255, 4, 8})
	f.Add([]byte{1, 2, 1, 3, 2, 2, 9, 1, 0, 0, 0, 5, 2, 1, 0, 1, 1, 200, 3, 0})
	f.Add([]byte{5, 0, 0, 3, 0, 0, 0, 0, 1, 0})
	// A parameter, an input with a fraction, and two temps, one of them
	// with a coefficient beyond int64.
	f.Add([]byte{1, 3, 1, 0, 1, 0, 16, 0, 1, 2, 1, 0, 1, 5, 2, 1, 0, 0, 3, 0, 1, 0, 0, 1, 2, 8, 0, 1, 0, 1, 2, 1, 1, 4, 0, 0, 2, 24, 0, 1})
	// A parameter and three temps: two peak candidates, 100·B² + 1 and
	// 3/2 · T² + 1, neither dominating.
	f.Add([]byte{1, 3, 1, 0, 0, 0, 7, 0, 1, 0, 0, 2, 0, 100, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2, 3, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := decodeProgram(data)
		dir := t.TempDir()
		var files []string
		grid := [][]int64{{1, 2, 3}, {4, 5, 7}}[:len(p.vars)]
		var walk func(x []int64)
		walk = func(x []int64) {
			if len(x) == len(p.vars) {
				path, err := p.write(dir, x)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, path)
				return
			}
			for _, v := range grid[len(x)] {
				walk(append(x, v))
			}
		}
		walk(nil)
		check, err := p.write(dir, []int64{6, 9}[:len(p.vars)])
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"symbolic", "--check", check}, files...)
		text := mustRunCLI(t, args...)
		js := mustRunCLI(t, append(args, "--json")...)

		var out model.SymbolicJSON
		if err := json.Unmarshal([]byte(js), &out); err != nil {
			t.Fatalf("the JSON does not parse: %v\n%s", err, js)
		}
		named := map[string]string{"parameters": out.Params.Poly, "inputs": out.Inputs.Poly, "outputs": out.Outputs.Poly}
		for i, c := range out.Peak {
			named[fmt.Sprintf("peak %d", i+1)] = c.Poly
		}
		printed := printedPolys(t, text)
		if len(printed) != len(named) {
			t.Errorf("%d polynomials in the text, %d in the JSON\n%s\n%s", len(printed), len(named), text, js)
		}
		for key, s := range named {
			got, err := poly.Parse(s)
			if err != nil {
				t.Fatalf("%s: the JSON's %q does not parse: %v", key, s, err)
			}
			if again := poly.WithVars(got, out.Dims).ASCII(); again != s {
				t.Errorf("%s: the JSON's %q parses to %s, which prints differently over %v", key, s, again, out.Dims)
			}
			if want, ok := printed[key]; !ok || !got.Equal(want) {
				t.Errorf("%s: the JSON's %s, the text's %s", key, got, want)
			}
		}
		zero := poly.New(p.vars, nil)
		params, inputs := zero, zero
		for i, size := range p.sizes {
			if p.roles[i] == record.Param {
				params = params.Add(size)
			}
			if p.roles[i].Held() {
				inputs = inputs.Add(size)
			}
		}
		for key, want := range map[string]poly.Poly{"parameters": params, "inputs": inputs, "outputs": p.sizes[len(p.sizes)-1]} {
			if got, _ := poly.Parse(named[key]); !got.Equal(want) {
				t.Errorf("%s: the JSON's %s, the program's %s", key, got, want)
			}
		}
	})
}

// printedPolys reads the polynomials symbolic's text output prints, by
// name: "parameters", "inputs", "outputs", "peak 1", "peak 2", ...
func printedPolys(t *testing.T, text string) map[string]poly.Poly {
	t.Helper()
	out := map[string]poly.Poly{}
	parse := func(key, s string) {
		p, err := poly.Parse(s)
		if err != nil {
			t.Fatalf("%s: the text's %q does not parse: %v", key, s, err)
		}
		out[key] = p
	}
	peaks := 0
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) < 2:
		case fields[0] == "parameters" || fields[0] == "inputs" || fields[0] == "outputs":
			parse(fields[0], strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), fields[0])))
		case strings.Contains(line, ", at operation "):
			s := strings.TrimSpace(line)
			s = strings.TrimPrefix(s, "peak ")
			s, _, _ = strings.Cut(s, ", at operation ")
			peaks++
			parse(fmt.Sprintf("peak %d", peaks), s)
		}
	}
	return out
}
