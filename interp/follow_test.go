package interp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"memsym/record"
)

// Reading by comparison (follow.go) must give what reading record by
// record gives: the same model, or the same error, whatever the
// recordings hold. These tests build each grid twice, from the recordings'
// text read by Scanners, which can follow, and from the same text behind a
// stream that cannot, which reads it the usual way.

// textFile is one recording's text and name.
type textFile struct {
	name string
	text []byte
}

// textOf writes rec as text.
func textOf(t testing.TB, rec *record.Recording) textFile {
	t.Helper()
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return textFile{record.Point(rec.Header.Dims).String(), b.Bytes()}
}

// scanned serves files through Scanners; hidden, through streams that
// cannot keep or follow lines.
func scanned(files []textFile, hidden bool) []Source {
	var out []Source
	for _, f := range files {
		out = append(out, Source{Name: f.name, Open: func() (record.Stream, error) {
			s := record.NewScanner(bytes.NewReader(f.text), f.name)
			if hidden {
				return struct{ record.Stream }{s}, nil
			}
			return s, nil
		}})
	}
	return out
}

// describeModel writes everything Build found.
func describeModel(m *Model, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "vars %v grid %v checked %v den %v\n", m.Vars, m.Grid, m.Checked, m.Denominator())
	fmt.Fprintf(&b, "params %v inputs %v outputs %v\n", m.Params, m.Inputs, m.Outputs)
	for i := range m.Structure.Buffers.Len() {
		fmt.Fprintf(&b, "buffer %d: %v\n", i, m.Bytes(i))
	}
	for _, c := range m.Candidates {
		fmt.Fprintf(&b, "candidate %v at %d\n", c.Poly, c.Op)
	}
	fmt.Fprintf(&b, "live at %v\n", m.LiveAt)
	return b.String()
}

// programFiles records p as text on a random grid and at one or two check
// points off it.
func programFiles(t testing.TB, p *randProgram, r *rand.Rand) (grid, checks []textFile) {
	k := len(p.vars)
	values := make([][]int64, k)
	for j := range values {
		values[j] = distinctValues(r, smallValues, 3, nil)
	}
	point := make([]int64, k)
	var walk func(j int)
	walk = func(j int) {
		if j == k {
			rec, err := p.record(point)
			if err != nil {
				t.Fatal(err)
			}
			grid = append(grid, textOf(t, rec))
			return
		}
		for _, v := range values[j] {
			point[j] = v
			walk(j + 1)
		}
	}
	walk(0)
	for range 1 + r.IntN(2) {
		x := make([]int64, k)
		for j := range x {
			x[j] = distinctValues(r, smallValues, 1, values[j])[0]
		}
		rec, err := p.record(x)
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, textOf(t, rec))
	}
	return grid, checks
}

// bothWays builds the grid both ways and compares; it returns whether the
// grid was read by comparison.
func bothWays(t *testing.T, grid, checks []textFile) bool {
	t.Helper()
	m, err := Build(scanned(grid, false), scanned(checks, false))
	got := describeModel(m, err)
	want := describeModel(Build(scanned(grid, true), scanned(checks, true)))
	if got != want {
		t.Fatalf("by comparison:\n%s\nrecord by record:\n%s", got, want)
	}
	return err == nil && m.b.followed
}

func TestFollowingAgreesOnRandomPrograms(t *testing.T) {
	followed := 0
	for seed := range uint64(150) {
		p := generate(seed, smallPrograms)
		grid, checks := programFiles(t, p, rand.New(rand.NewPCG(seed, 5)))
		if bothWays(t, grid, checks) {
			followed++
		}
	}
	if followed < 140 {
		t.Errorf("%d of 150 grids were read by comparison: expected nearly all", followed)
	}
}

// edit changes a recording's text: a number, a line dropped, doubled or
// blank, spaces, a byte.
func edit(r *rand.Rand, text []byte) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	i := r.IntN(len(lines))
	line := append([]byte(nil), lines[i]...)
	switch r.IntN(6) {
	case 0: // a number changed
		var at []int
		for j, c := range line {
			if c >= '0' && c <= '9' {
				at = append(at, j)
			}
		}
		if len(at) > 0 {
			line[at[r.IntN(len(at))]] = byte('0' + r.IntN(10))
		}
	case 1:
		line = nil
	case 2:
		line = append(line, line...)
	case 3:
		line = append([]byte("\n"), line...)
	case 4:
		line = bytes.Replace(line, []byte(", "), []byte(",  "), 1)
	case 5:
		if len(line) > 0 {
			line[r.IntN(len(line))] = "x\"{}[],: 9-"[r.IntN(11)]
		}
	}
	lines[i] = line
	return bytes.Join(lines, nil)
}

// TestFollowingAgreesOnEdits edits one of a grid's recordings.
func TestFollowingAgreesOnEdits(t *testing.T) {
	agreesOnEdits(t, 9, func(r *rand.Rand, n int) []int { return []int{r.IntN(n)} })
}

// TestFollowingAgreesOnEditsInSeveralFiles edits two or three of a grid's
// recordings at once: where some grid points follow point 0's recording to
// its end and others stop, only those that stop are walked again, and the
// difference said must be the one reading every point record by record
// finds first, in the order of the points.
func TestFollowingAgreesOnEditsInSeveralFiles(t *testing.T) {
	agreesOnEdits(t, 11, func(r *rand.Rand, n int) []int { return r.Perm(n)[:2+r.IntN(2)] })
}

// agreesOnEdits builds 300 random grids both ways, the recordings that
// which picks among the grid's and the check points' each edited once.
func agreesOnEdits(t *testing.T, stream uint64, which func(r *rand.Rand, n int) []int) {
	t.Helper()
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, stream))
		p := generate(seed%40, smallPrograms)
		grid, checks := programFiles(t, p, r)
		all := append(append([]textFile(nil), grid...), checks...)
		for _, i := range which(r, len(all)) {
			all[i].text = edit(r, all[i].text)
		}
		bothWays(t, all[:len(grid)], all[len(grid):])
	}
}

// TestFollowingSaysTheFirstPointsDifference makes the grid point after
// point 0 differ in its header alone, which it follows to its end, and
// the last grid point differ in an operation's label, where it stops: the
// difference said is the first point's, as reading every point record by
// record says.
func TestFollowingSaysTheFirstPointsDifference(t *testing.T) {
	p := generate(3, smallPrograms)
	grid, checks := programFiles(t, p, rand.New(rand.NewPCG(3, 5)))
	g, err := formGrid(scanned(grid, false))
	if err != nil {
		t.Fatal(err)
	}
	first, last := &grid[g.order[1]], &grid[g.order[len(g.order)-1]]
	before := first.text
	first.text = bytes.Replace(first.text, []byte(`"entry": "`), []byte(`"entry": "Other`), 1)
	lines := bytes.SplitAfter(last.text, []byte("\n"))
	relabelled := false
	for i := len(lines) / 2; i < len(lines) && !relabelled; i++ {
		if bytes.HasPrefix(lines[i], []byte(`{"op": "`)) {
			lines[i] = bytes.Replace(lines[i], []byte(`{"op": "`), []byte(`{"op": "Other`), 1)
			relabelled = true
		}
	}
	last.text = bytes.Join(lines, nil)
	if bytes.Equal(before, first.text) || !relabelled {
		t.Fatal("the recordings were not edited as the test means")
	}
	bothWays(t, grid, checks)
	_, err = Build(scanned(grid, false), scanned(checks, false))
	if err == nil || !strings.Contains(err.Error(), first.name) {
		t.Errorf("Build = %v, want the difference of %s", err, first.name)
	}
}
