package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// expectProgram is what verify expects of a bundled program at consts.
func expectProgram(t *testing.T, name string, consts map[string]int64) VerifyExpectation {
	t.Helper()
	p, err := programs.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return VerifyExpectation{Name: name, Program: p, Consts: consts}
}

// newProgram opens a bundled program's source.
func newProgram(t *testing.T, name string, consts map[string]int64) source.Source {
	t.Helper()
	src, err := source.NewProgram(name, consts)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// checkPointsText writes m's check points as verify's sentence does:
// "N = 7, B = 5; …".
func checkPointsText(m *Model) string {
	var parts []string
	for _, p := range m.CheckPoints() {
		parts = append(parts, p.String())
	}
	return strings.Join(parts, "; ")
}

// A program verified as it should be: its fresh points off the grid, each
// checked and agreeing, and nothing failed, refused or fewer.
func TestVerifyProgramPasses(t *testing.T) {
	src := newProgram(t, "mlp-train-step", nil)
	r, err := VerifyProgram(context.Background(), src, source.Spec{}, nil, expectProgram(t, "mlp-train-step", nil), 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Program != "mlp-train-step" || r.Failed != "" || r.Refused != "" || r.Fewer != "" || r.At != nil || r.Asked != 2 || len(r.Points) != 2 {
		t.Fatalf("%+v; want 2 points checked and nothing else", r)
	}
	m, _ := buildProgram(t, "mlp-train-step", nil)
	want, _ := m.FreshPoints(src, 2, 1)
	for i, p := range r.Points {
		if !p.OK || p.Unrecorded || p.Error != "" || !record.Point(p.Point).Equal(want[i]) {
			t.Errorf("point %d: %+v; want %s, ok", i, p, want[i])
		}
	}
}

// A recorder that fails off its grid B ∈ {1, 2, 3} fails at the first of
// memsym's own check points, which the result is at, and says how to
// avoid it; at a check point given (--check), it says no more than the
// recorder's words.
func TestVerifyProgramFailsAtChosenCheckPoint(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmd, err := source.ParseCommand(`if [ {B} -gt 3 ]; then echo "boom at B={B}" >&2; exit 3; fi; ` +
		`printf '{{"memsym": 1, "dims": {{"B": %s}}}}\n{{"buffer": 1, "dtype": "f32", "shape": [%s], "role": "input"}}\n{{"buffer": 2, "dtype": "f32", "shape": [%s]}}\n{{"op": "F.apply", "reads": [1], "writes": [2]}}\n{{"result": [2]}}\n' {B} {B} {B}`)
	if err != nil {
		t.Fatal(err)
	}
	grid := source.GridDim{Name: "B", Values: [3]int64{1, 2, 3}}
	chosen, err := source.DefaultChecks([][3]int64{grid.Values}, []string{"B"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := chosen[0]
	if given, _ := chosen[1].Value("B"); given == 17 {
		t.Fatalf("B = 17 is one of memsym's check points %v", chosen)
	}
	b, _ := c.Value("B")
	want := VerifyExpectation{Name: "recorder"}
	verify := func(spec source.Spec) *VerifyProgramJSON {
		t.Helper()
		src := &source.Recorder{Cmd: cmd, Jobs: 1}
		defer src.Close()
		r, err := VerifyProgram(context.Background(), src, spec, nil, want, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Program != "recorder" || r.Refused != "" || len(r.Points) != 0 || r.Points == nil || r.Asked != 0 || r.Fewer != "" {
			t.Errorf("%+v; want no point asked for or checked", r)
		}
		return r
	}

	r := verify(source.Spec{Grid: []source.GridDim{grid}})
	failed := fmt.Sprintf("the recorder at the check point memsym chose, %s, failed (exit status 3); its standard error ends: boom at B=%d; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller", c, b)
	if !record.Point(r.At).Equal(c) || r.Failed != failed {
		t.Errorf("at %v, failed:\n%s\nwant at %s:\n%s", r.At, r.Failed, c, failed)
	}

	// Given its own check points, so that only the one given fails.
	given := record.Point{{Name: "B", Value: 17}}
	cmd, err = source.ParseCommand(strings.Replace(cmd.Template, "-gt 3 ]", "-eq 17 ]", 1))
	if err != nil {
		t.Fatal(err)
	}
	r = verify(source.Spec{Grid: []source.GridDim{grid}, Checks: []record.Point{given}})
	if failed := "the recorder at B = 17 failed (exit status 3); its standard error ends: boom at B=17"; !record.Point(r.At).Equal(given) || r.Failed != failed {
		t.Errorf("at %v, failed:\n%s\nwant at %s:\n%s", r.At, r.Failed, given, failed)
	}
}

// strided-conv at its default stride is refused, as memsym programs lists
// it: the refusal is expected, no failure, at the check point it happened
// at, and no point is asked for.
func TestVerifyProgramRefusedAsExpected(t *testing.T) {
	src := newProgram(t, "strided-conv", nil)
	_, buildErr := Build(context.Background(), src, source.Spec{})
	if buildErr == nil {
		t.Fatal("strided-conv at its default stride was modelled")
	}
	r, err := VerifyProgram(context.Background(), src, source.Spec{}, nil, expectProgram(t, "strided-conv", nil), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	refused := strings.ReplaceAll(buildErr.Error(), "\n", " ")
	if r.Program != "strided-conv" || r.Refused != refused || strings.Contains(r.Refused, "\n") || r.Failed != "" || len(r.Points) != 0 || r.Asked != 0 || r.Fewer != "" {
		t.Errorf("%+v; want it refused as expected: %q", r, refused)
	}
	// Refused at a check point, where the output length N/2 − 1 on the
	// even grid is not N = 15's.
	c, atCheck := FailedCheck(src, source.Spec{}, buildErr)
	if !atCheck || !record.Point(r.At).Equal(c.Point) || !strings.HasPrefix(r.Refused, "strided-conv("+c.Point.Key()+")") || !strings.Contains(r.Refused, "its bytes are not a polynomial") {
		t.Errorf("at %v, refused %q; want it refused at the check point %v (%v)", r.At, r.Refused, c.Point, atCheck)
	}

	// A source that cannot be opened is refused too when the refusal is
	// expected, and fails when it is not, its words on one line.
	openErr := errors.New("cannot open\nthe source")
	r, err = VerifyProgram(context.Background(), nil, source.Spec{}, openErr, expectProgram(t, "strided-conv", nil), 3, 1)
	if err != nil || r.Refused != "cannot open the source" || r.Failed != "" || r.At != nil {
		t.Errorf("%+v, %v; want it refused as expected", r, err)
	}
	r, err = VerifyProgram(context.Background(), nil, source.Spec{}, openErr, expectProgram(t, "strided-conv", map[string]int64{"S": 1}), 3, 1)
	if err != nil || r.Failed != "cannot open the source" || r.Refused != "" {
		t.Errorf("at S = 1: %+v, %v; want it failed", r, err)
	}

	// A mistake in what was asked is no result: it is returned.
	r, err = VerifyProgram(context.Background(), src, source.Spec{Grid: []source.GridDim{{Name: "Q", Values: [3]int64{1, 2, 3}}}}, nil, expectProgram(t, "strided-conv", nil), 3, 1)
	var u *source.UsageError
	if r != nil || !errors.As(err, &u) || !strings.HasPrefix(err.Error(), "--grid Q: no dimension Q") {
		t.Errorf("%+v, %v; want the usage error", r, err)
	}
}

// strided-conv is listed as a program memsym must refuse, its reason
// written for its default grid and stride. At S = 20 on N ∈ {3, 4, 5} its
// output length is 1 on the grid and at the check points, and memsym
// models it: verify fails, saying what this run showed, and still checks
// the fresh points.
func TestVerifyProgramModelledButListedAsRefused(t *testing.T) {
	consts := map[string]int64{"S": 20}
	grid := source.GridDim{Name: "N", Values: [3]int64{3, 4, 5}}
	src := newProgram(t, "strided-conv", consts)
	r, err := VerifyProgram(context.Background(), src, source.Spec{Grid: []source.GridDim{grid}}, nil, expectProgram(t, "strided-conv", consts), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := buildProgram(t, "strided-conv", consts, grid)
	if got := m.GridString(); got != "B ∈ {1, 2, 3}, N ∈ {3, 4, 5}" {
		t.Errorf("the grid %q", got)
	}
	failed := `modelled, but memsym must refuse it: memsym programs lists strided-conv as refused, with the reason, written for its default grid B ∈ {1, 2, 3}, N ∈ {8, 10, 12} and its default constants: "the strided convolution's output length ⌊(N − K)/S⌋ + 1 is not a polynomial in N when S > 1: at S = 2 it is N/2 − 1 on the even grid N ∈ {8, 10, 12} but 7, not 6.5, at N = 15"; on this grid, B ∈ {1, 2, 3}, N ∈ {3, 4, 5}, the model was built and its check points (` +
		checkPointsText(m) + `) did not contradict it; nor does any of the 3 fresh points checked`
	if r.Failed != failed || r.Refused != "" || r.At != nil || r.Asked != 3 || r.Fewer != "" || len(r.Points) != 3 {
		t.Fatalf("%+v; want 3 points checked and failed:\n%s", r, failed)
	}
	if len(m.CheckPoints()) == 0 {
		t.Error("no check point")
	}
	for _, p := range r.Points {
		if !p.OK || p.Error != "" || len(p.Point) != 2 {
			t.Errorf("a fresh point: %+v", p)
		}
	}
}

// The sentence ends with what the fresh points show, and speaks of the
// default constants only where others were given.
func TestModelledRefusedWords(t *testing.T) {
	m, _ := buildProgram(t, "strided-conv", map[string]int64{"S": 20}, source.GridDim{Name: "N", Values: [3]int64{3, 4, 5}})
	want := expectProgram(t, "strided-conv", nil)
	ok, wrong := Check{}, Check{Err: errors.New("mismatch")}
	for _, c := range []struct {
		checks []Check
		want   string
	}{
		{nil, "; no fresh point was found to check: WHY"},
		{[]Check{ok}, "; nor does the fresh point checked"},
		{[]Check{wrong}, "; the fresh point checked does"},
		{[]Check{ok, ok, ok}, "; nor does any of the 3 fresh points checked"},
		{[]Check{ok, wrong, ok}, "; 1 of the 3 fresh points checked does"},
		{[]Check{wrong, wrong, ok}, "; 2 of the 3 fresh points checked do"},
	} {
		got := m.modelledRefused(want, c.checks, "WHY")
		if !strings.HasSuffix(got, " did not contradict it"+c.want) || strings.Contains(got, "default constants") {
			t.Errorf("%d checks: %q, want it to end %q", len(c.checks), got, c.want)
		}
	}
	want.Consts = map[string]int64{"S": 20}
	if got := m.modelledRefused(want, nil, "WHY"); !strings.Contains(got, "N ∈ {8, 10, 12} and its default constants: \"") {
		t.Errorf("with constants given: %q", got)
	}
}

// Where the program runs at no point off the grid (bert-encoder at P = 3
// takes T ≤ 3, the grid's values), nothing is checked, and that is a
// failure saying what was searched, not a pass.
func TestVerifyProgramNoPointOffTheGrid(t *testing.T) {
	consts := map[string]int64{"P": 3}
	src := newProgram(t, "bert-encoder", consts)
	r, err := VerifyProgram(context.Background(), src, source.Spec{Grid: []source.GridDim{{Name: "T", Values: [3]int64{1, 2, 3}}}}, nil, expectProgram(t, "bert-encoder", consts), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	why := "it runs at none of T = 4 to 192 (T = 4 is more than P = 3)"
	failed := "no point off the grid was found where the program runs, so none was checked: " + why + "; give a grid with room beside it (--grid)"
	fewer := "0 of the 3 points asked for were found off the grid where the program runs: " + why
	if r.Failed != failed || r.Fewer != fewer || r.Asked != 3 || r.Points == nil || len(r.Points) != 0 || r.Refused != "" || r.At != nil {
		t.Errorf("%+v; want failed %q, fewer %q", r, failed, fewer)
	}
}

// A recorder whose source is not opened fails under its name, with no
// point asked for.
func TestVerifyProgramNotOpened(t *testing.T) {
	r, err := VerifyProgram(context.Background(), nil, source.Spec{}, errors.New("no such recorder"), VerifyExpectation{Name: "recorder"}, 3, 1)
	if err != nil || r.Program != "recorder" || r.Failed != "no such recorder" || r.Refused != "" || r.Asked != 0 || r.Points == nil {
		t.Errorf("%+v, %v", r, err)
	}
}
