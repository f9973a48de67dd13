package model

import (
	"context"
	"fmt"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

var remats = []programs.Remat{programs.Store, programs.Recompute}

// bruteStep finds a step's peak the slow way, from the rules alone: at
// each operation, every parameter and state, each input whose last reading
// phase is not before the operation's, and every temp whose life spans the
// operation. It returns the peak, its first operation and its live temps'
// bytes.
func bruteStep(rec *record.Recording) (peak poly.Rat, at int, live poly.Rat, held poly.Rat) {
	lives := count.Lifetimes(rec)
	last := map[int64]record.Phase{}
	for _, op := range rec.Ops.All() {
		for _, ids := range [][]int64{op.Reads, op.Writes} {
			for _, id := range ids {
				base := rec.Base(id).ID
				last[base] = max(last[base], op.Phase)
			}
		}
	}
	for n := range rec.Ops.Len() {
		op := n + 1
		var h, l poly.Rat
		for i := range rec.Buffers.Len() {
			b := rec.Buffers.At(i)
			switch {
			case b.IsView:
			case b.Role == record.Param || b.Role == record.State:
				h = h.Add(b.Bytes)
			case b.Role == record.Input:
				if max(last[b.ID], record.Forward) >= rec.Ops.Phase(n) {
					h = h.Add(b.Bytes)
				}
			case lives[i].Live(op):
				l = l.Add(b.Bytes)
			}
		}
		if at == 0 || h.Add(l).Cmp(peak) > 0 {
			peak, at, live, held = h.Add(l), op, l, h
		}
	}
	return
}

// TestStepM2 is statement M2: on every bundled program that has a step,
// stored and recomputed, the step's peak's terms sum to it exactly, and
// the peak is the one a count from the rules alone finds.
func TestStepM2(t *testing.T) {
	for _, p := range programs.All() {
		if p.StepRefusal() != "" {
			continue
		}
		for _, r := range remats {
			name := fmt.Sprintf("%s, %s", p.Name, r)
			pt, err := RecordStepAt(p, nil, nil, programs.StepOptions{Remat: r})
			if err != nil {
				t.Fatal(err)
			}
			s := pt.Count
			peak, at, live, held := bruteStep(pt.Rec)
			pk := s.Peak.Terms
			if !pk.Sum().Equal(peak) || s.Peak.Op != at {
				t.Errorf("%s: the step's peak is %s at operation %d; from the rules, %s at %d", name, pk.Sum(), s.Peak.Op, peak, at)
			}
			if got := pk.Params.Add(pk.States).Add(pk.Batch); !got.Equal(held) {
				t.Errorf("%s: the loop holds %s at the peak; from the rules, %s", name, got, held)
			}
			if got := pk.Gradient.Add(pk.Kept).Add(pk.Own); !got.Equal(live) {
				t.Errorf("%s: the gradient, the kept and the phase's own sum to %s at the peak; from the rules, %s live", name, got, live)
			}
			if !pk.Params.Equal(s.Params) || !pk.States.Equal(s.States) || pk.Gradient.Cmp(s.Gradient) > 0 || pk.Kept.Cmp(s.Kept) > 0 {
				t.Errorf("%s: the peak's terms %+v exceed the step's", name, pk)
			}
		}
	}
}

// TestStepSymbolic checks each symbolic step against a fresh recording at
// a point off its grid: every phase's peak, its operation and its terms,
// for the bundled programs memsym models symbolically.
func TestStepSymbolic(t *testing.T) {
	for _, ss := range symbolicSteps(t) {
		name, src, st := ss.name, ss.src, ss.st
		at := record.Point{}
		for i, v := range st.Vars {
			at = append(at, record.Dim{Name: v, Value: st.Grid[i][2] + 2*int64(i) + 3})
		}
		c := recordedStep(t, src, at)
		for i, ph := range st.Phases {
			for k, cand := range ph.Cands {
				if k < len(ph.Terms) && !ph.Terms[k].Sum().Equal(ph.Cands[ph.Front.Kept[k]].Poly) {
					t.Errorf("%s: the %s phase's candidate at operation %d: its terms sum to %s, not %s", name, ph.Phase, cand.Op, ph.Terms[k].Sum(), ph.Cands[ph.Front.Kept[k]].Poly)
				}
			}
			bytes, op, terms, err := ph.PeakAt(at)
			if err != nil {
				t.Fatal(err)
			}
			want := c.Phases[i]
			if !bytes.Equal(want.Terms.Sum()) || op != want.Op || !sameTerms(terms, want.Terms) {
				t.Errorf("%s at %s: the %s phase's peak from the polynomials is %s at operation %d (%+v); recorded, %s at %d (%+v)",
					name, at, ph.Phase, bytes, op, terms, want.Terms.Sum(), want.Op, want.Terms)
			}
		}
		checkTotals(t, name, st, c, at)
	}
}

// countsBlocks reports whether a dimension of p counts its blocks: its
// step repeats the block in the forward pass and again in the backward, and
// its optimizer's one update reads every parameter, so no model of one
// block repeated covers it.
func countsBlocks(p *programs.Program) bool {
	for _, d := range p.Dims {
		if d.Blocks {
			return true
		}
	}
	return false
}

func sameTerms(a, b count.Terms) bool {
	return a.Params.Equal(b.Params) && a.States.Equal(b.States) && a.Batch.Equal(b.Batch) &&
		a.Gradient.Equal(b.Gradient) && a.Kept.Equal(b.Kept) && a.Own.Equal(b.Own)
}

// TestStepOfOneCall refuses to model a step from recordings of one call.
func TestStepOfOneCall(t *testing.T) {
	p, _ := programs.Lookup("mlp-width")
	m, err := Build(context.Background(), &source.Program{P: p}, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StepOf(m); err != count.ErrNoPhases {
		t.Errorf("StepOf on one call: %v, want count.ErrNoPhases", err)
	}
}

// TestStepCrossover checks where, along T, what the course GPT's forward
// keeps outweighs AdamW's states, against recordings on both sides.
func TestStepCrossover(t *testing.T) {
	p, _ := programs.Lookup("gpt-course")
	course := map[string]int64{"D": 384, "H": 6, "L": 6}
	sp, _ := p.Step(programs.StepOptions{})
	st, err := BuildStep(context.Background(), &source.Program{P: sp, Consts: course}, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.Crossover(st.Kept, st.States, "T", map[string]int64{"B": 16})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Segments) != 2 || c.Segments[0].Holder != 1 || c.Segments[1].Holder != 0 {
		t.Fatalf("segments %+v: want the states first, then the kept activations", c.Segments)
	}
	x := c.Segments[1].From
	for _, T := range []int64{x - 1, x} {
		pt, err := RecordStepAt(p, map[string]int64{"B": 16, "T": T}, course, programs.StepOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if more := pt.Count.Kept.Cmp(pt.Count.States) > 0; more != (T == x) {
			t.Errorf("at T = %d the kept activations are %s and the states %s: the crossover is not at T = %d", T, pt.Count.Kept, pt.Count.States, x)
		}
	}
	t.Logf("the kept activations outweigh AdamW's states from T = %d at B = 16", x)
}

// BenchmarkSymbolicStepLlama models the Llama 2 7B block's training step
// symbolically: recording the grid and the check points, interpolating,
// pruning every phase's candidates.
func BenchmarkSymbolicStepLlama(b *testing.B) {
	p, _ := programs.Lookup("llama2-7b-block")
	for _, r := range remats {
		b.Run(r.String(), func(b *testing.B) {
			sp, err := p.Step(programs.StepOptions{Remat: r})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if _, err := BuildStep(context.Background(), &source.Program{P: sp}, source.Spec{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
