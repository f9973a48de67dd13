package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memsym/count"
	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

func TestStoredTypeBytes(t *testing.T) {
	for _, c := range []struct {
		t        StoredType
		e        poly.Rat
		recorded poly.Rat
		want     string
	}{
		{Recorded, poly.Int(10), poly.Int(80), "80"},
		{F32, poly.Int(10), poly.Int(80), "40"},
		{BF16, poly.Int(10), poly.Int(80), "20"},
		{F16, poly.Int(3), poly.Int(0), "6"},
		{F8, poly.Int(7), poly.Int(0), "7"},
		{Int8, poly.Int(7), poly.Int(0), "7"},
		{Int4, poly.Int(32), poly.Int(0), "20"},     // 16 + one scale
		{Int4, poly.Int(33), poly.Int(0), "49/2"},   // 33/2 + two scales
		{Int4, poly.Int(1), poly.Int(0), "9/2"},     // 1/2 + one scale
		{Int4, poly.Int(4096), poly.Int(0), "2560"}, // 2048 + 128 scales
		{Int4, poly.Int(0), poly.Int(0), "0"},
	} {
		if got := c.t.Bytes(c.e, c.recorded).String(); got != c.want {
			t.Errorf("%s of %s elements: %s bytes, want %s", c.t, c.e, got, c.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		share, peak poly.Rat
		want        string
	}{
		{poly.Int(147456), poly.Int(149504), "98.6%"},
		{poly.Int(1), poly.Int(1), "100%"},
		{poly.Int(1999), poly.Int(2000), ">99.9%"}, // rounds to 100.0, not all of it
		{poly.Int(1998), poly.Int(2000), "99.9%"},
		{poly.Int(-1), poly.Int(8), "−12.5%"},
		{poly.Int(0), poly.Int(5), "0%"},
		{poly.Int(1), poly.Int(3), "33.3%"},
		{poly.Int(1), poly.Int(8), "12.5%"}, // half up
		{poly.Int(1), poly.Int(2001), "<0.1%"},
		{poly.Int(1), poly.Int(2000), "0.1%"},
		{poly.Frac(3, 2), poly.Int(3), "50.0%"},
		{poly.Int(1), poly.Int(0), "–"},
	} {
		if got := Percent(c.share, c.peak); got != c.want {
			t.Errorf("Percent(%s, %s) = %q, want %q", c.share, c.peak, got, c.want)
		}
	}
}

// The groups' recorded bytes add up to the model's parameters, and each
// part's elements times its type's size are its bytes.
func TestGroupsAddUp(t *testing.T) {
	for _, p := range modelled() {
		pg := newPage(t, p.Name)
		m := pg.m
		for _, at := range append(append([][]int64{}, gridPoints(m)...), m.Checked...) {
			total, _, _, _ := pg.params(recorded(pg), at)
			if want := m.Params.EvalInts(at); !total.Equal(want) {
				t.Errorf("%s at %v: the groups' bytes %s, the model's parameters %s", p.Name, at, total, want)
			}
			for _, g := range pg.groups {
				for _, part := range g.Parts {
					if !part.Typed() {
						continue
					}
					e := part.Elements.EvalInts(at)
					if b := e.Mul(poly.Frac(int64(part.DType.Bits), 8)); !b.Equal(part.Bytes.EvalInts(at)) {
						t.Errorf("%s: group %s: %s elements of %s are not its %s bytes", p.Name, g.Name, e, part.DType, part.Bytes.EvalInts(at))
					}
				}
			}
		}
	}
}

func gridPoints(m *model.Model) [][]int64 {
	var out [][]int64
	for k := range 3 {
		var at []int64
		for _, g := range m.Grid {
			at = append(at, g[k])
		}
		out = append(out, at)
	}
	return out
}

// At a fresh recording, the page's numbers are memsym memory's: the
// parameters by group, the inputs, outputs, peak, its operation, the
// needs and every call's share; and re-typed parameters are the
// recording's elements re-typed buffer by buffer.
func TestAgainstRecording(t *testing.T) {
	for _, p := range modelled() {
		pg := newPage(t, p.Name)
		_, src := buildModel(t, p.Name)
		m := pg.m
		points := []record.Point{src.Default()}
		points = append(points, m.CheckPoints()...)
		for _, pt := range points {
			rec, err := src.Record(context.Background(), pt)
			if err != nil {
				t.Fatal(err)
			}
			c := count.At(rec)
			at := pointValues(m, pt)
			n, err := pg.At(Assignment{At: at, Types: recorded(pg), Budget: poly.Int(1 << 40)})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s at %s", p.Name, pt)
			for _, x := range []struct {
				what      string
				got, want poly.Rat
			}{
				{"parameters", n.Params, c.Params}, {"elements", n.ParamElements, poly.FromBigInt(c.ParamElements)},
				{"inputs", n.Inputs, c.Inputs}, {"outputs", n.Outputs, c.Outputs},
				{"peak", n.Peak, c.Peak}, {"needs", n.Needs, c.Needs},
			} {
				if !x.got.Equal(x.want) {
					t.Errorf("%s: %s %s, recorded %s", name, x.what, x.got, x.want)
				}
			}
			if n.PeakOp != c.PeakOp {
				t.Errorf("%s: peak at operation %d, recorded at %d", name, n.PeakOp, c.PeakOp)
			}
			calls := pg.Calls()
			if len(calls) != len(c.Calls) {
				t.Fatalf("%s: %d calls, memsym memory has %d", name, len(calls), len(c.Calls))
			}
			for k, call := range c.Calls {
				if calls[k].Path != call.Path || calls[k].Iterations != call.Iterations || calls[k].Depth != call.Depth || calls[k].Ops != call.Ops {
					t.Errorf("%s: call %d is %+v, memsym memory's %+v", name, k, calls[k], call)
				}
				if !n.Shares[k].Equal(call.Share) {
					t.Errorf("%s: call %q's share %s, recorded %s", name, call.Path, n.Shares[k], call.Share)
				}
			}
			checkRetyped(t, name, pg, rec, at)
		}
	}
}

// checkRetyped re-types the recording's parameters buffer by buffer from
// their shapes and compares with the page's groups.
func checkRetyped(t *testing.T, name string, pg *Page, rec *record.Recording, at []int64) {
	for _, st := range StoredTypes {
		want := make([]poly.Rat, len(pg.groups))
		index := map[string]int{}
		for i, g := range pg.groups {
			index[g.Name] = i
		}
		for i := range rec.Buffers.Len() {
			b := rec.Buffers.At(i)
			if b.IsView || b.Role != record.Param {
				continue
			}
			g, _ := record.SplitPath(b.Group)
			bytes := b.Bytes
			if !b.DType.IsZero() {
				bytes = st.Bytes(poly.FromBigInt(record.Elements(b.Shape)), b.Bytes)
			}
			want[index[g]] = want[index[g]].Add(bytes)
		}
		types := make([]StoredType, len(pg.groups))
		for i := range types {
			types[i] = st
		}
		_, _, got, _ := pg.params(types, at)
		for i := range want {
			if !got[i].Equal(want[i]) {
				t.Errorf("%s: group %s as %s: %s bytes, the recording's shapes give %s", name, pg.groups[i].Title(), st, got[i], want[i])
			}
		}
	}
}

func pointValues(m *model.Model, p record.Point) []int64 {
	at := make([]int64, len(m.Vars))
	for i, v := range m.Vars {
		x, _ := pointValue(p, v)
		at[i] = x
	}
	return at
}

// decodePoly reads the page's notation of a polynomial back.
func decodePoly(t *testing.T, s string, vars []string) poly.Poly {
	parts := strings.Split(s, "|")
	den, ok := new(big.Int).SetString(parts[0], 10)
	if !ok || den.Sign() <= 0 {
		t.Fatalf("%q: bad denominator", s)
	}
	var terms []poly.Term
	for _, p := range parts[1:] {
		xs := strings.Split(p, ",")
		if len(xs) != len(vars)+1 {
			t.Fatalf("%q: a term of %d fields for %d variables", s, len(xs), len(vars))
		}
		c, ok := new(big.Int).SetString(xs[0], 10)
		if !ok {
			t.Fatalf("%q: bad coefficient", s)
		}
		var exp []int
		for _, x := range xs[1:] {
			e, err := strconv.Atoi(x)
			if err != nil {
				t.Fatal(err)
			}
			exp = append(exp, e)
		}
		terms = append(terms, poly.Term{Coef: poly.FromBig(new(big.Rat).SetFrac(c, den)), Exp: exp})
	}
	return poly.New(vars, terms)
}

func TestEncodePoly(t *testing.T) {
	vars := []string{"B", "T"}
	for _, s := range []string{"0", "8*B*T + 3072*T + 85745664", "3/2*T - 1", "48*B*T^2 - 1/6*B + 7/4", "123456789012345678901234567890*B^2*T^2"} {
		p, err := poly.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		p = poly.WithVars(p, vars)
		enc := encodePoly(p, len(vars))
		if got := decodePoly(t, enc, vars); !got.Equal(p) {
			t.Errorf("%s encodes as %q, which reads back as %s", s, enc, got.ASCII())
		}
	}
}

// Every polynomial in the page's data reads back as the model's.
func TestDataPolynomials(t *testing.T) {
	pg := newPage(t, "gpt-course")
	d := pg.data()
	for c, cand := range d.Cands {
		if got := decodePoly(t, d.Polys[cand.Poly], d.Vars); !got.Equal(poly.WithVars(pg.m.Candidates[c].Poly, d.Vars)) {
			t.Errorf("candidate %d reads back as %s, want %s", c, got, pg.m.Candidates[c].Poly)
		}
	}
	in := decodePoly(t, d.Polys[d.Inputs], d.Vars)
	if want := pg.m.Inputs.Sub(pg.m.Params); !in.Equal(poly.WithVars(want, d.Vars)) {
		t.Errorf("the inputs but the parameters read back as %s, want %s", in, want)
	}
}

func TestRenderDeterministic(t *testing.T) {
	pg := newPage(t, "llama2-7b-block")
	var a, b bytes.Buffer
	if err := pg.Render(&a); err != nil {
		t.Fatal(err)
	}
	pg2 := newPage(t, "llama2-7b-block")
	if err := pg2.Render(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings of one model differ")
	}
	for _, bad := range []string{"http://", "https://", "//cdn", "@import", "src=\""} {
		if s := strings.ReplaceAll(a.String(), "http://www.w3.org/2000/svg", ""); strings.Contains(s, bad) {
			t.Errorf("the page holds %q: it must fetch nothing", bad)
		}
	}
}

// A program of 10⁴ operations makes a page of at most 300 KB.
func TestSizeOfALongProgram(t *testing.T) {
	m, _ := buildModelAt(t, "synthetic", map[string]int64{"N": 10000})
	dir := t.TempDir()
	path, err := Write(m, dir, "synthetic", Options{})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations: %d bytes", m.Structure.Ops.Len(), fi.Size())
	if fi.Size() > 300_000 {
		t.Errorf("the page of %d operations is %d bytes, above 300 KB", m.Structure.Ops.Len(), fi.Size())
	}
	pg, _ := New(m, Options{})
	bs := pg.Bands()
	if len(bs) != 1 || bs[0].Label != "cells ×2000" || bs[0].From != 1 || bs[0].To != 10000 {
		t.Errorf("bands %+v, want the one band cells ×2000 over operations 1 to 10000", bs)
	}
}

func TestWriteLeavesNothingHalfWritten(t *testing.T) {
	m, _ := buildModel(t, "llama2-7b-block")
	dir := t.TempDir()
	if _, err := Write(m, dir, "sub/page", Options{}); err == nil {
		t.Error("a name with a directory was accepted")
	}
	if _, err := Write(m, filepath.Join(dir, "missing"), "page", Options{}); err == nil {
		t.Error("a missing directory was accepted")
	}
	path, err := Write(m, dir, "page", Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || filepath.Join(dir, entries[0].Name()) != path {
		t.Errorf("the directory holds %v, want page.html alone", entries)
	}
	if _, err := New(m, Options{At: record.Point{{Name: "B", Value: 1}}}); err == nil {
		t.Error("a first point without T was accepted")
	}
}

func TestBands(t *testing.T) {
	pg := newPage(t, "gpt-course")
	var labels []string
	for _, b := range pg.Bands() {
		labels = append(labels, b.Label)
	}
	if got, want := strings.Join(labels, " "), "tok_emb blocks[0] blocks[1] ln_f head"; got != want {
		t.Errorf("bands %q, want %q", got, want)
	}
}

// The network's boxes nest: each callee's box lies inside its caller's,
// below its header, and siblings do not overlap.
func TestNetworkLayout(t *testing.T) {
	for _, p := range modelled() {
		pg := newPage(t, p.Name)
		net := pg.Network()
		calls := pg.Calls()
		byCall := map[int]Box{}
		for _, b := range net.Boxes {
			byCall[b.Call] = b
		}
		if len(byCall) != len(net.Boxes) {
			t.Errorf("%s: a call has two boxes", p.Name)
		}
		inside := func(in, out Box) bool {
			return in.X >= out.X && in.Y >= out.Y+doc.BoxHead && in.X+in.W <= out.X+out.W && in.Y+in.H <= out.Y+out.H
		}
		for k, c := range calls {
			b, ok := byCall[k]
			if k == 0 && c.Ops == 0 {
				continue
			}
			if !ok {
				t.Errorf("%s: call %q has no box", p.Name, c.Path)
				continue
			}
			parent := byCall[-1]
			if c.Parent >= 0 {
				parent = byCall[c.Parent]
			}
			if !inside(b, parent) {
				t.Errorf("%s: %q's box %+v is not inside its caller's %+v", p.Name, c.Path, b, parent)
			}
		}
		for i, a := range net.Boxes {
			for _, b := range net.Boxes[i+1:] {
				if a.Call < 0 || b.Call < 0 || calls[a.Call].Parent != calls[b.Call].Parent {
					continue
				}
				if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
					t.Errorf("%s: sibling boxes %q and %q overlap", p.Name, a.Title, b.Title)
				}
			}
		}
		if net.W > doc.BoxesMaxW {
			t.Errorf("%s: the network is %d px wide, above %d", p.Name, net.W, doc.BoxesMaxW)
		}
	}
}

// With every group as recorded, Page.At agrees with the model's own
// evaluation (memsym eval) and, where the needs cross a budget, with its
// exact fit (memsym fit): the first value that does not fit.
func TestAgreesWithModelEvalAndFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for _, p := range modelled() {
		pg := newPage(t, p.Name)
		m := pg.m
		for run := range 6 {
			at := make([]int64, len(pg.dims))
			for j, d := range pg.dims {
				at[j] = 1 + rng.Int64N(min(d.Max, 4096))
			}
			terms, err := m.Eval(m.Point(at))
			if err != nil {
				t.Fatal(err)
			}
			budget := terms.Needs // the point just fits
			if run%2 == 1 {
				budget = terms.Needs.Mul(poly.Int(1 + rng.Int64N(8)))
			}
			n, err := pg.At(Assignment{At: at, Types: recorded(pg), Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s at %v", p.Name, at)
			if !n.Params.Equal(terms.Params) || !n.Inputs.Equal(terms.Inputs) || !n.Outputs.Equal(terms.Outputs) ||
				!n.Peak.Equal(terms.Peak) || !n.Needs.Equal(terms.Needs) || n.PeakOp != terms.PeakOp || n.Holder != terms.Holder {
				t.Errorf("%s: the page's numbers %+v, memsym eval's %+v", name, n, terms)
			}
			for j, v := range m.Vars {
				fixed := map[string]int64{}
				for i, w := range m.Vars {
					if i != j {
						fixed[w] = at[i]
					}
				}
				f, err := m.Fit(v, fixed, budget)
				if err != nil {
					t.Fatal(err)
				}
				want := firstOver(f)
				if want > pg.dims[j].Max {
					want = 0
				}
				if n.Over[j] != want {
					t.Errorf("%s, budget %s: over from %s = %d, memsym fit says %d (%+v)", name, budget, v, n.Over[j], want, f)
				}
			}
		}
	}
}

// firstOver returns the least value that does not fit by f, or 0.
func firstOver(f *model.Fit) int64 {
	switch {
	case len(f.Gaps) > 0:
		return f.Gaps[0].From
	case f.Kind == model.FitsNone:
		return 1
	case f.Kind == model.FitsUpTo:
		return f.Largest + 1
	}
	return 0
}

// With --step, the page's step numbers at a point are those of the step
// recorded there afresh, stored and recomputed: every term, each phase's
// peak and its operation, the step's peak and its six terms, which sum to
// it; and the budget's verdict is the peak's against it.
func TestStepsAgainstRecording(t *testing.T) {
	for _, p := range modelled() {
		if !hasStep(p) || testing.Short() && p.Name == "synthetic" {
			continue
		}
		pg := newStepPage(t, p)
		_, src := buildModel(t, p.Name)
		for _, pt := range []record.Point{src.Default(), pg.m.CheckPoints()[0]} {
			at := pointValues(pg.m, pt)
			for k, s := range pg.Steps() {
				var opts programs.StepOptions
				if s.Name == "recompute" {
					opts.Remat = programs.Recompute
				}
				pr, err := model.RecordStepAt(p, pt.Map(), nil, opts)
				if err != nil {
					t.Fatal(err)
				}
				want := pr.Count
				budget := want.Peak.Terms.Sum()
				n, err := pg.At(Assignment{At: at, Types: recorded(pg), Budget: budget})
				if err != nil {
					t.Fatal(err)
				}
				got := n.Steps[k]
				name := fmt.Sprintf("%s at %s, %s", p.Name, pt, s.Name)
				tm := got.Terms
				for _, x := range []struct {
					what      string
					got, want poly.Rat
				}{{"parameters", tm.Params, want.Params}, {"states", tm.States, want.States}, {"gradient", tm.Gradient, want.Gradient},
					{"batch", tm.Batch, want.Batch}, {"kept", tm.Kept, want.Kept}, {"the step's peak", tm.Peak.Bytes, want.Peak.Terms.Sum()},
					{"the step's peak's terms", tm.Peak.Terms.Sum(), want.Peak.Terms.Sum()}} {
					if !x.got.Equal(x.want) {
						t.Errorf("%s: %s %s, recorded %s", name, x.what, x.got, x.want)
					}
				}
				if tm.Peak.Op != want.Peak.Op || tm.Peak.Phase != want.Peak.Phase || len(tm.Phases) != len(want.Phases) {
					t.Errorf("%s: the step's peak at operation %d in the %s phase, recorded %d in the %s", name, tm.Peak.Op, tm.Peak.Phase, want.Peak.Op, want.Peak.Phase)
				}
				for i := range tm.Phases {
					if i < len(want.Phases) && (tm.Phases[i].Op != want.Phases[i].Op || !tm.Phases[i].Bytes.Equal(want.Phases[i].Terms.Sum())) {
						t.Errorf("%s: the %s phase's peak %s at %d, recorded %s at %d", name, tm.Phases[i].Phase, tm.Phases[i].Bytes, tm.Phases[i].Op, want.Phases[i].Terms.Sum(), want.Phases[i].Op)
					}
				}
				if !got.Fits || !got.Margin.IsZero() {
					t.Errorf("%s: a budget of exactly the step's peak: fits %v by %s", name, got.Fits, got.Margin)
				}
			}
		}
	}
}

// A page refuses a step of other dimensions than its model's.
func TestStepOfAnotherProgram(t *testing.T) {
	m, _ := buildModel(t, "mlp-width")
	_, err := New(m, Options{Steps: stepsOf(t, "gpt-course")})
	if err == nil || !strings.Contains(err.Error(), "a page shows one program") {
		t.Errorf("a page of mlp-width with gpt-course's step: %v", err)
	}
}

// The course GPT's page with its step stays small, and is the same at
// every rendering.
func TestStepPageSize(t *testing.T) {
	p, _ := programs.Lookup("gpt-course")
	pg := newStepPage(t, p)
	var a, b bytes.Buffer
	if err := pg.Render(&a); err != nil {
		t.Fatal(err)
	}
	if err := pg.Render(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("two renderings of the page with steps differ")
	}
	if a.Len() > 300<<10 {
		t.Errorf("the course GPT's page with its step is %d bytes, over 300 KB", a.Len())
	}
	t.Logf("the course GPT's page with its step, stored and recomputed: %d bytes", a.Len())
}

// The page's data holds no null, which its script would throw on: every
// list is one, empty where the model has none, as "dims": [] for a model
// without dimensions, whose page draws its one point's figures.
func TestDataHasNoNull(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *model.Model
	}{
		{"no dimensions", modelOfRecordings(t, noDims)},
		{"flat", modelOfRecordings(t, flatRecording(1), flatRecording(2), flatRecording(3))},
		{"gpt-course", newPage(t, "gpt-course").m},
	} {
		pg, err := New(c.m, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, err := json.Marshal(pg.data())
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case nil:
				t.Errorf("%s: the data's %s is null", c.name, path)
			case map[string]any:
				for k, x := range v {
					walk(path+"."+k, x)
				}
			case []any:
				for i, x := range v {
					walk(fmt.Sprintf("%s[%d]", path, i), x)
				}
			}
		}
		walk("data", v)
		if len(c.m.Vars) == 0 && !strings.Contains(string(b), `"dims":[]`) {
			t.Errorf("%s: the data's dims are not []", c.name)
		}
	}
	// Its numbers are the recording's.
	pg, err := New(modelOfRecordings(t, noDims), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := pg.At(Assignment{Types: []StoredType{Recorded, Int4}, Budget: poly.Int(1 << 20)})
	if err != nil {
		t.Fatal(err)
	}
	// 1 048 064 bytes and 1 001 elements in int4: 500.5 bytes and 32 scales.
	if got, want := doc.Group(n.Params, ","), "1,048,692.5"; got != want || n.Peak.String() != "12" || n.Over != nil {
		t.Errorf("parameters %s, peak %s, crossings %v; want %s, 12 and none", got, n.Peak, n.Over, want)
	}
}
