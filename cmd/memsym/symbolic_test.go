package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"memsym/model"
	"memsym/poly"
	"memsym/programs"
)

// courseConsts are the course GPT's constants, at which the seed gives its
// symbolic model.
const courseConsts = "D=384,H=6,L=6"

// TestSymbolicGolden prints the model of every bundled program that memsym
// does not refuse, at its defaults, and the course GPT at the course
// constants; go test -update rewrites the goldens.
func TestSymbolicGolden(t *testing.T) {
	type run struct {
		golden string
		args   []string
	}
	var runs []run
	for _, p := range programs.All() {
		if p.Refusal == "" {
			runs = append(runs, run{"symbolic/" + p.Name + ".txt", []string{"symbolic", "--program", p.Name}})
		}
	}
	runs = append(runs,
		run{"symbolic/gpt-course-course.txt", []string{"symbolic", "--program", "gpt-course", "--const", courseConsts}},
		run{"symbolic/gpt-course-course.json", []string{"symbolic", "--program", "gpt-course", "--const", courseConsts, "--json"}},
		run{"symbolic/llama2-7b-block.json", []string{"symbolic", "--json", "--program", "llama2-7b-block"}},
	)
	for _, r := range runs {
		out := mustRunCLI(t, r.args...)
		golden(t, r.golden, []byte(out))
	}
}

// TestSymbolicSeed checks the course GPT's model against the seed's, line
// by line, and the Llama 2 block's candidates against the design note's.
func TestSymbolicSeed(t *testing.T) {
	out := mustRunCLI(t, "symbolic", "--program", "gpt-course", "--const", courseConsts)
	want := []string{
		"memsym symbolic: `GPT.apply` in f64, in B and T, in bytes: each buffer's bytes interpolated on B ∈ {16, 32, 48}, T ∈ {256, 512, 768}, checked at B = 64, T = 1024",
		"  inputs      8 · B · T + 3072 · T + 85745664",
		"  outputs     736 · B · T",
		"  peak        the largest of 3, none of which dominates another:",
		"                48 · B · T² + 12288 · B · T + 8 · T², at operation 10 (`SelfAttention.apply/%13` in blocks[0].attn)",
		"                144 · B · T² + 6144 · B · T + 8 · T², at operation 12 (`SelfAttention.apply/%21` in blocks[0].attn)",
		"                27648 · B · T + 8 · T², at operation 19 (`Linear.apply/%5` in blocks[0].ff.up)",
	}
	checkLinesInOrder(t, out, want)
	if n := strings.Count(out, ", at operation "); n != 3 {
		t.Errorf("%d candidates, want the seed's 3:\n%s", n, out)
	}

	out = mustRunCLI(t, "symbolic", "--program", "llama2-7b-block")
	checkLinesInOrder(t, out, []string{
		"  peak        the largest of 4, none of which dominates another:",
		"                81920 · B · T + 4 · T² + 16384 · T, at operation 7 ",
		"                128 · B · T² + 65536 · B · T + 4 · T², at operation 10 ",
		"                256 · B · T² + 32768 · B · T + 4 · T², at operation 11 ",
		"                148480 · B · T, at operation 19 ",
	})
}

// checkLinesInOrder fails unless each of want begins a line of out, in
// order.
func checkLinesInOrder(t *testing.T, out string, want []string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := 0
	for _, w := range want {
		for i < len(lines) && !strings.HasPrefix(lines[i], w) {
			i++
		}
		if i == len(lines) {
			t.Errorf("no line %q (in order) in:\n%s", w, out)
			return
		}
		i++
	}
}

// textPolys reads the polynomials of symbolic's text output: "parameters",
// "inputs", "outputs", and "peak 1", "peak 2", ... with their operations.
func textPolys(t *testing.T, out string) (map[string]poly.Poly, []int) {
	t.Helper()
	polys := map[string]poly.Poly{}
	var ops []int
	parse := func(key, s string) {
		p, err := poly.Parse(s)
		if err != nil {
			t.Fatalf("%s: %q does not parse: %v", key, s, err)
		}
		polys[key] = p
	}
	candidate := func(s string) {
		p, op, ok := strings.Cut(s, ", at operation ")
		if !ok {
			t.Fatalf("a peak candidate without its operation: %q", s)
		}
		var n int
		fmt.Sscanf(op, "%d", &n)
		ops = append(ops, n)
		parse(fmt.Sprintf("peak %d", len(ops)), p)
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "  parameters "), strings.HasPrefix(line, "  inputs "), strings.HasPrefix(line, "  outputs "):
			f := strings.Fields(line)
			parse(f[0], strings.TrimSpace(strings.TrimPrefix(line, "  "+f[0])))
		case strings.HasPrefix(line, "  peak ") && !strings.Contains(line, "the largest of"):
			candidate(strings.TrimSpace(strings.TrimPrefix(line, "  peak ")))
		case strings.HasPrefix(line, "                "):
			candidate(strings.TrimSpace(line))
		}
	}
	return polys, ops
}

// TestSymbolicJSONParsesBack reads every "poly" string of the JSON output
// back with poly.Parse: each is the polynomial the text output prints, and
// the JSON has no other.
func TestSymbolicJSONParsesBack(t *testing.T) {
	for _, args := range [][]string{
		{"--program", "gpt-course", "--const", courseConsts},
		{"--program", "llama2-7b-block"},
		{"--program", "llama2-7b-block-int4"}, // fractions of a byte: 1/2 · T²
		{"--program", "conv-same"},            // one candidate
		{"--program", "encdec-cross"},         // three dimensions
	} {
		text := mustRunCLI(t, append([]string{"symbolic"}, args...)...)
		want, ops := textPolys(t, text)
		js := mustRunCLI(t, append([]string{"symbolic", "--json"}, args...)...)

		var out model.SymbolicJSON
		if err := json.Unmarshal([]byte(js), &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		got := map[string]string{"parameters": out.Params.Poly, "inputs": out.Inputs.Poly, "outputs": out.Outputs.Poly}
		for i, c := range out.Peak {
			got[fmt.Sprintf("peak %d", i+1)] = c.Poly
			if i < len(ops) && c.Op != ops[i] {
				t.Errorf("%v: peak %d at operation %d in the JSON, %d in the text", args, i+1, c.Op, ops[i])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%v: %d polynomials in the JSON, %d in the text", args, len(got), len(want))
		}
		for key, s := range got {
			p, err := poly.Parse(s)
			if err != nil {
				t.Errorf("%v: %s: the JSON's %q does not parse: %v", args, key, s, err)
				continue
			}
			if w, ok := want[key]; !ok || !p.Equal(w) {
				t.Errorf("%v: %s: the JSON's %s, the text's %s", args, key, p, w)
			}
		}

		// Every "poly" anywhere in the JSON is one of these.
		var any map[string]any
		if err := json.Unmarshal([]byte(js), &any); err != nil {
			t.Fatal(err)
		}
		n := 0
		walkPolys(any, func(s string) {
			n++
			p, err := poly.Parse(s)
			if err != nil {
				t.Errorf("%v: %q does not parse: %v", args, s, err)
				return
			}
			for _, w := range want {
				if p.Equal(w) {
					return
				}
			}
			t.Errorf("%v: the JSON's %q is none of the text's polynomials", args, s)
		})
		if n < len(want) {
			t.Errorf("%v: %d \"poly\" strings in the JSON, want at least %d", args, n, len(want))
		}
	}
}

// walkPolys calls f with every string under a "poly" key in v.
func walkPolys(v any, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "poly" {
				f(s)
				continue
			}
			walkPolys(x, f)
		}
	case []any:
		for _, x := range v {
			walkPolys(x, f)
		}
	}
}

// TestSymbolicRefuses: the program memsym must refuse is refused, with a
// message that says why.
func TestSymbolicRefuses(t *testing.T) {
	for _, c := range []struct {
		program, want string
	}{
		{"strided-conv", "not a polynomial of degree ≤ 2"},
	} {
		out, errs, code := runCLI("symbolic", "--program", c.program)
		if code != 1 || out != "" || !strings.HasPrefix(errs, "memsym: "+c.program+"(") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line saying %q", c.program, code, out, errs, c.want)
		}
	}
}

// recordGrid writes the course GPT's recordings with `memsym record` into
// dir, one file per point, named b{B}-t{T}.jsonl, and returns their paths by
// point.
func recordGrid(t *testing.T, dir string, bs, ts []int64) map[[2]int64]string {
	t.Helper()
	paths := map[[2]int64]string{}
	for _, b := range bs {
		for _, tt := range ts {
			path := filepath.Join(dir, fmt.Sprintf("b%d-t%d.jsonl", b, tt))
			mustRunCLI(t, "record", "--program", "gpt-course", "--const", "D=384", "--const", "H=6", "--const", "L=6",
				"--dim", fmt.Sprintf("B=%d", b), "--dim", fmt.Sprintf("T=%d", tt), "-o", path)
			paths[[2]int64{b, tt}] = path
		}
	}
	return paths
}

// recordGridAndCheck records the course GPT's grid, B ∈ {16, 32, 48},
// T ∈ {256, 512, 768}, into dir, and a check point at B = 5, T = 1001; it
// returns the grid's files, sorted, and the check's.
func recordGridAndCheck(t *testing.T, dir string) (files []string, check string) {
	t.Helper()
	for _, p := range recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768}) {
		files = append(files, p)
	}
	sort.Strings(files)
	for _, p := range recordGrid(t, dir, []int64{5}, []int64{1001}) {
		check = p
	}
	return files, check
}

// TestSymbolicFiles models the course GPT from recording files written by
// `memsym record`: the model is the one --program gives, and a grid that is
// not one is refused, saying what is wrong.
func TestSymbolicFiles(t *testing.T) {
	dir := t.TempDir()
	paths := recordGrid(t, dir, []int64{16, 32, 48}, []int64{256, 512, 768})
	for p, path := range recordGrid(t, dir, []int64{64}, []int64{1024}) {
		paths[p] = path
	}
	for p, path := range recordGrid(t, dir, []int64{115}, []int64{1795}) {
		paths[p] = path
	}
	var grid []string
	for _, b := range []int64{16, 32, 48} {
		for _, tt := range []int64{256, 512, 768} {
			grid = append(grid, paths[[2]int64{b, tt}])
		}
	}
	check := paths[[2]int64{64, 1024}]
	check2 := paths[[2]int64{115, 1795}] // the program's second default check point

	want := mustRunCLI(t, "symbolic", "--program", "gpt-course", "--const", courseConsts)
	got := mustRunCLI(t, append([]string{"symbolic", "--check", check, "--check", check2}, grid...)...)
	if got != want {
		t.Errorf("from files:\n%s\nwith --program:\n%s", got, want)
	}
	// The files in another order: the same model.
	reversed := make([]string, len(grid))
	for i, g := range grid {
		reversed[len(grid)-1-i] = g
	}
	if got := mustRunCLI(t, append(append([]string{"symbolic"}, reversed...), "--check", check, "--check", check2)...); got != want {
		t.Errorf("from the files in reverse order:\n%s", got)
	}

	// Without a check point: the same polynomials, and the header says so.
	noCheck := mustRunCLI(t, append([]string{"symbolic"}, grid...)...)
	head, rest, _ := strings.Cut(noCheck, "\n")
	_, wantRest, _ := strings.Cut(want, "\n")
	if !strings.HasSuffix(head, "UNCHECKED: no point off the grid was recorded to check them (give --check)") || rest != wantRest {
		t.Errorf("without --check:\n%s", noCheck)
	}

	missing := paths[[2]int64{32, 512}]
	var eight []string
	for _, g := range grid {
		if g != missing {
			eight = append(eight, g)
		}
	}
	twoValues := []string{paths[[2]int64{16, 256}], paths[[2]int64{16, 512}], paths[[2]int64{32, 256}], paths[[2]int64{32, 512}]}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a point missing", eight,
			"memsym: no recording at B = 32, T = 512: the grid B ∈ {16, 32, 48}, T ∈ {256, 512, 768} has 3^2 points, one recording each"},
		{"a point twice", append(append([]string{}, grid...), grid[4]),
			"memsym: " + grid[4] + " is given twice: the grid has one recording per point"},
		{"two values per dimension", twoValues,
			"memsym: dimension B takes 2 values on the grid (16, 32): expected exactly three, as a polynomial of degree 2 in it needs"},
		{"a check point on the grid", append([]string{"--check", missing}, grid...),
			"memsym: " + missing + ":1: the check point B = 32, T = 512 has B = 32, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value"},
		{"a check point, not a file", append([]string{"--check", "B=64,T=1024"}, grid...),
			"memsym: --check B=64,T=1024: with recording files a check is a recording file off the grid; a point goes with --program, --recorder or --torch, which record it"},
		{"a grid with --grid", append([]string{"--grid", "B=1,2,3"}, grid...),
			"memsym: --grid goes with --program, --recorder or --torch; recording files carry their own points and constants, and run no recorder"},
		{"constants with --const", append([]string{"--const", "D=3"}, grid...),
			"memsym: --const goes with --program; recording files carry their own points and constants, and run no recorder"},
		{"recorders run at once with --jobs", append([]string{"--jobs", "2"}, grid...),
			"memsym: --jobs goes with --recorder or --torch; recording files carry their own points and constants, and run no recorder"},
	} {
		out, errs, code := runCLI(append([]string{"symbolic"}, c.args...)...)
		if code == 0 || out != "" || strings.TrimSuffix(errs, "\n") != c.want {
			t.Errorf("%s: exit %d, stdout %q\n got %s\nwant %s", c.name, code, out, strings.TrimSuffix(errs, "\n"), c.want)
		}
	}

	// A recording cut short is refused as such, wherever it is.
	whole, err := os.ReadFile(check)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.jsonl")
	lines := strings.SplitAfter(string(whole), "\n")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:40], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(append([]string{"symbolic", "--check", cut}, grid...)...)
	if wantErr := "memsym: " + cut + ":40: the recording ends without the result line {\"result\": [...]}\n"; code != 1 || errs != wantErr {
		t.Errorf("a check file cut short: exit %d\n got %s\nwant %s", code, errs, wantErr)
	}
}

// FuzzGridFlag: --grid's value is refused with one line, or kept as a name
// and three different values of at least 1.
func FuzzGridFlag(f *testing.F) {
	for _, s := range []string{"B=16,32,48", "B=1,2", "B=1,1,2", "B=0,1,2", "=1,2,3", "B", "B=1,2,x", " T = 1 , 2 , 3 ", "B=9223372036854775807,1,2", "B=1,2,3,4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var g gridFlag
		if err := g.Set(v); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: a message of several lines: %q", v, err)
			}
			return
		}
		if len(g) != 1 || g[0].name == "" || len(g[0].values) != 3 {
			t.Fatalf("%q kept as %+v", v, g)
		}
		a, b, c := g[0].values[0], g[0].values[1], g[0].values[2]
		if a < 1 || b < 1 || c < 1 || a == b || b == c || a == c {
			t.Errorf("%q kept as %+v", v, g)
		}
		if err := g.Set(v); err == nil {
			t.Errorf("%q given twice is accepted", v)
		}
	})
}

// FuzzAssignments: "B=2,T=16" is refused with one line, or read as names
// and integers that, written back, read the same.
func FuzzAssignments(f *testing.F) {
	for _, s := range []string{"B=2,T=16", "D=384, H=6, L=6", "B=2,B=3", "B", "=2", "B=x", "B=-1", "B=2,", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		m, err := parseAssignments(v)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: a message of several lines: %q", v, err)
			}
			return
		}
		var a assignments
		if err := a.Set(v); err != nil {
			t.Fatalf("%q: parses, but the flag refuses it: %v", v, err)
		}
		back, err := parseAssignments(a.String())
		if err != nil || fmt.Sprint(back) != fmt.Sprint(m) {
			t.Errorf("%q read as %v, written as %q, read back as %v (%v)", v, m, a.String(), back, err)
		}
	})
}

// TestSymbolicNegativeBytes: at S = 1 the strided convolution's output
// length N − K + 1 is negative below N = K, where the program has no
// sizes: symbolic says where a buffer's polynomial is negative, and eval
// refuses such a point (the model's refusal of it is model's
// TestNegativeBytes) but answers at N = K.
func TestSymbolicNegativeBytes(t *testing.T) {
	out := mustRunCLI(t, "symbolic", "--program", "strided-conv", "--const", "S=1")
	want := "\n  note        buffer 4 \"conv\", made by operation 1 (`Conv1d.apply` in conv), has bytes 64 · B · N − 128 · B, which is −64 at B = 1, N = 1: a buffer's bytes are never negative"
	if !strings.Contains(out, want) {
		t.Errorf("symbolic at S = 1 does not say where a buffer's bytes are negative:\n%s", out)
	}
	// Below N = K the program does not run, which eval says first.
	_, errs, code := runCLI("eval", "--program", "strided-conv", "--const", "S=1", "--at", "B=1,N=1")
	if code != 2 || errs != "memsym: --at B=1,N=1: strided-conv does not run at B = 1, N = 1: K = 3 is more than N = 1\n" {
		t.Errorf("eval at N = 1: exit %d, %s", code, errs)
	}
	if out := mustRunCLI(t, "eval", "--program", "strided-conv", "--const", "S=1", "--at", "B=1,N=3"); !strings.Contains(out, "peak") {
		t.Errorf("eval at N = 3:\n%s", out)
	}
}

// TestDomainJSON: gpt-depth's model holds for every L ≥ 2, and its JSON
// says so in "domain", in symbolic's object and in crossover's, whose
// "for_all" ranges over it.
func TestDomainJSON(t *testing.T) {
	for _, args := range [][]string{
		{"symbolic", "--program", "gpt-depth", "--json"},
		{"crossover", "--program", "gpt-depth", "--along", "T", "--json"},
	} {
		var out struct {
			Domain map[string]int64 `json:"domain"`
		}
		if err := json.Unmarshal([]byte(mustRunCLI(t, args...)), &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if want := map[string]int64{"B": 1, "T": 1, "L": 2}; !maps.Equal(out.Domain, want) {
			t.Errorf("%v: domain %v, want %v", args, out.Domain, want)
		}
	}
}

// TestNegativeBytesJSON: symbolic's JSON names the buffer whose bytes are
// negative where the model holds, as the text's note does, and has no
// such key for a model whose bytes are never negative.
func TestNegativeBytesJSON(t *testing.T) {
	var out struct {
		Negative *struct {
			Buffer int64            `json:"buffer"`
			Name   string           `json:"name"`
			Bytes  string           `json:"bytes"`
			At     map[string]int64 `json:"at"`
			There  string           `json:"bytes_there"`
		} `json:"negative_bytes"`
	}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "symbolic", "--program", "strided-conv", "--const", "S=1", "--json")), &out); err != nil {
		t.Fatal(err)
	}
	n := out.Negative
	if n == nil || n.Buffer != 4 || n.Name != "conv" || n.Bytes != "64*B*N - 128*B" || !maps.Equal(n.At, map[string]int64{"B": 1, "N": 1}) || n.There != "-64" {
		t.Errorf("negative_bytes = %+v", n)
	}
	text := mustRunCLI(t, "symbolic", "--program", "strided-conv", "--const", "S=1")
	if !strings.Contains(text, `buffer 4 "conv", made by operation 1 (`+"`Conv1d.apply`"+` in conv), has bytes 64 · B · N − 128 · B, which is −64 at B = 1, N = 1`) {
		t.Errorf("the text's note differs from the JSON:\n%s", text)
	}
	if js := mustRunCLI(t, "symbolic", "--program", "gpt-course", "--json"); strings.Contains(js, "negative_bytes") {
		t.Errorf("gpt-course has negative_bytes:\n%s", js)
	}
}

// TestCheckGivenTwice: a check file given twice, or two files at one
// point, check the model at that point once, as the header and the JSON
// say.
func TestCheckGivenTwice(t *testing.T) {
	dir := t.TempDir()
	files, check := recordGridAndCheck(t, dir)
	copied := filepath.Join(dir, "copy.jsonl")
	data, err := os.ReadFile(check)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, second := range []string{check, copied} {
		out := mustRunCLI(t, append([]string{"symbolic", "--json", "--check", check, "--check", second}, files...)...)
		var m struct {
			Checked []map[string]int64 `json:"checked"`
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Checked) != 1 || m.Checked[0]["B"] != 5 || m.Checked[0]["T"] != 1001 {
			t.Errorf("checked with %s twice: %v", filepath.Base(second), m.Checked)
		}
	}
}

// TestStrideOnAnOddGrid: strided-conv's output length, ⌊(N − 3)/2⌋ + 1, is
// (N − 1)/2 at every odd N; on the odd grid N ∈ {9, 11, 13} only a check
// point at an even N shows that it is no polynomial, and the default
// check points are chosen so (source.DefaultChecks): refused, not a model
// wrong at every even N.
func TestStrideOnAnOddGrid(t *testing.T) {
	out, errs, code := runCLI("symbolic", "--program", "strided-conv", "--grid", "N=9,11,13")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q: want the grid refused", code, out, errs)
	}
	if !strings.Contains(errs, `buffer 4 "conv"`) || !strings.Contains(errs, "its bytes are not a polynomial") {
		t.Errorf("refused otherwise: %s", errs)
	}
	if !strings.Contains(errs, ",N=16)") && !strings.Contains(errs, ",N=32)") {
		t.Errorf("not refused at an even check point, N = 16 or 32: %s", errs)
	}
}
