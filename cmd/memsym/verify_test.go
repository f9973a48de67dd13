package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsym/model"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// TestVerifyAll runs the M3 checks on every bundled program: no failure,
// three points checked on each program memsym models, and the programs it
// must refuse listed as refused; go test -update rewrites the golden.
func TestVerifyAll(t *testing.T) {
	out := mustRunCLI(t, "verify", "--all")
	golden(t, "verify/all.txt", []byte(out))

	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
		name, rest, _ := strings.Cut(line, " ")
		rows[name] = append(rows[name], strings.TrimSpace(rest))
	}
	checked, refused := 0, 0
	for _, p := range programs.All() {
		r := rows[p.Name]
		if p.Refusal != "" {
			refused++
			if len(r) != 1 || !strings.Contains(r[0], "refused as expected: ") {
				t.Errorf("%s, which memsym must refuse: %q", p.Name, r)
				continue
			}
			// Refused at the grid, or at the check point the refusal names.
			at, why, _ := strings.Cut(r[0], "refused as expected: ")
			if at = strings.TrimSpace(at); at != "(grid)" {
				point, ok := strings.CutSuffix(at, " (check point)")
				if !ok || !strings.Contains(why, " at "+point+" ") {
					t.Errorf("%s refused at %q: %s", p.Name, at, why)
				}
			}
			continue
		}
		if len(r) != 3 {
			t.Errorf("%s: %d rows, want 3 points: %q", p.Name, len(r), r)
		}
		for _, row := range r {
			checked++
			if !strings.HasSuffix(row, "  ok") {
				t.Errorf("%s: %s", p.Name, row)
			}
		}
	}
	want := fmt.Sprintf("%d programs: %d points checked, %d refused as expected, 0 failed\n", len(programs.All()), checked, refused)
	if !strings.HasSuffix(out, "\n"+want) {
		t.Errorf("the summary is not %q:\n%s", want, out)
	}
	if refused != 1 {
		t.Errorf("%d programs must be refused, want strided-conv", refused)
	}
}

// TestVerifyCatches: verify fails, exit 1, naming the point and what is
// wrong, when the recordings off the grid are not the model's program. The
// fake recorder's off-grid files are the course GPT at D = 64 while its grid
// is at D = 384.
func TestVerifyCatches(t *testing.T) {
	dir := t.TempDir()
	grid := [][3]int64{{16, 32, 48}, {256, 512, 768}}
	recordGrid(t, dir, grid[0][:], grid[1][:])
	for _, p := range defaultChecks(t, grid, []string{"B", "T"}) {
		recordGrid(t, dir, []int64{p[0].Value}, []int64{p[1].Value})
	}
	var points [][2]int64
	for _, p := range source.OffGrid(grid, []string{"B", "T"}, 2, 1, nil) {
		points = append(points, [2]int64{p[0].Value, p[1].Value})
		mustRunCLI(t, "record", "--program", "gpt-course", "--dim", fmt.Sprintf("B=%d", p[0].Value), "--dim", fmt.Sprintf("T=%d", p[1].Value),
			"-o", filepath.Join(dir, fmt.Sprintf("b%d-t%d.jsonl", p[0].Value, p[1].Value)))
	}
	t.Setenv("TMPDIR", t.TempDir())
	out, errs, code := runCLI("verify", "--recorder", fakeRecorder(t, dir), "--grid", "B=16,32,48", "--grid", "T=256,512,768", "--points", "2")
	if code != 1 || errs != "memsym: verify: 2 failures\n" {
		t.Errorf("exit %d, stderr %q; want exit 1 and 2 failures", code, errs)
	}
	for _, p := range points {
		at := fmt.Sprintf("B = %d, T = %d", p[0], p[1])
		if !strings.Contains(out, "recorder  "+at) || !strings.Contains(out, fmt.Sprintf("FAILED: recorder(B=%d,T=%d):", p[0], p[1])) {
			t.Errorf("the failure at %s is not shown:\n%s", at, out)
		}
	}
	if !strings.HasSuffix(out, "1 program: 2 points checked, 0 refused as expected, 2 failed\n") {
		t.Errorf("the summary:\n%s", out)
	}
	noLeftovers(t)
}

// noLeftovers fails if recording left a directory in os.TempDir.
func noLeftovers(t *testing.T) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(os.TempDir(), "memsym-recordings-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("left behind in %s: %v %v", os.TempDir(), left, err)
	}
}

// TestVerifyRefusalFollowsConstants: strided-conv is refused at its
// default stride, where its output length is not a polynomial in N, and
// modelled and checked at S = 1, where it is N − K + 1; with the refusal
// expected whatever the constants, the run at S = 1 fails.
func TestVerifyRefusalFollowsConstants(t *testing.T) {
	out := mustRunCLI(t, "verify", "--program", "strided-conv", "--const", "S=1")
	if !strings.HasSuffix(out, "1 program: 3 points checked, 0 refused as expected, 0 failed\n") || strings.Contains(out, "FAILED") {
		t.Errorf("strided-conv at S = 1:\n%s", out)
	}
	for _, s := range []string{"S=2", "S=3"} {
		out := mustRunCLI(t, "verify", "--program", "strided-conv", "--const", s)
		if !strings.HasSuffix(out, "1 program: 0 points checked, 1 refused as expected, 0 failed\n") {
			t.Errorf("strided-conv at %s:\n%s", s, out)
		}
	}
}

// defaultChecks is source.DefaultChecks's two points for a test's grid.
func defaultChecks(t *testing.T, grid [][3]int64, vars []string) []record.Point {
	t.Helper()
	points, err := source.DefaultChecks(grid, vars, 2)
	if err != nil {
		t.Fatal(err)
	}
	return points
}

// A program with a limit is checked where it runs: bert-encoder at P = 200
// takes T ≤ 200, and verify and explain's M3 runs check it there, not at
// T = 300, which they used to record, fail to, and blame the model for.
func TestVerifyWithinTheProgramsLimits(t *testing.T) {
	out := mustRunCLI(t, "verify", "--program", "bert-encoder", "--const", "P=200", "--points", "6")
	if !strings.HasSuffix(out, "1 program: 6 points checked, 0 refused as expected, 0 failed\n") {
		t.Errorf("verify:\n%s", out)
	}
	dir := t.TempDir()
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--const", "P=200", "--format", "md", "-o", filepath.Join(dir, "ex"))

	// Where it runs on the grid's values alone (T ≤ 3 on T ∈ {1, 2, 3}),
	// nothing is checked, and that is no pass (before: "0 points checked",
	// exit 0; the chapter said M3 "was not asked for").
	out, _, code := runCLI("verify", "--program", "bert-encoder", "--const", "P=3", "--grid", "T=1,2,3")
	if code != 1 || !strings.Contains(out, "FAILED: no point off the grid was found where the program runs, so none was checked") {
		t.Errorf("verify with no point to check: exit %d:\n%s", code, out)
	}
	ex := filepath.Join(dir, "ex3")
	mustRunCLI(t, "explain", "--program", "bert-encoder", "--const", "P=3", "--grid", "T=1,2,3", "--at", "B=2,T=3", "--format", "md", "-o", ex)
	md, err := os.ReadFile(filepath.Join(ex, "chapter13.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "was not run: no point off the grid was found where the program runs; a grid with room beside it (--grid) gives some.") {
		t.Errorf("the chapter does not say why M3 checked nothing:\n%s", md)
	}
}

// bert-encoder on T ∈ {510, 511, 512} runs at no T past the grid (T ≤ P =
// 512), but at every T below it: verify checks it there (it used to look
// one grid step below the grid only, find nothing, and fail). Where it
// runs at no value off the grid, verify says which values it tried, and
// its summary that none of the points asked for was checked.
func TestVerifySearchesBelowTheGrid(t *testing.T) {
	out := mustRunCLI(t, "verify", "--program", "bert-encoder", "--grid", "T=510,511,512")
	if !strings.HasSuffix(out, "1 program: 3 points checked, 0 refused as expected, 0 failed\n") {
		t.Errorf("verify on T ∈ {510, 511, 512}:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:4] {
		var b, tt int64
		if _, err := fmt.Sscanf(line, "bert-encoder  B = %d, T = %d  ok", &b, &tt); err != nil || tt >= 510 {
			t.Errorf("not a point below the grid's T, where bert-encoder runs: %q (%v)", line, err)
		}
	}

	out, _, code := runCLI("verify", "--program", "bert-encoder", "--const", "P=3", "--grid", "T=1,2,3")
	want := "bert-encoder  (grid)  FAILED: no point off the grid was found where the program runs, so none was checked: it runs at none of T = 4 to 192 (T = 4 is more than P = 3); give a grid with room beside it (--grid)\n" +
		"1 program: 0 of the 3 points asked for checked, 0 refused as expected, 1 failed\n"
	if code != 1 || !strings.HasSuffix(out, "\n"+want) {
		t.Errorf("exit %d:\n%s\nwant the lines:\n%s", code, out, want)
	}
}

// strided-conv is listed as a program memsym must refuse, its reason
// written for its default grid and stride. At S = 20 on N ∈ {3, 4, 5} its
// output length is 1 on the grid and at the check points, and memsym
// models it: verify fails, saying so of this run (it used to quote the
// listing's reason as if it were this grid's, and check no point), and
// still checks fresh points, whose results it counts.
func TestVerifyModelledButListedAsRefused(t *testing.T) {
	args := []string{"verify", "--program", "strided-conv", "--const", "S=20", "--grid", "N=3,4,5"}
	out, errs, code := runCLI(args...)
	want := `FAILED: modelled, but memsym must refuse it: memsym programs lists strided-conv as refused, with the reason, written for its default grid B ∈ {1, 2, 3}, N ∈ {8, 10, 12} and its default constants: "the strided convolution's output length ⌊(N − K)/S⌋ + 1 is not a polynomial in N when S > 1: at S = 2 it is N/2 − 1 on the even grid N ∈ {8, 10, 12} but 7, not 6.5, at N = 15"; on this grid, B ∈ {1, 2, 3}, N ∈ {3, 4, 5}, the model was built and its check points (` +
		checkPointsOf(t, "strided-conv", map[string]int64{"S": 20}, source.GridDim{Name: "N", Values: [3]int64{3, 4, 5}}) +
		`) did not contradict it; nor does any of the 3 fresh points checked`
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	cells, result, _ := strings.Cut(lines[1], "FAILED: ")
	if code != 1 || errs != "memsym: verify: 1 failure\n" || strings.Join(strings.Fields(cells), " ") != "strided-conv (grid)" || "FAILED: "+result != want {
		t.Errorf("exit %d, stderr %q:\n%s\nwant the row strided-conv, (grid):\n%s", code, errs, out, want)
	}
	for _, row := range lines[2:5] {
		if !strings.HasPrefix(row, "strided-conv  B = ") || !strings.HasSuffix(row, "  ok") {
			t.Errorf("not a fresh point checked: %q", row)
		}
	}
	if !strings.HasSuffix(out, "\n1 program: 3 points checked, 0 refused as expected, 1 failed\n") {
		t.Errorf("the summary:\n%s", out)
	}
}

// checkPointsOf writes the check points memsym models a bundled program at
// on the grid given, as verify does: "B = 5, N = 15; B = 11, N = 15".
func checkPointsOf(t *testing.T, name string, consts map[string]int64, grid ...source.GridDim) string {
	t.Helper()
	src, err := source.NewProgram(name, consts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(context.Background(), src, source.Spec{Grid: grid})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, p := range m.CheckPoints() {
		parts = append(parts, p.String())
	}
	return strings.Join(parts, "; ")
}

// A recorder that fails off bert-encoder's grid B ∈ {2, 4, 6},
// T ∈ {64, 128, 192}: verify labels the failure with the check point it
// happened at, not "(grid)", and, as it is one of memsym's own, says how
// to avoid it. verify takes --check, as symbolic does: a check point given
// is recorded besides the defaults, and its failure labelled too; where it
// records, verify checks the model there and at the fresh points.
func TestVerifyCheckPoints(t *testing.T) {
	dir := t.TempDir()
	vars := []string{"B", "T"}
	grid := [][3]int64{{2, 4, 6}, {64, 128, 192}}
	rec := func(points ...record.Point) {
		for _, p := range points {
			b, _ := p.Value("B")
			tt, _ := p.Value("T")
			// P as large as the fresh point far past the grid asks for.
			mustRunCLI(t, "record", "--program", "bert-encoder", "--const", "P=16384", "--dim", p.Key(), "-o", filepath.Join(dir, fmt.Sprintf("b%d-t%d.jsonl", b, tt)))
		}
	}
	plan := source.Plan{Vars: vars, Values: grid}
	rec(plan.Points()...)
	script := filepath.Join(dir, "rec.sh")
	if err := os.WriteFile(script, []byte(`[ -f "$1/b$2-t$3.jsonl" ] || { echo "boom at T=$3" >&2; exit 3; }; exec cat "$1/b$2-t$3.jsonl"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	args := []string{"verify", "--recorder", fmt.Sprintf("sh '%s' '%s' {B} {T}", script, dir), "--grid", "B=2,4,6", "--grid", "T=64,128,192"}

	defaults := defaultChecks(t, grid, vars)
	c := defaults[0].String()
	out, errs, code := runCLI(args...)
	want := "program   point" + strings.Repeat(" ", len(c)+len(" (check point)")-len("point")+2) + "result\n" +
		"recorder  " + c + " (check point)  FAILED: the recorder at the check point memsym chose, " + c + ", failed (exit status 3); its standard error ends: boom at T=" + fmt.Sprint(defaults[0][1].Value) +
		"; to check elsewhere, give --no-default-checks with --check points the recorder can record, or smaller --grid values, whose check points are smaller\n" +
		"1 program: 0 points checked, 0 refused as expected, 1 failed\n"
	if code != 1 || errs != "memsym: verify: 1 failure\n" || out != want {
		t.Errorf("exit %d, stderr %q:\n%s\nwant:\n%s", code, errs, out, want)
	}

	rec(defaults...)
	check := record.Point{{Name: "B", Value: 5}, {Name: "T", Value: 100}}
	args = append(args, "--check", "B=5,T=100")
	out, _, code = runCLI(args...)
	want = "recorder  B = 5, T = 100 (check point)  FAILED: the recorder at B = 5, T = 100 failed (exit status 3); its standard error ends: boom at T=100\n" +
		"1 program: 0 points checked, 0 refused as expected, 1 failed\n"
	if code != 1 || !strings.HasSuffix(out, "\n"+want) {
		t.Errorf("exit %d:\n%s\nwant the lines:\n%s", code, out, want)
	}
	// The JSON says the check point too.
	out, _, code = runCLI(append(args, "--json")...)
	var got model.VerifyJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || len(got.Programs) != 1 {
		t.Fatalf("verify --json: exit %d, %v:\n%s", code, err, out)
	}
	if at := got.Programs[0].At; !record.Point(at).Equal(check) || !strings.HasPrefix(got.Programs[0].Failed, "the recorder at "+check.String()+" failed") {
		t.Errorf("verify --json: at %v, failed %q; want at %v", at, got.Programs[0].Failed, check)
	}

	rec(check)
	rec(source.OffGrid(grid, vars, 3, 1, nil, append(defaults, check)...)...)
	out = mustRunCLI(t, args...)
	if !strings.HasSuffix(out, "1 program: 3 points checked, 0 refused as expected, 0 failed\n") || strings.Contains(out, "FAILED") {
		t.Errorf("verify with --check B=5,T=100 recorded:\n%s", out)
	}
	noLeftovers(t)

	if _, errs, code := runCLI("verify", "--all", "--check", "B=5,T=100"); code != 2 || errs != "memsym: --const, --grid and --check go with one --program, not with --all\n" {
		t.Errorf("verify --all --check: exit %d, stderr %q", code, errs)
	}
}

// lateRecorder writes a recorder, as sh, of a program whose one buffer has
// 8 · T bytes up to T = 40 and 1000 more past it: a polynomial on any grid
// below 40, and wrong far past it.
func lateRecorder(t *testing.T) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "late.sh")
	body := `T=$1; extra=0; [ "$T" -gt 40 ] && extra=1000
printf '{"memsym":1,"entry":"Late","dims":{"T":%d}}\n{"buffer":1,"bytes":%d,"name":"ws"}\n{"op":"a","writes":[1]}\n{"result":[1]}\n' "$T" $((8*T+extra))
`
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("sh '%s' {T}", script)
}

// Bytes that change well past the grid are caught with the default 3
// points: one of them is far past it (T from 25 to 64 · 12 = 768 on
// T ∈ {4, 8, 12}). Before, every fresh point was at most 2 · 12 + 2, and
// verify passed a model wrong at every T > 40, even with --points 40, of
// which it found and checked 20 and said only "20 points checked".
func TestVerifyCatchesFarPastTheGrid(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	rec := []string{"verify", "--recorder", lateRecorder(t), "--grid", "T=4,8,12"}
	out, errs, code := runCLI(rec...)
	var far []int64
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:4] {
		var x int64
		if _, err := fmt.Sscanf(line, "recorder  T = %d", &x); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if x > 40 {
			far = append(far, x)
			if x > 768 || !strings.Contains(line, "FAILED: recorder(T=") || !strings.Contains(line, "its bytes are not a polynomial") {
				t.Errorf("T = %d, past T = 40 and at most 768, is not the failure: %q", x, line)
			}
		}
	}
	if code != 1 || errs != "memsym: verify: 1 failure\n" || len(far) != 1 || !strings.HasSuffix(out, "\n1 program: 3 points checked, 0 refused as expected, 1 failed\n") {
		t.Errorf("exit %d, stderr %q, points past 40 %v:\n%s", code, errs, far, out)
	}

	// As many points as asked for, within 768, all distinct, most of
	// those past the grid failing.
	out, _, code = runCLI(append(rec, "--points", "40", "--json")...)
	var got model.VerifyJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || len(got.Programs) != 1 {
		t.Fatalf("verify --json: exit %d, %v:\n%s", code, err, out)
	}
	r := got.Programs[0]
	if len(r.Points) != 40 || got.Checked != 40 || got.Asked != 40 || r.Asked != 40 || r.Fewer != "" {
		t.Errorf("%d points, checked %d, asked %d (%d), fewer %q; want 40 and none fewer", len(r.Points), got.Checked, got.Asked, r.Asked, r.Fewer)
	}
	seen := map[int64]bool{}
	for _, p := range r.Points {
		x := p.Point[0].Value
		if seen[x] || x < 1 || x > 768 || x == 4 || x == 8 || x == 12 || p.OK != (x <= 40) {
			t.Errorf("T = %d: ok %v, repeated %v", x, p.OK, seen[x])
		}
		seen[x] = true
	}
}

// Where fewer points than asked for are found, verify says so, under the
// table, in its summary and in the JSON: mlp-train-step on B ∈ {1, 2, 3}
// runs at the 189 values of B from 4 to 192 = 64 · 3, two of them its
// check points. Before, it said only "N points checked".
func TestVerifyFewerPoints(t *testing.T) {
	args := []string{"verify", "--program", "mlp-train-step", "--grid", "B=1,2,3", "--points", "200"}
	out := mustRunCLI(t, args...)
	want := "mlp-train-step: 187 of the 200 points asked for were found off the grid where the program runs: no more were found searching B = 1 to 192, off the grid in every coordinate, where the program runs, and not at the 2 check points already checked\n" +
		"1 program: 187 of the 200 points asked for checked, 0 refused as expected, 0 failed\n"
	if !strings.HasSuffix(out, "  ok\n"+want) || strings.Count(out, "  ok\n") != 187 {
		t.Errorf("verify --points 200:\n%s\nwant it to end:\n%s", out, want)
	}
	var got model.VerifyJSON
	if err := json.Unmarshal([]byte(mustRunCLI(t, append(args, "--json")...)), &got); err != nil || len(got.Programs) != 1 {
		t.Fatalf("verify --json: %v", err)
	}
	r := got.Programs[0]
	line, _, _ := strings.Cut(want, "\n")
	if got.Checked != 187 || got.Asked != 200 || r.Asked != 200 || len(r.Points) != 187 || "mlp-train-step: "+r.Fewer != line {
		t.Errorf("checked %d of %d (%d), %d points, fewer %q", got.Checked, got.Asked, r.Asked, len(r.Points), r.Fewer)
	}

	// As many as asked for: no word of fewer, and asked in the JSON.
	got = model.VerifyJSON{}
	if err := json.Unmarshal([]byte(mustRunCLI(t, "verify", "--program", "mlp-train-step", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if r := got.Programs[0]; got.Asked != 3 || r.Asked != 3 || r.Fewer != "" || len(r.Points) != 3 {
		t.Errorf("asked %d (%d), fewer %q, %d points", got.Asked, r.Asked, r.Fewer, len(r.Points))
	}
}

// A fresh point whose recorder fails is a failure, said apart from a model
// that does not hold: not recorded, so not checked, in the text and in the
// JSON.
func TestVerifyUnrecorded(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	recorder := `if [ {B} -gt 20 ]; then echo "no device for B={B}" >&2; exit 3; fi; ` +
		`printf '{{"memsym": 1, "dims": {{"B": %s}}}}\n{{"buffer": 1, "dtype": "f32", "shape": [%s], "role": "input"}}\n{{"buffer": 2, "dtype": "f32", "shape": [%s]}}\n{{"op": "F.apply", "reads": [1], "writes": [2]}}\n{{"result": [2]}}\n' {B} {B} {B}`
	args := []string{"verify", "--recorder", recorder, "--grid", "B=1,2,3", "--points", "10"}
	out, _, code := runCLI(append(args, "--json")...)
	var got model.VerifyJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || len(got.Programs) != 1 {
		t.Fatalf("verify --json: exit %d, %v:\n%s", code, err, out)
	}
	unrecorded, checked := 0, 0
	for _, p := range got.Programs[0].Points {
		b, _ := record.Point(p.Point).Value("B")
		switch {
		case b > 20:
			unrecorded++
			if !p.Unrecorded || p.OK || !strings.Contains(p.Error, "no device for B=") {
				t.Errorf("at B = %d: %+v, want it unrecorded", b, p)
			}
		case p.Unrecorded || !p.OK:
			t.Errorf("at B = %d: %+v, want it checked and ok", b, p)
		default:
			checked++
		}
	}
	if unrecorded == 0 || got.Unrecorded != unrecorded || got.Failed != unrecorded || got.Checked != checked {
		t.Errorf("totals %+v; want %d unrecorded and failed, %d checked", got, unrecorded, checked)
	}
	text, _, _ := runCLI(args...)
	if !strings.Contains(text, "FAILED, not recorded: the recorder at B = ") ||
		!strings.Contains(text, fmt.Sprintf("%d failed (%d of them not recorded, so not checked)\n", unrecorded, unrecorded)) {
		t.Errorf("verify's text:\n%s", text)
	}
}
