package interp

import (
	"fmt"
	"strings"
	"testing"

	"memsym/record"
)

var f64 = record.MustDType("f64")

// attention records a small program in B and T: an embedding, scores of
// T² per sequence, their softmax, and a projection. variant, when not
// empty, changes one thing, at the points where T = 12, to make a
// recording that differs from the others.
func attention(variant string) program {
	return func(r *record.Recorder, at map[string]int64) {
		b, t := at["B"], at["T"]
		odd := t == 12 && variant != ""
		is := func(v string) bool { return odd && variant == v }
		tokens := r.Input("tokens", "", record.MustDType("i64"), b, t)
		wte := r.Param("wte", "tok_emb", f64, 92, 4)
		if is("role") {
			r.Input("mask", "", f64, t, t)
		} else {
			r.Temp("mask", "", f64, t, t)
		}
		x := r.Temp("x", "", f64, b, t, 4)
		label := "Embedding.apply/%0"
		if is("label") {
			label = "Embedding.apply/%1"
		}
		path := "tok_emb"
		if is("path") {
			path = "emb"
		}
		r.Op("GPT.apply/%1", "", nil, []int64{3})
		r.Op(label, path, []int64{tokens, wte}, []int64{x})
		var s int64
		switch {
		case is("rank"):
			s = r.Temp("scores", "", f64, b*t, t)
		case is("dtype"):
			s = r.Temp("scores", "", record.MustDType("f32"), b, t, t)
		case is("name"):
			s = r.Temp("logits", "", f64, b, t, t)
		case is("bytes"):
			s = r.Bytes(record.Temp, "scores", "", record.SizeOf(f64, []int64{b, t, t}))
		default:
			s = r.Temp("scores", "", f64, b, t, t)
		}
		reads := []int64{x, 3}
		if is("reads") {
			reads = []int64{x}
		}
		if is("launch") {
			r.NoLaunch("SelfAttention.apply/%13", "attn", reads, []int64{s})
		} else {
			r.Op("SelfAttention.apply/%13", "attn", reads, []int64{s})
		}
		p := r.Temp("probs", "", f64, b, t, t)
		view := r.View(s, "scores.T", f64, b, t, t)
		r.Op("SelfAttention.apply/%21", "attn", []int64{view}, []int64{p})
		if is("fold") {
			r.Op("SelfAttention.apply/%21", "attn", []int64{view}, []int64{p})
		}
		o := r.Temp("o", "", f64, b, t, 4)
		r.Op("SelfAttention.apply/%22", "attn", []int64{p, x}, []int64{o})
		r.Result(o)
	}
}

var (
	attnVars  = []string{"B", "T"}
	attnGrid  = [][3]int64{{1, 2, 3}, {4, 8, 12}}
	attnCheck = []int64{5, 7}
)

// fileSources names each grid point's source as a file would be named.
func fileSources(t *testing.T, prog program) []Source {
	srcs := gridSources(t, attnVars, attnGrid, prog)
	for i := range srcs {
		var b, tt int64
		fmt.Sscanf(srcs[i].Name, "B = %d, T = %d", &b, &tt)
		srcs[i].Name = fmt.Sprintf("r_B%d_T%d.jsonl", b, tt)
	}
	return srcs
}

func TestBuildAttention(t *testing.T) {
	prog := attention("")
	m := mustBuild(t, fileSources(t, prog), []Source{pointSource(t, attnVars, attnCheck, prog)})
	var got []string
	for _, c := range m.Candidates {
		got = append(got, fmt.Sprintf("%d: %s", c.Op, c.Poly))
	}
	want := []string{
		"1: 8 · T²",
		"2: 32 · B · T + 8 · T²",
		"3: 8 · B · T² + 32 · B · T + 8 · T²",
		"4: 16 · B · T² + 32 · B · T",
		"5: 8 · B · T² + 64 · B · T",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := fmt.Sprint(m.Inputs, " | ", m.Params, " | ", m.Outputs); s != "8 · B · T + 2944 | 2944 | 32 · B · T" {
		t.Errorf("inputs | params | outputs = %s", s)
	}
}

// TestBuildRefusesDifferentOperations changes one thing at T = 12 and
// expects Build to name both recordings, the lines, what each has, and why.
func TestBuildRefusesDifferentOperations(t *testing.T) {
	const why = "; a dimension that changes the operations (such as a fold's iteration count) cannot be interpolated: make it a constant"
	const whyDecl = "; the recordings are matched declaration by declaration: a buffer's id, role, type, rank, name and group are the same at every point, only its sizes differing (number buffers as they are declared, not as they are allocated)"
	tests := []struct {
		variant, want string
	}{
		{"label", `r_B1_T12.jsonl:7 and r_B1_T4.jsonl:7 differ: operation 2 is "Embedding.apply/%0" at B = 1, T = 4 but "Embedding.apply/%1" at B = 1, T = 12` + why},
		{"path", `r_B1_T12.jsonl:7 and r_B1_T4.jsonl:7 differ: operation 2 ("Embedding.apply/%0")'s path is "tok_emb" at B = 1, T = 4 but "emb" at B = 1, T = 12` + why},
		{"reads", `r_B1_T12.jsonl:9 and r_B1_T4.jsonl:9 differ: operation 3 ("SelfAttention.apply/%13") reads [4, 3] at B = 1, T = 4 but [4] at B = 1, T = 12` + why},
		{"launch", `r_B1_T12.jsonl:9 and r_B1_T4.jsonl:9 differ: operation 3 ("SelfAttention.apply/%13") launches work at B = 1, T = 4 but nothing at B = 1, T = 12` + why},
		{"fold", `r_B1_T12.jsonl:13 and r_B1_T4.jsonl:13 differ: record 13 is buffer 8 "o" at B = 1, T = 4 but operation "SelfAttention.apply/%21" at B = 1, T = 12` + why},
		{"rank", `r_B1_T12.jsonl:8 and r_B1_T4.jsonl:8 differ: buffer 5's shape has rank 3 at B = 1, T = 4 but 2 at B = 1, T = 12` + whyDecl},
		{"dtype", `r_B1_T12.jsonl:8 and r_B1_T4.jsonl:8 differ: buffer 5's type is f64 at B = 1, T = 4 but f32 at B = 1, T = 12` + whyDecl},
		{"name", `r_B1_T12.jsonl:8 and r_B1_T4.jsonl:8 differ: buffer 5's name is "scores" at B = 1, T = 4 but "logits" at B = 1, T = 12` + whyDecl},
		{"bytes", `r_B1_T12.jsonl:8 and r_B1_T4.jsonl:8 differ: buffer 5's size is given by a shape at B = 1, T = 4 but given in bytes at B = 1, T = 12; a buffer's size must be written one way at every point, by a shape or in bytes, its values alone differing`},
		{"role", `r_B1_T12.jsonl:4 and r_B1_T4.jsonl:4 differ: buffer 3's role is temp at B = 1, T = 4 but input at B = 1, T = 12` + whyDecl},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			_, err := Build(fileSources(t, attention(tt.variant)), nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestBuildRefusesDifferentHeaders changes the header of one recording.
func TestBuildRefusesDifferentHeaders(t *testing.T) {
	tests := []struct {
		name   string
		change func(h *record.Header)
		want   string
	}{
		{"entry", func(h *record.Header) { h.Entry = "Other.apply" }, `the entry is "Test.apply" at B = 1, T = 4 but "Other.apply" at B = 2, T = 8`},
		{"realization", func(h *record.Header) { h.Realization = "f32" }, `the realization is "f64" at B = 1, T = 4 but "f32" at B = 2, T = 8`},
		{"consts", func(h *record.Header) { h.Consts = []record.Const{{Name: "D", Value: "8"}} }, `the constants are D = 4 at B = 1, T = 4 but D = 8 at B = 2, T = 8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srcs := gridSources(t, attnVars, attnGrid, attention(""))
			rec := recordAt(t, attnVars, []int64{2, 8}, attention(""))
			tt.change(&rec.Header)
			srcs[4] = source("odd.jsonl", rec)
			_, err := Build(srcs, nil)
			want := "odd.jsonl:1 and B = 1, T = 4:1 differ: " + tt.want + "; " + whyHeader
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}

// TestBuildRefusesBadGrids forms grids that are not three values of each
// dimension, one recording per point.
func TestBuildRefusesBadGrids(t *testing.T) {
	prog := attention("")
	all := func(t *testing.T) []Source { return gridSources(t, attnVars, attnGrid, prog) }
	tests := []struct {
		name   string
		grid   func(t *testing.T) []Source
		checks func(t *testing.T) []Source
		want   string
	}{
		{"none", func(*testing.T) []Source { return nil }, nil,
			"no recordings: expected 3^k of them, three values of each of the k dimensions"},
		{"two values", func(t *testing.T) []Source {
			return gridSources(t, attnVars, [][3]int64{{1, 2, 3}, {4, 8, 8}}, prog)
		}, nil, "dimension T takes 2 values on the grid (4, 8): expected exactly three, as a polynomial of degree 2 in it needs"},
		{"four values", func(t *testing.T) []Source {
			return append(all(t), pointSource(t, attnVars, []int64{1, 16}, prog))
		}, nil, "dimension T takes 4 values on the grid (4, 8, 12, 16): expected exactly three, as a polynomial of degree 2 in it needs"},
		{"missing", func(t *testing.T) []Source {
			s := all(t)
			return append(s[:5], s[6:]...)
		}, nil, "no recording at B = 2, T = 12: the grid B ∈ {1, 2, 3}, T ∈ {4, 8, 12} has 3^2 points, one recording each"},
		{"duplicate", func(t *testing.T) []Source {
			s := all(t)
			s[7].Name = "again.jsonl"
			return append(s, pointSource(t, attnVars, []int64{3, 8}, prog))
		}, nil, "again.jsonl and B = 3, T = 8 are both at B = 3, T = 8: the grid has one recording per point"},
		{"one file twice", func(t *testing.T) []Source {
			s := all(t)
			return append(s, s[4])
		}, nil, "B = 2, T = 8 is given twice: the grid has one recording per point"},
		{"one value", func(t *testing.T) []Source {
			s := all(t)
			return []Source{s[0], s[0], s[0]}
		}, nil, "dimension B takes 1 value on the grid (1): expected exactly three, as a polynomial of degree 2 in it needs"},
		{"dims", func(t *testing.T) []Source {
			s := all(t)
			s[3] = source("bs.jsonl", recordAt(t, []string{"B", "S"}, []int64{2, 4}, func(r *record.Recorder, at map[string]int64) {
				r.Result()
			}))
			return s
		}, nil, "bs.jsonl:1: the dimensions are B, S but B = 1, T = 4's are B, T: the recordings of a grid have the same dimensions"},
		{"check on grid", all, func(t *testing.T) []Source {
			return []Source{pointSource(t, attnVars, []int64{5, 8}, prog)}
		}, "B = 5, T = 8:1: the check point B = 5, T = 8 has T = 8, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value"},
		{"check dims", all, func(t *testing.T) []Source {
			return []Source{pointSource(t, []string{"B"}, []int64{5}, func(r *record.Recorder, _ map[string]int64) { r.Result() })}
		}, "B = 5:1: the check point's dimensions are B but the grid's are B, T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var checks []Source
			if tt.checks != nil {
				checks = tt.checks(t)
			}
			_, err := Build(tt.grid(t), checks)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestBuildCatchesCubic records a buffer of T³ elements: interpolation
// cannot see it on the grid, and the check point must.
func TestBuildCatchesCubic(t *testing.T) {
	prog := func(r *record.Recorder, at map[string]int64) {
		b, tt := at["B"], at["T"]
		x := r.Input("x", "", f64, b, tt)
		c := r.Temp("cube", "", f64, b, tt, tt, tt)
		r.Op("Cube.apply/%3", "blocks[0].cube", []int64{x}, []int64{c})
		r.Result(c)
	}
	check := pointSource(t, attnVars, attnCheck, prog)
	_, err := Build(gridSources(t, attnVars, attnGrid, prog), []Source{check})
	want := `B = 5, T = 7:3: buffer 2 "cube", made by operation 1 ("Cube.apply/%3" in blocks[0].cube), has 13720 bytes at B = 5, T = 7 but its polynomial 192 · B · T² − 1408 · B · T + 3072 · B gives 13120: its bytes are not a polynomial of degree ≤ 2 in each dimension`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// Without a check point, nothing sees it.
	if _, err := Build(gridSources(t, attnVars, attnGrid, prog), nil); err != nil {
		t.Errorf("without a check point: %v", err)
	}
}

// TestBuildCatchesCubicInOne is TestBuildCatchesCubic in T alone: the
// refusal names the one dimension rather than each.
func TestBuildCatchesCubicInOne(t *testing.T) {
	prog := func(r *record.Recorder, at map[string]int64) {
		tt := at["T"]
		c := r.Temp("cube", "", f64, tt, tt, tt)
		r.Op("Cube.apply/%1", "", nil, []int64{c})
		r.Result(c)
	}
	vars := []string{"T"}
	check := pointSource(t, vars, []int64{7}, prog)
	_, err := Build(gridSources(t, vars, [][3]int64{{2, 3, 4}}, prog), []Source{check})
	want := `T = 7:2: buffer 1 "cube", made by operation 1 ("Cube.apply/%1", the entry's own), has 2744 bytes at T = 7 but its polynomial 72 · T² − 208 · T + 192 gives 2264: its bytes are not a polynomial of degree ≤ 2 in T`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// stepPhases records a step of two operations in B: f, then its
// vector-Jacobian product. At B = odd, f is in the backward phase
// instead of the forward.
func stepPhases(odd int64) func(b int64) *record.Recording {
	return func(b int64) *record.Recording {
		r := record.NewStepRecorder("Test.step", []record.Dim{{Name: "B", Value: b}}, nil, "f64")
		w := r.Param("w", "", f64, 4)
		x := r.Temp("x", "", f64, b, 4)
		r.SetPhase(record.Forward)
		if b == odd {
			r.SetPhase(record.Backward)
		}
		r.Op("f", "", []int64{w}, []int64{x})
		g := r.Temp("g", "", f64, 4)
		r.SetPhase(record.Backward)
		r.Op("f (vjp)", "", []int64{x, w}, []int64{g})
		r.Result(g)
		rec, err := r.Finish()
		if err != nil {
			panic(err)
		}
		return rec
	}
}

// TestBuildRefusesDifferentPhases: an operation in another phase at one
// point, of the grid or a check point, is refused, as a step's phases
// are read from the first point's recording; whether the recordings are
// read by comparison or record by record.
func TestBuildRefusesDifferentPhases(t *testing.T) {
	for _, odd := range []int64{3, 5} {
		rec := stepPhases(odd)
		var grid []textFile
		for _, b := range []int64{1, 2, 3} {
			grid = append(grid, textOf(t, rec(b)))
		}
		checks := []textFile{textOf(t, rec(5))}
		want := fmt.Sprintf(`B = %d:4 and B = 1:4 differ: operation 1 ("f") is in the forward phase at B = 1 but the backward phase at B = %d; `+whyPhase, odd, odd)
		for _, hidden := range []bool{false, true} {
			_, err := Build(scanned(grid, hidden), scanned(checks, hidden))
			if err == nil || err.Error() != want {
				t.Errorf("B = %d in the backward phase, hidden %v:\ngot  %v\nwant %s", odd, hidden, err, want)
			}
		}
	}
}

// TestNoDimensionsRefusals: a program without dimensions is read from one
// recording; a check recording that differs is refused saying so, with no
// empty point and no talk of polynomials or of dimensions to make
// constants.
func TestNoDimensionsRefusals(t *testing.T) {
	prog := func(size int64, label string) program {
		return func(r *record.Recorder, _ map[string]int64) {
			x := r.Input("x", "", f64, 4)
			y := r.Temp("y", "", f64, size)
			r.Op(label, "", []int64{x}, []int64{y})
			r.Result(y)
		}
	}
	grid := []Source{source("grid", recordAt(t, nil, nil, prog(2, "F.apply")))}
	for _, c := range []struct {
		check program
		want  string
	}{
		{prog(3, "F.apply"), "has 24 bytes at its one point but its polynomial 16 gives 16: a program without dimensions has the same bytes in every recording of it"},
		{prog(2, "G.apply"), `operation 1 is "F.apply" at its one point but "G.apply" at its one point; a program without dimensions records the same operations every time`},
	} {
		_, err := Build(grid, []Source{source("check", recordAt(t, nil, nil, c.check))})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got  %v\nwant it to hold %s", err, c.want)
		}
	}
}
