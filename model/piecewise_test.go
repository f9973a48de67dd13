package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"memsym/dominance"
	"memsym/record"
	"memsym/source"
)

// TestPiecewiseAgreesWithPeak: at every point of the line, the piece's
// holder is the candidate live at the model's peak operation, and the
// piece's polynomials give the peak and the needs.
func TestPiecewiseAgreesWithPeak(t *testing.T) {
	m, _ := mustGPT(t)
	for _, fixed := range []map[string]int64{nil, {"B": 8}, {"B": 1}} {
		pw, err := m.Piecewise("T", fixed)
		if err != nil {
			t.Fatal(err)
		}
		b := fixed["B"]
		if b == 0 {
			b = 3 // free: any value holds
		}
		for x := int64(1); x <= 400; x++ {
			p := record.Point{{Name: "B", Value: b}, {Name: "T", Value: x}}
			tm, err := m.Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			piece := pieceAt(pw, x)
			if piece.Holder != tm.Holder {
				t.Fatalf("B = %d, T = %d: piece holder %d, peak holder %d", b, x, piece.Holder, tm.Holder)
			}
			at := p.Map()
			peak, _ := piece.Peak.EvalInt(at)
			needs, _ := piece.Needs.EvalInt(at)
			if !peak.Equal(tm.Peak) || !needs.Equal(tm.Needs) {
				t.Fatalf("B = %d, T = %d: piece gives %s, %s; eval %s, %s", b, x, peak, needs, tm.Peak, tm.Needs)
			}
		}
	}
	pw, err := m.Piecewise("T", map[string]int64{"B": 8})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pw.Pieces {
		got = append(got, fmt.Sprintf("%d-%d:op%d %s", p.From, p.To, m.Cands[p.Holder].Op, p.Peak))
	}
	if want := "1-149:op19 8 · T² + 221184 · T|150-0:op12 1160 · T² + 49152 · T"; strings.Join(got, "|") != want {
		t.Errorf("pieces\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

func pieceAt(pw *Piecewise, x int64) Piece {
	for _, p := range pw.Pieces {
		if x >= p.From && (p.To == 0 || x <= p.To) {
			return p
		}
	}
	panic("no piece")
}

// TestPiecewiseTie: a pruned candidate that ties the largest at an
// earlier operation holds the peak there, as the recording says.
func TestPiecewiseTie(t *testing.T) {
	m, err := Build(context.Background(), tieSets(), source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	pw, err := m.Piecewise("T", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pw.Pieces {
		got = append(got, fmt.Sprintf("%d-%d:op%d", p.From, p.To, m.Cands[p.Holder].Op))
	}
	if want := "1-4:op3 5-5:op1 6-0:op2"; strings.Join(got, " ") != want {
		t.Errorf("pieces %s, want %s", strings.Join(got, " "), want)
	}
	// Neither kept candidate is covered: each is alone the largest somewhere.
	for _, c := range m.Coverage() {
		if c.Verdict != dominance.Refuted {
			t.Errorf("operation %d: %v, want refuted", m.Cands[c.Cand].Op, c.Verdict)
		}
	}
}

// TestCoverageCourseGPT: at D = 384 the attention's scores (operation 10)
// are kept, no one candidate dominating them, but never hold the peak
// alone: they are below the probabilities for T ≥ 64 and below the
// feed-forward for T ≤ 320. The other two hold it alone somewhere.
func TestCoverageCourseGPT(t *testing.T) {
	m, _ := mustGPT(t)
	var got []string
	for _, c := range m.Coverage() {
		s := fmt.Sprintf("op%d:%v", m.Cands[c.Cand].Op, c.Verdict)
		if c.Verdict == dominance.Proven {
			var by []string
			for _, k := range c.By {
				by = append(by, fmt.Sprint(m.Cands[k].Op))
			}
			s += fmt.Sprintf(" along %s by %s", c.Along, strings.Join(by, ","))
		}
		if c.Verdict == dominance.Refuted {
			// The witness is a point where it alone is the largest.
			at := c.Witness.Map()
			mine, _ := m.Cands[c.Cand].Poly.EvalInt(at)
			for _, k := range m.Front.Kept {
				v, _ := m.Cands[k].Poly.EvalInt(at)
				if k != c.Cand && v.Cmp(mine) >= 0 {
					t.Errorf("op %d's witness %s: operation %d has %s ≥ %s", m.Cands[c.Cand].Op, c.Witness, m.Cands[k].Op, v, mine)
				}
			}
		}
		got = append(got, s)
	}
	if want := "op10:proven along T by 12,19|op12:refuted|op19:refuted"; strings.Join(got, "|") != want {
		t.Errorf("coverage %s, want %s", strings.Join(got, "|"), want)
	}
	// The claim checked by brute force on a box of points.
	scores := m.Front.Kept[0]
	for b := int64(1); b <= 6; b++ {
		for x := int64(1); x <= 700; x++ {
			at := map[string]int64{"B": b, "T": x}
			mine, _ := m.Cands[scores].Poly.EvalInt(at)
			covered := false
			for _, k := range m.Front.Kept[1:] {
				if v, _ := m.Cands[k].Poly.EvalInt(at); v.Cmp(mine) >= 0 {
					covered = true
				}
			}
			if !covered {
				t.Fatalf("B = %d, T = %d: operation 10 alone is the largest", b, x)
			}
		}
	}
}

func TestPiecewiseRefusals(t *testing.T) {
	m, _ := mustGPT(t)
	if _, err := m.Piecewise("L", nil); err == nil || err.Error() != "no dimension L (the dimensions are B, T)" {
		t.Errorf("along L: %v", err)
	}
	if _, err := m.Piecewise("T", map[string]int64{"X": 1}); err == nil || !strings.Contains(err.Error(), "no dimension X") {
		t.Errorf("at X: %v", err)
	}
	// Along B the holder depends on T.
	_, err := m.Piecewise("B", nil)
	var dep *dominance.DependsError
	if !errors.As(err, &dep) || strings.Join(dep.Vars, ",") != "T" {
		t.Errorf("along B, T free: %v", err)
	}
}

// TestCoverageLlama: in the Llama block the projection's live set
// (operation 7) is at most a weighted mean of the scores' (operation 10)
// and the SwiGLU's (operation 19), and the scores' of the mask's
// (operation 11) and the SwiGLU's, which each hold the peak alone
// somewhere.
func TestCoverageLlama(t *testing.T) {
	src, err := source.NewProgram("llama2-7b-block", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(context.Background(), src, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range m.Coverage() {
		s := fmt.Sprintf("op%d:%v", m.Cands[c.Cand].Op, c.Verdict)
		for i, k := range c.By {
			s += fmt.Sprintf(" %s·op%d", c.Weights[i], m.Cands[k].Op)
		}
		got = append(got, s)
		if c.Verdict != dominance.Proven {
			continue
		}
		// Brute force on a box: never alone the largest.
		for b := int64(1); b <= 4; b++ {
			for x := int64(1); x <= 2000; x += 7 {
				at := map[string]int64{"B": b, "T": x}
				mine, _ := m.Cands[c.Cand].Poly.EvalInt(at)
				top := mine.Sub(mine)
				for _, k := range c.By {
					if v, _ := m.Cands[k].Poly.EvalInt(at); v.Cmp(top) > 0 {
						top = v
					}
				}
				if mine.Cmp(top) > 0 {
					t.Fatalf("op %d at B = %d, T = %d exceeds its cover", m.Cands[c.Cand].Op, b, x)
				}
			}
		}
	}
	want := "op7:proven 1/2·op10 1/2·op19|op10:proven 2/3·op11 1/3·op19|op11:refuted|op19:refuted"
	if strings.Join(got, "|") != want {
		t.Errorf("coverage\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
