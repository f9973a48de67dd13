package explaintest

import (
	"testing"

	"memsym/poly"
)

func mustParse(t *testing.T, s string) poly.Poly {
	t.Helper()
	p, err := poly.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The fixture must give the numbers the design note gives for gpt-course.
func TestGPTCoursePoint(t *testing.T) {
	pc := GPTCourse().Point
	for _, c := range []struct {
		name      string
		got, want poly.Rat
	}{
		{"params", pc.Params, poly.Int(903168)},
		{"param elements", pc.ParamElements, poly.Int(112896)},
		{"inputs", pc.Inputs, poly.Int(903424)},
		{"peak", pc.Peak, poly.Int(149504)},
		{"outputs", pc.Outputs, poly.Int(23552)},
		{"needs", pc.Needs, poly.Int(1052928)},
	} {
		if !c.got.Equal(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if pc.PeakOp != 19 || pc.PeakLabel != "Linear.apply/%5" || pc.PeakPath != "blocks[0].ff.up" {
		t.Errorf("peak at %d %s in %s, want 19 Linear.apply/%%5 in blocks[0].ff.up", pc.PeakOp, pc.PeakLabel, pc.PeakPath)
	}
	if len(pc.LiveAtPeak) != 4 {
		t.Errorf("%d buffers live at the peak, want 4", len(pc.LiveAtPeak))
	}
	if pc.Placed.Cmp(pc.Peak) < 0 {
		t.Errorf("placed %v is below the peak %v", pc.Placed, pc.Peak)
	}
	shares := poly.Int(0)
	for _, c := range pc.Calls {
		if c.Depth <= 1 {
			shares = shares.Add(c.Share)
		}
		if c.Path == "blocks" && (!c.Share.Equal(poly.Int(147456)) || c.Iterations != 2) {
			t.Errorf("blocks: share %v ×%d, want 147456 ×2", c.Share, c.Iterations)
		}
		if c.Path == "blocks.ff.up" && !c.Share.Equal(poly.Int(131072)) {
			t.Errorf("blocks.ff.up: share %v, want 131072", c.Share)
		}
	}
	if !shares.Equal(pc.Peak) {
		t.Errorf("shares sum to %v, want the peak %v", shares, pc.Peak)
	}
}

func TestGPTCourseSymbolic(t *testing.T) {
	in := GPTCourse()
	sym := in.Symbolic
	if want := mustParse(t, "8*B*T + 3072*T + 85745664"); !sym.Inputs.Equal(want) {
		t.Errorf("inputs %v, want %v", sym.Inputs, want)
	}
	if want := mustParse(t, "736*B*T"); !sym.Outputs.Equal(want) {
		t.Errorf("outputs %v, want %v", sym.Outputs, want)
	}
	for i, want := range []string{"48*B*T^2 + 12288*B*T + 8*T^2", "144*B*T^2 + 6144*B*T + 8*T^2", "27648*B*T + 8*T^2"} {
		if w := mustParse(t, want); !sym.Candidates[i].Poly.Equal(w) {
			t.Errorf("candidate %d: %v, want %v", i+1, sym.Candidates[i].Poly, w)
		}
	}
	for _, v := range in.Verified {
		if !v.OK {
			t.Errorf("check at %v failed: %s", v.Point, v.Detail)
		}
	}
}

// The segments must say which candidate is largest, for several B.
func TestGPTCourseSegments(t *testing.T) {
	sym := GPTCourse().Symbolic
	for b := int64(1); b <= 4; b++ {
		for tt := int64(1); tt <= 400; tt++ {
			holder := -1
			for _, s := range sym.Segments {
				if s.From <= tt && (s.To == 0 || tt <= s.To) {
					holder = s.Holder
				}
			}
			at := map[string]int64{"B": b, "T": tt}
			hv := eval(sym.Candidates[holder].Poly, at)
			for i, c := range sym.Candidates {
				if v := eval(c.Poly, at); v.Cmp(hv) > 0 {
					t.Fatalf("B = %d, T = %d: candidate %d (%v) exceeds the holder %d (%v)", b, tt, i+1, v, holder+1, hv)
				}
			}
		}
	}
}
